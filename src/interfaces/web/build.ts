// `npm run build` step: bundles the web client (src/interfaces/web/client) with esbuild into
// dist/interfaces/web/assets under content-hashed names, writes manifest.json for the server, and
// fails the build when the shipped files exceed the budget gzipped (issue 27: ≤ 150 KB).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export const BUNDLE_BUDGET_BYTES = 150 * 1024;

export interface BuiltBundle {
  js: string;
  css: string;
  gzipBytes: number;
}

export async function buildWebClient(clientDir: string, outDir: string): Promise<BuiltBundle> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: { app: `${clientDir}/main.ts`, style: `${clientDir}/styles.css` },
    outdir: outDir,
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome111', 'firefox111', 'safari16'],
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const js = outputs.find((n) => n.startsWith('app-') && n.endsWith('.js'));
  const css = outputs.find((n) => n.startsWith('style-') && n.endsWith('.css'));
  if (!js || !css) throw new Error(`esbuild wrote no app bundle and stylesheet: ${outputs.join(', ')}`);
  writeFileSync(`${outDir}/manifest.json`, JSON.stringify({ js, css }));
  const gzipBytes = outputs.reduce((n, name) => n + gzipSync(readFileSync(`${outDir}/${name}`), { level: 9 }).length, 0);
  return { js, css, gzipBytes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const clientDir = fileURLToPath(new URL('../../../src/interfaces/web/client', import.meta.url));
  const outDir = fileURLToPath(new URL('./assets', import.meta.url));
  const built = await buildWebClient(clientDir, outDir);
  const kb = (built.gzipBytes / 1024).toFixed(1);
  if (built.gzipBytes > BUNDLE_BUDGET_BYTES) {
    console.error(`web client: ${kb} KB gzipped is over the ${BUNDLE_BUDGET_BYTES / 1024} KB budget`);
    process.exit(1);
  }
  console.log(`web client: ${built.js} + ${built.css}, ${kb} KB gzipped (budget ${BUNDLE_BUDGET_BYTES / 1024} KB)`);
}
