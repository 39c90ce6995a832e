// use-lite on TF.js (the runtime of a default install) must load whatever finishes first: its
// WebAssembly backend or the weights. @energetic-ai/embeddings' initModel() reads the weights while
// the backend still starts, and making their tensors before it is ready failed ("Backend 'wasm'
// has not yet been initialized"), seen on a loaded machine. Here the WebAssembly instantiation is
// held back 1.5 s in a child process, so the weights are always read first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, assertBuilt, runNode } from '../helpers/cli.js';

const SLOW_WASM = `data:text/javascript,${encodeURIComponent(
  'const instantiate = WebAssembly.instantiate; WebAssembly.instantiate = (...a) => new Promise((r) => setTimeout(r, 1500)).then(() => instantiate(...a));',
)}`;
const SCRIPT = `
const { UseLiteEmbedder } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'embed', 'use-lite.js')).href)});
const e = new UseLiteEmbedder({ runtime: 'tfjs' });
const info = await e.init();
const [v] = await e.embed(['which port is the staging database on']);
await e.close();
process.stdout.write(JSON.stringify({ runtime: info.runtime, dims: v.length, norm: Math.hypot(...v) }));
`;

test('use-lite on TF.js loads when its WebAssembly backend starts after the weights are read', async () => {
  assertBuilt();
  const res = await runNode(['--import', SLOW_WASM, '--input-type=module', '--eval', SCRIPT], { home: null });
  assert.equal(res.code, 0, res.stderr);
  const out = JSON.parse(res.stdout) as { runtime: string; dims: number; norm: number };
  assert.equal(out.runtime, 'tfjs');
  assert.equal(out.dims, 512);
  assert.ok(Math.abs(out.norm - 1) < 1e-3);
});
