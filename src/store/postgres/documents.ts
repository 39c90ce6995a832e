// Markdown documents for PostgreSQL (sqlite/documents.ts): chunks of files kept elsewhere, each
// with a 'document' entry. A file is replaced whole in one transaction, and two processes
// replacing the same file at once take turns on a transaction advisory lock per (namespace, path),
// so neither sees the other's half-written chunks nor inserts a second set beside them.
import { newId } from '../../core/ids.js';
import { invalidInput } from '../../core/errors.js';
import type { DocumentChunk, DocumentFile, ReplaceDocumentInput, ReplaceDocumentResult } from '../store.js';
import { documentFromRow, type DocumentRow } from '../rows.js';
import { transaction, type Db } from './connect.js';
import { insertEntry } from './entry-terms.js';

/** What is indexed for a chunk: the heading trail too, so BM25 finds a note by its headings. */
export function documentBody(heading: string, text: string): string {
  return heading ? `${heading}\n${text}` : text;
}

function checkInput(input: ReplaceDocumentInput): void {
  if (!input.path) throw invalidInput('A document needs a path');
  for (const [i, c] of input.chunks.entries()) {
    if (!Number.isInteger(c.startLine) || !Number.isInteger(c.endLine) || c.startLine < 1 || c.endLine < c.startLine) {
      throw invalidInput(`Chunk ${i} of ${input.path} has bad lines ${c.startLine}..${c.endLine}`);
    }
  }
}

/** Serialises writers of one file (see the top); call inside the transaction. */
async function lockFile(db: Db, namespace: string, path: string): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtext('cairn.document'), hashtext($1 || chr(1) || $2))", [namespace, path]);
}

/** Deletes a file's chunks and their entries; vectors go with the entries (cascade). */
async function deleteFile(db: Db, namespace: string, path: string): Promise<number> {
  await db.query(
    `DELETE FROM entries WHERE kind = 'document' AND ref_id IN (SELECT id FROM documents WHERE namespace = $1 AND path = $2)`,
    [namespace, path],
  );
  return (await db.query('DELETE FROM documents WHERE namespace = $1 AND path = $2', [namespace, path])).rowCount ?? 0;
}

export async function replaceDocument(db: Db, input: ReplaceDocumentInput, now: string): Promise<ReplaceDocumentResult> {
  checkInput(input);
  const { namespace, path } = input;
  return transaction(db, async (c): Promise<ReplaceDocumentResult> => {
    await lockFile(c, namespace, path);
    const stored = (await c.query<{ file_hash: string }>('SELECT file_hash FROM documents WHERE namespace = $1 AND path = $2 LIMIT 1', [namespace, path])).rows[0]?.file_hash;
    if (stored === input.fileHash || (stored === undefined && input.chunks.length === 0)) {
      // Same bytes: only the owner may change (a source re-added after removal takes its files back).
      if (stored !== undefined) {
        await c.query('UPDATE documents SET source_id = $1 WHERE namespace = $2 AND path = $3 AND source_id IS DISTINCT FROM $1', [input.sourceId, namespace, path]);
      }
      return { inserted: 0, removed: 0, unchanged: true };
    }
    // The namespace row (namespaces.ts ensureNamespace does the same): ON CONFLICT, as writers race.
    await c.query('INSERT INTO namespaces (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [namespace, now]);
    const removed = await deleteFile(c, namespace, path);
    const at = Date.parse(now);
    for (const [i, chunk] of input.chunks.entries()) {
      const id = newId('x', at);
      await c.query(
        `INSERT INTO documents (id, namespace, source_id, path, chunk, heading, text, start_line, end_line, file_hash, time, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [id, namespace, input.sourceId, path, i, chunk.heading, chunk.text, chunk.startLine, chunk.endLine, input.fileHash, input.time, now],
      );
      await insertEntry(c, { namespace, kind: 'document', refId: id, body: documentBody(chunk.heading, chunk.text), time: input.time, category: null, importance: null });
    }
    return { inserted: input.chunks.length, removed, unchanged: false };
  });
}

export async function removeDocument(db: Db, namespace: string, path: string): Promise<number> {
  return transaction(db, async (c) => {
    await lockFile(c, namespace, path);
    return deleteFile(c, namespace, path);
  });
}

export async function documentFiles(db: Db, namespace: string, sourceId?: number | null): Promise<DocumentFile[]> {
  const bySource = sourceId === undefined ? '' : 'AND source_id IS NOT DISTINCT FROM $2::bigint';
  const params: unknown[] = sourceId === undefined ? [namespace] : [namespace, sourceId];
  // One hash per file: a replace writes all of a file's chunks with the same hash.
  return (await db.query<DocumentFile>(
    `SELECT path, MIN(file_hash) AS "fileHash", COUNT(*)::int AS chunks FROM documents
     WHERE namespace = $1 ${bySource} GROUP BY path ORDER BY path COLLATE "C"`,
    params,
  )).rows;
}

export async function getDocumentChunk(db: Db, namespace: string, id: string): Promise<DocumentChunk | null> {
  const row = (await db.query<DocumentRow>('SELECT * FROM documents WHERE namespace = $1 AND id = $2', [namespace, id])).rows[0];
  return row ? documentFromRow(row) : null;
}
