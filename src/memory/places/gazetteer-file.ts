// The places kept from the data packages, compiled by the build into one JSON file beside this
// module, so a process reads 14k names instead of decoding 135k cities. The file names the
// gazetteer version it was compiled for; any other version (upgraded data package, changed rules,
// a run from source) falls back to building from the packages, so a stale file is never used.
import { closeSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Place, PlaceKind } from './gazetteer.js';

export const COMPILED_GAZETTEER = fileURLToPath(new URL('./gazetteer.json', import.meta.url));

/** [name, kind, population, index into keys]: the keys strings repeat across thousands of cities. */
type Row = [string, PlaceKind, number, number];
interface CompiledFile { version: string; keys: string[]; places: Row[] }

const KINDS: ReadonlySet<string> = new Set<PlaceKind>(['country', 'division', 'city']);
/**
 * What the rows hold, beside the gazetteer version: raise when buildFromPackages keeps other data
 * without changing any place's keys (so the search's stored keys need not be recomputed).
 * 2: a division named like a city carries that city's population.
 */
const FILE_FORMAT = 2;

function fileVersion(version: string): string {
  return `${version};file=${FILE_FORMAT}`;
}

export function writeCompiledGazetteer(byName: ReadonlyMap<string, Place>, version: string, path = COMPILED_GAZETTEER): void {
  const keyIndex = new Map<string, number>();
  const places: Row[] = [];
  for (const [name, p] of byName) {
    let k = keyIndex.get(p.keys);
    if (k === undefined) keyIndex.set(p.keys, (k = keyIndex.size));
    places.push([name, p.kind, p.population, k]);
  }
  const file: CompiledFile = { version: fileVersion(version), keys: [...keyIndex.keys()], places };
  // Written aside and renamed: a reader never sees half a file.
  writeFileSync(`${path}.tmp`, JSON.stringify(file));
  renameSync(`${path}.tmp`, path);
}

/** The compiled places, or null when there is no file, it is for another version, or it is unreadable. */
export function readCompiledGazetteer(version: string, path = COMPILED_GAZETTEER): Map<string, Place> | null {
  try {
    const file = JSON.parse(readFileSync(path, 'utf8')) as Partial<CompiledFile>;
    if (file.version !== fileVersion(version) || !Array.isArray(file.keys) || !Array.isArray(file.places)) return null;
    const byName = new Map<string, Place>();
    for (const row of file.places) {
      const [name, kind, population, k] = row;
      const keys = file.keys[k];
      if (typeof name !== 'string' || !KINDS.has(kind) || typeof population !== 'number' || typeof keys !== 'string') return null;
      byName.set(name, { kind, population, keys });
    }
    return byName;
  } catch {
    return null; // missing or damaged: the slow path, never a wrong key
  }
}

/**
 * The gazetteer version the file was compiled for (null: no file, or another file format), read
 * from its head without parsing 0.8 MB: the version is the first field written.
 */
export function compiledGazetteerVersion(path = COMPILED_GAZETTEER): string | null {
  let head: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(4096);
      head = buf.toString('utf8', 0, readSync(fd, buf, 0, buf.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  const m = /^\{"version":("(?:[^"\\]|\\.)*")/.exec(head);
  if (!m) return null;
  let version: unknown;
  try {
    version = JSON.parse(m[1]!);
  } catch {
    return null;
  }
  const suffix = fileVersion('');
  return typeof version === 'string' && version.endsWith(suffix) && version.length > suffix.length ? version.slice(0, -suffix.length) : null;
}
