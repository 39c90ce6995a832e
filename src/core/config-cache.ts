// Validated configs, kept in the home's cache folder. Building zod's schemas for the config costs a
// cold command ~35 ms (hundreds of schema objects), more than anything else it does before opening
// the store; a config file that has not changed since a command validated it is read back instead.
//
// The key holds everything the validation depends on: the file's bytes (or their absence), Cairn's
// version, the source text of the schemas' builders (a changed schema never reads an old result),
// and whether CAIRN_DATABASE_URL is set (store-config.ts accepts a postgres backend without a url
// only then). Only a result that survives JSON unchanged is kept; anything unreadable, damaged or
// of another key is ignored and written again. The file is private, like the config it copies.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { crc32 } from 'node:zlib';
import { PRIVATE_FILE_MODE } from './private-files.js';
import { CAIRN_VERSION } from './version.js';

export const VALIDATED_CONFIG_FILE = 'config-validated.json';

interface Stored {
  key: string;
  config: unknown;
}

/** The cache key of a config file's text (null: no file) under these schema builders. */
export function validatedConfigKey(text: string | null, builders: ReadonlyArray<() => unknown>, databaseUrlSet: boolean): string {
  const schemas = crc32(builders.map((b) => b.toString()).join('\n'));
  const file = text === null ? 'none' : `${crc32(text).toString(16)}:${text.length}`;
  return [CAIRN_VERSION, schemas.toString(16), file, databaseUrlSet ? 'db-url' : 'no-db-url'].join(' ');
}

/** The validated config stored under this key, or undefined. */
export function readValidatedConfig(cacheDir: string, key: string): unknown {
  let stored: Partial<Stored>;
  try {
    stored = JSON.parse(readFileSync(join(cacheDir, VALIDATED_CONFIG_FILE), 'utf8')) as Partial<Stored>;
  } catch {
    return undefined;
  }
  if (stored?.key !== key || typeof stored.config !== 'object' || stored.config === null) return undefined;
  return stored.config;
}

/**
 * Keeps a validated config for the next command, when the home's cache folder exists (a command
 * creates no home) and the config reads back from JSON exactly as it is.
 */
export function writeValidatedConfig(cacheDir: string, key: string, config: object): void {
  if (!existsSync(cacheDir)) return;
  const text = JSON.stringify({ key, config } satisfies Stored);
  if (!isDeepStrictEqual((JSON.parse(text) as Stored).config, config)) return;
  const path = join(cacheDir, VALIDATED_CONFIG_FILE);
  const temp = `${path}.${process.pid}.${Math.random().toString(16).slice(2, 8)}.tmp`;
  try {
    writeFileSync(temp, text, { mode: PRIVATE_FILE_MODE });
    renameSync(temp, path);
  } catch {
    // A read-only home, a full disk: the next command validates again.
    rmSync(temp, { force: true });
  }
}
