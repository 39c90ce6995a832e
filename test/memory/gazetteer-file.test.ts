// The compiled gazetteer: the build writes the places kept into dist so a process reads 14k names
// instead of decoding 135k cities. It must hold exactly what the packages give, be used only for
// its own version, and a damaged or hostile file must cost the slow path, never a wrong key.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFromPackages, gazetteerVersion, type Place } from '../../src/memory/places/gazetteer.js';
import { readCompiledGazetteer, writeCompiledGazetteer } from '../../src/memory/places/gazetteer-file.js';

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
});
