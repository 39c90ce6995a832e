// The embedding worker's bundle carries onnxruntime-node's JavaScript and loads only the native
// binding from the installed package of the version it was built with; another version is used as
// installed (scripts/bundle-onnxruntime.mjs). Checked on a small bundle built with the same plugin
// into a folder of its own, beside an installed package of the right version, of another version,
// and of none.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { ROOT } from '../helpers/cli.js';
// @ts-expect-error: a build script in plain JavaScript, without declarations
import { buildTimeOnnxRuntime, bundledOnnxRuntime } from '../../scripts/bundle-onnxruntime.mjs';

const INSTALLED = join(ROOT, 'node_modules', 'onnxruntime-node');
const version = (JSON.parse(readFileSync(join(INSTALLED, 'package.json'), 'utf8')) as { version: string }).version;

/** What the probe prints: whether the runtime loaded, and which onnxruntime modules came from disk. */
interface Probe {
  loaded: boolean;
  /** The module is the test's stand-in package (another version), not the bundled runtime. */
  standIn?: boolean;
  error?: string;
  fromDisk: string[];
}

describe('onnxruntime in the embedding worker bundle', () => {
  let dir = '';
  let probe = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-bundled-ort-'));
    const entry = join(dir, 'entry.mjs');
    writeFileSync(
      entry,
      `import { loadOnnxRuntime } from ${JSON.stringify(join(ROOT, 'dist', 'embed', 'onnxruntime-load.js'))};
const fromDisk = () => Object.keys(require.cache).filter((k) => /onnxruntime-(node|common)[\\\\/].*\\.js$/.test(k));
try {
  const ort = loadOnnxRuntime();
  const tensor = new ort.Tensor('float32', new Float32Array([1, 2]), [2]);
  console.log(JSON.stringify({ loaded: typeof ort.InferenceSession.create === 'function' && tensor.dims[0] === 2, standIn: ort.standIn === true, fromDisk: fromDisk() }));
} catch (err) {
  console.log(JSON.stringify({ loaded: false, error: err.message, fromDisk: fromDisk() }));
}
`,
    );
    const plugin = bundledOnnxRuntime(buildTimeOnnxRuntime(ROOT));
    probe = join(dir, 'bundle', 'bin', 'probe.cjs');
    await build({
      entryPoints: [entry],
      outfile: probe,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      nodePaths: [join(ROOT, 'node_modules')],
      plugins: [plugin],
      banner: { js: "const __cairnBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
      logLevel: 'error',
    });
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the probe from a copy placed in `home`, whose node_modules holds what `install` puts there. */
  function runFrom(home: string, install: (modules: string) => void): Probe {
    const bin = join(home, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'probe.cjs'), readFileSync(probe));
    install(join(home, 'node_modules'));
    const res = spawnSync(process.execPath, [join(bin, 'probe.cjs')], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    assert.equal(res.status, 0, res.stderr);
    return JSON.parse(res.stdout) as Probe;
  }

  it('finds the build-time version of the installed package', () => {
    assert.deepEqual(buildTimeOnnxRuntime(ROOT), { version });
    assert.equal(buildTimeOnnxRuntime(join(dir, 'nowhere')), null);
  });

  it('runs its bundled JavaScript on the binding of the installed package', () => {
    const got = runFrom(join(dir, 'same'), (modules) => {
      mkdirSync(modules, { recursive: true });
      symlinkSync(INSTALLED, join(modules, 'onnxruntime-node'), 'dir');
    });
    assert.equal(got.error, undefined);
    assert.equal(got.loaded, true);
    assert.equal(got.standIn, false);
    assert.deepEqual(got.fromDisk, [], 'no onnxruntime module is read from node_modules');
  });

  it('requires an installed package of another version as it is installed, its own JavaScript', () => {
    const got = runFrom(join(dir, 'other'), (modules) => {
      const pkg = join(modules, 'onnxruntime-node');
      mkdirSync(pkg, { recursive: true });
      writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'onnxruntime-node', version: '0.0.1', main: 'index.js' }));
      // A stand-in runtime: what the bundled JavaScript would never be.
      writeFileSync(join(pkg, 'index.js'), "class Tensor { constructor(type, data, dims) { this.dims = dims; } }\nmodule.exports = { Tensor, InferenceSession: { create() {} }, standIn: true };\n");
    });
    assert.equal(got.error, undefined);
    assert.equal(got.loaded, true);
    assert.equal(got.standIn, true, 'the installed package, not the bundled JavaScript');
    assert.deepEqual(got.fromDisk.map((f) => f.split(/[\\/]/).pop()), ['index.js']);
  });

  it('reports a missing package as Node does (MODULE_NOT_FOUND naming it)', () => {
    const got = runFrom(join(dir, 'none'), () => undefined);
    assert.equal(got.loaded, false);
    assert.match(got.error ?? '', /Cannot find module 'onnxruntime-node\/package\.json'/);
  });

  it('is what the built worker carries', () => {
    const worker = readFileSync(join(ROOT, 'dist', 'bin', 'embed-worker.cjs'), 'utf8');
    assert.match(worker, /OnnxruntimeSessionHandler = class/);
    assert.doesNotMatch(worker, /require\("onnxruntime-node"\)/);
  });
});
