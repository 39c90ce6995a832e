// What search needs around a hit: the people who speak in a namespace (to tell "what does Dave
// like" from a turn that merely says "thanks Dave") and the turns next to a turn in its session.
import type { Database } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { stmt } from './statements.js';
import { onlyAdded, turnsAddedSince, turnsEnteredSince, unchanged, writeMark, type WriteMark } from './turn-writes.js';
import type { NeighbourOptions, NeighbourTurn, NeighbourTurns, SpeakerCount } from '../store.js';

/**
 * The namespace's speakers, most turns first; read once until the next write (every search asks,
 * and a namespace of many people has thousands). The same frozen list to every caller until then:
 * a copy per search was ~100 KB at 50k chat turns, and search indexes the list once (speakers.ts).
 */
export function speakers(db: Database, namespace: string): readonly SpeakerCount[] {
  const { turns } = cacheOf(db, namespace);
  turns.speakers ??= Object.freeze((stmt(db, 'SELECT name, turns FROM speakers WHERE namespace = ? ORDER BY turns DESC').all(namespace) as SpeakerCount[]).map((s) => Object.freeze(s)));
  return turns.speakers;
}

/** Counts the speakers of newly inserted turns; called inside the turns' transaction. */
export function countSpeakers(db: Database, namespace: string, names: ReadonlyMap<string, number>): void {
  const upsert = stmt(db, 'INSERT INTO speakers (namespace, name, turns) VALUES (?, ?, ?) ON CONFLICT (namespace, name) DO UPDATE SET turns = turns + excluded.turns');
  for (const [name, n] of names) upsert.run(namespace, name, n);
}

/**
 * What the neighbour rows kept per connection may weigh, in characters of text plus ROW_OVERHEAD
 * each (~12 MB: 4–5 searches' worth of neighbours of long agent messages, all of LoCoMo's chat). A
 * search asks for the neighbours of ~250 turns, mostly of a few sessions, and the next search
 * asks for many of the same; bounded so a daemon over a large home does not hold every turn.
 * A row holds what ranking reads (NeighbourTurn): its object, its id and the map's slot. The least
 * recently asked go first (lru-cache: evicting from a Map's front by iteration walks over every
 * slot deleted since it last rehashed, tens of µs an eviction once the cache is full).
 */
const MAX_CACHED_CHARS = 6_000_000;
const ROW_OVERHEAD = 120;

interface Anchor {
  seq: number;
  session: string;
}

interface NamespaceTurns {
  /** Turn id → where it sits; null for an id that is not a turn of this namespace. */
  anchors: Map<string, Anchor | null>;
  /** Session → the seqs of its turns, ascending (what "the turn before" means). */
  sessions: Map<string, number[]>;
  speakers?: readonly SpeakerCount[];
}

interface TurnCache {
  /** Where the database stood when the cache was last brought up to date (turn-writes.ts). */
  mark: WriteMark;
  namespaces: Map<string, NamespaceTurns>;
  /**
   * Seq (unique across namespaces) → the turn as ranking reads it; entryBytes undefined until a
   * search asked for them. Within MAX_CACHED_CHARS.
   */
  rows: LRUCache<number, NeighbourTurn>;
}

const caches = new WeakMap<Database, TurnCache>();

/**
 * Changes when anything was written since: data_version moves when another connection (another
 * process, another Store on the file) commits, total_changes() with every row this connection
 * inserts, updates or deletes (triggers included). Coarse, so a write to any namespace empties
 * the caches keyed by it (entries, term postings): an entry's text, its memory and its scores can
 * all change through purge, import, re-keying and any insert (BM25's idf). The neighbour cache here
 * tells turns only added apart instead (turn-writes.ts).
 */
export function changeToken(db: Database): string {
  const row = stmt(db, 'SELECT (SELECT data_version FROM pragma_data_version) AS v, total_changes() AS c').get() as { v: number; c: number };
  return `${row.v}:${row.c}`;
}

function cacheOf(db: Database, namespace: string): { cache: TurnCache; turns: NamespaceTurns } {
  const mark = writeMark(db);
  let cache = caches.get(db);
  if (cache && !unchanged(cache.mark, mark)) {
    if (onlyAdded(cache.mark, mark)) takeInAdded(db, cache, mark);
    else cache = undefined;
  }
  if (!cache) caches.set(db, (cache = { mark, namespaces: new Map(), rows: new LRUCache({ maxSize: MAX_CACHED_CHARS, sizeCalculation: (r) => weight(r.text) }) }));
  cache.mark = mark;
  let turns = cache.namespaces.get(namespace);
  if (!turns) cache.namespaces.set(namespace, (turns = { anchors: new Map(), sessions: new Map() }));
  return { cache, turns };
}

/**
 * Brings the cache up to `mark` when turns and entries were only added since its own: each new
 * turn goes at the end of its session's order where that is kept (its seq is past every other),
 * an id not known as a turn before is asked again, a namespace's speaker counts take the new
 * turns' speakers in, and a kept row whose turn has just got its entry is dropped (read again when
 * asked).
 */
function takeInAdded(db: Database, cache: TurnCache, mark: WriteMark): void {
  const spoke = new Map<string, Map<string, number>>();
  for (const t of turnsAddedSince(db, cache.mark)) {
    const turns = cache.namespaces.get(t.namespace);
    if (!turns) continue;
    turns.sessions.get(t.session)?.push(t.seq);
    if (turns.anchors.get(t.id) === null) turns.anchors.delete(t.id);
    // As adding turns counts them (turns.ts): a turn with a speaker adds one to that speaker.
    if (t.speaker && turns.speakers) {
      const counts = spoke.get(t.namespace) ?? new Map<string, number>();
      counts.set(t.speaker, (counts.get(t.speaker) ?? 0) + 1);
      spoke.set(t.namespace, counts);
    }
  }
  for (const [namespace, counts] of spoke) {
    const turns = cache.namespaces.get(namespace)!;
    turns.speakers = withTurnsAdded(db, namespace, turns.speakers!, counts);
  }
  for (const seq of turnsEnteredSince(db, cache.mark)) cache.rows.delete(seq);
  cache.mark = mark;
}

/**
 * A speaker list with `added` turns counted in, most turns first (ties in their former order, new
 * names after): reading 1,900 speakers again after every captured turn was a fifth of a search at
 * 50k chat turns. Undefined (read again) when the table's count and sum disagree with the result,
 * a writer this connection does not know of.
 */
function withTurnsAdded(db: Database, namespace: string, list: readonly SpeakerCount[], added: ReadonlyMap<string, number>): readonly SpeakerCount[] | undefined {
  const at = new Map(list.map((s, i) => [s.name, i]));
  const out = list.slice();
  for (const [name, n] of added) {
    const i = at.get(name);
    out[i ?? out.length] = Object.freeze({ name, turns: (i === undefined ? 0 : list[i]!.turns) + n });
  }
  out.sort((a, b) => b.turns - a.turns);
  let sum = 0;
  for (const s of out) sum += s.turns;
  const [count, total] = stmt(db, 'SELECT count(*), total(turns) FROM speakers WHERE namespace = ? /* raw */').raw().get(namespace) as [number, number];
  return count === out.length && total === sum ? Object.freeze(out) : undefined;
}

type Row = { seq: number; id: string; text: string; conversational: number; entry_seq: number | null; entry_bytes?: number | null };

const lift = (r: Row): NeighbourTurn => ({ id: r.id, text: r.text, conversational: r.conversational === 1, entrySeq: r.entry_seq, entryBytes: r.entry_bytes });

/**
 * The columns ranking reads. A tool turn (role or meta.kind 'tool', as search/neighbours.ts tells
 * them) is told here, so meta is never parsed in the process; the entry's seq comes from the
 * (kind, ref_id) index alone, its bytes from its row, read only when asked.
 */
const ROW_COLUMNS = `t.seq, t.id, t.text, e.seq AS entry_seq,
  CASE WHEN t.role = 'tool' OR (t.meta <> '{}' AND json_extract(t.meta, '$.kind') IS 'tool') THEN 0 ELSE 1 END AS conversational`;

/** Where each asked-for turn sits, read through the unique id index for the ids not yet known. */
function readAnchors(db: Database, namespace: string, turns: NamespaceTurns, ids: readonly string[]): void {
  const unknown = ids.filter((id) => !turns.anchors.has(id));
  if (unknown.length === 0) return;
  for (const id of unknown) turns.anchors.set(id, null);
  // No namespace in the WHERE: with it the planner took the namespace index and read every turn
  // of the namespace; a turn of another namespace is dropped here instead.
  const rows = stmt(db, 'SELECT id, seq, session_id, namespace FROM turns WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(unknown)) as Array<{ id: string; seq: number; session_id: string; namespace: string }>;
  for (const r of rows) if (r.namespace === namespace) turns.anchors.set(r.id, { seq: r.seq, session: r.session_id });
}

/** The seqs of every session not yet known, in one read of the (namespace, session, seq) index. */
function readSessions(db: Database, namespace: string, turns: NamespaceTurns, sessions: Iterable<string>): void {
  const unknown = [...new Set(sessions)].filter((s) => !turns.sessions.has(s));
  if (unknown.length === 0) return;
  for (const s of unknown) turns.sessions.set(s, []);
  // One row per session, its seqs as one JSON array (parsed natively): a row per turn, ~2,400 for
  // ~100 sessions of 50k chat turns, cost 2.5 times as much to read and group.
  const rows = stmt(db, 'SELECT session_id, json_group_array(seq ORDER BY seq) FROM turns WHERE namespace = ? AND session_id IN (SELECT value FROM json_each(?)) GROUP BY session_id')
    .raw()
    .all(namespace, JSON.stringify(unknown)) as Array<[string, string]>;
  for (const [session, seqs] of rows) turns.sessions.set(session, JSON.parse(seqs) as number[]);
}

/**
 * The rows of `seqs`: the cached ones, and the rest (or those cached without the entry bytes asked
 * for) read and kept for the next search. Returned apart from the cache, which may evict some of
 * them as it makes room.
 */
function readRows(db: Database, cache: TurnCache, seqs: ReadonlySet<number>, entryBytes: boolean): Map<number, NeighbourTurn> {
  const out = new Map<number, NeighbourTurn>();
  const missing: number[] = [];
  for (const s of seqs) {
    const r = cache.rows.get(s);
    if (!r || (entryBytes && r.entryBytes === undefined)) missing.push(s);
    else out.set(s, r);
  }
  if (missing.length === 0) return out;
  const rows = stmt(
    db,
    `SELECT ${ROW_COLUMNS}${entryBytes ? ', length(CAST(e.body AS BLOB)) AS entry_bytes' : ''} FROM turns t LEFT JOIN entries e ON e.kind = 'turn' AND e.ref_id = t.id
     WHERE t.seq IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(missing)) as Row[];
  for (const r of rows) {
    const row = lift(r);
    out.set(r.seq, row);
    cache.rows.set(r.seq, row);
  }
  return out;
}

const weight = (text: string) => text.length + ROW_OVERHEAD;

/** Index of `x` in the ascending `list`, or -1. */
export function indexOf(list: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list[mid]!;
    if (v === x) return mid;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The turns up to `radius` before and after each turn in its session, in the order asked (unknown
 * ids and turns of other namespaces left out). At most three reads, whatever the number of turns:
 * where the turns sit, their sessions' turn order, the neighbour rows not cached yet. One read
 * transaction, so the three see the same database.
 */
export function turnNeighbours(db: Database, namespace: string, turnIds: readonly string[], radius: number, options: NeighbourOptions = {}): NeighbourTurns[] {
  if (turnIds.length === 0) return [];
  return db.transaction(() => {
    const { cache, turns } = cacheOf(db, namespace);
    readAnchors(db, namespace, turns, turnIds);
    const anchors = turnIds.map((id) => turns.anchors.get(id) ?? null);
    readSessions(db, namespace, turns, anchors.flatMap((a) => (a ? [a.session] : [])));
    const windows = anchors.map((a) => {
      if (!a) return null;
      const list = turns.sessions.get(a.session)!;
      const i = indexOf(list, a.seq);
      return i < 0 ? null : { before: list.slice(Math.max(0, i - radius), i), after: list.slice(i + 1, i + 1 + radius) };
    });
    const wanted = new Set<number>();
    for (const w of windows) {
      if (!w) continue;
      for (const s of w.before) wanted.add(s);
      for (const s of w.after) wanted.add(s);
    }
    const rows = readRows(db, cache, wanted, options.entryBytes === true);
    const out: NeighbourTurns[] = [];
    const row = (seq: number) => rows.get(seq)!;
    windows.forEach((w, k) => {
      if (w) out.push({ turnId: turnIds[k]!, before: w.before.map(row), after: w.after.map(row) });
    });
    return out;
  })();
}
