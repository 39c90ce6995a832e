// Brings the store's copy of a Markdown root up to date: changed files are re-chunked and replaced,
// unchanged ones (same sha256) cost a read and a hash, deleted ones lose their chunks. Files are
// only ever opened for reading. Secrets are redacted before anything reaches the store.
import { createHash } from '../../core/lazy-crypto.js';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Store } from '../../store/store.js';
import { redact } from '../redact.js';
import { chunkMarkdown, type MarkdownChunk } from './chunk.js';
import { isWithin, listMarkdownFiles, type MarkdownLayout } from './walk.js';

export { isMarkdownPath, listMarkdownFiles, inMarkdownScope, type MarkdownLayout, type MarkdownListing } from './walk.js';

/** Larger files are skipped with an error: notes are small, and a chunk per 1 KB adds up. */
export const MAX_MARKDOWN_BYTES = 5 * 1024 * 1024;

export interface SyncMarkdownOptions {
  /** A directory, or a single Markdown file. */
  root: string;
  namespace: string;
  sourceId: number | null;
  /** How a directory is read; default 'tree'. Ignored for a single file. */
  layout?: MarkdownLayout;
  maxChars?: number;
}

export interface SyncMarkdownReport {
  /** Files read (changed and unchanged). */
  files: number;
  /** Files whose chunks were replaced. */
  changed: number;
  unchanged: number;
  /** Files whose chunks were dropped because the file is gone (or no longer in the layout). */
  removed: number;
  /** Chunks written. */
  chunks: number;
  redactions: Record<string, number>;
  /** Files and folders that could not be read; what was indexed from them stays as it was. */
  errors: Array<{ path: string; message: string }>;
}

/** Redacts each chunk's text and heading, adding what was replaced to `counts`. */
export function redactChunks(chunks: readonly MarkdownChunk[], counts: Record<string, number>): MarkdownChunk[] {
  const add = (found: Record<string, number>) => {
    for (const [kind, n] of Object.entries(found)) counts[kind] = (counts[kind] ?? 0) + n;
  };
  return chunks.map((c) => {
    const text = redact(c.text);
    const heading = redact(c.heading);
    add(text.counts);
    add(heading.counts);
    return { ...c, text: text.text, heading: heading.text };
  });
}

type ReadResult = { bytes: Buffer; mtime: string } | { error: string; gone: boolean };

async function readMarkdownFile(path: string): Promise<ReadResult> {
  try {
    // Non-blocking open: a FIFO named `x.md` must not hang the sync waiting for a writer.
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const info = await handle.stat();
      if (!info.isFile()) return { error: 'not a regular file', gone: false };
      if (info.size > MAX_MARKDOWN_BYTES) return { error: `larger than ${MAX_MARKDOWN_BYTES / 1024 / 1024} MB (${info.size} bytes); skipped`, gone: false };
      return { bytes: await handle.readFile(), mtime: info.mtime.toISOString() };
    } finally {
      await handle.close();
    }
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err), gone: (err as NodeJS.ErrnoException).code === 'ENOENT' };
  }
}

/** Invalid UTF-8 becomes U+FFFD rather than failing the file. */
const decoder = new TextDecoder('utf-8', { fatal: false });

export async function syncMarkdown(store: Store, options: SyncMarkdownOptions): Promise<SyncMarkdownReport> {
  const root = resolve(options.root);
  const { namespace, sourceId } = options;
  const report: SyncMarkdownReport = { files: 0, changed: 0, unchanged: 0, removed: 0, chunks: 0, redactions: {}, errors: [] };
  const listing = await listMarkdownFiles(root, options.layout);
  report.errors.push(...listing.errors);
  const known = (await store.documentFiles(namespace, sourceId)).filter((f) => isWithin(root, f.path));
  const storedHash = new Map(known.map((f) => [f.path, f.fileHash]));
  const present = new Set<string>();
  const keep = [...listing.unreadable];

  for (const path of listing.files) {
    const read = await readMarkdownFile(path);
    if ('error' in read) {
      report.errors.push({ path, message: read.error });
      if (!read.gone) keep.push(path);
      continue;
    }
    present.add(path);
    report.files++;
    const fileHash = createHash('sha256').update(read.bytes).digest('hex');
    if (storedHash.get(path) === fileHash) {
      report.unchanged++; // skip chunking and redaction; the store would say the same
      continue;
    }
    // The whole file is redacted before it is cut into chunks: a chunk boundary inside a key, or
    // between "password:" and its value, would leave pieces no pattern recognises (issue 30 item 4).
    const whole = redact(decoder.decode(read.bytes));
    for (const [kind, n] of Object.entries(whole.counts)) report.redactions[kind] = (report.redactions[kind] ?? 0) + n;
    const chunks = redactChunks(chunkMarkdown(whole.text, { maxChars: options.maxChars }), report.redactions);
    const result = await store.replaceDocument({ namespace, sourceId, path, fileHash, time: read.mtime, chunks });
    if (result.unchanged) report.unchanged++;
    else report.changed++;
    report.chunks += result.inserted;
  }

  for (const f of known) {
    if (present.has(f.path) || keep.some((dir) => isWithin(dir, f.path))) continue;
    await store.removeDocument(namespace, f.path);
    report.removed++;
  }
  return report;
}
