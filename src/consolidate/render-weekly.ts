// Layer 2: the weekly distill of an ISO week (`weekly/YYYY-Www.md`): its highlights, what recurred
// across days, what moved and what stalled, the decisions still in force, and a line per day
// linking to its daily note. Every point line cites the records it was read from.
import type { DigestSource } from '../core/types.js';
import type { Item, Rendered } from './contracts.js';
import { ACTIVITIES, type Activity, byTimeThenId, type Cluster, clusterItems, clusterPoint, pickClusters } from './extract.js';
import { mergedSources, sortKnowledge } from './knowledge.js';
import { daysOfIsoWeek } from './windows.js';
import { assemble, categoryTag, type Line, plainLabel, pointLine, type SectionDraft } from './markdown.js';
import { citation } from './contracts.js';
import { isStopWord, overlap, stemWord, wordsOf } from './point-text.js';
import { ACTIVITY_HEADINGS } from './render-daily.js';

export const WEEKLY_HIGHLIGHTS = 8;
export const WEEKLY_SECTION_MAX = 10;
/** Subjects (recurring words) listed under the patterns. */
const SUBJECTS_MAX = 6;

export interface WeeklyInput {
  namespace: string;
  /** ISO week, `YYYY-Www`. */
  week: string;
  timeZone: string;
  /** The week's days that hold records (day and night windows), any order. */
  days: ReadonlyArray<{ day: string; items: readonly Item[] }>;
  /** Decisions currently in force (superseded ones, `current: false`, are left out here too). */
  decisionsInForce: readonly Item[];
}

export function weeklyPath(week: string): string {
  return `weekly/${week}.md`;
}

/** Monday to Sunday of an ISO week `YYYY-Www` (windows.ts decides; a malformed week is a RangeError here). */
export function isoWeekDays(week: string): string[] {
  try {
    return daysOfIsoWeek(week);
  } catch (err) {
    throw new RangeError((err as Error).message);
  }
}

const when = (c: Cluster): string => `${c.rep.localDay} ${c.rep.localTime}`;
const byRepTime = (a: Cluster, b: Cluster): number => byTimeThenId({ time: a.rep.time, id: a.rep.id }, { time: b.rep.time, id: b.rep.id });

function topByTime(clusters: readonly Cluster[], max: number, line: (c: Cluster) => Line): Line[] {
  return pickClusters(clusters, max).sort(byRepTime).map(line);
}

/**
 * The distill of `week`, or null when none of its days holds anything worth a line. Sections
 * (empty ones left out): Highlights, Patterns across days, What moved, What stalled, Decisions
 * still in force, Days.
 */
export function renderWeekly(input: WeeklyInput): Rendered | null {
  const weekDays = isoWeekDays(input.week);
  const days = [...input.days].filter((d) => weekDays.includes(d.day)).sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const perDay = days.map((d) => ({ day: d.day, items: d.items, clusters: clusterItems(d.items) }));
  const all = clusterItems(days.flatMap((d) => d.items));
  if (all.length === 0) return null;
  const k = sortKnowledge(all);
  const moved = [...k.achievements, ...k.lessons.filter((l) => l.solved.length > 0).map((l) => l.cluster)];
  const solvedBy = new Map(k.lessons.map((l) => [l.cluster, l.solved]));
  const decisions = clusterItems(input.decisionsInForce.filter((d) => d.current)).sort(byRepTime).slice(-2 * WEEKLY_SECTION_MAX);
  const drafts: SectionDraft[] = [
    { heading: 'Highlights', lines: topByTime(all, WEEKLY_HIGHLIGHTS, (c) => pointLine(clusterPoint(c), when(c), { tag: true })) },
    { heading: 'Patterns across days', lines: [...activityPatterns(perDay), ...subjectPatterns(perDay)] },
    {
      heading: 'What moved',
      lines: topByTime(moved, WEEKLY_SECTION_MAX, (c) => {
        const p = clusterPoint(c);
        return pointLine({ ...p, sources: mergedSources([c, ...(solvedBy.get(c) ?? [])]) }, when(c), { tag: true });
      }),
    },
    { heading: 'What stalled', lines: stalled(k.open, windowDay(days)) },
    { heading: 'Decisions still in force', lines: decisions.map((c) => pointLine(clusterPoint(c), c.rep.localDay)) },
    { heading: 'Days', lines: perDay.filter((d) => d.items.length > 0).map(dayLine) },
  ];
  const title = `# Week ${input.week} (${weekDays[0]} – ${weekDays[6]}, ${plainLabel(input.timeZone)})`;
  return assemble([{ text: title, sources: [] }], drafts);
}

type DayClusters = { day: string; items: readonly Item[]; clusters: Cluster[] };

/** The day's most worth cluster among `clusters`: cited as the day's example of a pattern. */
function best(clusters: readonly Cluster[]): Cluster {
  return pickClusters(clusters, 1)[0]!;
}

function daysLine(label: string, hits: ReadonlyArray<{ day: string; clusters: Cluster[] }>): Line {
  const sources: DigestSource[] = hits.map((h) => best(h.clusters)).map((c) => ({ kind: c.rep.kind, id: c.rep.id, time: c.rep.time }));
  return { text: `- ${label} on ${hits.length} days (${hits.map((h) => h.day).join(', ')}) ${citation(sources)}`, sources };
}

/** Kinds of work done on two days or more, each day cited by its most worth record of that kind. */
function activityPatterns(perDay: readonly DayClusters[]): Line[] {
  const out: Line[] = [];
  for (const activity of ACTIVITIES) {
    const hits = perDay.map((d) => ({ day: d.day, clusters: d.clusters.filter((c) => c.activity === activity) })).filter((h) => h.clusters.length > 0);
    if (hits.length >= 2) out.push(daysLine(ACTIVITY_HEADINGS[activity as Activity], hits));
  }
  return out;
}

/** Words too general to be a subject, however often they recur in a work log. */
const GENERIC = new Set(
  ('decided decide added fixed fix made make used use using need needs want work works worked working done today tomorrow yesterday ' +
    'again also still new old first last next time times day days week now later something thing things because since after before ' +
    'should would could will must into with from about there their them then than more most some other same every each which while').split(' '),
);

function subjectWords(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const w of wordsOf(text)) {
    if (isStopWord(w) || GENERIC.has(w) || /^\p{N}+$/u.test(w)) continue;
    if (/^[a-z']+$/.test(w) ? w.length < 4 : w.length < 2) continue;
    const stem = stemWord(w);
    if (!out.has(stem) || w < out.get(stem)!) out.set(stem, w);
  }
  return out;
}

/**
 * Subjects that recur: words of the days' points found on two days or more. Words that always
 * appear together (same records) make one subject ("backup, cron"). Most days first.
 */
function subjectPatterns(perDay: readonly DayClusters[]): Line[] {
  const byStem = new Map<string, { surface: string; hits: Map<string, Cluster[]> }>();
  for (const d of perDay) {
    for (const c of d.clusters) {
      for (const [stem, surface] of subjectWords(c.rep.text)) {
        const entry = byStem.get(stem) ?? { surface, hits: new Map<string, Cluster[]>() };
        if (surface < entry.surface) entry.surface = surface;
        entry.hits.set(d.day, [...(entry.hits.get(d.day) ?? []), c]);
        byStem.set(stem, entry);
      }
    }
  }
  const groups = new Map<string, { words: string[]; hits: Map<string, Cluster[]> }>();
  for (const entry of [...byStem.values()].sort((a, b) => (a.surface < b.surface ? -1 : 1))) {
    if (entry.hits.size < 2) continue;
    const key = [...entry.hits].map(([day, cs]) => `${day}:${cs.map((c) => c.rep.id).join(',')}`).sort().join(' ');
    const group = groups.get(key) ?? { words: [], hits: entry.hits };
    group.words.push(entry.surface);
    groups.set(key, group);
  }
  const count = (g: { hits: Map<string, Cluster[]> }): number => [...g.hits.values()].reduce((n, cs) => n + cs.length, 0);
  return [...groups.values()]
    .sort((a, b) => b.hits.size - a.hits.size || count(b) - count(a) || (a.words[0]! < b.words[0]! ? -1 : 1))
    .slice(0, SUBJECTS_MAX)
    .map((g) => {
      const hits = [...g.hits].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, clusters]) => ({ day, clusters }));
      return daysLine(`“${g.words.slice(0, 4).join(', ')}”`, hits);
    });
}

/**
 * Open problems seen on two days or more: problems alike in their words (half the shorter one's
 * words shared, three at least) are one problem, worded by its latest report.
 */
function stalled(open: readonly Cluster[], dayOf: (item: Item) => string): Line[] {
  const families: Cluster[][] = [];
  for (const c of [...open].sort(byRepTime)) {
    const family = families.find((f) => f.some((o) => sharedWords(o, c) >= 3 && overlap(o.tokens, c.tokens) >= 0.5));
    if (family) family.push(c);
    else families.push([c]);
  }
  return families
    .map((f) => ({ f, days: [...new Set(f.flatMap((c) => c.members.map(dayOf)))].sort() }))
    .filter(({ days }) => days.length >= 2)
    .slice(0, WEEKLY_SECTION_MAX)
    .map(({ f, days }) => {
      const latest = f[f.length - 1]!;
      const p = clusterPoint(latest);
      return pointLine({ ...p, sources: mergedSources(f) }, `${categoryTag('issue')}seen ${days.join(', ')}:`.trim());
    });
}

/** The day whose windows a record is in (a night's records belong to the day it started). */
function windowDay(days: ReadonlyArray<{ day: string; items: readonly Item[] }>): (item: Item) => string {
  const byId = new Map<string, string>();
  for (const d of days) for (const i of d.items) if (!byId.has(i.id)) byId.set(i.id, d.day);
  return (item) => byId.get(item.id) ?? item.localDay;
}

function sharedWords(a: Cluster, b: Cluster): number {
  let n = 0;
  for (const t of a.tokens) if (b.tokens.has(t)) n++;
  return n;
}

function dayLine(d: DayClusters): Line {
  const counts = ACTIVITIES.map((a) => [a, d.clusters.filter((c) => c.activity === a).length] as const).filter(([, n]) => n > 0);
  const detail = counts.length > 0 ? ` (${counts.map(([a, n]) => `${a} ${n}`).join(', ')})` : '';
  const records = new Set(d.items.map((i) => i.id)).size;
  return {
    text: `- [${d.day}](../daily/${d.day}.md): ${records} record${records === 1 ? '' : 's'}, ${d.clusters.length} point${d.clusters.length === 1 ? '' : 's'}${detail}`,
    sources: [],
  };
}
