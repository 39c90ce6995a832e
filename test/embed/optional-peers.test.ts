// The optional providers are peer dependencies npm does not install (issue 29): an install without
// them must still embed (use-lite on TF.js) and a config that asks for one must say what to install.
// The built modules are copied into a folder whose node_modules holds only what a default install
// has for these paths (the TF.js model packages), so onnxruntime-node and transformers.js are absent
// for real.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));

describe('optional providers not installed', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'cairn-no-peers-'));
    for (const sub of ['embed', 'core']) cpSync(join(DIST, sub), join(root, 'dist', sub), { recursive: true });
    mkdirSync(join(root, 'node_modules'));
    // Resolved through the link to the shared install: their own dependencies are found there.
    symlinkSync(join(MODULES, '@energetic-ai'), join(root, 'node_modules', '@energetic-ai'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** Runs `body` (an async module body with `m` = dist/embed/<module>) and returns its JSON line or its error. */
  const run = (module: string, body: string): { out?: unknown; err?: string } => {
    const code = `const m = await import(${JSON.stringify(join(root, 'dist', 'embed', module))}); try { console.log(JSON.stringify(await (async () => { ${body} })())); } catch (e) { console.error(e.message); process.exit(3); }`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', cwd: root, timeout: 120_000 });
    if (r.status === 0) return { out: JSON.parse(r.stdout.trim().split('\n').pop()!) };
    assert.equal(r.status, 3, `crashed instead of a clear error: ${r.stderr}`);
    return { err: r.stderr };
  };

  it('use-lite "auto" embeds on TF.js and says why it did not use onnxruntime', () => {
    const { out, err } = run('use-lite.js', `const e = new m.UseLiteEmbedder({ runtime: 'auto' }); const info = await e.init(); const [v] = await e.embed(['hello world']); await e.close(); return { info, dims: v.length, why: e.fallbackReason };`);
    assert.equal(err, undefined);
    const { info, dims, why } = out as { info: { runtime: string }; dims: number; why: string };
    assert.equal(info.runtime, 'tfjs');
    assert.equal(dims, 512);
    assert.match(why, /onnxruntime-node, which is not installed/);
  });

  it('use-lite "onnxruntime" is an error naming the packages to install', () => {
    const { err } = run('use-lite.js', `const e = new m.UseLiteEmbedder({ runtime: 'onnxruntime' }); return await e.init();`);
    assert.match(err ?? '', /needs the optional package onnxruntime-node, which is not installed; install it with: .*npm install onnxruntime-node@1\.30\.0 onnx-proto/);
  });

  it('the transformers provider is an error naming @huggingface/transformers', () => {
    const model = join(root, 'models', 'm');
    mkdirSync(join(model, 'onnx'), { recursive: true });
    for (const f of ['config.json', 'tokenizer.json', 'onnx/model.onnx']) spawnSync('touch', [join(model, f)]);
    const config = { provider: 'transformers', model: 'm', path: join(root, 'models'), dtype: 'fp32', pooling: 'mean', allowRemote: false };
    const { err } = run('transformers.js', `return await new m.TransformersEmbedder(${JSON.stringify(config)}).init();`);
    assert.match(err ?? '', /needs the optional package @huggingface\/transformers, which is not installed; install it with: .*npm install @huggingface\/transformers/);
  });
});
