// Purging records by id for PostgreSQL (store.ts purgeRecords), as sqlite/purge-records.ts does:
// memories and document chunks are deleted, a turn becomes a tombstone, and everything derived goes
// with them — index entries (their terms with them and, by cascade, vectors), feedback, judgments'
// links and statements, a memory's entity mentions and facts (and an entity only it named), the
// memory the judge made of a purged turn, and the digests that cite a purged memory or turn. One
// transaction; a dry run is the same transaction rolled back, so its counts are exactly what a real
// run would do.
//
// Concurrency: where SQLite holds its one writer lock, this locks the purged records' rows
// (SELECT ... FOR UPDATE) before touching anything, so a writer changing one of them (a supersede,
// a re-mention, a judgment) waits for the purge and then finds it gone; the rows around them
// (chain neighbours, speakers, judgments) are locked by the UPDATEs that change them. A writer
// locking the same rows in another order (a judge holds the turn, then wants the memory) can
// deadlock with it: PostgreSQL aborts one, and a purge it aborted runs again (RUNS).
import type pg from 'pg';
import { PURGED_MARKER, type PurgeChanges, type PurgeIdsResult, type PurgeScope, type PurgedKind, type RemovedDigest } from '../purge.js';
import { pgCode, PG, poolOf, transaction, type Db } from './connect.js';
import { notePurgeWrite } from './purge-log.js';

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

const TABLES = [['memory', 'memories'], ['turn', 'turns'], ['document', 'documents']] as const;

/** The records the ids name in the scope (a memory first, then a turn, then a document chunk), locked. */
async function find(c: pg.PoolClient, scope: PurgeScope, ids: readonly string[]): Promise<Map<string, Found>> {
  const found = new Map<string, Found>();
  for (const [kind, table] of TABLES) {
    // PostgreSQL text holds no NUL (a parameter with one is refused): such an id names nothing.
    const rest = ids.filter((id) => !found.has(id) && !id.includes('\u0000'));
    if (rest.length === 0) break;
    const { rows } = await c.query<{ id: string; namespace: string }>(
      `SELECT id, namespace FROM ${table} WHERE id = ANY($1) AND ($2::text IS NULL OR namespace = $2) ORDER BY id FOR UPDATE`,
      [rest, scope],
    );
    for (const r of rows) found.set(r.id, { kind, id: r.id, namespace: r.namespace });
  }
  return found;
}

/** Deletes index entries (their terms and vectors go with them). */
async function dropEntries(c: pg.PoolClient, list: ReadonlyArray<{ seq: number; body: string }>, out: PurgeChanges): Promise<void> {
  for (const entry of list) {
    out.vectors += (await c.query<{ n: number }>('SELECT COUNT(*) AS n FROM vectors WHERE entry_seq = $1', [entry.seq])).rows[0]!.n;
    out.formerTexts.push(entry.body);
    await c.query('DELETE FROM entries WHERE seq = $1', [entry.seq]);
    out.entriesRemoved++;
  }
}

/** Deletes a record's index entry. */
async function dropEntry(c: pg.PoolClient, kind: PurgedKind, id: string, out: PurgeChanges): Promise<void> {
  const { rows } = await c.query<{ seq: number; body: string }>('SELECT seq, body FROM entries WHERE kind = $1 AND ref_id = $2', [kind, id]);
  await dropEntries(c, rows, out);
}

/**
 * Removes the digests citing a removed record, with their section entries: a digest repeats what it
 * cites in its own words, and is derived, so the next consolidation writes it again without it.
 * Section entries are `<digest id>#<n>`: matched by prefix (starts_with), not by a `#`..`$` range,
 * which a linguistic collation would not order that way.
 */
async function purgeCitingDigests(c: pg.PoolClient, ids: readonly string[], out: PurgeChanges): Promise<void> {
  if (ids.length === 0) return;
  const { rows: digests } = await c.query<RemovedDigest>(
    `SELECT DISTINCT d.id, d.namespace, d.kind, d.path FROM digest_sources s JOIN digests d ON d.id = s.digest_id
     WHERE s.source_id = ANY($1) ORDER BY d.namespace, d.path`,
    [ids],
  );
  for (const d of digests) {
    const { rows } = await c.query<{ seq: number; body: string }>(
      "SELECT seq, body FROM entries WHERE namespace = $1 AND kind = 'digest' AND starts_with(ref_id, $2) ORDER BY ref_id COLLATE \"C\"",
      [d.namespace, `${d.id}#`],
    );
    await dropEntries(c, rows, out);
    await c.query('DELETE FROM digests WHERE id = $1', [d.id]); // digest_sources cascade
    out.digests.push({ id: d.id, namespace: d.namespace, kind: d.kind, path: d.path });
  }
}

/**
 * A memory's knowledge (as sqlite/knowledge.ts purgeMemoryKnowledge): its facts go, a fact it
 * superseded now points past it, and an entity it alone named (no other mention, no alias a person
 * pinned) goes too, so a purged name survives nowhere.
 */
async function purgeMemoryKnowledge(c: pg.PoolClient, memoryId: string): Promise<void> {
  const entityIds = (await c.query<{ entity_id: string }>('SELECT entity_id FROM entity_mentions WHERE memory_id = $1', [memoryId])).rows.map((r) => r.entity_id);
  const { rows: facts } = await c.query<{ id: string; superseded_by: string | null }>('SELECT id, superseded_by FROM facts WHERE memory_id = $1', [memoryId]);
  for (const f of facts) await c.query('UPDATE facts SET superseded_by = $1 WHERE superseded_by = $2', [f.superseded_by, f.id]);
  await c.query('DELETE FROM facts WHERE memory_id = $1', [memoryId]);
  await c.query('DELETE FROM entity_mentions WHERE memory_id = $1', [memoryId]);
  if (entityIds.length === 0) return;
  await c.query(
    `DELETE FROM entities WHERE id = ANY($1)
       AND NOT EXISTS (SELECT 1 FROM entity_mentions em WHERE em.entity_id = entities.id)
       AND NOT EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = entities.id AND a.pinned = 1)`,
    [entityIds],
  );
}

/** Removes one memory; the versions before and after it in its supersede chain are linked to each other. */
async function purgeMemory(c: pg.PoolClient, id: string, out: PurgeChanges): Promise<void> {
  const { rows } = await c.query<{ text: string; supersedes: string | null; superseded_by: string | null }>('SELECT text, supersedes, superseded_by FROM memories WHERE id = $1', [id]);
  const row = rows[0];
  if (!row) return;
  await c.query('UPDATE memories SET superseded_by = $1 WHERE superseded_by = $2', [row.superseded_by, id]);
  await c.query('UPDATE memories SET supersedes = $1 WHERE supersedes = $2', [row.supersedes, id]);
  await dropEntry(c, 'memory', id, out);
  // A memory is embedded by its own text, not its entry's body (which adds tags and names): that
  // text's cached vector goes too.
  if (out.formerTexts.at(-1) !== row.text) out.formerTexts.push(row.text);
  await purgeMemoryKnowledge(c, id);
  await c.query('DELETE FROM memories WHERE id = $1', [id]);
  await c.query('DELETE FROM feedback WHERE ref_id = $1', [id]);
  // The judgment that made it keeps its score; its restatement was this memory's text.
  await c.query('UPDATE judgments SET memory_id = NULL, statement = NULL WHERE memory_id = $1', [id]);
}

/** A tombstone's meta: only where the turn came from, as SQLite's json_object writes it. */
function tombstoneMeta(meta: string): string {
  let parsed: Record<string, unknown> = {};
  try {
    const v: unknown = JSON.parse(meta);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) parsed = v as Record<string, unknown>;
  } catch {
    /* a meta that is not JSON keeps nothing */
  }
  return JSON.stringify({ kind: parsed.kind ?? null, source: parsed.source ?? null, purged: true });
}

/**
 * A turn becomes a tombstone: the row keeps its ids (so capture, which skips a message it already
 * has, never stores it again) with the marker as text, no speaker and no index entry; it is judged
 * noise so no judge reads it again.
 */
async function purgeTurn(c: pg.PoolClient, id: string, namespace: string, now: string, out: PurgeChanges): Promise<void> {
  const turn = (await c.query<{ seq: number; speaker: string | null; meta: string }>('SELECT seq, speaker, meta FROM turns WHERE id = $1', [id])).rows[0]!;
  await dropEntry(c, 'turn', id, out);
  if (turn.speaker) {
    await c.query('UPDATE speakers SET turns = turns - 1 WHERE namespace = $1 AND name = $2', [namespace, turn.speaker]);
    await c.query('DELETE FROM speakers WHERE namespace = $1 AND name = $2 AND turns <= 0', [namespace, turn.speaker]);
  }
  await c.query('UPDATE turns SET text = $1, speaker = NULL, meta = $2 WHERE id = $3', [PURGED_MARKER, tombstoneMeta(turn.meta), id]);
  await c.query(
    `INSERT INTO judgments (turn_id, namespace, turn_seq, importance, category, judge, reason, statement, memory_id, needs_rejudge, judged_at)
     VALUES ($1, $2, $3, 1, 'noise', 'purge', 'purged', NULL, NULL, 0, $4)
     ON CONFLICT (turn_id) DO UPDATE SET importance = 1, category = 'noise', judge = 'purge', reason = 'purged', statement = NULL,
       memory_id = NULL, needs_rejudge = 0, judged_at = excluded.judged_at`,
    [id, namespace, turn.seq, now],
  );
  await c.query('DELETE FROM feedback WHERE ref_id = $1', [id]);
}

async function purgeDocument(c: pg.PoolClient, id: string, out: PurgeChanges): Promise<void> {
  await dropEntry(c, 'document', id, out);
  await c.query('DELETE FROM documents WHERE id = $1', [id]);
}

/** Runs a purge that lost a deadlock (it locks rows other writers lock in another order) again, up to this many times. */
const RUNS = 3;

async function purgeOnce(db: Db, scope: PurgeScope, ids: readonly string[], dryRun: boolean, now: string): Promise<PurgeIdsResult> {
  let result: PurgeIdsResult | undefined;
  try {
    await transaction(db, async (c) => {
      const out: PurgeIdsResult = { ...emptyChanges(), missing: [] };
      const unique = [...new Set(ids)];
      const hits = await find(c, scope, unique);
      const found: Found[] = [];
      for (const id of unique) {
        const hit = hits.get(id);
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
        const made = (await c.query<{ memory_id: string }>('SELECT memory_id FROM judgments WHERE turn_id = $1 AND memory_id IS NOT NULL', [f.id])).rows[0]?.memory_id;
        if (made && !memories.has(made)) {
          const ns = (await c.query<{ namespace: string }>('SELECT namespace FROM memories WHERE id = $1 FOR UPDATE', [made])).rows[0]?.namespace;
          if (ns !== undefined) {
            memories.add(made);
            found.push({ kind: 'memory', id: made, namespace: ns });
          }
        }
      }
      for (const f of found) {
        if (f.kind === 'memory') await purgeMemory(c, f.id, out);
        else if (f.kind === 'document') await purgeDocument(c, f.id, out);
        else await purgeTurn(c, f.id, f.namespace, now, out);
        out.removed.push(f);
      }
      await purgeCitingDigests(c, found.filter((f) => f.kind !== 'document').map((f) => f.id), out);
      out.namespaces = [...new Set(found.map((f) => f.namespace))].sort();
      result = out;
      if (dryRun) throw new DryRun();
      if (found.length > 0) await notePurgeWrite(c);
    });
  } catch (err) {
    if (!(err instanceof DryRun)) throw err;
  }
  return result!;
}

export async function purgeRecords(db: Db, scope: PurgeScope, ids: readonly string[], dryRun: boolean, now: string): Promise<PurgeIdsResult> {
  for (let run = 1; ; run++) {
    try {
      return await purgeOnce(db, scope, ids, dryRun, now);
    } catch (err) {
      if (pgCode(err) !== PG.DEADLOCK || run >= RUNS || poolOf(db) !== db) throw err;
    }
  }
}
