// The timeline of a namespace for people: the turns and memories of a range of logical days, each
// placed in its day or night window by the consolidation's own window logic (windows.ts), so a turn
// at 02:00 shows under the day whose night it belongs to, exactly as the night note files it.
import { CairnError, ERROR_CODES, invalidInput } from '../../core/errors.js';
import type { CairnConfig } from '../../core/config.js';
import { localDayTime } from '../../core/local-time.js';
import type { Turn } from '../../core/types.js';
import type { IndexEntry, Store } from '../../store/store.js';
import { boundsOf } from '../../consolidate/runner.js';
import { addDays, checkDay, placeInstant, windowsOf, type DayBounds, type Span } from '../../consolidate/windows.js';

/** Most days one request spans. */
export const TIMELINE_MAX_DAYS = 31;
export const TIMELINE_DEFAULT_DAYS = 7;
/** Records one request returns at most (default and ceiling); past it the newest are kept. */
export const TIMELINE_DEFAULT_LIMIT = 2000;
export const TIMELINE_MAX_LIMIT = 10_000;
/** A longer text is cut here (the memory or turn itself has it whole). */
export const TIMELINE_TEXT_CHARS = 280;

export interface TimelineInput {
  /** First and last logical day (YYYY-MM-DD), inclusive; default: the week up to today. */
  from?: string;
  to?: string;
  limit?: number;
}

export interface TimelineItem {
  kind: 'memory' | 'turn';
  id: string;
  time: string;
  /** HH:MM on the home's clock. */
  localTime: string;
  localDay: string;
  part: 'day' | 'night';
  text: string;
  clipped: boolean;
  importance: number | null;
  category: string | null;
  current: boolean;
  role: string | null;
  sessionId: string | null;
  /** Memories: the turns they came from; turns: the memories that cite them. */
  related: string[];
}

export interface TimelineDay {
  day: string;
  windows: { day: Span; night: Span };
  items: TimelineItem[];
  counts: { turns: number; memories: number; night: number };
}

export interface Timeline {
  namespace: string;
  timezone: string;
  bounds: DayBounds;
  from: string;
  to: string;
  /** The logical day now is in (the night after midnight still belongs to yesterday). */
  today: string;
  /** The ranges before and after this one, of the same length. */
  previous: { from: string; to: string };
  next: { from: string; to: string };
  /** Oldest day first. */
  days: TimelineDay[];
  /** More records than `limit` fell in the range: the oldest were left out. */
  truncated: boolean;
}

function day(value: string, what: string): string {
  try {
    return checkDay(value);
  } catch (err) {
    throw invalidInput(`${what}: ${(err as Error).message}`);
  }
}

function spanDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

function clip(text: string): { text: string; clipped: boolean } {
  const chars = [...text];
  return chars.length <= TIMELINE_TEXT_CHARS ? { text, clipped: false } : { text: `${chars.slice(0, TIMELINE_TEXT_CHARS - 1).join('')}…`, clipped: true };
}

export async function buildTimeline(store: Store, config: CairnConfig, namespace: string, input: TimelineInput, now = new Date()): Promise<Timeline> {
  const timeZone = config.timezone;
  const bounds = boundsOf(config);
  const today = placeInstant(now.toISOString(), timeZone, bounds)?.day ?? now.toISOString().slice(0, 10);
  const to = input.to !== undefined ? day(input.to, 'to') : input.from !== undefined ? addDays(day(input.from, 'from'), TIMELINE_DEFAULT_DAYS - 1) : today;
  const from = input.from !== undefined ? day(input.from, 'from') : addDays(to, -(TIMELINE_DEFAULT_DAYS - 1));
  const length = spanDays(from, to);
  if (length < 1) throw invalidInput(`from (${from}) must not come after to (${to})`);
  if (length > TIMELINE_MAX_DAYS) throw invalidInput(`at most ${TIMELINE_MAX_DAYS} days at once (asked for ${length})`);
  const limit = Math.min(input.limit ?? TIMELINE_DEFAULT_LIMIT, TIMELINE_MAX_LIMIT);

  const range: Span = { start: windowsOf(from, timeZone, bounds).day.start, end: windowsOf(to, timeZone, bounds).night.end };
  // Newest first from the store; one more than asked tells whether some were left out.
  const seqs = await store.filterEntries(namespace, { kinds: ['memory', 'turn'], since: range.start, until: range.end, includeSuperseded: true }, limit + 1);
  const truncated = seqs.length > limit;
  const entries = (await store.getEntries(namespace, seqs.slice(0, limit))).filter((e) => e.time >= range.start && e.time < range.end);

  const citedBy = new Map<string, string[]>();
  for (const e of entries) {
    if (e.kind !== 'memory') continue;
    for (const t of turnIdsOf(e)) citedBy.set(t, [...(citedBy.get(t) ?? []), e.refId]);
  }
  const byDay = new Map<string, TimelineItem[]>();
  for (const e of entries) {
    const placed = placeInstant(e.time, timeZone, bounds);
    const local = localDayTime(e.time, timeZone);
    if (!placed || !local) continue;
    const first = e.provenance[0];
    const item: TimelineItem = {
      kind: e.kind as 'memory' | 'turn',
      id: e.refId,
      time: e.time,
      localTime: local.time,
      localDay: local.day,
      part: placed.part,
      ...clip(e.text),
      importance: e.importance,
      category: e.category,
      current: e.current,
      role: first?.role ?? null,
      sessionId: first?.sessionId ?? null,
      related: e.kind === 'memory' ? turnIdsOf(e) : (citedBy.get(e.refId) ?? []),
    };
    byDay.set(placed.day, [...(byDay.get(placed.day) ?? []), item]);
  }

  const days: TimelineDay[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const items = (byDay.get(d) ?? []).sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.id < b.id ? -1 : 1));
    const w = windowsOf(d, timeZone, bounds);
    days.push({
      day: d,
      windows: { day: { ...w.day }, night: { ...w.night } },
      items,
      counts: { turns: items.filter((i) => i.kind === 'turn').length, memories: items.filter((i) => i.kind === 'memory').length, night: items.filter((i) => i.part === 'night').length },
    });
  }
  return {
    namespace,
    timezone: timeZone,
    bounds,
    from,
    to,
    today,
    previous: { from: addDays(from, -length), to: addDays(from, -1) },
    next: { from: addDays(to, 1), to: addDays(to, length) },
    days,
    truncated,
  };
}

function turnIdsOf(e: IndexEntry): string[] {
  return [...new Set(e.provenance.flatMap((p) => p.turnIds ?? []))];
}

export interface TurnView extends Turn {
  /** The logical day and window the turn belongs to, and the memories made from it. */
  placed: { day: string; part: 'day' | 'night' } | null;
  memories: string[];
}

/** One captured turn with where the timeline shows it and which memories cite it. */
export async function turnView(store: Store, config: CairnConfig, namespace: string, id: string): Promise<TurnView> {
  const turn = await store.getTurn(namespace, id);
  if (!turn) throw new CairnError(ERROR_CODES.NOT_FOUND, `No turn ${id} in namespace ${namespace}`);
  const bounds = boundsOf(config);
  const placed = placeInstant(turn.timestamp, config.timezone, bounds);
  let memories: string[] = [];
  if (placed) {
    const w = windowsOf(placed.day, config.timezone, bounds);
    const near = await store.filterEntries(namespace, { kinds: ['memory'], since: w.day.start, until: w.night.end, includeSuperseded: true }, TIMELINE_DEFAULT_LIMIT);
    memories = (await store.getEntries(namespace, near)).filter((e) => turnIdsOf(e).includes(id)).map((e) => e.refId);
  }
  return { ...turn, placed, memories };
}
