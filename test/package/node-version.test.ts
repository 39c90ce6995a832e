// The Node.js version Cairn asks for is stated honestly (issue 30 item 20): README's "Requires
// Node.js X or newer" is package.json's `engines.node`, and that floor satisfies the `engines` of
// every installed runtime dependency (chokidar 5, used by `cairn watch`, needs 20.19).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

type Version = [number, number, number];

/** The version of a plain minimum (`>=20.19`, `>= 20.19.0`), or null for other ranges. */
function floorOf(range: string): Version | null {
  const m = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : null;
}

function atLeast(a: Version, b: Version): boolean {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return true;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const floor = floorOf(pkg.engines.node);

describe('the Node.js version (issue 30 item 20)', () => {
  it('package.json engines.node is a plain minimum', () => {
    assert.ok(floor, `engines.node ${pkg.engines.node} is of the form ">=X.Y"`);
  });

  it('README states the same minimum as engines.node', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const stated = /Requires Node\.js (\d+(?:\.\d+){0,2}) or newer/.exec(readme);
    assert.ok(stated, 'README says which Node.js it requires');
    assert.deepEqual(floorOf(`>=${stated[1]}`), floor, `README says ${stated[1]}, engines.node says ${pkg.engines.node}`);
  });

  it('the floor satisfies every installed runtime dependency that states a minimum', () => {
    // Optional peers (onnxruntime-node, transformers.js) run in Cairn's process once a user adds them.
    const names = Object.keys({ ...pkg.dependencies, ...(pkg.optionalDependencies ?? {}), ...(pkg.peerDependencies ?? {}) });
    let checked = 0;
    for (const name of names) {
      const file = join(ROOT, 'node_modules', name, 'package.json');
      if (!existsSync(file)) continue; // an optional one that is not installed
      const range = (JSON.parse(readFileSync(file, 'utf8')) as { engines?: { node?: string } }).engines?.node;
      const need = range === undefined ? null : floorOf(range);
      if (!need) continue;
      checked++;
      assert.ok(atLeast(floor!, need), `${name} needs Node ${range}; engines.node says ${pkg.engines.node}`);
    }
    assert.ok(checked > 0, 'some dependency states a minimum');
  });
});
