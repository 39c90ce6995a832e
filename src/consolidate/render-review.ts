// Layer 2: the review of a day and the night that followed it (`reviews/YYYY-MM-DD.md`): what was
// achieved, decided and learned, what is still open, what was done by hand again and again, and
// the mood of the person's own words. Every line cites the records it was read from.
import type { DigestSource } from '../core/types.js';
import { TASK_RE } from '../judge/lexicon.js';
import type { Item, Rendered } from './contracts.js';
import { citation } from './contracts.js';
import { byTimeThenId, type Cluster, clusterItems, clusterPoint, pickClusters } from './extract.js';
import { mergedSources, sortKnowledge } from './knowledge.js';
import { assemble, type Line, plainLabel, pointLine, type SectionDraft } from './markdown.js';
import { moodOf } from './mood.js';
import { contentTokens, oneLineText, pointText, similarity } from './point-text.js';

/** Most lines of one review section. */
export const REVIEW_SECTION_MAX = 12;
/** Occasions (distinct sessions or hours) a manual action must recur on to be worth automating. */
export const AUTOMATION_MIN_OCCASIONS = 3;
/** Requests this alike (content words) are the same request. */
const SAME_REQUEST = 0.5;
const AUTOMATION_MAX_CITED = 8;
/** A request in words: the judge's task verbs, polite openers, and everyday chores it does not list. */
const REQUEST_RE = new RegExp(`${TASK_RE.source}|^(?:please|pls|can you|could you|would you)\\b|^(?:re-?start|reboot|clear|check|send|re-?run|regenerate|rebuild|sync|pull|push|back ?up|export|import|summari[sz]e|translate|review|rotate|renew|reset)\\b`, 'i');

export interface ReviewInput {
  namespace: string;
  day: string;
  timeZone: string;
  /** The day window and its night. */
  items: readonly Item[];
  /** The seven days before, read only for what repeats. */
  recentItems: readonly Item[];
}

export function reviewPath(day: string): string {
  return `reviews/${day}.md`;
}

/** Picks up to the section cap by worth, then lists them by time. */
function lines(clusters: readonly Cluster[], line: (c: Cluster) => Line): Line[] {
  return pickClusters(clusters, REVIEW_SECTION_MAX)
    .sort((a, b) => byTimeThenId({ time: a.rep.time, id: a.rep.id }, { time: b.rep.time, id: b.rep.id }))
    .map(line);
}

const plain = (c: Cluster): Line => pointLine(clusterPoint(c), c.rep.localTime);

/**
 * The review of `day`, or null when neither the day nor its night holds anything worth a line.
 * Sections (empty ones left out): Achievements, Decisions, Lessons, Open problems, Automation
 * candidates, Mood.
 */
export function renderReview(input: ReviewInput): Rendered | null {
  const clusters = clusterItems(input.items);
  const automation = automationCandidates(input.items, input.recentItems);
  const mood = moodOf(input.items);
  if (clusters.length === 0 && automation.length === 0) return null;
  const k = sortKnowledge(clusters);
  const decisions = lines(k.decisions, (c) => pointLine(clusterPoint(c), c.rep.localTime, { suffix: c.rep.current ? undefined : '(since superseded)' }));
  const lessonOf = new Map(k.lessons.map((l) => [l.cluster, l.solved]));
  const lessons = lines([...lessonOf.keys()], (c) => {
    const solved = lessonOf.get(c) ?? [];
    const p = clusterPoint(c);
    const line = pointLine({ ...p, sources: mergedSources([c, ...solved]) }, c.rep.localTime, {
      suffix: solved.length > 0 ? `(fixes ${solved.map((s) => s.rep.localTime).join(', ')})` : undefined,
    });
    return line;
  });
  const drafts: SectionDraft[] = [
    { heading: 'Achievements', lines: lines(k.achievements, plain) },
    { heading: 'Decisions', lines: decisions },
    { heading: 'Lessons', lines: lessons },
    { heading: 'Open problems', lines: lines(k.open, plain) },
    { heading: 'Automation candidates', lines: automation },
    { heading: 'Mood', lines: mood ? [{ text: `- ${mood.text} ${citation(mood.sources)}`, sources: mood.sources }] : [] },
  ];
  const title = `# Review of ${input.day} (day and last night, ${plainLabel(input.timeZone)})`;
  return assemble([{ text: title, sources: [] }], drafts);
}

/** A shell command the person ran or asked for: in backticks, or after a `$ ` prompt. */
const COMMAND_RE = /`([a-z][\w.-]*(?: +[^`\s][^`]*)?)`|(?:^|\s)\$ +([a-z][\w.-]*[^\n]*)/;

interface Occurrence {
  item: Item;
  /** The command's first words, or null for a request in words. */
  command: string | null;
  tokens: Set<string>;
}

// Each day's items are read again by the seven reviews after it: what an item is, is read once.
const occurrenceOf = new WeakMap<Item, Occurrence | null>();

/** What a person did by hand: the commands they ran and the tasks they asked for. */
function occurrence(item: Item): Occurrence | null {
  let o = occurrenceOf.get(item);
  if (o === undefined) {
    o = readOccurrence(item);
    occurrenceOf.set(item, o);
  }
  return o;
}

function readOccurrence(item: Item): Occurrence | null {
  const role = (item.role ?? (item.kind === 'memory' ? 'user' : '')).toLowerCase();
  if (role !== 'user') return null;
  const text = oneLineText(item.text);
  const cmd = COMMAND_RE.exec(text);
  if (cmd) {
    const words = (cmd[1] ?? cmd[2] ?? '').split(/\s+/).filter((w) => !w.startsWith('-')).slice(0, 3);
    return { item, command: words.join(' ').toLowerCase(), tokens: new Set(words) };
  }
  if (!REQUEST_RE.test(text) || text.length > 300) return null;
  const tokens = contentTokens(text);
  return tokens.size >= 2 ? { item, command: null, tokens } : null;
}

/**
 * Things done by hand again and again: the same command, or requests alike in their words, on at
 * least {@link AUTOMATION_MIN_OCCASIONS} occasions (distinct sessions, or distinct hours when the
 * session is unknown) over the day and the recent days, one of them today. Most frequent first.
 */
export function automationCandidates(items: readonly Item[], recentItems: readonly Item[]): Line[] {
  const today = new Set(items.map((i) => i.id));
  const seen = new Set<string>();
  const occurrences: Occurrence[] = [];
  for (const item of [...items, ...recentItems].sort(byTimeThenId)) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    const o = occurrence(item);
    if (o) occurrences.push(o);
  }
  const groups: Occurrence[][] = [];
  for (const o of occurrences) {
    const g = groups.find((list) => {
      const first = list[0]!;
      return o.command !== null ? first.command === o.command : first.command === null && similarity(first.tokens, o.tokens) >= SAME_REQUEST;
    });
    if (g) g.push(o);
    else groups.push([o]);
  }
  const found: Array<{ occasions: number; line: Line; last: string }> = [];
  for (const g of groups) {
    const occasions = new Set(g.map((o) => `${o.item.localDay} ${o.item.sessionId ?? o.item.localTime.slice(0, 2)}`)).size;
    if (occasions < AUTOMATION_MIN_OCCASIONS || !g.some((o) => today.has(o.item.id))) continue;
    const latest = g[g.length - 1]!;
    const days = [...new Set(g.map((o) => o.item.localDay))].sort();
    const sources: DigestSource[] = g.slice(-AUTOMATION_MAX_CITED).map((o) => ({ kind: o.item.kind, id: o.item.id, time: o.item.time }));
    const what = latest.command !== null ? `\`${latest.command.replace(/`/g, '')}\`` : pointText(latest.item.text, 120);
    const text = `- ${occasions}× by hand: ${what} (${days.join(', ')}) ${citation(sources)}`;
    found.push({ occasions, line: { text, sources }, last: latest.item.time });
  }
  found.sort((a, b) => b.occasions - a.occasions || (a.last < b.last ? 1 : a.last > b.last ? -1 : 0) || (a.line.text < b.line.text ? -1 : 1));
  return found.slice(0, REVIEW_SECTION_MAX).map((f) => f.line);
}
