// The search side of the SQLite store: BM25 over entries_fts, entry metadata for ranking, vectors
// and the embedding cache. Plain functions over an injected handle.
import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';
import type { Kind, Layer } from '../../core/types.js';
import type { EntryFilter, IndexEntry, KeywordHit, StoredVector, VectorRow, VectorStats } from '../store.js';
import { keysOf, textHashKey } from '../text-hash-key.js';
import { decodeVector, encodeVector } from '../vector-codec.js';
import { digestSectionDetails } from './digests.js';
import { entryFromRow, memoryEntry, type EntryBase, type EntryRow } from '../entry-rows.js';
import { cachedEntries } from './entry-cache.js';
import { ftsQuery } from './fts-text.js';
import { passes } from '../../search/entry-filter.js';
import { topHits, topHitsAmong } from './term-scores.js';
import { membersAnswer, namespaceMembers } from './namespace-members.js';

function filterSql(filter: EntryFilter | undefined, params: Record<string, unknown>, alias = 'e'): string {
  const where: string[] = [];
  if (!filter?.includeSuperseded) {
    if (filter?.validAt !== undefined) {
      // As of a moment: what stopped being current after it was still current then.
      where.push(`(${alias}.current = 1 OR ${alias}.valid_to > @validAt)`);
      params.validAt = filter.validAt;
    } else where.push(`${alias}.current = 1`);
  }
  if (filter?.memoryIds !== undefined) {
    where.push(`${alias}.kind = 'memory' AND ${alias}.ref_id IN (SELECT value FROM json_each(@memoryIds))`);
    params.memoryIds = JSON.stringify(filter.memoryIds);
  }
  if (filter?.kinds?.length) {
    where.push(`${alias}.kind IN (${filter.kinds.map((_, i) => `@k${i}`).join(', ')})`);
    filter.kinds.forEach((k, i) => (params[`k${i}`] = k));
  }
  if (filter?.categories?.length) {
    where.push(`${alias}.category IN (${filter.categories.map((_, i) => `@c${i}`).join(', ')})`);
    filter.categories.forEach((c, i) => (params[`c${i}`] = c));
  }
  if (filter?.minImportance !== undefined) {
    where.push(`${alias}.importance >= @minImportance`);
    params.minImportance = filter.minImportance;
  }
  if (filter?.layers?.length) where.push(layerSql(filter.layers, params, alias));
  if (filter?.since) {
    where.push(`${alias}.time >= @since`);
    params.since = filter.since;
  }
  if (filter?.until) {
    where.push(`${alias}.time <= @until`);
    params.until = filter.until;
  }
  return where.length ? ` AND ${where.join(' AND ')}` : '';
}

/**
 * Entries of the given layers. Turns are layer 4 and memories and documents 3 by kind; a digest
 * entry's layer is its digest row's, looked up by primary key (the ref_id up to '#'). A layer
 * column on entries would have cost a migration rewriting every row (seconds and a WAL the size of
 * the table on a 1M-entry store) to repeat what the kind already says for all but the digests,
 * which are few (a few thousand sections a year per namespace): the lookup runs for those rows only.
 */
function layerSql(layers: readonly Layer[], params: Record<string, unknown>, alias: string): string {
  const either: string[] = [];
  if (layers.includes(4)) either.push(`${alias}.kind = 'turn'`);
  if (layers.includes(3)) either.push(`${alias}.kind IN ('memory', 'document')`);
  const digestLayers = [...new Set(layers.filter((l) => l <= 3))];
  if (digestLayers.length) {
    either.push(`(${alias}.kind = 'digest' AND EXISTS (SELECT 1 FROM digests d
      WHERE d.id = substr(${alias}.ref_id, 1, instr(${alias}.ref_id, '#') - 1) AND d.layer IN (${digestLayers.map((_, i) => `@l${i}`).join(', ')})))`);
    digestLayers.forEach((l, i) => (params[`l${i}`] = l));
  }
  return either.length ? `(${either.join(' OR ')})` : '0';
}

/** Over-fetch factor for the FTS-only fast path: room for other namespaces and filtered rows. */
const FTS_OVERFETCH = 4;
/**
 * Searches of a namespace that go straight to its own top hits (namespaceKeywordSearch) after the
 * fast path fell short: in a home of many namespaces (one per conversation, per project) a
 * namespace's share of the top hits is small and the fast path only doubled the work. Tried again
 * after that many, as a namespace grows.
 */
const NAMESPACE_FIRST_STREAK = 16;
const namespaceFirst = new WeakMap<Database, Map<string, number>>();

export function keywordSearch(db: Database, namespace: string, terms: readonly string[], limit: number, filter?: EntryFilter): KeywordHit[] {
  if (terms.length === 0) return [];
  const q = ftsQuery(terms, filter?.allTerms === true);
  // Fast path: the top hits from FTS alone (no join, no full sort of every match), then the wall
  // and the filters. The survivors, taken in global BM25 order, are exactly the filtered top-k as
  // long as `limit` of them survive; otherwise the namespace's own top hits (namespaceKeywordSearch).
  const overfetch = limit * FTS_OVERFETCH;
  let skips = namespaceFirst.get(db);
  if (!skips) namespaceFirst.set(db, (skips = new Map()));
  const left = skips.get(namespace) ?? 0;
  if (left > 0) {
    skips.set(namespace, left - 1);
    return namespaceKeywordSearch(db, q, terms, namespace, limit, filter);
  }
  const top =
    (filter?.allTerms ? null : topHits(db, terms, overfetch)) ??
    (stmt(db, 'SELECT rowid AS seq, -bm25(entries_fts) AS score FROM entries_fts WHERE entries_fts MATCH ? ORDER BY bm25(entries_fts) LIMIT ?').all(q, overfetch) as KeywordHit[]);
  if (top.length === 0) return [];
  // The first `limit` hits checked first: in a home of one namespace they all pass, and the rest
  // are checked only when some do not.
  const survivors = passing(db, namespace, filter, top.slice(0, limit));
  if (survivors.length < limit) survivors.push(...passing(db, namespace, filter, top.slice(limit)));
  if (survivors.length >= limit || top.length < overfetch) return survivors.slice(0, limit);
  skips.set(namespace, NAMESPACE_FIRST_STREAK);
  return namespaceKeywordSearch(db, q, terms, namespace, limit, filter);
}

/**
 * The namespace's top hits when the FTS-only fast path cannot give them: from the per-term scores
 * among the namespace's entries when the filter asks nothing else of them, else the join.
 */
function namespaceKeywordSearch(db: Database, q: string, terms: readonly string[], namespace: string, limit: number, filter?: EntryFilter): KeywordHit[] {
  const members = membersAnswer(filter) ? namespaceMembers(db, namespace, filter) : null;
  const among = members && topHitsAmong(db, terms, limit, members);
  return among ?? joinedKeywordSearch(db, q, namespace, limit, filter);
}

/**
 * The hits whose entries are of the namespace and pass the filter, in their order: told by the
 * entries themselves (search/entry-filter.ts, the same conditions as filterSql), read through the
 * entry cache, as the search that asked reads them right after. A SQL check of the same rows
 * before that read cost ~0.7 ms of a first-asked search at 50k chat turns and 100k memories.
 */
function passing(db: Database, namespace: string, filter: EntryFilter | undefined, hits: readonly KeywordHit[]): KeywordHit[] {
  if (hits.length === 0) return [];
  const keep = new Set<number>();
  for (const e of cachedEntries(db, namespace, hits.map((h) => h.seq), (missing) => readEntries(db, namespace, missing), undefined, false)) {
    if (passes(e, filter ?? {})) keep.add(e.seq);
  }
  return hits.filter((h) => keep.has(h.seq));
}

/** Every match joined with its entry, filtered, then ranked: exact whatever the namespace's share. */
function joinedKeywordSearch(db: Database, q: string, namespace: string, limit: number, filter?: EntryFilter): KeywordHit[] {
  const all: Record<string, unknown> = { q, namespace, limit };
  const sql = `SELECT e.seq AS seq, -bm25(entries_fts) AS score
    FROM entries_fts JOIN entries e ON e.seq = entries_fts.rowid
    WHERE entries_fts MATCH @q AND e.namespace = @namespace${filterSql(filter, all)}
    ORDER BY bm25(entries_fts) LIMIT @limit`;
  return stmt(db, sql).all(all) as KeywordHit[];
}

export function filterEntries(db: Database, namespace: string, filter: EntryFilter, limit: number): number[] {
  const params: Record<string, unknown> = { namespace, limit };
  const sql = `SELECT e.seq FROM entries e WHERE e.namespace = @namespace${filterSql(filter, params)} ORDER BY e.time DESC LIMIT @limit`;
  return (stmt(db, sql).pluck().all(params) as number[]);
}

const NO_TURN = {
  t_text: null, t_created: null, t_session: null, t_message: null, t_role: null, t_speaker: null, t_line: null,
  t_source_kind: null, t_source_path: null, t_meta_path: null,
} as const;
const NO_DOCUMENT = { d_text: null, d_created: null, d_path: null, d_heading: null, d_start: null, d_end: null } as const;

/** Detail rows of one kind by id (one statement whatever the count: the ids go in as a JSON array). */
function detailsById<T extends { id: string }>(db: Database, sql: string, ids: readonly string[]): Map<string, T> {
  if (ids.length === 0) return new Map();
  return new Map((stmt(db, sql).all(JSON.stringify(ids)) as T[]).map((r) => [r.id, r]));
}

export function getEntries(db: Database, namespace: string, seqs: readonly number[]): IndexEntry[] {
  if (seqs.length === 0) return [];
  return cachedEntries(db, namespace, seqs, (missing) => readEntries(db, namespace, missing));
}

function readEntries(db: Database, namespace: string, seqs: readonly number[]): IndexEntry[] {
  // The index rows with their memories' details, then each other kind's details by id: one join
  // of all four tables per row cost twice as much (2.3 → 1.2 ms for 180 entries at 100k
  // memories), but the memory alone joined costs a fifth less than its own statement by id (3.3 →
  // 2.7 ms for 250 memories never read before: no second list of ids to parse and sort). The
  // unary + keeps the planner on primary-key lookups rather than the (namespace, time) index.
  // Rows as arrays: named rows built by the driver cost a third more (0.35 ms of 180 entries).
  const rows = stmt(db,
    `SELECT e.seq, e.namespace, e.kind, e.ref_id, e.time, e.category, e.importance, e.current, e.valid_to, e.body,
       m.text, m.created_at, m.valid_to, m.provenance
     FROM entries e LEFT JOIN memories m ON e.kind = 'memory' AND m.id = e.ref_id
     WHERE +e.namespace = ? AND e.seq IN (SELECT value FROM json_each(?))`,
  ).raw().all(namespace, JSON.stringify(seqs)) as Array<[number, string, Kind, string, string, string | null, number | null, number, string | null, string, string | null, string | null, string | null, string | null]>;
  // Memory entries are built as their rows come (indexed, not destructured: a 14-column row per
  // entry); the other kinds wait for their details, read below by id.
  const out = new Array<IndexEntry>(rows.length);
  const base: EntryBase[] = [];
  const at: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const b: EntryBase = { seq: r[0], namespace: r[1], kind: r[2], ref_id: r[3], time: r[4], category: r[5], importance: r[6], current: r[7], valid_to: r[8], body: r[9] };
    if (b.kind === 'memory') out[i] = memoryEntry(b, { m_text: r[10], m_created: r[11], m_valid_to: r[12], m_prov: r[13] });
    else {
      base.push(b);
      at.push(i);
    }
  }
  if (base.length === 0) return out;
  const idsOf = (kind: Kind) => base.filter((b) => b.kind === kind).map((b) => b.ref_id);
  const turns = detailsById<{ id: string } & Pick<EntryRow, keyof typeof NO_TURN>>(db,
    `SELECT t.id, t.text AS t_text, t.created_at AS t_created, t.session_id AS t_session, t.message_id AS t_message,
       t.role AS t_role, t.speaker AS t_speaker, t.line AS t_line, s.kind AS t_source_kind, s.path AS t_source_path,
       json_extract(t.meta, '$.path') AS t_meta_path
     FROM turns t LEFT JOIN sources s ON s.id = t.source_id WHERE t.id IN (SELECT value FROM json_each(?))`, idsOf('turn'));
  const documents = detailsById<{ id: string } & Pick<EntryRow, keyof typeof NO_DOCUMENT>>(db,
    `SELECT id, text AS d_text, created_at AS d_created, path AS d_path, heading AS d_heading, start_line AS d_start, end_line AS d_end
     FROM documents WHERE id IN (SELECT value FROM json_each(?))`, idsOf('document'));
  const digests = digestSectionDetails(db, idsOf('digest'));
  base.forEach((b, k) => {
    const t = (b.kind === 'turn' && turns.get(b.ref_id)) || NO_TURN;
    const d = (b.kind === 'document' && documents.get(b.ref_id)) || NO_DOCUMENT;
    out[at[k]!] = entryFromRow({
      g: (b.kind === 'digest' && digests.get(b.ref_id)) || null,
      seq: b.seq, namespace: b.namespace, kind: b.kind, ref_id: b.ref_id, time: b.time, category: b.category,
      importance: b.importance, current: b.current, valid_to: b.valid_to, body: b.body,
      m_text: null, m_created: null, m_valid_to: null, m_prov: null,
      t_text: t.t_text, t_created: t.t_created, t_session: t.t_session, t_message: t.t_message, t_role: t.t_role,
      t_speaker: t.t_speaker, t_line: t.t_line, t_source_kind: t.t_source_kind, t_source_path: t.t_source_path, t_meta_path: t.t_meta_path,
      d_text: d.d_text, d_created: d.d_created, d_path: d.d_path, d_heading: d.d_heading, d_start: d.d_start, d_end: d.d_end,
    });
  });
  return out;
}

/**
 * The text an entry is embedded by: a memory's own text (its index body also lists tags and entity
 * names, which are for BM25), or, for a memory the judge made of one turn word for word, that
 * turn's text, whose vector is then taken from the cache instead of the same text going through the
 * model twice; any other entry, its body. A memory that states its turn after the speaker's name
 * ("Ana: …") keeps a vector of its own: with the name in it, questions about a person find what
 * they said (LoCoMo recall@10 on conversations 5–9: 0.891 with it, 0.880 when it took the turn's).
 */
const EMBED_TEXT = `CASE WHEN e.kind = 'memory' THEN coalesce(
    (SELECT te.body FROM memories m JOIN turns t ON t.id = json_extract(m.provenance, '$[0].turnIds[0]')
       JOIN entries te ON te.kind = 'turn' AND te.ref_id = t.id
     WHERE m.id = e.ref_id AND json_array_length(m.provenance) = 1 AND json_array_length(m.provenance, '$[0].turnIds') = 1
       AND m.text = t.text),
    (SELECT m.text FROM memories m WHERE m.id = e.ref_id), e.body)
  ELSE e.body END`;

export function entriesMissingVector(
  db: Database,
  model: string,
  limit: number,
  namespace?: string,
  afterSeq = 0,
): Array<{ seq: number; namespace: string; text: string }> {
  const nsClause = namespace === undefined ? '' : 'AND e.namespace = @namespace';
  const params: Record<string, unknown> = { model, limit, afterSeq };
  if (namespace !== undefined) params.namespace = namespace;
  // Walks the primary key from the cursor, so paging through a backlog stays linear overall.
  return stmt(
    db,
    `SELECT e.seq, e.namespace, ${EMBED_TEXT} AS text FROM entries e
     WHERE e.seq > @afterSeq AND e.embed = 1 AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.entry_seq = e.seq AND v.model = @model) ${nsClause}
     ORDER BY e.seq LIMIT @limit`,
  ).all(params) as Array<{ seq: number; namespace: string; text: string }>;
}

export function entryFor(db: Database, kind: string, refId: string): { seq: number; namespace: string; text: string } | null {
  const row = stmt(db, `SELECT e.seq, e.namespace, ${EMBED_TEXT} AS text FROM entries e WHERE e.kind = ? AND e.ref_id = ?`).get(kind, refId);
  return (row as { seq: number; namespace: string; text: string } | undefined) ?? null;
}

/**
 * Stores vectors, replacing an entry's vector of the same model (deleted, then written anew: the
 * new row takes an id past every watermark, and the delete trigger keeps the old vector in the
 * cache). A row given the hash of the text it was embedded from holds that text's vector for the
 * cache too (cacheGet): a cache row with the very same bytes is then a second copy, and goes.
 */
export function putVectors(db: Database, model: string, rows: ReadonlyArray<VectorRow>): void {
  const nsOf = stmt(db, 'SELECT namespace FROM entries WHERE seq = ?').pluck();
  const drop = stmt(db, 'DELETE FROM vectors WHERE entry_seq = ? AND model = ?');
  const insert = stmt(db, 'INSERT INTO vectors (entry_seq, namespace, model, dim, vector, text_hash) VALUES (?, ?, ?, ?, ?, ?)');
  const uncache = stmt(db, 'DELETE FROM embed_cache WHERE model = ? AND text_hash = ? AND vector = ?');
  db.transaction(() => {
    for (const r of rows) {
      const ns = nsOf.get(r.seq) as string | undefined;
      if (ns === undefined) continue; // entry vanished (purge): nothing to index
      const bytes = encodeVector(r.vector);
      const key = r.textHash === undefined ? null : textHashKey(r.textHash);
      drop.run(r.seq, model);
      insert.run(r.seq, ns, model, r.vector.length, bytes, key);
      if (key) uncache.run(model, key, bytes);
    }
  }).immediate();
}

export function vectorsAfter(db: Database, namespace: string, model: string, afterId: number, limit: number): StoredVector[] {
  const rows = stmt(db, 'SELECT id, entry_seq AS seq, vector FROM vectors WHERE model = ? AND namespace = ? AND id > ? ORDER BY id LIMIT ?')
    .all(model, namespace, afterId, limit) as Array<{ id: number; seq: number; vector: Buffer }>;
  return rows.map((r) => ({ id: r.id, seq: r.seq, vector: decodeVector(r.vector) }));
}

export function getVectors(db: Database, model: string, seqs: readonly number[]): Map<number, Float32Array> {
  const out = new Map<number, Float32Array>();
  if (seqs.length === 0) return out;
  const rows = stmt(db, 'SELECT entry_seq AS seq, vector FROM vectors WHERE model = ? AND entry_seq IN (SELECT value FROM json_each(?))')
    .all(model, JSON.stringify(seqs)) as Array<{ seq: number; vector: Buffer }>;
  for (const r of rows) out.set(r.seq, decodeVector(r.vector));
  return out;
}

export function getQuantisedVectors(db: Database, model: string, seqs: readonly number[]): Map<number, Uint8Array> {
  const out = new Map<number, Uint8Array>();
  if (seqs.length === 0) return out;
  // Its own statement text: stmt() shares a prepared statement per text, and this one is raw.
  const rows = stmt(db, 'SELECT entry_seq, vector FROM vectors WHERE model = ? AND entry_seq IN (SELECT value FROM json_each(?)) /* raw */')
    .raw()
    .all(model, JSON.stringify(seqs)) as Array<[number, Buffer]>;
  for (const [seq, vector] of rows) out.set(seq, vector);
  return out;
}

export function vectorStats(db: Database, model: string): VectorStats[] {
  return stmt(db, 
      `SELECT n.id AS namespace, @model AS model,
         (SELECT COUNT(*) FROM vectors v WHERE v.model = @model AND v.namespace = n.id) AS vectors,
         MAX(0, (SELECT COUNT(*) FROM entries e WHERE e.namespace = n.id AND e.embed = 1) -
         (SELECT COUNT(*) FROM vectors v WHERE v.model = @model AND v.namespace = n.id)) AS missing
       FROM namespaces n ORDER BY n.id`,
    )
    .all({ model }) as VectorStats[];
}

export function vectorModels(db: Database): Array<{ model: string; dimensions: number; vectors: number }> {
  // Distinct models and their counts come from the (model, namespace, id) index; the dimension
  // from one row per model. A GROUP BY with MAX(dim) read every vector row (seconds at 1M).
  const models = stmt(db, 'SELECT DISTINCT model FROM vectors ORDER BY model').pluck().all() as string[];
  return models.map((model) => ({
    model,
    dimensions: stmt(db, 'SELECT dim FROM vectors WHERE model = ? LIMIT 1').pluck().get(model) as number,
    vectors: stmt(db, 'SELECT COUNT(*) FROM vectors WHERE model = ?').pluck().get(model) as number,
  }));
}

export function dropVectorsExcept(db: Database, keep: readonly string[]): number {
  return stmt(db, 'DELETE FROM vectors WHERE model NOT IN (SELECT value FROM json_each(?))').run(JSON.stringify(keep)).changes;
}

/**
 * Cached vectors by text hash: a cache row's, or a stored vector made of that very text (schema
 * V17: the cache holds only what no vector row does).
 */
export function cacheGet(db: Database, model: string, hashes: readonly string[]): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (hashes.length === 0) return out;
  const { keys, hashesOf } = keysOf(hashes);
  const rows = stmt(db,
    // From the keys into the hash index: by model first, the planner would walk every row of the model.
    `SELECT v.text_hash AS key, v.vector FROM json_each(@keys) AS k CROSS JOIN vectors v ON v.text_hash = unhex(k.value) WHERE v.model = @model
     UNION ALL
     SELECT text_hash, vector FROM embed_cache WHERE model = @model AND text_hash IN (SELECT unhex(value) FROM json_each(@keys))`)
    .all({ model, keys: JSON.stringify(keys.map((k) => k.toString('hex'))) }) as Array<{ key: Buffer; vector: Buffer }>;
  for (const r of rows) {
    const vector = decodeVector(r.vector);
    for (const h of hashesOf.get(r.key.toString('hex')) ?? []) out.set(h, vector);
  }
  return out;
}

export function cachePut(db: Database, model: string, entries: ReadonlyArray<{ textHash: string; vector: Float32Array }>): void {
  const put = stmt(db, 'INSERT OR IGNORE INTO embed_cache (model, text_hash, vector) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const e of entries) put.run(model, textHashKey(e.textHash), encodeVector(e.vector));
  }).immediate();
}
