// Shared fixtures for store and service tests: deterministic fake embedders (fast, no model load),
// temporary homes that never touch the real one, and small assertion helpers for typed errors.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { CairnError, type ErrorCode } from '../../src/core/errors.js';
import { normalize, type Embedder, type EmbedderInfo } from '../../src/embed/embedder.js';

/**
 * Words the fake model treats as meaning the same thing: what a real embedding model knows and
 * BM25 does not, so tests can tell the vector side from the keyword side.
 */
export const SYNONYMS: Readonly<Record<string, string>> = {
  automobile: 'car',
  vehicle: 'car',
  throttling: 'ratelimit',
  ratelimiting: 'ratelimit',
  physician: 'doctor',
};

/** Lower-case word tokens, with a crude suffix strip so "decided" and "decide" share a dimension. */
function words(text: string): string[] {
  const tokens = text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];
  return tokens.map((t) => SYNONYMS[t] ?? (t.length > 5 ? t.replace(/(ing|ed|es|s)$/, '') : t));
}

/**
 * Hashed bag of words: each word adds ±1 to one of `dims` dimensions chosen by a hash of the word
 * and a salt; the result is unit length. Same text → same vector; shared words → positive cosine.
 */
export class HashEmbedder implements Embedder {
  readonly modelId: string;
  readonly dims: number;
  private readonly salt: string;
  /** Every text this embedder was asked to embed, in order (lets tests see what was embedded). */
  readonly calls: string[][] = [];
  initCount = 0;
  closed = false;

  constructor(options: { modelId?: string; dims?: number; salt?: string } = {}) {
    this.modelId = options.modelId ?? 'test-hash@1';
    this.dims = options.dims ?? 64;
    this.salt = options.salt ?? 'a';
  }

  async init(): Promise<EmbedderInfo> {
    this.initCount++;
    return { modelId: this.modelId, dimensions: this.dims };
  }

  vector(text: string): Float32Array {
    const vec = new Float32Array(this.dims);
    for (const w of words(text)) {
      const h = createHash('sha256').update(`${this.salt}:${w}`).digest();
      const dim = h.readUInt32BE(0) % this.dims;
      vec[dim]! += (h[4]! & 1) === 0 ? 1 : -1;
    }
    // Empty (or all-cancelling) text still gets a unit vector, as the Embedder contract asks.
    if (vec.every((x) => x === 0)) vec[0] = 1;
    return normalize(vec);
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls.push([...texts]);
    return texts.map((t) => this.vector(t));
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A second, incompatible model (other id, other dimensions, other hashing): for model switches. */
export function otherEmbedder(): HashEmbedder {
  return new HashEmbedder({ modelId: 'test-hash-b@2', dims: 32, salt: 'b' });
}

/** A temporary directory (optionally with a `home` folder inside) removed by `cleanup`. */
export function tempDir(prefix = 'cairn-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Asserts that a promise (or function) fails with a CairnError of `code`; returns the error. */
export async function rejectsCode(action: Promise<unknown> | (() => unknown), code: ErrorCode, message?: RegExp): Promise<CairnError> {
  let caught: unknown;
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught !== undefined, `expected a CairnError ${code}, but nothing was thrown`);
  assert.ok(caught instanceof CairnError, `expected a CairnError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, `expected ${code}, got ${caught.code}: ${caught.message}`);
  if (message) assert.match(caught.message, message);
  return caught;
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** A Writable that gathers what was written; `done()` ends it and resolves with the text. */
export function sink(): { stream: PassThrough; done: () => Promise<string> } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => stream.once('end', resolve));
  return {
    stream,
    done: async () => {
      stream.end();
      await ended;
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

export function readableOf(content: string | Buffer): Readable {
  return Readable.from([typeof content === 'string' ? Buffer.from(content, 'utf8') : content]);
}

export const DAY = 86_400_000;

/** ISO time `days` before now (negative: in the future). */
export function daysAgo(days: number, now = Date.now()): string {
  return new Date(now - days * DAY).toISOString();
}
