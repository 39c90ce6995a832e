// Digests for PostgreSQL (store.ts putDigest …), as sqlite/digests.ts: one row per (namespace,
// path), one 'digest' index entry per non-empty section (ref_id `<digest id>#<section index>`), a
// digest and its entries changed in one transaction, a section whose indexed text did not change
// keeping its entry (and so its vectors) even when it moved. The checks (../digest-rows.ts) and the
// section body are SQLite's own, so both backends refuse and index exactly the same digests.
import { DIGEST_LAYER, type Digest, type DigestSection, type NewDigest } from '../../core/types.js';
import { digestId } from '../../core/ids.js';
import { invalidInput } from '../../core/errors.js';
import type { DigestFilter, EntryChange, PutDigestResult } from '../store.js';
import { checkDigest, digestFromRow, planSectionEntries, type DigestRow, type SectionEntry } from '../digest-rows.js';
import { sectionBody, type DigestSectionDetail } from '../sqlite/digests.js';
import { transaction, type Db } from './connect.js';
import { insertEntry } from './entry-terms.js';
import { followBound } from './follow.js';
import { ensureNamespace } from './namespaces.js';

export { sectionBody, type DigestSectionDetail };

/**
 * The ref_ids a digest's section entries can have: `<id>#0` … `<id>#<count - 1>`, count being the
 * most sections the digest has had (an entry exists only for a section of the stored row). Looked
 * up by the (kind, ref_id) unique index, not by SQLite's `ref_id > '<id>#' AND ref_id < '<id>$'`
 * range: under a database collation other than C that range would not hold, and a prefix match
 * reads every digest entry of the namespace (milliseconds per put at a few thousand).
 */
function sectionRefs(id: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${id}#${i}`);
}

const sectionCount = (row: DigestRow | undefined): number => (row ? (JSON.parse(row.sections) as unknown[]).length : 0);

/** Applies planSectionEntries (digest-rows.ts) to the digest's section entries. */
async function syncSectionEntries(db: Db, id: string, namespace: string, time: string, sections: readonly DigestSection[], storedCount: number): Promise<void> {
  const existing = (await db.query<SectionEntry>(
    // In ref_id byte order, as SQLite reads them: of two equal sections, the same entry is kept.
    `SELECT seq, ref_id, body FROM entries WHERE kind = 'digest' AND ref_id = ANY($1::text[]) ORDER BY ref_id COLLATE "C"`,
    [sectionRefs(id, Math.max(storedCount, sections.length))],
  )).rows;
  const { claimed, moves, dropped, unmatched } = planSectionEntries(id, existing, sections.map(sectionBody));
  if (dropped.length > 0) await db.query('DELETE FROM entries WHERE seq = ANY($1::bigint[])', [dropped]);
  // Moves go through a temporary ref_id so two sections swapping places never collide on UNIQUE(kind, ref_id).
  if (moves.length > 0) {
    await db.query("UPDATE entries SET ref_id = '~' || seq WHERE seq = ANY($1::bigint[])", [moves.map((e) => e.seq)]);
    await db.query(
      'UPDATE entries SET ref_id = m.ref FROM unnest($1::bigint[], $2::text[]) AS m(seq, ref) WHERE entries.seq = m.seq',
      [moves.map((e) => e.seq), moves.map((e) => claimed.get(e.seq)!)],
    );
  }
  if (claimed.size > 0) await db.query('UPDATE entries SET time = $1 WHERE seq = ANY($2::bigint[]) AND time <> $1', [time, [...claimed.keys()]]);
  for (const w of unmatched) {
    await insertEntry(db, { namespace, kind: 'digest', refId: w.ref, body: w.body, time, category: null, importance: null, current: true });
  }
}

async function syncSources(db: Db, id: string, sections: readonly DigestSection[]): Promise<void> {
  await db.query('DELETE FROM digest_sources WHERE digest_id = $1', [id]);
  const ids = [...new Set(sections.flatMap((s) => s.sources.map((src) => src.id)))];
  if (ids.length > 0) {
    await db.query('INSERT INTO digest_sources (source_id, digest_id) SELECT s, $2 FROM unnest($1::text[]) AS s ON CONFLICT DO NOTHING', [ids, id]);
  }
}

async function rowAt(db: Db, namespace: string, path: string): Promise<DigestRow | undefined> {
  return (await db.query<DigestRow>('SELECT * FROM digests WHERE namespace = $1 AND path = $2', [namespace, path])).rows[0];
}

/**
 * Serialises the writers of one (namespace, path) until commit, whether or not its row exists yet
 * (a row lock cannot cover a digest two machines create at once): a transaction-scoped advisory
 * lock on a hash of the schema, namespace and path. A collision only makes two writers wait.
 */
async function lockDigestPath(db: Db, namespace: string, path: string): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ' ' || $1, 0))", [JSON.stringify(['cairn.digest', namespace, path])]);
}

export async function putDigest(db: Db, input: NewDigest, now: string): Promise<PutDigestResult> {
  checkDigest(input);
  const unchanged = (row: DigestRow | undefined): boolean => row !== undefined && row.text === input.text && row.inputs_hash === input.inputsHash;
  // Most digests a consolidation run puts are unchanged: one read answers them, without a
  // transaction or a lock (a write committed after it is simply a later one).
  const seen = await rowAt(db, input.namespace, input.path);
  if (unchanged(seen)) return { digest: digestFromRow(seen!), changed: false };
  return transaction(db, async (c): Promise<PutDigestResult> => {
    await lockDigestPath(c, input.namespace, input.path);
    const stored = await rowAt(c, input.namespace, input.path);
    if (unchanged(stored)) return { digest: digestFromRow(stored!), changed: false };
    await ensureNamespace(c, input.namespace, now);
    const id = stored?.id ?? digestId(input.namespace, input.path);
    const row = (await c.query<DigestRow>(
      `INSERT INTO digests (id, namespace, kind, layer, path, period_start, period_end, text, sections, inputs_hash, generator, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)
       ON CONFLICT (namespace, path) DO UPDATE SET kind = excluded.kind, layer = excluded.layer, period_start = excluded.period_start,
         period_end = excluded.period_end, text = excluded.text, sections = excluded.sections, inputs_hash = excluded.inputs_hash,
         generator = excluded.generator, updated_at = excluded.updated_at
       RETURNING *`,
      [id, input.namespace, input.kind, DIGEST_LAYER[input.kind], input.path, input.periodStart, input.periodEnd, input.text,
        JSON.stringify(input.sections), input.inputsHash, input.generator, now],
    )).rows[0]!;
    await syncSectionEntries(c, id, input.namespace, input.periodStart, input.sections, sectionCount(stored));
    await syncSources(c, id, input.sections);
    return { digest: digestFromRow(row), changed: true };
  });
}

export async function deleteDigest(db: Db, namespace: string, path: string): Promise<boolean> {
  return transaction(db, async (c): Promise<boolean> => {
    await lockDigestPath(c, namespace, path);
    const stored = await rowAt(c, namespace, path);
    if (!stored) return false;
    await c.query("DELETE FROM entries WHERE kind = 'digest' AND ref_id = ANY($1::text[])", [sectionRefs(stored.id, sectionCount(stored))]);
    await c.query('DELETE FROM digests WHERE id = $1', [stored.id]); // digest_sources cascade
    return true;
  });
}

/**
 * The section details of digest entries by ref_id (`<digest id>#<index>`): one read of the digests
 * they belong to, each digest's sections parsed once however many of its sections were hit.
 */
export async function getDigest(db: Db, namespace: string, path: string): Promise<Digest | null> {
  const row = await rowAt(db, namespace, path);
  return row ? digestFromRow(row) : null;
}

export async function listDigests(db: Db, namespace: string, filter: DigestFilter = {}): Promise<Digest[]> {
  const params: unknown[] = [namespace];
  const where = ['namespace = $1'];
  if (filter.kinds) {
    // An empty list asks for no kind at all, not every kind.
    params.push([...filter.kinds]);
    where.push(`kind = ANY($${params.length}::text[])`);
  }
  // [period_start, period_end) overlaps [since, until).
  if (filter.since !== undefined) {
    params.push(filter.since);
    where.push(`period_end > $${params.length}`);
  }
  if (filter.until !== undefined) {
    params.push(filter.until);
    where.push(`period_start < $${params.length}`);
  }
  // COLLATE "C": paths in code point order, as SQLite's binary collation sorts them.
  return (await db.query<DigestRow>(`SELECT * FROM digests WHERE ${where.join(' AND ')} ORDER BY path COLLATE "C"`, params)).rows.map(digestFromRow);
}

/**
 * Consolidation keeps the last seq it saw (consolidation_state) and a prepared brief the newest one,
 * so a page ends at followBound's seq (follow.ts): no entry still to commit is ever passed.
 */
export async function entryChangesAfter(db: Db, namespace: string, afterSeq: number, limit: number): Promise<EntryChange[]> {
  const bound = await followBound(db, 'entries', namespace);
  if (bound <= afterSeq) return [];
  return (await db.query<EntryChange>(
    `SELECT seq, kind, time FROM entries WHERE seq > $1 AND seq <= $4 AND namespace = $2 AND kind <> 'digest' ORDER BY seq LIMIT $3`,
    [afterSeq, namespace, limit, bound],
  )).rows;
}

export async function getConsolidationState(db: Db, namespace: string): Promise<Record<string, unknown> | null> {
  const raw = (await db.query<{ state: string }>('SELECT state FROM consolidation_state WHERE namespace = $1', [namespace])).rows[0]?.state;
  if (raw === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // A damaged row reads as no state: consolidation then redoes what it cannot prove it did.
  }
  return null;
}

export async function putConsolidationState(db: Db, namespace: string, state: Record<string, unknown>, now: string): Promise<void> {
  if (!state || typeof state !== 'object' || Array.isArray(state)) throw invalidInput('Consolidation state must be a JSON object');
  const json = JSON.stringify(state);
  await transaction(db, async (c) => {
    await ensureNamespace(c, namespace, now);
    await c.query(
      `INSERT INTO consolidation_state (namespace, state, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (namespace) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
      [namespace, json, now],
    );
  });
}
