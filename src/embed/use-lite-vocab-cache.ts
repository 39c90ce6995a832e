// The tokenizer's vocabulary kept in the home's cache in the form the tokenizer uses: 8,000 pieces
// as one UTF-16 text and their scores as float64s, beside the graph. A cold search's model thread
// decoded the package's vocab.json (218 KB of JSON, mostly non-ASCII) into 8,000 [piece, score]
// arrays before its first vector; from this file its start reads the vocabulary and builds the
// tokenizer in about half the time (use-lite-ort.ts has the figures). It is derived data:
// it names the CRC-32 of the vocab.json it was made from and of its own contents, and one that is
// missing, damaged, of another vocab.json or of another format is made again; a home that cannot
// be written to simply goes without.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/private-files.js';
import { cacheTempSuffix } from './use-lite-graph-cache.js';
import { compactVocabulary, type CompactVocabulary, type UseLiteVocabulary } from './use-lite-tokenizer.js';

export const VOCABULARY_CACHE_FILE = 'use-lite-vocab.bin';
/** Format and version of the file: bump the digit with any change to the layout below. */
const MAGIC = 'CAIRNVC1';
/**
 * The layout: MAGIC (8 bytes), then four little-endian uint32s: the source's CRC-32, the number of
 * pieces, the byte length of the pieces' text, the CRC-32 of everything after this header; then
 * each piece's score (float64), then the pieces in id order as UTF-16LE, separated by U+0000.
 */
const HEADER = 24;
const SEPARATOR = '\u0000';

/** The vocabulary from its cached form when that was made from these vocab.json bytes; null otherwise. */
function readCached(path: string, sourceCrc: number): CompactVocabulary | null {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return null;
  }
  if (file.length < HEADER || file.toString('latin1', 0, 8) !== MAGIC || file.readUInt32LE(8) !== sourceCrc) return null;
  const count = file.readUInt32LE(12);
  const textBytes = file.readUInt32LE(16);
  if (file.length !== HEADER + count * 8 + textBytes || textBytes % 2 !== 0 || crc32(file.subarray(HEADER)) !== file.readUInt32LE(20)) return null;
  // A copy: the file's bytes need not be 8-aligned in their ArrayBuffer.
  const scores = new Float64Array(file.buffer.slice(file.byteOffset + HEADER, file.byteOffset + HEADER + count * 8));
  const pieces = file.toString('utf16le', HEADER + count * 8).split(SEPARATOR);
  return pieces.length === count ? { pieces, scores } : null;
}

function write(cacheDir: string, path: string, sourceCrc: number, { pieces, scores }: CompactVocabulary): void {
  if (pieces.some((piece) => piece.includes(SEPARATOR))) return; // would not split back: go without
  const text = Buffer.from(pieces.join(SEPARATOR), 'utf16le');
  const file = Buffer.alloc(HEADER + scores.length * 8 + text.length);
  file.write(MAGIC, 0, 'latin1');
  file.writeUInt32LE(sourceCrc, 8);
  file.writeUInt32LE(pieces.length, 12);
  file.writeUInt32LE(text.length, 16);
  Buffer.from(scores.buffer, scores.byteOffset, scores.byteLength).copy(file, HEADER);
  text.copy(file, HEADER + scores.length * 8);
  file.writeUInt32LE(crc32(file.subarray(HEADER)), 20);
  const temp = `${path}.${cacheTempSuffix()}`;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    writeFileSync(temp, file, { mode: PRIVATE_FILE_MODE });
    renameSync(temp, path); // atomic: a reader sees the old file or the whole new one
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // the cache is an optimisation: a temp file left behind is removed by a later write
    }
  }
}

/**
 * The vocabulary of these vocab.json bytes: from the cache folder when it holds it, else parsed
 * (and then written there for the next process).
 */
export function loadCachedVocabulary(source: Buffer, cacheDir: string | undefined, parse: (source: Buffer) => UseLiteVocabulary): CompactVocabulary {
  const sourceCrc = crc32(source);
  const path = cacheDir ? join(cacheDir, VOCABULARY_CACHE_FILE) : null;
  const cached = path ? readCached(path, sourceCrc) : null;
  if (cached) return cached;
  const vocabulary = compactVocabulary(parse(source));
  if (cacheDir && path) write(cacheDir, path, sourceCrc, vocabulary);
  return vocabulary;
}
