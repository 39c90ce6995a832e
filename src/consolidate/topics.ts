// Layer 2 topic pages: a subject that recurs across days gets a living page, `topics/<slug>.md`,
// with a timeline of what was said about it and links to the days it came up. A page a person made
// there is theirs: Cairn keeps every byte of it and only adds (then refreshes) one block at its end.
import { createHash } from '../core/lazy-crypto.js';
import { cleanLabel } from '../core/text.js';
import type { DigestSource } from '../core/types.js';
import { citation, type Item, type Rendered } from './contracts.js';
import { sectionsOf } from './digest-sections.js';
import { GENERATED_MARKER, carriedPersonText, inertMarkers, isCairnGenerated, withPersonSection } from './person-sections.js';
import { subjectsOf } from './topic-subjects.js';
import { pointText } from './point-text.js';

export interface Topic {
  slug: string;
  title: string;
  /** Every record that mentions the subject, oldest first (newest last). */
  items: Item[];
  /** The distinct local days it came up on, ascending. */
  days: string[];
}

export interface FindTopicsOptions {
  /** Distinct local days a subject must come up on to become a topic (default 3). */
  minDays?: number;
  /** At most this many topics, the strongest first (default 20). */
  max?: number;
}

export const TOPIC_BEGIN = '<!-- cairn:topic:begin -->';
export const TOPIC_END = '<!-- cairn:topic:end -->';

const TIMELINE_MAX = 60;
const ENTITIES_MAX = 20;
const RELATED_MAX = 30;
const POINT_MAX = 220;
const TITLE_MAX = 80;
const SLUG_MAX = 60;

/**
 * A record's text as one line of at most `max` characters, cut at a sentence end when one is near,
 * else at a word boundary with an ellipsis. Local stand-in: at merge this becomes extract.ts's `pointOf`.
 */
export function oneLine(text: string, max: number): string {
  const flat = cleanLabel(text).replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const head = chars.slice(0, max).join('');
  const sentence = /^.*[.!?。！？](?=\s|$)/su.exec(head)?.[0];
  if (sentence && [...sentence].length >= max * 0.4) return sentence;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > cut.length * 0.4 ? cut.slice(0, space) : cut}…`;
}

/** Text from records shown inline in Markdown: an HTML comment opener or closer in it would hide or end a block. */
export function inlineSafe(text: string): string {
  return text.replace(/<!--/g, '&lt;!--').replace(/--!?>/g, '--&gt;');
}

// Letters that NFKD does not decompose into a base letter plus marks.
const LATIN_EXTRA: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ŋ: 'n', ħ: 'h' };
const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com\d|lpt\d)$/;

/**
 * A safe file name for a title, the same for the same title: lower-case `[a-z0-9-]`, at most 60
 * characters. Latin letters lose their accents; a title with letters outside Latin (Cyrillic, Han…)
 * keeps what Latin part it has and gets a short hash of the whole title, so two such titles never share a slug.
 */
export function slugOf(title: string): string {
  const norm = cleanLabel(title).normalize('NFKC').toLowerCase().trim();
  const latin = norm
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\x00-\x7f]/g, (c) => LATIN_EXTRA[c] ?? c);
  const foreign = /\p{L}/u.test(latin.replace(/[a-z]/g, ''));
  let slug = latin.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const hash = createHash('sha256').update(norm).digest('hex').slice(0, 8);
  const room = foreign ? SLUG_MAX - 9 : SLUG_MAX;
  if (slug.length > room) slug = slug.slice(0, room).replace(/-[^-]*$/, '') || slug.slice(0, room);
  slug = slug.replace(/-+$/, '');
  if (foreign) slug = slug === '' ? `t-${hash}` : `${slug}-${hash}`;
  if (slug === '') slug = `t-${hash}`;
  return WINDOWS_RESERVED.test(slug) ? `${slug}-topic` : slug;
}

const byTime = (a: Item, b: Item): number =>
  a.time < b.time ? -1 : a.time > b.time ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Tool output and system messages name files and ids by the hundred: subjects come from what people and the agent said. */
const spoken = (it: Item): boolean => it.role !== 'tool' && it.role !== 'system';

interface Tally {
  named: boolean;
  mentions: number;
  days: number;
  lastDay: string;
}

/**
 * Whether a candidate adds nothing to a topic already chosen: another spelling of it ("Phoenix
 * launch" in "Project Phoenix launch"), or a subject named only where the chosen one is (the word
 * pairs of one recurring sentence, a tag always put on one file's records). A broad subject that
 * holds many more records (a tag on everything) does not swallow the specific ones.
 */
function redundant(chosen: { key: string; ids: Set<string> }, key: string, ids: Set<string>): boolean {
  let shared = 0;
  for (const id of ids) if (chosen.ids.has(id)) shared++;
  const contains = ` ${chosen.key} `.includes(` ${key} `) || ` ${key} `.includes(` ${chosen.key} `);
  if (contains && shared >= 0.8 * Math.min(ids.size, chosen.ids.size)) return true;
  return shared >= 0.8 * ids.size && chosen.ids.size <= 3 * ids.size;
}

/**
 * The subjects that recur on at least `minDays` distinct local days, strongest first (days ×
 * mentions; on a tie a name before a word pair, then the most recent, then by key), at most `max`. Deterministic: the order of
 * `items` does not matter.
 */
export function findTopics(items: readonly Item[], { minDays = 3, max = 20 }: FindTopicsOptions = {}): Topic[] {
  const sorted = items.filter(spoken).sort((a, b) => (a.localDay < b.localDay ? -1 : a.localDay > b.localDay ? 1 : byTime(a, b)));
  const mentionsOf = new Map<string, ReturnType<typeof subjectsOf>>();
  const tallies = new Map<string, Tally>();
  // Items come day by day, so a subject's day count grows when its last day changes: no set of days per candidate.
  for (const it of sorted) {
    const mentions = subjectsOf(it.text, it.tags);
    mentionsOf.set(it.id, mentions);
    for (const { key, named } of mentions) {
      const t = tallies.get(key);
      if (!t) tallies.set(key, { named, mentions: 1, days: 1, lastDay: it.localDay });
      else {
        t.named ||= named;
        t.mentions++;
        if (t.lastDay !== it.localDay) {
          t.days++;
          t.lastDay = it.localDay;
        }
      }
    }
  }
  const ranked = [...tallies]
    .filter(([, t]) => t.days >= Math.max(1, minDays))
    .sort(([ka, a], [kb, b]) => b.days * b.mentions - a.days * a.mentions || Number(b.named) - Number(a.named) || (a.lastDay < b.lastDay ? 1 : a.lastDay > b.lastDay ? -1 : 0) || (ka < kb ? -1 : ka > kb ? 1 : 0));
  const wanted = new Set(ranked.slice(0, Math.max(0, max) * 10).map(([k]) => k));
  const itemsOf = new Map<string, Item[]>();
  const surfaces = new Map<string, Map<string, number>>();
  for (const it of sorted) {
    for (const { key, surface } of mentionsOf.get(it.id) ?? []) {
      if (!wanted.has(key)) continue;
      (itemsOf.get(key) ?? itemsOf.set(key, []).get(key)!).push(it);
      const s = surfaces.get(key) ?? surfaces.set(key, new Map()).get(key)!;
      s.set(surface, (s.get(surface) ?? 0) + 1);
    }
  }
  const chosen: Array<{ key: string; ids: Set<string> }> = [];
  const slugs = new Set<string>();
  const topics: Topic[] = [];
  for (const [key] of ranked) {
    if (topics.length >= max || !wanted.has(key)) break;
    const its = itemsOf.get(key)!;
    const ids = new Set(its.map((i) => i.id));
    if (chosen.some((c) => redundant(c, key, ids))) continue;
    chosen.push({ key, ids });
    // The title is the spelling used most; ties go to the one with capitals, then the first in code-point order.
    const title = [...surfaces.get(key)!].sort(([sa, na], [sb, nb]) => nb - na || Number(/\p{Lu}/u.test(sb)) - Number(/\p{Lu}/u.test(sa)) || (sa < sb ? -1 : 1))[0]![0];
    let slug = slugOf(title);
    if (slugs.has(slug)) slug = `${slug.slice(0, SLUG_MAX - 9)}-${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;
    slugs.add(slug);
    topics.push({ slug, title: oneLine(title, TITLE_MAX), items: [...its].sort(byTime), days: [...new Set(its.map((i) => i.localDay))].sort() });
  }
  return topics;
}

function timelineLines(topic: Topic): { lines: string[]; sources: DigestSource[] } {
  const seen = new Set<string>();
  const points: Array<{ line: string; source: DigestSource }> = [];
  for (const it of [...topic.items].sort(byTime)) {
    const point = pointText(it.text, POINT_MAX);
    const key = point.normalize('NFKC').toLowerCase();
    if (point === '' || seen.has(key)) continue;
    seen.add(key);
    const source: DigestSource = { kind: it.kind, id: it.id, time: it.time };
    points.push({ line: `- ${it.localDay} ${it.localTime} ${point} ${citation([source])}`, source });
  }
  const shown = points.slice(-TIMELINE_MAX);
  const lines = shown.map((p) => p.line);
  const hidden = points.length - shown.length;
  if (hidden > 0) lines.unshift(`_${hidden} earlier point${hidden === 1 ? ' is' : 's are'} in the daily notes of those days._`, '');
  return { lines, sources: shown.map((p) => p.source) };
}

/** A promoted entity a topic's records name: its display name and its page, relative to the namespace folder. */
export interface TopicEntity {
  name: string;
  path: string;
}

const linkLabel = (s: string): string => inlineSafe(oneLine(s, TITLE_MAX)).replace(/[[\]]/g, (c) => `\\${c}`);

/** The generated body: the seen-on line, the timeline, the related days and the entities named (each a `##` section). */
function generatedBody(topic: Topic, dailyPrefix: string, entities: readonly TopicEntity[] = []): { text: string; sources: DigestSource[] } {
  const days = [...new Set(topic.days)].sort();
  const seen =
    days.length === 0 ? 'Not seen on any day yet.' : `Seen on ${days.length} day${days.length === 1 ? '' : 's'}, first ${days[0]}, last ${days[days.length - 1]}.`;
  const { lines, sources } = timelineLines(topic);
  const related = days.slice(-RELATED_MAX).map((d) => `- [${d}](${dailyPrefix}${d}.md)`);
  const parts = [seen, '', '## Timeline', '', ...(lines.length > 0 ? lines : ['_Nothing recorded yet._']), '', '## Related', ''];
  parts.push(...(related.length > 0 ? related : ['_No daily notes yet._']));
  // Only paths of life/ pages are linked (they are made of [a-z0-9-]); anything else is left out.
  const linked = entities.filter((e) => /^life\/[a-z]+\/[a-z0-9-]+\/summary\.md$/.test(e.path)).slice(0, ENTITIES_MAX);
  if (linked.length > 0) parts.push('', '## People & projects', '', ...linked.map((e) => `- [${linkLabel(e.name) || e.path}](../${e.path})`));
  return { text: parts.join('\n'), sources };
}

/**
 * `topics/<slug>.md`. A page Cairn wrote (generated marker on its first line) is rewritten, keeping
 * the person's section; a new page gets an empty one. A page without the marker was made by a
 * person: its text is kept byte for byte and only the block between the topic markers at its end is
 * added or refreshed (broken block markers in it are made inert and a fresh block is appended).
 */
export function renderTopicPage({ topic, existingText, entities = [] }: { topic: Topic; existingText: string | null; entities?: readonly TopicEntity[] }): Rendered & { path: string } {
  const path = `topics/${topic.slug}.md`;
  const body = generatedBody(topic, '../daily/', entities);
  const sourceMap = new Map(body.sources.map((s) => [s.id, s]));
  const title = inlineSafe(oneLine(topic.title, TITLE_MAX)) || topic.slug;
  let text: string;
  if (existingText === null || isCairnGenerated(existingText)) {
    const generated = `${GENERATED_MARKER}\n# ${title}\n\n${body.text}\n`;
    text = withPersonSection(generated, carriedPersonText(existingText));
  } else {
    const block = `${TOPIC_BEGIN}\n<!-- Cairn refreshes this block about "${title}"; everything outside it is yours and is never changed. -->\n${body.text}\n${TOPIC_END}`;
    const begin = existingText.indexOf(TOPIC_BEGIN);
    const end = begin === -1 ? -1 : existingText.indexOf(TOPIC_END, begin);
    const oneBlock = end !== -1 && existingText.split(TOPIC_BEGIN).length === 2 && existingText.split(TOPIC_END).length === 2;
    if (oneBlock) {
      text = existingText.slice(0, begin) + block + existingText.slice(end + TOPIC_END.length);
    } else {
      const kept = inertMarkers(existingText, [TOPIC_BEGIN, TOPIC_END]);
      const gap = kept === '' ? '' : kept.endsWith('\n\n') ? '' : kept.endsWith('\n') ? '\n' : '\n\n';
      text = `${kept}${gap}${block}\n`;
    }
  }
  return { path, text, sections: sectionsOf(text, sourceMap) };
}
