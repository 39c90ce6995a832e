// Markdown documents for SQLite: chunks of files kept elsewhere, each with a 'document' entry so
// search and embedding treat them like everything else. A file is replaced whole, in one
// transaction, so a search never sees half of an old version and half of a new one.
import type { Database } from 'better-sqlite3';
import { keysOf } from './keys.js';
import { stmt } from './statements.js';
import { newId } from '../../core/ids.js';
import { invalidInput } from '../../core/errors.js';
import type { DocumentChunk, DocumentFile, ReplaceDocumentInput, ReplaceDocumentResult } from '../store.js';
import { documentFromRow, type DocumentRow } from '../rows.js';
import { ensureNamespaceTx } from './namespaces.js';

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

/** Deletes a file's chunks and their entries; vectors go with the entries (cascade). */
function deleteFile(db: Database, namespace: string, path: string): number {
  stmt(
    db,
    `DELETE FROM entries WHERE kind = 'document' AND ref_id IN (SELECT id FROM documents WHERE namespace = ? AND path = ?)`,
  ).run(namespace, path);
  return stmt(db, 'DELETE FROM documents WHERE namespace = ? AND path = ?').run(namespace, path).changes;
}

export function replaceDocument(db: Database, input: ReplaceDocumentInput, now: string): ReplaceDocumentResult {
  checkInput(input);
  const { namespace, path } = input;
  return db
    .transaction((): ReplaceDocumentResult => {
      const stored = stmt(db, 'SELECT file_hash FROM documents WHERE namespace = ? AND path = ? LIMIT 1').pluck().get(namespace, path) as
        | string
        | undefined;
      if (stored === input.fileHash || (stored === undefined && input.chunks.length === 0)) {
        // Same bytes: only the owner may change (a source re-added after removal takes its files back).
        if (stored !== undefined) {
          stmt(db, 'UPDATE documents SET source_id = ? WHERE namespace = ? AND path = ? AND source_id IS NOT ?').run(
            input.sourceId,
            namespace,
            path,
            input.sourceId,
          );
        }
        return { inserted: 0, removed: 0, unchanged: true };
      }
      ensureNamespaceTx(db, namespace, now);
      const removed = deleteFile(db, namespace, path);
      const insertDoc = stmt(
        db,
        `INSERT INTO documents (id, namespace, source_id, path, chunk, heading, text, start_line, end_line, file_hash, time, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insertEntry = stmt(
        db,
        `INSERT INTO entries (namespace, kind, ref_id, body, keys, time, category, importance, current)
         VALUES (?, 'document', ?, ?, ?, ?, NULL, NULL, 1)`,
      );
      const at = Date.parse(now);
      for (const [i, c] of input.chunks.entries()) {
        const id = newId('x', at);
        insertDoc.run(id, namespace, input.sourceId, path, i, c.heading, c.text, c.startLine, c.endLine, input.fileHash, input.time, now);
        const body = documentBody(c.heading, c.text);
        insertEntry.run(namespace, id, body, keysOf(db, body), input.time);
      }
      return { inserted: input.chunks.length, removed, unchanged: false };
    })
    .immediate();
}

export function removeDocument(db: Database, namespace: string, path: string): number {
  return db.transaction(() => deleteFile(db, namespace, path)).immediate();
}

export function documentFiles(db: Database, namespace: string, sourceId?: number | null): DocumentFile[] {
  const bySource = sourceId === undefined ? '' : 'AND source_id IS ?';
  const params: unknown[] = sourceId === undefined ? [namespace] : [namespace, sourceId];
  // One hash per file: a replace writes all of a file's chunks with the same hash.
  return stmt(
    db,
    `SELECT path, MIN(file_hash) AS fileHash, COUNT(*) AS chunks FROM documents
     WHERE namespace = ? ${bySource} GROUP BY path ORDER BY path`,
  ).all(...params) as DocumentFile[];
}

export function getDocumentChunk(db: Database, namespace: string, id: string): DocumentChunk | null {
  const row = stmt(db, 'SELECT * FROM documents WHERE namespace = ? AND id = ?').get(namespace, id) as DocumentRow | undefined;
  return row ? documentFromRow(row) : null;
}
