// Input piped to the CLI is read only as far as it can be used (issue 30 item 12): `cairn store -`
// read 300 MB whole (935 MB RSS) before it checked the length; `cairn import -` held a line
// without a newline whole, however long. The writer here streams far more than the limit from a
// 1 MB buffer and counts what the child took.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, childEnv, cliJson, json, ok, runCli, tempHomes } from '../helpers/cli.js';

const home = tempHomes();
const MB = 1024 * 1024;
const MAX_RSS_PRELOAD = join(ROOT, 'test', 'helpers', 'max-rss.mjs');

interface StreamedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Bytes the child's stdin accepted before it stopped reading (or all of them). */
  accepted: number;
  peakRssMiB: number;
}

/**
 * Runs the CLI with `parts` written to its stdin, in order, as far as it reads. Parts share
 * buffers: a big input is never one big allocation here (a child's peak RSS starts from its
 * parent's at the fork).
 */
function runStreamingStdin(args: readonly string[], cairnHome: string, parts: Iterable<Buffer>): Promise<StreamedRun> {
  const rssFile = join(cairnHome, `rss-${Math.random().toString(36).slice(2)}.json`);
  const child = spawn(process.execPath, ['--import', MAX_RSS_PRELOAD, CLI, ...args], {
    cwd: ROOT,
    env: childEnv(cairnHome, { CAIRN_TEST_MAXRSS_FILE: rssFile }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let accepted = 0;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.on('error', () => undefined); // EPIPE once the child stops reading
  const write = async () => {
    for (const part of parts) {
      if (child.stdin.destroyed) return;
      const flushed = new Promise<boolean>((resolve) => child.stdin.write(part, (err) => resolve(!err)));
      if (!(await flushed)) return;
      accepted += part.length;
    }
    child.stdin.end();
  };
  void write();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cairn ${args.join(' ')} hung; stderr: ${stderr}`));
    }, 180_000); // a guard against a hang, not a speed check
    child.on('close', (code) => {
      clearTimeout(timer);
      const { maxRssKiB } = JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRssKiB: number };
      resolve({ code, stdout, stderr, accepted, peakRssMiB: maxRssKiB / 1024 });
    });
  });
}

/** `megabytes` of one repeated 1 MB block. */
function* repeated(block: Buffer, megabytes: number): Generator<Buffer> {
  for (let i = 0; i < megabytes; i++) yield block;
}

describe('stdin is read only as far as it can be used', () => {
  it('store -: 256 MB piped in is refused at the limit (exit 3), without reading it all', async () => {
    const h = home();
    const small = await runStreamingStdin(['store', '-'], h, [Buffer.from('the shed key is in the blue box\n')]);
    assert.equal(small.code, 0, small.stderr);
    const big = await runStreamingStdin(['store', '-'], h, repeated(Buffer.alloc(MB, 'y'), 256));
    assert.equal(big.code, 3, big.stderr);
    assert.match(big.stderr, /^cairn: text on stdin is longer than the limit of 8000 characters \(limits\.maxTextChars\)/);
    assert.doesNotMatch(big.stderr, /internal error|\n\s+at /);
    assert.ok(big.accepted < 64 * MB, `the child took ${(big.accepted / MB).toFixed(0)} MB of 256`);
    // Reading it whole took at least its 256 MB (935 MB RSS for 300 MB before the fix).
    assert.ok(big.peakRssMiB - small.peakRssMiB < 64, `peak RSS ${small.peakRssMiB.toFixed(0)} MiB for a short text, ${big.peakRssMiB.toFixed(0)} MiB for 256 MB`);
    assert.equal((await cliJson(['list', '--json'], { home: h })).length, 1, 'nothing more was stored');
  });

  it('store -: a text at the limit, with whitespace around it, is still stored', async () => {
    const h = home({ limits: { maxTextChars: 100 }, embedder: { provider: 'none' } });
    ok(await runCli(['store', '-'], { home: h, input: `\n  ${'é'.repeat(100)}  \n\n` }));
    const refused = await runCli(['store', '-'], { home: h, input: 'é'.repeat(101) });
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /longer than the limit of 100 characters/);
  });

  it('import -: a 200 MB line is reported and skipped without being held, the lines around it imported', async () => {
    const src = home();
    ok(await runCli(['store', 'first memory about the garden'], { home: src }));
    ok(await runCli(['store', 'second memory about the shed'], { home: src }));
    const [one, two] = ok(await runCli(['export'], { home: src })).trim().split('\n');
    const h = home();
    const hugeLine = [Buffer.from('{"text":"'), ...repeated(Buffer.alloc(MB, 'x'), 200), Buffer.from('"}\n')];
    const run = await runStreamingStdin(['import', '-', '--json'], h, [Buffer.from(one + '\n'), ...hugeLine, Buffer.from(two + '\n')]);
    assert.equal(run.code, 3, run.stderr); // a bad line
    const report = json(run.stdout);
    assert.equal(report.imported, 2);
    assert.deepEqual(report.errors, [{ line: 2, message: 'line longer than 1000000 characters' }]);
    // The line is read (the lines after it are wanted), but never held: far below its 200 MB.
    assert.ok(run.peakRssMiB < 200, `peak RSS ${run.peakRssMiB.toFixed(0)} MiB`);
  });
});
