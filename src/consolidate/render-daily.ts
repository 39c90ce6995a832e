// Layer 3: the structured daily note of a day window (`daily/YYYY-MM-DD.md`) or of the night that
// began that evening (`daily/YYYY-MM-DD-last-night.md`). The window's points, grouped by activity,
// in time order, each citing its records; chit-chat and system noise stay in the raw log.
import type { Item } from './contracts.js';
import type { Rendered } from './contracts.js';
import { ACTIVITIES, type Activity, byTimeThenId, clusterItems, clusterPoint, pickClusters } from './extract.js';
import { assemble, type Line, nextDay, plainLabel, pointLine, type SectionDraft } from './markdown.js';

/** Most point lines in one daily note; the rest of the window is one command away. */
export const DAILY_MAX_LINES = 40;

export const ACTIVITY_HEADINGS: Readonly<Record<Activity, string>> = { coding: 'Coding', research: 'Research', ops: 'Ops', chat: 'Chat' };

export interface DailyNoteInput {
  namespace: string;
  /** The local day the window belongs to (a night belongs to the day it started). */
  day: string;
  part: 'day' | 'night';
  timeZone: string;
  /** Local clock times `HH:MM` where the day and the night windows begin. */
  bounds: { dayStart: string; nightStart: string };
  /** The window's records. */
  items: readonly Item[];
  /** Most point lines (default {@link DAILY_MAX_LINES}). */
  maxLines?: number;
}

/** `daily/YYYY-MM-DD.md` or `daily/YYYY-MM-DD-last-night.md`. */
export function dailyNotePath(day: string, part: 'day' | 'night'): string {
  return part === 'day' ? `daily/${day}.md` : `daily/${day}-last-night.md`;
}

function title(input: DailyNoteInput): string {
  const { day, part, bounds } = input;
  const zone = plainLabel(input.timeZone);
  if (part === 'day') return `# ${day} · day (${bounds.dayStart}–${bounds.nightStart}, ${zone})`;
  // The night ends on the next calendar day unless it starts after midnight.
  const ends = bounds.nightStart > bounds.dayStart ? ` on ${nextDay(day)}` : '';
  return `# ${day} · last night (${bounds.nightStart} → ${bounds.dayStart}${ends}, ${zone})`;
}

/**
 * The daily (or last-night) note of one window, or null when nothing in it is worth a line. Up to
 * `maxLines` points, chosen by {@link pickClusters}, under `## Coding`, `## Research`, `## Ops`,
 * `## Chat` (those present, in that order), each `- HH:MM [**tag**] point \`id\``, by time; when
 * more was worth a line than fits, a last section says how many records the window holds beyond
 * the ones cited and where to read them.
 */
export function renderDailyNote(input: DailyNoteInput): Rendered | null {
  const max = Math.max(1, Math.floor(input.maxLines ?? DAILY_MAX_LINES));
  const clusters = clusterItems(input.items);
  if (clusters.length === 0) return null;
  const points = pickClusters(clusters, max).map(clusterPoint);
  const drafts: SectionDraft[] = ACTIVITIES.map((activity) => ({
    heading: ACTIVITY_HEADINGS[activity],
    lines: points
      .filter((p) => p.activity === activity)
      .sort((a, b) => byTimeThenId({ time: a.time, id: a.sources[0]!.id }, { time: b.time, id: b.sources[0]!.id }))
      .map((p) => pointLine(p, p.localTime, { tag: true })),
  }));
  if (clusters.length > points.length) drafts.push({ heading: 'More in this window', lines: [moreLine(input, points.flatMap((p) => p.sources.map((s) => s.id)))] });
  return assemble([{ text: title(input), sources: [] }], drafts);
}

function moreLine(input: DailyNoteInput, cited: readonly string[]): Line {
  const ids = new Set(input.items.map((i) => i.id));
  for (const id of cited) ids.delete(id);
  const times = input.items.map((i) => Date.parse(i.time)).filter(Number.isFinite).sort((a, b) => a - b).map((ms) => new Date(ms).toISOString());
  const ns = plainLabel(input.namespace).replace(/\s+/g, '-');
  const search = `\`cairn search -n ${ns} --since ${times[0]} --until ${times[times.length - 1]} <words>\``;
  const days = input.part === 'day' ? [input.day] : [input.day, nextDay(input.day)];
  const raw = days.map((d) => `[raw/realtime-${d}.md](../raw/realtime-${d}.md)`).join(' and ');
  const n = ids.size;
  return { text: `- ${n} more record${n === 1 ? '' : 's'} in this window (routine turns and lesser points): ${search}, or ${raw}`, sources: [] };
}
