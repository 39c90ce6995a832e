// What a window holds: the memories and turns whose time falls in it, as `Item`s the renderers
// read. Read through the index entries (one indexed range scan on namespace + time), so gathering a
// day costs the same whether the home holds a thousand records or a million. Superseded memories
// are included and marked: a daily note records what was true that day.
import { createHash } from '../core/lazy-crypto.js';
import { localDayTime } from '../core/local-time.js';
import type { IndexEntry, Store } from '../store/store.js';
import type { Item } from './contracts.js';

/** Most records read for one window; past it the newest are kept (a note says how many more there were). */
export const WINDOW_LIMIT = 20_000;

export interface Window {
  /** UTC ISO, start inclusive, end exclusive. */
  start: string;
  end: string;
}

function itemOf(e: IndexEntry, timeZone: string): Item | null {
  if (e.kind !== 'memory' && e.kind !== 'turn') return null;
  const local = localDayTime(e.time, timeZone);
  if (!local) return null;
  const first = e.provenance[0];
  const turnIds = e.kind === 'memory' ? [...new Set(e.provenance.flatMap((p) => p.turnIds ?? []))] : [];
  return {
    kind: e.kind,
    id: e.refId,
    time: e.time,
    localTime: local.time,
    localDay: local.day,
    text: e.text,
    importance: e.importance,
    category: e.category,
    current: e.current,
    role: first?.role ?? null,
    speaker: first?.speaker ?? null,
    sessionId: first?.sessionId ?? null,
    turnIds,
    tags: [],
  };
}

/**
 * The window's records, oldest first (ties by id). A turn that became a memory is given once, as
 * the memory (which cites it).
 */
export async function gatherWindow(store: Store, namespace: string, window: Window, timeZone: string): Promise<Item[]> {
  // `until` is inclusive in the store's filter; the window's end is exclusive, dropped below.
  const seqs = await store.filterEntries(namespace, { kinds: ['memory', 'turn'], since: window.start, until: window.end, includeSuperseded: true }, WINDOW_LIMIT);
  const entries = await store.getEntries(namespace, seqs);
  const items: Item[] = [];
  for (const e of entries) {
    if (e.time >= window.end || e.time < window.start) continue;
    const item = itemOf(e, timeZone);
    if (item) items.push(item);
  }
  const promoted = new Set(items.flatMap((i) => i.turnIds));
  return items
    .filter((i) => !(i.kind === 'turn' && promoted.has(i.id)))
    .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Memories since `since` (current only unless asked), newest first, at most WINDOW_LIMIT. */
export async function gatherMemories(store: Store, namespace: string, filter: { since?: string; categories?: string[]; includeSuperseded?: boolean }, timeZone: string, limit = WINDOW_LIMIT): Promise<Item[]> {
  const seqs = await store.filterEntries(namespace, { kinds: ['memory'], ...filter }, limit);
  const entries = await store.getEntries(namespace, seqs);
  const items: Item[] = [];
  for (const e of entries) {
    const item = itemOf(e, timeZone);
    if (item) items.push(item);
  }
  return items.sort((a, b) => (a.time > b.time ? -1 : a.time < b.time ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * A hash of what a digest is made from: the items as renderers see them, plus anything else that
 * shapes the file (settings, the person's own text, the renderer's version). Equal hash: the file
 * would come out the same, so the job is skipped (and no language model is asked again).
 */
export function materialHash(parts: ReadonlyArray<unknown>): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(Array.isArray(p) ? arrayJson(p) : (JSON.stringify(p) ?? 'undefined')).update('\n');
  return h.digest('hex');
}

// A run hashes the same items again and again (a day's items are in its note, its review, the next
// seven reviews and its week): an element's JSON is made once per object. Items are never changed
// after they are gathered, and each run gathers its own.
const elementJsonOf = new WeakMap<object, string>();

/** Exactly `JSON.stringify(array)`, from the elements' JSON. */
function arrayJson(array: readonly unknown[]): string {
  return `[${Array.from(array, elementJson).join(',')}]`;
}

function elementJson(e: unknown): string {
  if (typeof e !== 'object' || e === null) return JSON.stringify(e) ?? 'null';
  let json = elementJsonOf.get(e);
  if (json === undefined) {
    json = JSON.stringify(e) ?? 'null';
    elementJsonOf.set(e, json);
  }
  return json;
}
