// What was written since the neighbour cache (context.ts) was filled, told apart cheaply enough to
// ask at every search. Capture adds turns while an agent searches: emptying the cache at each
// added turn made a search right after one cost half as much again (chat50k: 24 against 19 ms CPU
// p50), though adding a turn changes no cached turn, session order or anchor: it only appends.
// Rewrites are what can: an update or delete of a turn or of a turn's entry (purge, re-keying, a
// moved session, a cascade). This connection counts its own in TEMP triggers (its temp schema: no
// change to the file, nothing another process sees); a commit by another connection moves
// data_version, and the cache is then emptied as before, not knowing what it did.
import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';
import { inTempSchema } from './temp-schema.js';

/** Where the database stood: its change counters and the newest turn and entry then. */
export interface WriteMark {
  /** data_version: moves when another connection commits. */
  version: number;
  /** total_changes(): every row this connection inserted, updated or deleted. */
  changes: number;
  /**
   * This connection's updates and deletes of turns and turn entries, and of speaker counts other
   * than the increments adding turns makes; -1 when they cannot be counted.
   */
  rewrites: number;
  turnSeq: number;
  entrySeq: number;
}

const COUNTER = `
CREATE TEMP TABLE IF NOT EXISTS cairn_turn_rewrites (n INTEGER NOT NULL);
INSERT INTO temp.cairn_turn_rewrites (n) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM temp.cairn_turn_rewrites);
CREATE TEMP TRIGGER IF NOT EXISTS cairn_turn_updated AFTER UPDATE ON main.turns
BEGIN UPDATE temp.cairn_turn_rewrites SET n = n + 1; END;
CREATE TEMP TRIGGER IF NOT EXISTS cairn_turn_deleted AFTER DELETE ON main.turns
BEGIN UPDATE temp.cairn_turn_rewrites SET n = n + 1; END;
CREATE TEMP TRIGGER IF NOT EXISTS cairn_turn_entry_updated AFTER UPDATE ON main.entries WHEN old.kind = 'turn' OR new.kind = 'turn'
BEGIN UPDATE temp.cairn_turn_rewrites SET n = n + 1; END;
CREATE TEMP TRIGGER IF NOT EXISTS cairn_turn_entry_deleted AFTER DELETE ON main.entries WHEN old.kind = 'turn'
BEGIN UPDATE temp.cairn_turn_rewrites SET n = n + 1; END;
CREATE TEMP TRIGGER IF NOT EXISTS cairn_speaker_deleted AFTER DELETE ON main.speakers
BEGIN UPDATE temp.cairn_turn_rewrites SET n = n + 1; END;
CREATE TEMP TRIGGER IF NOT EXISTS cairn_speaker_rewritten AFTER UPDATE ON main.speakers
WHEN new.turns < old.turns OR new.name IS NOT old.name OR new.namespace IS NOT old.namespace
BEGIN UPDATE temp.cairn_turn_rewrites SET n = n + 1; END;`;

/**
 * Whether this connection's rewrites are counted (false when its temp schema refused the triggers:
 * every change then empties the cache, as before).
 */
function counts(db: Database): boolean {
  return inTempSchema(db, 'turn-rewrites', (d) => d.exec(COUNTER));
}

export function writeMark(db: Database): WriteMark {
  const rewrites = counts(db) ? 'SELECT n FROM temp.cairn_turn_rewrites' : 'SELECT -1';
  const [version, changes, n, turnSeq, entrySeq] = stmt(
    db,
    `SELECT (SELECT data_version FROM pragma_data_version), total_changes(), (${rewrites}),
       coalesce((SELECT max(seq) FROM turns), 0), coalesce((SELECT max(seq) FROM entries), 0)`,
  )
    .raw()
    .get() as [number, number, number, number, number];
  return { version, changes, rewrites: n, turnSeq, entrySeq };
}

/** Nothing written between the two marks. */
export function unchanged(before: WriteMark, now: WriteMark): boolean {
  return before.version === now.version && before.changes === now.changes;
}

/**
 * Whatever was written between the marks only added turns and entries (or touched other tables):
 * this connection wrote it, and rewrote no turn or turn entry. New rows take seqs past every
 * existing one (INTEGER PRIMARY KEY: one past the largest; a deleted largest would have been counted).
 */
export function onlyAdded(before: WriteMark, now: WriteMark): boolean {
  return before.version === now.version && before.rewrites >= 0 && before.rewrites === now.rewrites && now.turnSeq >= before.turnSeq && now.entrySeq >= before.entrySeq;
}

/** A turn added after a mark. */
export interface AddedTurn {
  seq: number;
  id: string;
  namespace: string;
  session: string;
  speaker: string | null;
}

/** The turns added after `mark`, in seq order. */
export function turnsAddedSince(db: Database, mark: WriteMark): AddedTurn[] {
  return stmt(db, 'SELECT seq, id, namespace, session_id AS session, speaker FROM turns WHERE seq > ? ORDER BY seq').all(mark.turnSeq) as AddedTurn[];
}

/** The seqs of turns that got an entry after `mark` (a cached row of theirs lacks it). */
export function turnsEnteredSince(db: Database, mark: WriteMark): number[] {
  // The new entries by seq range (the unary + keeps the planner off the (kind, ref_id) index, which
  // walked every turn entry), then their turns by id.
  return stmt(db, "SELECT t.seq FROM turns t WHERE t.id IN (SELECT e.ref_id FROM entries e WHERE e.seq > ? AND +e.kind = 'turn')").pluck().all(mark.entrySeq) as number[];
}
