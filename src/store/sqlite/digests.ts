// Digests for SQLite (store.ts putDigest …): the files consolidation writes, one row per
// (namespace, path), and one 'digest' index entry per non-empty section (ref_id
// `<digest id>#<section index>`) so search finds a digest by the section that answers. A digest
// and its entries change in one transaction; a section whose indexed text did not change keeps
// its entry, and so its vectors, even when it moved to another position.
import type { Database } from 'better-sqlite3';
import { DIGEST_LAYER, type Digest, type DigestSection, type NewDigest, type Provenance } from '../../core/types.js';
import { digestId } from '../../core/ids.js';
import { invalidInput } from '../../core/errors.js';
import type { DigestFilter, EntryChange, PutDigestResult } from '../store.js';
import { checkDigest, digestFromRow, digestIdOfRef, planSectionEntries, sectionDetailsOf, type DigestRow, type SectionEntry } from '../digest-rows.js';
import { documentBody } from './documents.js';
import { keysOf } from './keys.js';
import { ensureNamespaceTx } from './namespaces.js';
import { stmt } from './statements.js';

/** What a section's index entry holds: its heading and its text, as a document chunk's does. */
export function sectionBody(section: Pick<DigestSection, 'heading' | 'text'>): string {
  return documentBody(section.heading, section.text);
}

/** Bounds of every ref_id of a digest's entries (`<id>#…`): '$' follows '#', so this is a range scan. */
function refRange(id: string): [string, string] {
  return [`${id}#`, `${id}$`];
}

/** Applies planSectionEntries (digest-rows.ts) to the digest's section entries. */
function syncSectionEntries(db: Database, id: string, namespace: string, time: string, sections: readonly DigestSection[]): void {
  const existing = stmt(db, `SELECT seq, ref_id, body FROM entries WHERE kind = 'digest' AND ref_id > ? AND ref_id < ?`).all(...refRange(id)) as SectionEntry[];
  const { claimed, moves, dropped, unmatched } = planSectionEntries(id, existing, sections.map(sectionBody));
  for (const seq of dropped) stmt(db, 'DELETE FROM entries WHERE seq = ?').run(seq);
  // Moves go through a temporary ref_id so two sections swapping places never collide on UNIQUE(kind, ref_id).
  for (const e of moves) stmt(db, "UPDATE entries SET ref_id = '~' || seq WHERE seq = ?").run(e.seq);
  for (const e of moves) stmt(db, 'UPDATE entries SET ref_id = ? WHERE seq = ?').run(claimed.get(e.seq), e.seq);
  for (const seq of claimed.keys()) stmt(db, 'UPDATE entries SET time = ? WHERE seq = ? AND time <> ?').run(time, seq, time);
  const insert = stmt(
    db,
    `INSERT INTO entries (namespace, kind, ref_id, body, keys, time, category, importance, current)
     VALUES (?, 'digest', ?, ?, ?, ?, NULL, NULL, 1)`,
  );
  for (const w of unmatched) insert.run(namespace, w.ref, w.body, keysOf(db, w.body), time);
}

function syncSources(db: Database, id: string, sections: readonly DigestSection[]): void {
  stmt(db, 'DELETE FROM digest_sources WHERE digest_id = ?').run(id);
  const add = stmt(db, 'INSERT OR IGNORE INTO digest_sources (source_id, digest_id) VALUES (?, ?)');
  for (const s of sections) for (const src of s.sources) add.run(src.id, id);
}

function rowAt(db: Database, namespace: string, path: string): DigestRow | undefined {
  return stmt(db, 'SELECT * FROM digests WHERE namespace = ? AND path = ?').get(namespace, path) as DigestRow | undefined;
}

export function putDigest(db: Database, input: NewDigest, now: string): PutDigestResult {
  checkDigest(input);
  return db
    .transaction((): PutDigestResult => {
      const stored = rowAt(db, input.namespace, input.path);
      if (stored && stored.text === input.text && stored.inputs_hash === input.inputsHash) return { digest: digestFromRow(stored), changed: false };
      ensureNamespaceTx(db, input.namespace, now);
      const id = stored?.id ?? digestId(input.namespace, input.path);
      stmt(
        db,
        `INSERT INTO digests (id, namespace, kind, layer, path, period_start, period_end, text, sections, inputs_hash, generator, created_at, updated_at)
         VALUES (@id, @namespace, @kind, @layer, @path, @periodStart, @periodEnd, @text, @sections, @inputsHash, @generator, @now, @now)
         ON CONFLICT (namespace, path) DO UPDATE SET kind = excluded.kind, layer = excluded.layer, period_start = excluded.period_start,
           period_end = excluded.period_end, text = excluded.text, sections = excluded.sections, inputs_hash = excluded.inputs_hash,
           generator = excluded.generator, updated_at = excluded.updated_at`,
      ).run({
        id, namespace: input.namespace, kind: input.kind, layer: DIGEST_LAYER[input.kind], path: input.path,
        periodStart: input.periodStart, periodEnd: input.periodEnd, text: input.text, sections: JSON.stringify(input.sections),
        inputsHash: input.inputsHash, generator: input.generator, now,
      });
      syncSectionEntries(db, id, input.namespace, input.periodStart, input.sections);
      syncSources(db, id, input.sections);
      return { digest: digestFromRow(rowAt(db, input.namespace, input.path)!), changed: true };
    })
    .immediate();
}

export function deleteDigest(db: Database, namespace: string, path: string): boolean {
  return db
    .transaction((): boolean => {
      const stored = rowAt(db, namespace, path);
      if (!stored) return false;
      stmt(db, `DELETE FROM entries WHERE kind = 'digest' AND ref_id > ? AND ref_id < ?`).run(...refRange(stored.id));
      stmt(db, 'DELETE FROM digests WHERE id = ?').run(stored.id); // digest_sources cascade
      return true;
    })
    .immediate();
}

/** What search shows of one digest section entry: its text, its layer, and where it comes from. */
export interface DigestSectionDetail {
  text: string;
  layer: 1 | 2 | 3;
  createdAt: string;
  provenance: Provenance[];
}

/**
 * The section details of digest entries by ref_id (`<digest id>#<index>`): one read of the digests
 * they belong to, each digest's sections parsed once however many of its sections were hit.
 */
export function digestSectionDetails(db: Database, refIds: readonly string[]): Map<string, DigestSectionDetail> {
  if (refIds.length === 0) return new Map();
  const rows = stmt(db, 'SELECT id, path, layer, sections, created_at FROM digests WHERE id IN (SELECT value FROM json_each(?))').all(
    JSON.stringify([...new Set(refIds.map(digestIdOfRef))]),
  ) as Array<Pick<DigestRow, 'id' | 'path' | 'layer' | 'sections' | 'created_at'>>;
  return sectionDetailsOf(rows, refIds);
}

/**
 * After a namespace rename (namespaces.ts): each digest of `namespace` takes the id of its new
 * (namespace, path), so the id stays a function of both and the old name can be used again; its
 * section entries' ref_ids and its sources (ON UPDATE CASCADE) follow. Call inside the rename's
 * transaction.
 */
export function rekeyDigestsTx(db: Database, namespace: string): void {
  const rows = stmt(db, 'SELECT id, path FROM digests WHERE namespace = ?').all(namespace) as Array<{ id: string; path: string }>;
  for (const r of rows) {
    const id = digestId(namespace, r.path);
    if (id === r.id) continue;
    stmt(db, 'UPDATE digests SET id = ? WHERE id = ?').run(id, r.id);
    stmt(db, "UPDATE entries SET ref_id = ? || substr(ref_id, instr(ref_id, '#')) WHERE kind = 'digest' AND ref_id > ? AND ref_id < ?").run(id, ...refRange(r.id));
  }
}

export function getDigest(db: Database, namespace: string, path: string): Digest | null {
  const row = rowAt(db, namespace, path);
  return row ? digestFromRow(row) : null;
}

export function listDigests(db: Database, namespace: string, filter: DigestFilter = {}): Digest[] {
  const params: Record<string, unknown> = { namespace };
  const where = ['namespace = @namespace'];
  if (filter.kinds) {
    // An empty list asks for no kind at all, not every kind.
    where.push('kind IN (SELECT value FROM json_each(@kinds))');
    params.kinds = JSON.stringify(filter.kinds);
  }
  // [period_start, period_end) overlaps [since, until).
  if (filter.since !== undefined) {
    where.push('period_end > @since');
    params.since = filter.since;
  }
  if (filter.until !== undefined) {
    where.push('period_start < @until');
    params.until = filter.until;
  }
  return (stmt(db, `SELECT * FROM digests WHERE ${where.join(' AND ')} ORDER BY path`).all(params) as DigestRow[]).map(digestFromRow);
}

export function entryChangesAfter(db: Database, namespace: string, afterSeq: number, limit: number): EntryChange[] {
  // The unary + keeps the planner on the primary key from the cursor: through the (namespace, …)
  // indexes it would read and sort the whole namespace for every page.
  return stmt(
    db,
    `SELECT seq, kind, time FROM entries WHERE seq > ? AND +namespace = ? AND +kind <> 'digest' ORDER BY seq LIMIT ?`,
  ).all(afterSeq, namespace, limit) as EntryChange[];
}

export function getConsolidationState(db: Database, namespace: string): Record<string, unknown> | null {
  const raw = stmt(db, 'SELECT state FROM consolidation_state WHERE namespace = ?').pluck().get(namespace) as string | undefined;
  if (raw === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // A damaged row reads as no state: consolidation then redoes what it cannot prove it did.
  }
  return null;
}

export function putConsolidationState(db: Database, namespace: string, state: Record<string, unknown>, now: string): void {
  if (!state || typeof state !== 'object' || Array.isArray(state)) throw invalidInput('Consolidation state must be a JSON object');
  const json = JSON.stringify(state);
  db.transaction(() => {
    ensureNamespaceTx(db, namespace, now);
    stmt(
      db,
      `INSERT INTO consolidation_state (namespace, state, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (namespace) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
    ).run(namespace, json, now);
  }).immediate();
}
