// Versioned schema. Each step runs once, inside an immediate transaction, keyed by user_version,
// so several processes opening the same file at once migrate it exactly once.
import type { Database } from 'better-sqlite3';
import { textHashKey } from '../text-hash-key.js';
import { encodeVector, float32BlobToVector, withoutFirstVector } from '../vector-codec.js';

const V1 = `
CREATE TABLE namespaces (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL
);
CREATE TABLE sources (
  id INTEGER PRIMARY KEY,
  namespace TEXT NOT NULL REFERENCES namespaces(id),
  kind TEXT NOT NULL,
  path TEXT NOT NULL,
  options TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  UNIQUE (namespace, kind, path)
);
CREATE TABLE checkpoints (
  source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  state TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (source_id, key)
);
CREATE TABLE turns (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  namespace TEXT NOT NULL REFERENCES namespaces(id),
  source_id INTEGER REFERENCES sources(id) ON DELETE SET NULL,
  session_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  role TEXT NOT NULL,
  speaker TEXT,
  text TEXT NOT NULL,
  ts TEXT NOT NULL,
  line INTEGER,
  meta TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  UNIQUE (namespace, session_id, message_id)
);
CREATE TABLE memories (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  namespace TEXT NOT NULL REFERENCES namespaces(id),
  text TEXT NOT NULL,
  dedup_key TEXT NOT NULL,
  category TEXT NOT NULL,
  importance INTEGER NOT NULL CHECK (importance BETWEEN 1 AND 10),
  tags TEXT NOT NULL DEFAULT '[]',
  entities TEXT NOT NULL DEFAULT '[]',
  event_time TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  superseded_by TEXT,
  supersedes TEXT,
  mentions INTEGER NOT NULL DEFAULT 1,
  provenance TEXT NOT NULL DEFAULT '[]'
);
CREATE UNIQUE INDEX memories_current_dedup ON memories (namespace, dedup_key) WHERE valid_to IS NULL;
CREATE INDEX memories_ns_created ON memories (namespace, created_at);

-- One row per searchable unit of any layer; search filters and ranks on these columns.
CREATE TABLE entries (
  seq INTEGER PRIMARY KEY,
  namespace TEXT NOT NULL REFERENCES namespaces(id),
  kind TEXT NOT NULL,
  ref_id TEXT NOT NULL,
  body TEXT NOT NULL,
  time TEXT NOT NULL,
  category TEXT,
  importance INTEGER,
  current INTEGER NOT NULL DEFAULT 1,
  UNIQUE (kind, ref_id)
);
CREATE INDEX entries_ns_time ON entries (namespace, time);
CREATE VIRTUAL TABLE entries_fts USING fts5(
  body, content='entries', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER entries_ai AFTER INSERT ON entries BEGIN
  INSERT INTO entries_fts(rowid, body) VALUES (new.seq, new.body);
END;
CREATE TRIGGER entries_ad AFTER DELETE ON entries BEGIN
  INSERT INTO entries_fts(entries_fts, rowid, body) VALUES ('delete', old.seq, old.body);
END;
CREATE TRIGGER entries_au AFTER UPDATE OF body ON entries BEGIN
  INSERT INTO entries_fts(entries_fts, rowid, body) VALUES ('delete', old.seq, old.body);
  INSERT INTO entries_fts(rowid, body) VALUES (new.seq, new.body);
END;

-- AUTOINCREMENT keeps vector ids monotonic, which the on-disk ANN index uses as its watermark.
CREATE TABLE vectors (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entry_seq INTEGER NOT NULL REFERENCES entries(seq) ON DELETE CASCADE,
  namespace TEXT NOT NULL,
  model TEXT NOT NULL,
  dim INTEGER NOT NULL,
  vector BLOB NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (entry_seq, model)
);
CREATE INDEX vectors_model_ns ON vectors (model, namespace, id);

CREATE TABLE embed_cache (
  model TEXT NOT NULL,
  text_hash TEXT NOT NULL,
  dim INTEGER NOT NULL,
  vector BLOB NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
`;

// Status counts from indexes alone: at 1M memories, counting current memories and documents
// by reading rows took seconds.
const V2 = `
CREATE INDEX entries_ns_kind ON entries (namespace, kind);
CREATE INDEX memories_ns_superseded ON memories (namespace) WHERE valid_to IS NOT NULL;
`;

// Markdown kept elsewhere, indexed read-only: one row per chunk, each with a 'document' entry.
// A path is unique per namespace (not per source) so two sources covering one file share it.
// The source_id index serves both documentFiles(source) and the SET NULL when a source goes.
const V3 = `
CREATE TABLE documents (
  id TEXT PRIMARY KEY,
  namespace TEXT NOT NULL REFERENCES namespaces(id),
  source_id INTEGER REFERENCES sources(id) ON DELETE SET NULL,
  path TEXT NOT NULL,
  chunk INTEGER NOT NULL,
  heading TEXT NOT NULL,
  text TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  file_hash TEXT NOT NULL,
  time TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (namespace, path, chunk)
);
CREATE INDEX documents_source ON documents (source_id);
`;

// Per-source turn counts (status) and removing a source (SET NULL) without scanning every turn.
const V4 = `
CREATE INDEX turns_source ON turns (source_id) WHERE source_id IS NOT NULL;
`;

// The judge's decisions (one per turn, replaced on re-judging), user feedback, and LLM spending.
// Unjudged = no judgments row: a batch's judgments and memories commit together, so a crash can
// leave a turn unjudged (judged on restart) but never judged twice.
const V5 = `
CREATE TABLE judgments (
  turn_id TEXT PRIMARY KEY REFERENCES turns(id),
  namespace TEXT NOT NULL,
  turn_seq INTEGER NOT NULL,
  importance INTEGER NOT NULL CHECK (importance BETWEEN 1 AND 10),
  category TEXT NOT NULL,
  judge TEXT NOT NULL,
  reason TEXT NOT NULL,
  statement TEXT,
  memory_id TEXT,
  needs_rejudge INTEGER NOT NULL DEFAULT 0,
  judged_at TEXT NOT NULL
);
CREATE INDEX judgments_ns_seq ON judgments (namespace, turn_seq);
CREATE INDEX judgments_rejudge ON judgments (namespace, turn_seq) WHERE needs_rejudge = 1;
CREATE INDEX turns_ns_session_seq ON turns (namespace, session_id, seq);
CREATE TABLE feedback (
  id TEXT PRIMARY KEY,
  namespace TEXT NOT NULL REFERENCES namespaces(id),
  ref_id TEXT NOT NULL,
  text TEXT NOT NULL,
  category TEXT,
  important INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX feedback_ns_created ON feedback (namespace, created_at);
CREATE TABLE llm_usage (
  namespace TEXT NOT NULL,
  day TEXT NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  fallbacks INTEGER NOT NULL DEFAULT 0,
  tokens_in INTEGER NOT NULL DEFAULT 0,
  tokens_out INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (namespace, day)
);
`;

// Entries that get no vector (tool activity, turns judged noise): found by BM25 alone. The partial
// index keeps the status count of embeddable entries index-only.
const V6 = `
ALTER TABLE entries ADD COLUMN embed INTEGER NOT NULL DEFAULT 1;
UPDATE entries SET embed = 0 WHERE kind = 'turn' AND ref_id IN (SELECT id FROM turns WHERE json_extract(meta, '$.kind') = 'tool');
CREATE INDEX entries_ns_embed ON entries (namespace) WHERE embed = 1;
`;

// Agent interfaces: the hot state of each namespace (one JSON row, written before SESSION-STATE.md is
// rendered) and API tokens for the HTTP API, kept only as sha256 hashes.
const V7 = `
CREATE TABLE hot_state (
  namespace TEXT PRIMARY KEY REFERENCES namespaces(id),
  state TEXT NOT NULL DEFAULT '{}',
  updated_at TEXT NOT NULL
);
CREATE TABLE api_tokens (
  id TEXT PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  label TEXT,
  namespaces TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);
`;

// Search: who speaks in a namespace, kept as counts so a query can tell a person it is about from
// a word (one row per name; backfilled from the turns already stored).
const V8 = `
CREATE TABLE speakers (
  namespace TEXT NOT NULL,
  name TEXT NOT NULL,
  turns INTEGER NOT NULL,
  PRIMARY KEY (namespace, name)
);
INSERT INTO speakers (namespace, name, turns)
  SELECT namespace, speaker, COUNT(*) FROM turns WHERE speaker IS NOT NULL AND speaker <> '' GROUP BY namespace, speaker;
`;

// Paging a namespace in seq order (the judge's unjudged turns, views, exports): an index on the
// namespace alone is ordered by (namespace, seq), so a page is a range scan. Without it the planner
// took (namespace, session, seq), read the whole namespace and sorted it for every page: quadratic
// over an import (100k turns: ~400 pages × 100k rows).
const V9 = `
CREATE INDEX turns_ns_seq ON turns (namespace);
CREATE INDEX memories_ns_seq ON memories (namespace);
`;

// Entry keys (store.ts EntryKeys): words an entry is found by beside its text, in a column of
// their own so they can be recomputed (new gazetteer data) without touching the text, and never
// shown. The keyword index is rebuilt over both columns. store_meta records which keys version the
// entries carry.
const V10 = `
ALTER TABLE entries ADD COLUMN keys TEXT NOT NULL DEFAULT '';
DROP TRIGGER entries_ai;
DROP TRIGGER entries_ad;
DROP TRIGGER entries_au;
DROP TABLE entries_fts;
CREATE VIRTUAL TABLE entries_fts USING fts5(
  body, keys, content='entries', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2'
);
INSERT INTO entries_fts(entries_fts) VALUES ('rebuild');
CREATE TRIGGER entries_ai AFTER INSERT ON entries BEGIN
  INSERT INTO entries_fts(rowid, body, keys) VALUES (new.seq, new.body, new.keys);
END;
CREATE TRIGGER entries_ad AFTER DELETE ON entries BEGIN
  INSERT INTO entries_fts(entries_fts, rowid, body, keys) VALUES ('delete', old.seq, old.body, old.keys);
END;
CREATE TRIGGER entries_au AFTER UPDATE OF body, keys ON entries BEGIN
  INSERT INTO entries_fts(entries_fts, rowid, body, keys) VALUES ('delete', old.seq, old.body, old.keys);
  INSERT INTO entries_fts(rowid, body, keys) VALUES (new.seq, new.body, new.keys);
END;
CREATE TABLE store_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

// Purge (the one way to delete, for secrets and legal removal): an audit entry per purge that says
// what was removed and when — ids, kinds, counts, the rule — never the removed text. Written when a
// purge starts and completed when it ends, so a purge cut short still shows that it began.
const V11 = `
CREATE TABLE purge_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  namespace TEXT,
  via TEXT NOT NULL,
  rule TEXT NOT NULL,
  result TEXT
);
`;

// Consolidation (issue 24): the digest files Cairn writes (daily notes, reviews, weeks, topics,
// MEMORY.md), one row per file keyed by (namespace, path), each section indexed as a 'digest' entry
// (ref_id `<digest id>#<section index>`). digest_sources lists what each digest cites, so purging a
// memory or turn finds the digests that repeat it by index rather than by reading every digest;
// ON UPDATE CASCADE follows a digest id rewritten by a namespace rename. consolidation_state is the
// consolidate part's bookkeeping, one JSON object per namespace (like hot_state).
const V12 = `
CREATE TABLE digests (
  id TEXT PRIMARY KEY,
  namespace TEXT NOT NULL REFERENCES namespaces(id),
  kind TEXT NOT NULL,
  layer INTEGER NOT NULL CHECK (layer BETWEEN 1 AND 3),
  path TEXT NOT NULL,
  period_start TEXT NOT NULL,
  period_end TEXT NOT NULL,
  text TEXT NOT NULL,
  sections TEXT NOT NULL DEFAULT '[]',
  inputs_hash TEXT NOT NULL,
  generator TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (namespace, path)
);
CREATE INDEX digests_ns_kind_period ON digests (namespace, kind, period_start);
CREATE TABLE digest_sources (
  source_id TEXT NOT NULL,
  digest_id TEXT NOT NULL REFERENCES digests(id) ON DELETE CASCADE ON UPDATE CASCADE,
  PRIMARY KEY (source_id, digest_id)
) WITHOUT ROWID;
CREATE INDEX digest_sources_digest ON digest_sources (digest_id);
CREATE TABLE consolidation_state (
  namespace TEXT PRIMARY KEY REFERENCES namespaces(id),
  state TEXT NOT NULL DEFAULT '{}',
  updated_at TEXT NOT NULL
);
`;

// Knowledge (issue 25): entities with their aliases and the memories that mention them, facts with
// both times (valid_from/valid_to, recorded_at), and each namespace's knowledge cursor (the seq of
// the last memory the knowledge pass took in). An alias key names one entity per namespace; a
// mention or fact goes with its memory (purge) and an alias or mention with its entity. Every table
// has a namespace column, so renameNamespace moves them with the rest; the entity-id references
// follow an id rewrite (ON UPDATE CASCADE) the way digest_sources do.
// entries.valid_to: when an entry stopped being current (its memory superseded, or the turns that
// said the superseded thing), so search can answer "as of" a date. Backfilled for memory entries
// already retired from memories.valid_to.
const V13 = `
CREATE TABLE entities (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  namespace TEXT NOT NULL REFERENCES namespaces(id),
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  type TEXT NOT NULL,
  relation TEXT,
  locked INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (namespace, slug)
);
CREATE TABLE entity_aliases (
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE ON UPDATE CASCADE,
  display TEXT NOT NULL,
  pinned INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (namespace, key)
);
CREATE INDEX entity_aliases_entity ON entity_aliases (entity_id);
CREATE TABLE entity_mentions (
  entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE ON UPDATE CASCADE,
  memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  namespace TEXT NOT NULL,
  PRIMARY KEY (entity_id, memory_id)
) WITHOUT ROWID;
CREATE INDEX entity_mentions_memory ON entity_mentions (memory_id);
CREATE TABLE facts (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  namespace TEXT NOT NULL REFERENCES namespaces(id),
  subject TEXT NOT NULL,
  subject_name TEXT NOT NULL,
  entity_id TEXT REFERENCES entities(id) ON DELETE SET NULL ON UPDATE CASCADE,
  attribute TEXT NOT NULL,
  value TEXT NOT NULL,
  memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  recorded_at TEXT NOT NULL,
  confidence REAL NOT NULL,
  superseded_by TEXT,
  mentions INTEGER NOT NULL DEFAULT 1,
  extractor TEXT NOT NULL,
  provenance TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX facts_ns_subject_attr ON facts (namespace, subject, attribute);
CREATE INDEX facts_memory ON facts (memory_id);
CREATE INDEX facts_entity ON facts (entity_id) WHERE entity_id IS NOT NULL;
CREATE TABLE knowledge_state (
  namespace TEXT PRIMARY KEY REFERENCES namespaces(id),
  cursor INTEGER NOT NULL DEFAULT 0
);
ALTER TABLE entries ADD COLUMN valid_to TEXT;
UPDATE entries SET valid_to = (SELECT m.valid_to FROM memories m WHERE m.id = entries.ref_id)
  WHERE kind = 'memory' AND current = 0;
`;

// Beyond English (issue 29): the keyword index holds each entry's words in the form
// search/text-analysis.ts gives them (Chinese and Japanese cut into words, each language stemmed by
// its own Snowball stemmer, English by porter as before), computed by cairn_index_text
// (store/sqlite/fts-text.ts), the SQL function every connection registers before migrating.
// FTS5 then only splits on spaces and folds case and diacritics (no porter: the words come
// stemmed). Contentless, with deletes: the index form is never shown, so no text is stored twice.
// Rebuilt from every entry's body and keys.
const V14 = `
DROP TRIGGER entries_ai;
DROP TRIGGER entries_ad;
DROP TRIGGER entries_au;
DROP TABLE entries_fts;
CREATE VIRTUAL TABLE entries_fts USING fts5(
  body, keys, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
);
INSERT INTO entries_fts(rowid, body, keys) SELECT seq, cairn_index_text(body), cairn_index_text(keys, 'en') FROM entries;
CREATE TRIGGER entries_ai AFTER INSERT ON entries BEGIN
  INSERT INTO entries_fts(rowid, body, keys) VALUES (new.seq, cairn_index_text(new.body), cairn_index_text(new.keys, 'en'));
END;
CREATE TRIGGER entries_ad AFTER DELETE ON entries BEGIN
  DELETE FROM entries_fts WHERE rowid = old.seq;
END;
CREATE TRIGGER entries_au AFTER UPDATE OF body, keys ON entries BEGIN
  DELETE FROM entries_fts WHERE rowid = old.seq;
  INSERT INTO entries_fts(rowid, body, keys) VALUES (new.seq, cairn_index_text(new.body), cairn_index_text(new.keys, 'en'));
END;
`;

// Vectors int8 with a scale per block (store/sqlite/vector-codec.ts): a 512-d vector 2,048 → 528
// bytes. The embedding cache without the dimension and time it never read: each row fits its
// b-tree page, where a float32 row took an 8 KiB overflow page of its own (86 % empty). cairn_quantise_f32 is registered by migrate().
const V15 = `
UPDATE vectors SET vector = cairn_quantise_f32(vector);
CREATE TABLE embed_cache_v16 (
  model TEXT NOT NULL,
  text_hash TEXT NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
INSERT OR IGNORE INTO embed_cache_v16 (model, text_hash, vector)
  SELECT model, text_hash, cairn_quantise_f32(vector) FROM embed_cache;
DROP TABLE embed_cache;
ALTER TABLE embed_cache_v16 RENAME TO embed_cache;
`;

// Leases (store/leases.ts): which daemon captures a source, when several share one database. On
// SQLite one daemon per home holds them all; the table exists so both backends answer alike.
// Times in ms since the epoch, compared as numbers.
const V16 = `
CREATE TABLE leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  acquired_ms INTEGER NOT NULL,
  expires_ms INTEGER NOT NULL
) WITHOUT ROWID;
`;

// Bytes per captured turn (issue 29). (1) A vector row made of a text's own embedding keeps that
// text's hash (text_hash, store/text-hash-key.ts: 16 bytes), so the embedding cache no longer
// holds a second copy of every stored vector: cacheGet reads both. A row that goes (its entry
// deleted or its text changed, a vector replaced, another model) leaves its vector in the cache
// (trigger), as its own cache row kept it before, unless another row still holds that text.
// Existing rows take the hash of the cache row with their very bytes; that cache row goes.
// (2) Cache keys are the same 16 bytes instead of 64 hex characters. (3) A '#windows' passage row
// holds the windows after the first: the first is the entry's own vector, which readers prepend
// (embed/passages.ts). A row of a width that does not split into whole quantisation blocks is
// dropped instead; the next index pass writes it again from the cache, without the model.
// (4) Vector rows lose created_at, which nothing read (24 bytes a row).
// Lookups by hash name the model as +model: the (model, namespace, id) index would walk every row of the model.
const V17 = `
ALTER TABLE vectors ADD COLUMN text_hash BLOB;
CREATE TEMP TABLE v17_cache AS SELECT model, text_hash, vector FROM embed_cache;
CREATE INDEX temp.v17_cache_vector ON v17_cache (model, vector);
UPDATE vectors SET text_hash = cairn_text_hash_key((SELECT c.text_hash FROM temp.v17_cache c
    WHERE c.model = vectors.model AND c.vector = vectors.vector ORDER BY c.text_hash LIMIT 1))
  WHERE length(vector) > 0;
DROP TABLE temp.v17_cache;
CREATE INDEX vectors_text_hash ON vectors (text_hash) WHERE text_hash IS NOT NULL;
CREATE TABLE embed_cache_v17 (
  model TEXT NOT NULL,
  text_hash BLOB NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
INSERT OR IGNORE INTO embed_cache_v17 (model, text_hash, vector)
  SELECT c.model, cairn_text_hash_key(c.text_hash), c.vector FROM embed_cache c
  WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.text_hash = cairn_text_hash_key(c.text_hash) AND +v.model = c.model AND v.vector = c.vector);
DROP TABLE embed_cache;
ALTER TABLE embed_cache_v17 RENAME TO embed_cache;
CREATE TRIGGER vectors_keep_cached AFTER DELETE ON vectors
WHEN old.text_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.text_hash = old.text_hash AND +v.model = old.model)
BEGIN
  INSERT OR IGNORE INTO embed_cache (model, text_hash, vector) VALUES (old.model, old.text_hash, old.vector);
END;
CREATE TEMP TABLE v17_own AS
  SELECT p.id, o.dim AS own FROM vectors p LEFT JOIN vectors o ON o.entry_seq = p.entry_seq AND o.model = substr(p.model, 1, length(p.model) - 8)
  WHERE p.model LIKE '%#windows' AND length(p.vector) > 0;
DELETE FROM vectors WHERE id IN (SELECT id FROM temp.v17_own WHERE own IS NULL OR own % 128 <> 0);
UPDATE vectors SET vector = cairn_vector_tail(vector, (SELECT own FROM temp.v17_own t WHERE t.id = vectors.id)),
    dim = dim - (SELECT own FROM temp.v17_own t WHERE t.id = vectors.id)
  WHERE id IN (SELECT id FROM temp.v17_own);
UPDATE vectors SET dim = 0 WHERE id IN (SELECT id FROM temp.v17_own) AND length(vector) = 0;
DROP TABLE temp.v17_own;
ALTER TABLE vectors DROP COLUMN created_at;
`;

export const MIGRATIONS: readonly string[] = [V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15, V16, V17];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The schema version from which vectors are stored int8 (a home upgraded past it is vacuumed once: see open.ts). */
export const COMPACT_VECTORS_VERSION = MIGRATIONS.indexOf(V15) + 1;

/** The schema version from which stored vectors are not copied into the cache (a home upgraded past it is vacuumed once too). */
export const COMPACT_CACHE_VERSION = MIGRATIONS.indexOf(V17) + 1;

/**
 * Migrates to SCHEMA_VERSION; returns the version the database had (0: a new one).
 */
export function migrate(db: Database): number {
  // Already current: take no write lock, so readers open while another process is writing (WAL).
  if ((db.pragma('user_version', { simple: true }) as number) === SCHEMA_VERSION) return SCHEMA_VERSION;
  db.function('cairn_quantise_f32', { deterministic: true }, (blob: unknown) => encodeVector(float32BlobToVector(blob as Buffer)));
  db.function('cairn_text_hash_key', { deterministic: true }, (hash: unknown) => (typeof hash === 'string' ? textHashKey(hash) : hash));
  db.function('cairn_vector_tail', { deterministic: true }, (blob: unknown, dim: unknown) => withoutFirstVector(blob as Buffer, Number(dim)));
  let from = 0;
  const step = db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    from = version;
    if (version > SCHEMA_VERSION) {
      throw new Error(`database schema version ${version} is newer than this Cairn (${SCHEMA_VERSION}); upgrade Cairn`);
    }
    for (let v = version; v < SCHEMA_VERSION; v++) {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    }
  });
  step.immediate();
  return from;
}
