// Packages with native code whose JavaScript is compiled into a bundle while their addon is still
// loaded from the installed package. A cold command otherwise resolves, reads and compiles their
// modules from node_modules one by one, and finds the addon by searching folders:
//  - onnxruntime-node (and onnxruntime-common) in the embedding worker: ~20 modules, ~19 ms of the
//    model thread's start, which a cold hybrid `cairn search` waits for;
//  - usearch in the CLI: its module, node-gyp-build and `bindings` (which builds an Error to read
//    its caller's file from the stack), ~12 ms of the main thread's path to the query's vector
//    search, where the addon's dlopen is 1.3.
//  - better-sqlite3 in the CLI: 14 modules, ~6–11 ms of the same path (its addon is handed to it
//    from build/Release by store/sqlite/driver.ts; `bindings` searches only when it is not there).
// For each, the module of dist/ that require()s the package becomes a function that finds the
// package installed beside Cairn and, when it is the version whose JavaScript was bundled (the addon
// and its JavaScript are one release), runs the bundled JavaScript, first used then like the module
// it replaces; another version is require()d as installed, as before; a missing one throws
// MODULE_NOT_FOUND naming it, as require() does. The line of the package's JavaScript that loads
// its addon relative to itself loads the installed package's instead. A package not installed at
// build time (onnxruntime-node is an optional peer) stays external: required as before.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Code that evaluates to `{ root, version }` of `name` installed beside the bundle: the folder above
 * its main module whose package.json names it (usearch's exports do not include its package.json,
 * so that cannot be resolved). A missing package throws MODULE_NOT_FOUND naming it.
 */
const installedPackage = (name) => `((name) => {
  const { dirname, join } = require('node:path');
  const { readFileSync } = require('node:fs');
  for (let dir = dirname(require('node:module').createRequire(__cairnBundleUrl).resolve(name)); ; dir = dirname(dir)) {
    let manifest = null;
    try { manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')); } catch {}
    if (manifest && manifest.name === name) return { root: dir, version: manifest.version };
    if (dirname(dir) === dir) throw new Error(name + ': no package.json of that name above its main module');
  }
})(${JSON.stringify(name)})`;
const installedRoot = (name) => `${installedPackage(name)}.root`;

/** onnxruntime-node's dist/binding.js loads its binding relative to itself. */
const ORT_BINDING_REQUIRE = 'require(`../bin/napi-v6/${process.platform}/${process.arch}/onnxruntime_binding.node`)';
/** usearch finds its package root from its own file (getDirName falls back to `bindings`), then node-gyp-build the addon. */
const USEARCH_ADDON = 'const compiled = (0, node_gyp_build_1.default)(getBuildDir(getDirName()));';
const USEARCH_BINDINGS = 'const bindings_1 = require("bindings");';
/** better-sqlite3 finds its addon with `bindings` when it is not handed one (store/sqlite/driver.ts hands it build/Release's). */
const SQLITE_DEFAULT_ADDON = "require('bindings')('better_sqlite3.node')";

/** What each package bundles: the dist/ module that loads it, its function, and the edits of its own files. */
const NATIVE_PACKAGES = {
  'onnxruntime-node': {
    loader: /[\\/]dist[\\/]embed[\\/]onnxruntime-load\.js$/,
    loaderFunction: 'loadOnnxRuntime',
    edits: [
      {
        file: /[\\/]onnxruntime-node[\\/]dist[\\/]binding\.js$/,
        replace: [[ORT_BINDING_REQUIRE, `require(require('node:path').join(${installedRoot('onnxruntime-node')}, 'bin', 'napi-v6', process.platform, process.arch, 'onnxruntime_binding.node'))`]],
      },
    ],
  },
  'better-sqlite3': {
    loader: /[\\/]dist[\\/]store[\\/]sqlite[\\/]better-sqlite3-load\.js$/,
    loaderFunction: 'loadBetterSqlite3',
    edits: [
      {
        file: /[\\/]better-sqlite3[\\/]lib[\\/]database\.js$/,
        // bindings searched from its caller's file, which would be the bundle: it searches the installed package instead.
        replace: [[SQLITE_DEFAULT_ADDON, `require('bindings')({ bindings: 'better_sqlite3.node', module_root: ${installedRoot('better-sqlite3')} })`]],
      },
    ],
  },
  usearch: {
    loader: /[\\/]dist[\\/]search[\\/]usearch-load\.js$/,
    loaderFunction: 'loadUsearch',
    edits: [
      {
        file: /[\\/]usearch[\\/]javascript[\\/]dist[\\/]cjs[\\/]usearch\.js$/,
        replace: [
          // node-gyp-build looks in build/Release, then prebuilds/<platform>-<arch>, as it did.
          [USEARCH_ADDON, `const compiled = (0, node_gyp_build_1.default)(${installedRoot('usearch')});`],
          // Only getDirName's fallback used it, and getDirName is no longer called.
          [USEARCH_BINDINGS, 'const bindings_1 = null;'],
        ],
      },
    ],
  },
};

/** The dist/ module's replacement: the bundled JavaScript for the bundled version, else the installed package. */
const bundledLoader = (name, loaderFunction, version) => `import { createRequire } from 'node:module';
export function ${loaderFunction}() {
  if (${installedPackage(name)}.version !== ${JSON.stringify(version)}) return createRequire(__cairnBundleUrl)(${JSON.stringify(name)});
  return require(${JSON.stringify(name)});
}
`;

/** The version of `name` installed for the build, or null when it is not. */
export function buildTimeVersion(root, name) {
  try {
    const require = createRequire(`${root}/package.json`);
    for (let dir = dirname(require.resolve(name)); dirname(dir) !== dir; dir = dirname(dir)) {
      const manifest = join(dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const { name: named, version } = JSON.parse(readFileSync(manifest, 'utf8'));
      if (named === name) return version;
    }
    return null;
  } catch {
    return null;
  }
}

/**
 * The esbuild plugin bundling `name` at `version` (it must come before plugins that load dist/
 * files); the build must not list `name` as external.
 */
export function bundledNative(name, version) {
  const { loader, loaderFunction, edits } = NATIVE_PACKAGES[name];
  return {
    name: `bundled-${name}`,
    setup(b) {
      b.onLoad({ filter: loader }, () => ({ contents: bundledLoader(name, loaderFunction, version), loader: 'js' }));
      for (const { file, replace } of edits) {
        b.onLoad({ filter: file }, async (args) => {
          let source = await readFile(args.path, 'utf8');
          for (const [from, to] of replace) {
            if (!source.includes(from)) throw new Error(`bundle-native: ${args.path} no longer has \`${from}\`; update NATIVE_PACKAGES`);
            source = source.replace(from, to);
          }
          return { contents: source, loader: 'js' };
        });
      }
    },
  };
}

/** The plugins for the packages of `names` installed at build time, and the externals left (those not installed stay external). */
export function nativeBundling(root, names, external) {
  const installed = names.map((name) => [name, buildTimeVersion(root, name)]).filter(([, version]) => version !== null);
  const bundled = new Set(installed.map(([name]) => name));
  return { plugins: installed.map(([name, version]) => bundledNative(name, version)), external: external.filter((e) => !bundled.has(e)) };
}
