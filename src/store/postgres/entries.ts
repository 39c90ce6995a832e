// The search side of the PostgreSQL store: entries by seq with their records' details, filtered
// lists, what still needs a vector. Keyword search (keyword-search.ts) and vectors (vectors.ts)
// are re-exported here so the store adapter finds every entry operation in one module, as for SQLite.
import type { Kind } from '../../core/types.js';
import type { EntryFilter, IndexEntry } from '../store.js';
import { entryFromRow, type EntryRow } from '../entry-rows.js';
import type { Db } from './connect.js';
import { filterSql, Params } from './entry-filter.js';
import { digestSectionDetails } from './digest-sections.js';

export { keywordSearch, termsHeld } from './keyword-search.js';
export { putVectors, vectorsAfter, getVectors, getQuantisedVectors, vectorStats, vectorModels, dropVectorsExcept, cacheGet, cachePut, nearestVectors, buildAnnIndex } from './vectors.js';

export async function filterEntries(db: Db, namespace: string, filter: EntryFilter, limit: number): Promise<number[]> {
  const params = new Params(namespace);
  const where = filterSql(filter, params);
  const sql = `SELECT e.seq FROM entries e WHERE e.namespace = $1${where} ORDER BY e.time DESC, e.seq DESC LIMIT ${params.add(limit)}`;
  return (await db.query<{ seq: number }>(sql, params.values)).rows.map((r) => r.seq);
}

type EntryBase = Pick<EntryRow, 'seq' | 'namespace' | 'kind' | 'ref_id' | 'time' | 'category' | 'importance' | 'current' | 'valid_to' | 'body'>;

const NO_MEMORY = { m_text: null, m_created: null, m_valid_to: null, m_prov: null } as const;
const NO_TURN = {
  t_text: null, t_created: null, t_session: null, t_message: null, t_role: null, t_speaker: null, t_line: null,
  t_source_kind: null, t_source_path: null, t_meta_path: null,
} as const;
const NO_DOCUMENT = { d_text: null, d_created: null, d_path: null, d_heading: null, d_start: null, d_end: null } as const;

async function detailsById<T extends { id: string }>(db: Db, sql: string, ids: readonly string[]): Promise<Map<string, T>> {
  if (ids.length === 0) return new Map();
  return new Map((await db.query<T>(sql, [ids])).rows.map((r) => [r.id, r]));
}

/**
 * Entries of the namespace among `seqs`, ascending by seq. The entry rows first, then each kind's
 * details by id (as sqlite/entries.ts does). Nothing is cached between calls: other machines
 * write to the same tables and PostgreSQL offers no cheap "changed since" to empty a cache by.
 */
export async function getEntries(db: Db, namespace: string, seqs: readonly number[]): Promise<IndexEntry[]> {
  if (seqs.length === 0) return [];
  const base = (await db.query<EntryBase>(
    `SELECT e.seq, e.namespace, e.kind, e.ref_id, e.time, e.category, e.importance, e.current, e.valid_to, e.body
     FROM entries e WHERE e.namespace = $1 AND e.seq = ANY($2::bigint[]) ORDER BY e.seq`,
    [namespace, [...new Set(seqs)]],
  )).rows;
  const idsOf = (kind: Kind) => base.filter((b) => b.kind === kind).map((b) => b.ref_id);
  const [memories, turns, documents, digests] = await Promise.all([
    detailsById<{ id: string } & Pick<EntryRow, keyof typeof NO_MEMORY>>(db,
      `SELECT id, text AS m_text, created_at AS m_created, valid_to AS m_valid_to, provenance AS m_prov
       FROM memories WHERE id = ANY($1::text[])`, idsOf('memory')),
    detailsById<{ id: string } & Pick<EntryRow, keyof typeof NO_TURN>>(db,
      `SELECT t.id, t.text AS t_text, t.created_at AS t_created, t.session_id AS t_session, t.message_id AS t_message,
         t.role AS t_role, t.speaker AS t_speaker, t.line AS t_line, s.kind AS t_source_kind, s.path AS t_source_path,
         t.meta::jsonb ->> 'path' AS t_meta_path
       FROM turns t LEFT JOIN sources s ON s.id = t.source_id WHERE t.id = ANY($1::text[])`, idsOf('turn')),
    detailsById<{ id: string } & Pick<EntryRow, keyof typeof NO_DOCUMENT>>(db,
      `SELECT id, text AS d_text, created_at AS d_created, path AS d_path, heading AS d_heading, start_line AS d_start, end_line AS d_end
       FROM documents WHERE id = ANY($1::text[])`, idsOf('document')),
    digestSectionDetails(db, idsOf('digest')),
  ]);
  return base.map((b) => {
    const m = (b.kind === 'memory' && memories.get(b.ref_id)) || NO_MEMORY;
    const t = (b.kind === 'turn' && turns.get(b.ref_id)) || NO_TURN;
    const d = (b.kind === 'document' && documents.get(b.ref_id)) || NO_DOCUMENT;
    return entryFromRow({
      g: (b.kind === 'digest' && digests.get(b.ref_id)) || null,
      seq: b.seq, namespace: b.namespace, kind: b.kind, ref_id: b.ref_id, time: b.time, category: b.category,
      importance: b.importance, current: b.current, valid_to: b.valid_to, body: b.body,
      m_text: m.m_text, m_created: m.m_created, m_valid_to: m.m_valid_to, m_prov: m.m_prov,
      t_text: t.t_text, t_created: t.t_created, t_session: t.t_session, t_message: t.t_message, t_role: t.t_role,
      t_speaker: t.t_speaker, t_line: t.t_line, t_source_kind: t.t_source_kind, t_source_path: t.t_source_path, t_meta_path: t.t_meta_path,
      d_text: d.d_text, d_created: d.d_created, d_path: d.d_path, d_heading: d.d_heading, d_start: d.d_start, d_end: d.d_end,
    });
  });
}

/** jsonb array length, or NULL when the value is not an array (jsonb_array_length would raise). */
const arrayLength = (expr: string) => `(CASE WHEN jsonb_typeof(${expr}) = 'array' THEN jsonb_array_length(${expr}) END)`;

/**
 * The text an entry is embedded by (sqlite/entries.ts EMBED_TEXT): a memory's own text, or the
 * body of the one turn a memory states word for word (its vector then comes from the cache),
 * any other entry its body.
 */
const EMBED_TEXT = `CASE WHEN e.kind = 'memory' THEN coalesce(
    (SELECT te.body FROM memories m JOIN turns t ON t.id = (m.provenance::jsonb -> 0 -> 'turnIds' ->> 0)
       JOIN entries te ON te.kind = 'turn' AND te.ref_id = t.id
     WHERE m.id = e.ref_id AND ${arrayLength('m.provenance::jsonb')} = 1 AND ${arrayLength("m.provenance::jsonb -> 0 -> 'turnIds'")} = 1
       AND m.text = t.text),
    (SELECT m.text FROM memories m WHERE m.id = e.ref_id), e.body)
  ELSE e.body END`;

// The indexer (service/indexer.ts embedPending) pages by seq from 0 on every run and keeps no
// cursor: an entry still to commit when a page passed its seq still has no vector on the next
// run, which embeds it. So no bound here (follow.ts), unlike entryChangesAfter.
export async function entriesMissingVector(
  db: Db,
  model: string,
  limit: number,
  namespace?: string,
  afterSeq = 0,
): Promise<Array<{ seq: number; namespace: string; text: string }>> {
  const params = new Params(model, limit, afterSeq);
  const nsClause = namespace === undefined ? '' : `AND e.namespace = ${params.add(namespace)}`;
  // Walks the primary key from the cursor, so paging through a backlog stays linear overall.
  return (await db.query<{ seq: number; namespace: string; text: string }>(
    `SELECT e.seq, e.namespace, ${EMBED_TEXT} AS text FROM entries e
     WHERE e.seq > $3 AND e.embed = 1 AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.entry_seq = e.seq AND v.model = $1) ${nsClause}
     ORDER BY e.seq LIMIT $2`,
    params.values,
  )).rows;
}

export async function entryFor(db: Db, kind: string, refId: string): Promise<{ seq: number; namespace: string; text: string } | null> {
  const row = (await db.query<{ seq: number; namespace: string; text: string }>(
    `SELECT e.seq, e.namespace, ${EMBED_TEXT} AS text FROM entries e WHERE e.kind = $1 AND e.ref_id = $2`,
    [kind, refId],
  )).rows[0];
  return row ?? null;
}
