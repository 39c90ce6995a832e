// The worker's bundle carries onnxruntime-node's JavaScript and the CLI's carries usearch's and
// better-sqlite3's, each loading only its addon from the installed package of the version it was
// built with; another version is used as installed (scripts/bundle-native.mjs). Checked on a small
// bundle built with the same plugin into a folder of its own, beside an installed package of the
// right version, of another version, and of none.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { ROOT } from '../helpers/cli.js';
// @ts-expect-error: a build script in plain JavaScript, without declarations
import { buildTimeVersion, bundledNative, nativeBundling } from '../../scripts/bundle-native.mjs';

/** What the probe prints: whether the package works, and which of its modules came from disk. */
interface Probe {
  loaded: boolean;
  /** The module is the test's stand-in package (another version), not the bundled JavaScript. */
  standIn?: boolean;
  error?: string;
  fromDisk: string[];
}

interface Case {
  name: string;
  /** The dist/ module that loads it, and its function. */
  loader: string;
  loaderFunction: string;
  /** The package's own JavaScript files, as require.cache names them. */
  ownFiles: RegExp;
  /** An expression using the loaded module `m`: true when it works. */
  works: string;
  /** The stand-in's index.js, exporting standIn: true and what `works` uses. */
  standIn: string;
  /** The built bundle that carries it, and a sign of its classes in there. */
  bundle: string;
  carried: RegExp;
}

const CASES: Case[] = [
  {
    name: 'onnxruntime-node',
    loader: join('dist', 'embed', 'onnxruntime-load.js'),
    loaderFunction: 'loadOnnxRuntime',
    ownFiles: /onnxruntime-(node|common)[\\/].*\.js$/,
    works: "typeof m.InferenceSession.create === 'function' && new m.Tensor('float32', new Float32Array([1, 2]), [2]).dims[0] === 2",
    standIn: "class Tensor { constructor(type, data, dims) { this.dims = dims; } }\nmodule.exports = { Tensor, InferenceSession: { create() {} }, standIn: true };\n",
    bundle: join('dist', 'bin', 'embed-worker.cjs'),
    carried: /OnnxruntimeSessionHandler = class/,
  },
  {
    name: 'better-sqlite3',
    loader: join('dist', 'store', 'sqlite', 'better-sqlite3-load.js'),
    loaderFunction: 'loadBetterSqlite3',
    ownFiles: /(better-sqlite3|bindings|file-uri-to-path)[\\/].*\.js$/,
    // Not handed its addon: the bundled JavaScript finds it in the installed package by itself.
    works: "(() => { const db = new m(':memory:'); const v = db.prepare('SELECT 41 + 1 AS v').get().v; db.close(); return v === 42; })()",
    standIn: "class Database { prepare() { return { get: () => ({ v: 42 }) }; } close() {} }\nDatabase.standIn = true;\nmodule.exports = Database;\n",
    bundle: join('dist', 'bin', 'cli.cjs'),
    carried: /Expected the "nativeBinding" option/,
  },
  {
    name: 'usearch',
    loader: join('dist', 'search', 'usearch-load.js'),
    loaderFunction: 'loadUsearch',
    ownFiles: /(usearch|node-gyp-build|bindings)[\\/].*\.js$/,
    works: "(() => { const index = new m.Index({ dimensions: 2, metric: m.MetricKind.Cos, quantization: m.ScalarKind.F32, connectivity: 8, expansion_add: 16, expansion_search: 16, multi: false }); index.add(1n, new Float32Array([1, 0])); index.add(2n, new Float32Array([0, 1])); return index.search(new Float32Array([1, 0.1]), 1).keys[0] === 1n; })()",
    standIn: "class Index { constructor() {} add() {} search() { return { keys: [1n] }; } }\nmodule.exports = { Index, MetricKind: {}, ScalarKind: {}, standIn: true };\n",
    bundle: join('dist', 'bin', 'cli.cjs'),
    carried: /CompiledIndex\(/,
  },
];

for (const c of CASES) {
  describe(`${c.name} bundled (its addon from the installed package)`, () => {
    const installed = join(ROOT, 'node_modules', c.name);
    let dir = '';
    let probe = '';

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), `cairn-bundled-${c.name}-`));
      const entry = join(dir, 'entry.mjs');
      writeFileSync(
        entry,
        `import { ${c.loaderFunction} } from ${JSON.stringify(join(ROOT, c.loader))};
const fromDisk = () => Object.keys(require.cache).filter((k) => ${c.ownFiles}.test(k));
try {
  const m = ${c.loaderFunction}();
  console.log(JSON.stringify({ loaded: ${c.works}, standIn: m.standIn === true, fromDisk: fromDisk() }));
} catch (err) {
  console.log(JSON.stringify({ loaded: false, error: err.message, fromDisk: fromDisk() }));
}
`,
      );
      probe = join(dir, 'bundle', 'bin', 'probe.cjs');
      await build({
        entryPoints: [entry],
        outfile: probe,
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        nodePaths: [join(ROOT, 'node_modules')],
        plugins: [bundledNative(c.name, buildTimeVersion(ROOT, c.name))],
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

    it('finds the build-time version of the installed package, and leaves a package not installed external', () => {
      const version = (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string }).version;
      assert.equal(buildTimeVersion(ROOT, c.name), version);
      assert.equal(buildTimeVersion(join(dir, 'nowhere'), c.name), null);
      const none = nativeBundling(join(dir, 'nowhere'), [c.name], [c.name, 'other']);
      assert.deepEqual([none.plugins.length, none.external], [0, [c.name, 'other']]);
      const here = nativeBundling(ROOT, [c.name], [c.name, 'other']);
      assert.deepEqual([here.plugins.length, here.external], [1, ['other']]);
    });

    it('runs its bundled JavaScript on the addon of the installed package', () => {
      const got = runFrom(join(dir, 'same'), (modules) => {
        mkdirSync(modules, { recursive: true });
        symlinkSync(installed, join(modules, c.name), 'dir');
      });
      assert.equal(got.error, undefined);
      assert.equal(got.loaded, true);
      assert.equal(got.standIn, false);
      assert.deepEqual(got.fromDisk, [], `no ${c.name} module is read from node_modules`);
    });

    it('requires an installed package of another version as it is installed, its own JavaScript', () => {
      const got = runFrom(join(dir, 'other'), (modules) => {
        const pkg = join(modules, c.name);
        mkdirSync(pkg, { recursive: true });
        writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: c.name, version: '0.0.1', main: 'index.js' }));
        writeFileSync(join(pkg, 'index.js'), c.standIn);
      });
      assert.equal(got.error, undefined);
      assert.equal(got.loaded, true);
      assert.equal(got.standIn, true, 'the installed package, not the bundled JavaScript');
      assert.deepEqual(got.fromDisk.map((f) => f.split(/[\\/]/).pop()), ['index.js']);
    });

    it('reports a missing package as Node does (MODULE_NOT_FOUND naming it)', () => {
      const got = runFrom(join(dir, 'none'), () => undefined);
      assert.equal(got.loaded, false);
      assert.match(got.error ?? '', new RegExp(`Cannot find module '${c.name}'`));
    });

    it('is what the built bundle carries', () => {
      const bundle = readFileSync(join(ROOT, c.bundle), 'utf8');
      assert.match(bundle, c.carried);
      assert.doesNotMatch(bundle, new RegExp(`require\\("${c.name}"\\)`));
    });
  });
}
