// A validated config is kept in the home's cache folder (src/core/config-cache.ts) so that a later
// command whose config.json has not changed skips building zod's schemas. The cache must never
// answer for another file, another environment or other schemas, must be ignored when damaged,
// and must not create a home's folders. Schemas themselves are built on first use (core/lazily.ts).
import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigFile, parseConfig } from '../../src/core/config.js';
import { VALIDATED_CONFIG_FILE, validatedConfigKey } from '../../src/core/config-cache.js';
import { lazily } from '../../src/core/lazily.js';
import { tempDir } from '../helpers/store-fixtures.js';

const savedUrl = process.env.CAIRN_DATABASE_URL;

function home(config: object | string | null): { path: string; cacheDir: string; cleanup: () => void } {
  const tmp = tempDir('cairn-config-cache-');
  const cacheDir = join(tmp.dir, 'cache');
  mkdirSync(cacheDir);
  const path = join(tmp.dir, 'config.json');
  if (config !== null) writeFileSync(path, typeof config === 'string' ? config : JSON.stringify(config));
  return { path, cacheDir, cleanup: tmp.cleanup };
}

const stored = (cacheDir: string) => JSON.parse(readFileSync(join(cacheDir, VALIDATED_CONFIG_FILE), 'utf8')) as { key: string; config: { search: { candidates: number } } };

describe('the validated-config cache', () => {
  afterEach(() => {
    if (savedUrl === undefined) delete process.env.CAIRN_DATABASE_URL;
    else process.env.CAIRN_DATABASE_URL = savedUrl;
  });

  it('keeps a validated config and reads it back (read back: what the file holds is not validated again)', () => {
    const h = home({ search: { candidates: 77 } });
    try {
      const first = loadConfigFile(h.path, { cacheDir: h.cacheDir });
      assert.equal(first.search.candidates, 77);
      assert.equal(stored(h.cacheDir).config.search.candidates, 77);
      assert.equal(statSync(join(h.cacheDir, VALIDATED_CONFIG_FILE)).mode & 0o777, 0o600);
      // Proof that the second load is the cache's answer: an entry edited under the same key wins.
      const kept = stored(h.cacheDir);
      kept.config.search.candidates = 78;
      writeFileSync(join(h.cacheDir, VALIDATED_CONFIG_FILE), JSON.stringify(kept));
      const second = loadConfigFile(h.path, { cacheDir: h.cacheDir });
      assert.equal(second.search.candidates, 78);
      assert.deepEqual({ ...second, search: first.search }, { ...first });
      assert.equal(second.timezone, first.timezone, 'the lazy system zone is not stored, and read again');
      assert.equal(parseConfig(second), second, 'a config this module returned is not validated again');
    } finally {
      h.cleanup();
    }
  });

  it('answers only for the same bytes: a changed file is validated again, an invalid one refused', () => {
    const h = home({ search: { candidates: 77 } });
    try {
      loadConfigFile(h.path, { cacheDir: h.cacheDir });
      writeFileSync(h.path, JSON.stringify({ search: { candidates: 76 } }));
      assert.equal(loadConfigFile(h.path, { cacheDir: h.cacheDir }).search.candidates, 76);
      writeFileSync(h.path, JSON.stringify({ search: { candidates: 'many' } }));
      assert.throws(() => loadConfigFile(h.path, { cacheDir: h.cacheDir }), /search\.candidates/);
      writeFileSync(h.path, '{"search": ');
      assert.throws(() => loadConfigFile(h.path, { cacheDir: h.cacheDir }), /not valid JSON/);
      assert.equal(stored(h.cacheDir).config.search.candidates, 76, 'a refused file leaves the last good entry');
    } finally {
      h.cleanup();
    }
  });

  it('the defaults (no file) are kept too, apart from a file', () => {
    const h = home(null);
    try {
      const defaults = loadConfigFile(h.path, { cacheDir: h.cacheDir });
      assert.match(stored(h.cacheDir).key, / none /);
      assert.deepEqual(loadConfigFile(h.path, { cacheDir: h.cacheDir }), defaults);
      writeFileSync(h.path, JSON.stringify({ search: { candidates: 75 } }));
      assert.equal(loadConfigFile(h.path, { cacheDir: h.cacheDir }).search.candidates, 75);
      assert.throws(() => loadConfigFile(join(h.cacheDir, 'nope.json'), { cacheDir: h.cacheDir, mustExist: true }), /does not exist/);
    } finally {
      h.cleanup();
    }
  });

  it('depends on CAIRN_DATABASE_URL, which decides whether a postgres store needs a url', () => {
    const h = home({ store: { backend: 'postgres', schema: 'team' } });
    try {
      process.env.CAIRN_DATABASE_URL = 'postgres://u@127.0.0.1:5432/shared';
      assert.equal(loadConfigFile(h.path, { cacheDir: h.cacheDir }).store.backend, 'postgres');
      delete process.env.CAIRN_DATABASE_URL;
      assert.throws(() => loadConfigFile(h.path, { cacheDir: h.cacheDir }), /store\.url/);
    } finally {
      h.cleanup();
    }
  });

  it('ignores a damaged, foreign or empty entry and writes it again; creates no cache folder', () => {
    for (const damaged of ['', '{', 'null', '[]', '{"key": 1}', JSON.stringify({ key: 'another', config: { search: {} } }), JSON.stringify({ key: null, config: null }), '\u0000'.repeat(64)]) {
      const h = home({ search: { candidates: 74 } });
      try {
        writeFileSync(join(h.cacheDir, VALIDATED_CONFIG_FILE), damaged);
        assert.equal(loadConfigFile(h.path, { cacheDir: h.cacheDir }).search.candidates, 74, damaged.slice(0, 30));
        assert.equal(stored(h.cacheDir).config.search.candidates, 74);
      } finally {
        h.cleanup();
      }
    }
    const h = home({ search: { candidates: 73 } });
    try {
      const absent = join(h.cacheDir, 'not-there');
      assert.equal(loadConfigFile(h.path, { cacheDir: absent }).search.candidates, 73);
      assert.equal(existsSync(absent), false);
    } finally {
      h.cleanup();
    }
  });

  it('the key changes with the bytes, the schemas\' source and the database variable', () => {
    const a = () => 1;
    const b = () => 2;
    const key = validatedConfigKey('{}', [a], false);
    assert.equal(validatedConfigKey('{}', [a], false), key);
    assert.notEqual(validatedConfigKey('{ }', [a], false), key);
    assert.notEqual(validatedConfigKey(null, [a], false), key);
    assert.notEqual(validatedConfigKey('{}', [b], false), key);
    assert.notEqual(validatedConfigKey('{}', [a], true), key);
  });
});

describe('lazily', () => {
  it('builds on first use, once, and keeps the builder', () => {
    let builds = 0;
    const build = () => ({ n: ++builds });
    const value = lazily(build);
    assert.equal(builds, 0);
    assert.equal(value().n, 1);
    assert.equal(value(), value());
    assert.equal(builds, 1);
    assert.equal(value.builder, build);
  });
});
