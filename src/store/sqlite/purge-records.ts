// Purging records by id for SQLite (store.ts purgeRecords): memories and document chunks are
// deleted, a turn becomes a tombstone, and everything derived goes with them — index entries (and
// so the keyword index and, by cascade, vectors), feedback, judgments' links and statements, a
// memory's entity mentions and facts (and an entity only it named), the
// memory the judge made of a purged turn, and the digests that cite a purged memory or turn. One
// immediate transaction; a dry run is the same transaction rolled back, so its counts are exactly
// what a real run would do.
import type { Database } from 'better-sqlite3';
import { PURGED_MARKER, type PurgeChanges, type PurgeIdsResult, type PurgeScope, type PurgedKind, type RemovedDigest } from '../purge.js';
import { purgeMemoryKnowledge } from './knowledge.js';
import { stmt } from './statements.js';

/** Thrown inside a dry run's transaction to roll it back once everything was counted. */
class DryRun extends Error {}

interface Found {
  kind: PurgedKind;
  id: string;
  namespace: string;
}

export function emptyChanges(): PurgeChanges {
  return { removed: [], rewritten: {}, entriesRemoved: 0, entriesRewritten: 0, vectors: 0, namespaces: [], digests: [], formerTexts: [] };
}

function inScope(scope: PurgeScope): string {
  return scope === null ? '' : ' AND namespace = @scope';
}

/** The record an id names in the scope (memories, then turns, then document chunks), or null. */
function find(db: Database, scope: PurgeScope, id: string): Found | null {
  const params = { id, scope };
  for (const [kind, table] of [['memory', 'memories'], ['turn', 'turns'], ['document', 'documents']] as const) {
    const row = stmt(db, `SELECT namespace FROM ${table} WHERE id = @id${inScope(scope)}`).get(scope === null ? { id } : params) as { namespace: string } | undefined;
    if (row) return { kind, id, namespace: row.namespace };
  }
  return null;
}

/** Deletes index entries (their keyword index rows and vectors go with them). */
function dropEntries(db: Database, list: ReadonlyArray<{ seq: number; body: string }>, out: PurgeChanges): void {
  for (const entry of list) {
    out.vectors += stmt(db, 'SELECT COUNT(*) FROM vectors WHERE entry_seq = ?').pluck().get(entry.seq) as number;
    out.formerTexts.push(entry.body);
    stmt(db, 'DELETE FROM entries WHERE seq = ?').run(entry.seq);
    out.entriesRemoved++;
  }
}

/** Deletes a record's index entry. */
function dropEntry(db: Database, kind: PurgedKind, id: string, out: PurgeChanges): void {
  const entry = stmt(db, 'SELECT seq, body FROM entries WHERE kind = ? AND ref_id = ?').get(kind, id) as { seq: number; body: string } | undefined;
  if (entry) dropEntries(db, [entry], out);
}

/**
 * Removes the digests citing a removed record, with their section entries: a digest repeats what it
 * cites in its own words, and is derived, so the next consolidation writes it again without it.
 */
function purgeCitingDigests(db: Database, ids: readonly string[], out: PurgeChanges): void {
  const digests = stmt(
    db,
    `SELECT DISTINCT d.id, d.namespace, d.kind, d.path FROM digest_sources s JOIN digests d ON d.id = s.digest_id
     WHERE s.source_id IN (SELECT value FROM json_each(?)) ORDER BY d.namespace, d.path`,
  ).all(JSON.stringify(ids)) as RemovedDigest[];
  for (const d of digests) {
    const [from, to] = [`${d.id}#`, `${d.id}$`];
    dropEntries(db, stmt(db, "SELECT seq, body FROM entries WHERE kind = 'digest' AND ref_id > ? AND ref_id < ?").all(from, to) as Array<{ seq: number; body: string }>, out);
    stmt(db, 'DELETE FROM digests WHERE id = ?').run(d.id); // digest_sources cascade
    out.digests.push(d);
  }
}

/** Removes one memory; the versions before and after it in its supersede chain are linked to each other. */
function purgeMemory(db: Database, id: string, out: PurgeChanges): void {
  const row = stmt(db, 'SELECT text, supersedes, superseded_by FROM memories WHERE id = ?').get(id) as { text: string; supersedes: string | null; superseded_by: string | null } | undefined;
  if (!row) return;

  stmt(db, 'UPDATE memories SET superseded_by = ? WHERE superseded_by = ?').run(row.superseded_by, id);
  stmt(db, 'UPDATE memories SET supersedes = ? WHERE supersedes = ?').run(row.supersedes, id);
  dropEntry(db, 'memory', id, out);
  // A memory is embedded by its own text, not its entry's body (which adds tags and names): that
  // text's cached vector goes too.
  if (out.formerTexts.at(-1) !== row.text) out.formerTexts.push(row.text);
  purgeMemoryKnowledge(db, id);
  stmt(db, 'DELETE FROM memories WHERE id = ?').run(id);
  stmt(db, 'DELETE FROM feedback WHERE ref_id = ?').run(id);
  // The judgment that made it keeps its score; its restatement was this memory's text.
  stmt(db, 'UPDATE judgments SET memory_id = NULL, statement = NULL WHERE memory_id = ?').run(id);
}

/**
 * A turn becomes a tombstone: the row keeps its ids (so capture, which skips a message it already
 * has, never stores it again) with the marker as text, no speaker and no index entry; it is judged
 * noise so no judge reads it again.
 */
function purgeTurn(db: Database, id: string, namespace: string, seq: number, now: string, out: PurgeChanges): void {
  const turn = stmt(db, 'SELECT speaker FROM turns WHERE id = ?').get(id) as { speaker: string | null };
  dropEntry(db, 'turn', id, out);
  if (turn.speaker) {
    stmt(db, 'UPDATE speakers SET turns = turns - 1 WHERE namespace = ? AND name = ?').run(namespace, turn.speaker);
    stmt(db, 'DELETE FROM speakers WHERE namespace = ? AND name = ? AND turns <= 0').run(namespace, turn.speaker);
  }
  stmt(
    db,
    `UPDATE turns SET text = ?, speaker = NULL,
       meta = json_object('kind', json_extract(meta, '$.kind'), 'source', json_extract(meta, '$.source'), 'purged', json('true'))
     WHERE id = ?`,
  ).run(PURGED_MARKER, id);
  stmt(
    db,
    `INSERT INTO judgments (turn_id, namespace, turn_seq, importance, category, judge, reason, statement, memory_id, needs_rejudge, judged_at)
     VALUES (?, ?, ?, 1, 'noise', 'purge', 'purged', NULL, NULL, 0, ?)
     ON CONFLICT (turn_id) DO UPDATE SET importance = 1, category = 'noise', judge = 'purge', reason = 'purged', statement = NULL,
       memory_id = NULL, needs_rejudge = 0, judged_at = excluded.judged_at`,
  ).run(id, namespace, seq, now);
  stmt(db, 'DELETE FROM feedback WHERE ref_id = ?').run(id);
}

function purgeDocument(db: Database, id: string, out: PurgeChanges): void {
  dropEntry(db, 'document', id, out);
  stmt(db, 'DELETE FROM documents WHERE id = ?').run(id);
}

export function purgeRecords(db: Database, scope: PurgeScope, ids: readonly string[], dryRun: boolean, now: string): PurgeIdsResult {
  let result: PurgeIdsResult | undefined;
  const run = db.transaction(() => {
    const out: PurgeIdsResult = { ...emptyChanges(), missing: [] };
    const found: Found[] = [];
    for (const id of new Set(ids)) {
      const hit = find(db, scope, id);
      if (hit) found.push(hit);
      else out.missing.push(id);
    }
    if (out.missing.length > 0) {
      result = out;
      return;
    }
    // A purged turn takes the memory the judge made of it along (that memory restates it).
    const memories = new Set(found.filter((f) => f.kind === 'memory').map((f) => f.id));
    for (const f of found.filter((x) => x.kind === 'turn')) {
      const made = stmt(db, 'SELECT memory_id FROM judgments WHERE turn_id = ? AND memory_id IS NOT NULL').pluck().get(f.id) as string | undefined;
      if (made && !memories.has(made)) {
        const ns = stmt(db, 'SELECT namespace FROM memories WHERE id = ?').pluck().get(made) as string | undefined;
        if (ns !== undefined) {
          memories.add(made);
          found.push({ kind: 'memory', id: made, namespace: ns });
        }
      }
    }
    for (const f of found) {
      if (f.kind === 'memory') purgeMemory(db, f.id, out);
      else if (f.kind === 'document') purgeDocument(db, f.id, out);
      else purgeTurn(db, f.id, f.namespace, stmt(db, 'SELECT seq FROM turns WHERE id = ?').pluck().get(f.id) as number, now, out);
      out.removed.push(f);
    }
    purgeCitingDigests(db, found.filter((f) => f.kind !== 'document').map((f) => f.id), out);
    out.namespaces = [...new Set(found.map((f) => f.namespace))].sort();
    result = out;
    if (dryRun) throw new DryRun();
  });
  try {
    run.immediate();
  } catch (err) {
    if (!(err instanceof DryRun)) throw err;
  }
  return result!;
}
