// Bundles the plugin into one dependency-free ESM file (dist/index.js): the few pure Cairn modules
// it shares with the CLI (the local socket protocol, namespace rules, the OpenClaw result mapping)
// are compiled in, so `openclaw plugins install` needs nothing from the npm registry.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
await build({
  entryPoints: [join(here, 'src', 'index.ts')],
  outfile: join(here, 'dist', 'index.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});
