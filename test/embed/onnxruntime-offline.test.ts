// onnxruntime-node turns on Microsoft's telemetry by default: a device id and an event queue under
// ~/.cache/Microsoft, a `.ses` and a `mat-debug-<pid>.log` in the temporary folder. Cairn's model
// loads must leave none of it, with the real runtime in a real process, on a thread or in process,
// and a user's own choice of the variable stands.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepOnnxRuntimeOffline, ORT_TELEMETRY_VARIABLE } from '../../src/embed/onnxruntime-offline.js';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Embeds one text the way `how` says, in a fresh process whose home and temporary folder are `dir`;
 * returns the value of the telemetry variable in that process's own environment afterwards (the one
 * the runtime's getenv reads), or '(unset)'.
 */
function embedIn(dir: string, how: 'thread' | 'in-process', telemetryVariable?: string): string {
  const script = `
    const how = ${JSON.stringify(how)};
    const { WorkerEmbedder } = await import('./src/embed/worker-embedder.ts');
    const { UseLiteEmbedder } = await import('./src/embed/use-lite.ts');
    const e = how === 'thread' ? new WorkerEmbedder('use-lite@1', { provider: 'use-lite', runtime: 'onnxruntime' }, 1) : new UseLiteEmbedder({ runtime: 'onnxruntime' });
    const [v] = await e.embed(['where did we put the release notes']);
    if (v.length !== 512) throw new Error('no vector');
    await e.close();
    process.stdout.write(process.env[${JSON.stringify(ORT_TELEMETRY_VARIABLE)}] ?? '(unset)');`;
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, TMPDIR: dir, XDG_CACHE_HOME: join(dir, '.cache') };
  delete env[ORT_TELEMETRY_VARIABLE];
  if (telemetryVariable !== undefined) env[ORT_TELEMETRY_VARIABLE] = telemetryVariable;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** What the process wrote into `dir`, leaving out the TypeScript loader's own cache (tsx-N/) that only tests have. */
function leftBehind(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => !/^tsx-\d+/.test(f))
    .sort();
}

describe('onnxruntime telemetry', () => {
  it('is off for a model on a thread and in process: nothing written to the home or the temporary folder', () => {
    for (const how of ['thread', 'in-process'] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'cairn-ort-offline-'));
      try {
        embedIn(dir, how);
        assert.deepEqual(leftBehind(dir), [], how);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  // Whether the runtime then writes its files is the runtime's business (its telemetry starts on a
  // background thread, and whether a short process leaves a log behind varies by machine); what
  // Cairn owns is that the user's value is the one in the process environment the runtime reads.
  it('stays the user\'s choice: a value set before Cairn starts is the one the runtime reads, on a thread and in process', () => {
    for (const how of ['thread', 'in-process'] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'cairn-ort-offline-'));
      try {
        assert.equal(embedIn(dir, how, '0'), '0', how);
        assert.equal(embedIn(dir, how), '1', how);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('sets the variable only when unset', () => {
    const before = process.env[ORT_TELEMETRY_VARIABLE];
    try {
      delete process.env[ORT_TELEMETRY_VARIABLE];
      keepOnnxRuntimeOffline();
      assert.equal(process.env[ORT_TELEMETRY_VARIABLE], '1');
      process.env[ORT_TELEMETRY_VARIABLE] = 'false';
      keepOnnxRuntimeOffline();
      assert.equal(process.env[ORT_TELEMETRY_VARIABLE], 'false');
    } finally {
      if (before === undefined) delete process.env[ORT_TELEMETRY_VARIABLE];
      else process.env[ORT_TELEMETRY_VARIABLE] = before;
    }
  });
});
