// Bytes on disk of a home's database in the vector layout it has (since V15 int8 vectors; since
// V17 the cache holds only what no vector row does) beside the same rows in the layout up to V15 (float32 vectors; embedding cache rows
// with dim and created_at, each vector spilling into an overflow page), in one run. Both are
// measured on vacuumed copies (VACUUM INTO), so free pages of either do not count; the home itself
// is only read.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { decodeVector, encodeVector } from '../src/store/vector-codec.js';

export interface LayoutSize {
  bytes: number;
  /** Bytes per table or index (dbstat), largest first. */
  parts: Record<string, number>;
}

export interface LayoutComparison {
  current: LayoutSize;
  legacy: LayoutSize;
}

function sizeOf(path: string): LayoutSize {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all() as Array<{ name: string; bytes: number }>;
    return { bytes: statSync(path).size, parts: Object.fromEntries(rows.map((r) => [r.name, r.bytes])) };
  } finally {
    db.close();
  }
}

/**
 * Rewrites a copy's vectors and cache the way V14 stored them: float32 vectors with created_at;
 * every embedded text's vector again in the cache (since V17 a vector row holding its text's hash
 * is its cache entry), under a 64-character hex key, with dim and created_at; '#windows' rows
 * with the entry's own vector first.
 */
function toLegacyLayout(path: string): void {
  const db = new Database(path);
  try {
    db.function('float32_blob', { deterministic: true }, (blob: unknown) => {
      const v = decodeVector(blob as Buffer);
      return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    });
    db.function('own_then', { deterministic: true }, (own: unknown, rest: unknown) => {
      const a = decodeVector(own as Buffer);
      const b = decodeVector(rest as Buffer);
      const out = new Float32Array(a.length + b.length);
      out.set(a);
      out.set(b, a.length);
      return encodeVector(out);
    });
    db.exec(`
      BEGIN;
      DROP TRIGGER IF EXISTS vectors_keep_cached;
      INSERT OR IGNORE INTO embed_cache (model, text_hash, vector) SELECT model, text_hash, vector FROM vectors WHERE text_hash IS NOT NULL;
      UPDATE vectors SET vector = own_then((SELECT o.vector FROM vectors o WHERE o.entry_seq = vectors.entry_seq AND o.model = substr(vectors.model, 1, length(vectors.model) - 8)), vector)
        WHERE model LIKE '%#windows' AND length(vector) > 0;
      DROP INDEX IF EXISTS vectors_text_hash;
      ALTER TABLE vectors DROP COLUMN text_hash;
      ALTER TABLE vectors ADD COLUMN created_at TEXT NOT NULL DEFAULT '2026-01-01T00:00:00.000Z';
      UPDATE vectors SET created_at = '2026-01-01T00:00:00.000Z', vector = float32_blob(vector);
      CREATE TABLE embed_cache_v15 (
        model TEXT NOT NULL, text_hash TEXT NOT NULL, dim INTEGER NOT NULL, vector BLOB NOT NULL, created_at TEXT NOT NULL,
        PRIMARY KEY (model, text_hash)
      ) WITHOUT ROWID;
      INSERT INTO embed_cache_v15 SELECT model, lower(hex(text_hash)) || lower(hex(text_hash)), length(float32_blob(vector)) / 4, float32_blob(vector), '2026-01-01T00:00:00.000Z' FROM embed_cache;
      DROP TABLE embed_cache;
      ALTER TABLE embed_cache_v15 RENAME TO embed_cache;
      COMMIT;
      VACUUM;
    `);
  } finally {
    db.close();
  }
}

export function compareVectorLayouts(dbPath: string): LayoutComparison {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-layout-'));
  try {
    const current = join(dir, 'current.db');
    const legacy = join(dir, 'legacy.db');
    const home = new Database(dbPath, { readonly: true });
    try {
      home.exec(`VACUUM INTO '${current.replace(/'/g, "''")}'`);
    } finally {
      home.close();
    }
    const copy = new Database(current, { readonly: true });
    try {
      copy.exec(`VACUUM INTO '${legacy.replace(/'/g, "''")}'`);
    } finally {
      copy.close();
    }
    toLegacyLayout(legacy);
    return { current: sizeOf(current), legacy: sizeOf(legacy) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** "vectors 1.2 KB, embed_cache 0.6 KB, …": the largest parts per unit (turn, memory). */
export function describeParts(parts: Record<string, number>, per: number, top = 6): string {
  return Object.entries(parts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, bytes]) => `${name} ${Math.round(bytes / per).toLocaleString('en-US')} B`)
    .join(', ');
}
