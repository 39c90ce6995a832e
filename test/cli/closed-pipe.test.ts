// `cairn search … | head -1`: when the reader of stdout goes away, a command ends quietly with its
// own status (0 when its work succeeded), as Unix tools do: no EPIPE stack trace, no exit 1
// (issue 30 item 10). The reader here is a real pipe, closed by the test process.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Cairn } from '../../src/service/cairn.js';
import { CLI, ROOT, childEnv, ok, runCli, tempHomes } from '../helpers/cli.js';

const home = tempHomes();

interface PipeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** What the reader got before it closed the pipe. */
  read: string;
}

/**
 * Runs the CLI with stdout on a pipe; `read` decides how this process reads it (`keep` gathers a
 * chunk read, `text` is all gathered so far). The rest (stderr, a guard against a hang, the exit)
 * is the same for every reader.
 */
function runPiped(args: readonly string[], cairnHome: string, read: (stdout: Readable, keep: (d: Buffer) => void, text: () => string) => void): Promise<PipeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: childEnv(cairnHome), stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const text = () => Buffer.concat(chunks).toString('utf8');
    read(child.stdout, (d) => void chunks.push(d), text);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cairn ${args.join(' ')} hung with its stdout on a pipe; stderr: ${stderr}`));
    }, 120_000); // a guard against a hang, not a speed check
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, read: text() });
    });
  });
}

/** The reading end closed by this process: at once (`lines` 0, before the child can write anything), or after the first `lines` lines, as `head -n` does. */
function runClosingStdout(args: readonly string[], cairnHome: string, lines: number): Promise<PipeRun> {
  return runPiped(args, cairnHome, (stdout, keep, text) => {
    if (lines === 0) stdout.destroy();
    else
      stdout.on('data', (d: Buffer) => {
        keep(d);
        if (text().split('\n').length > lines) stdout.destroy();
      });
  });
}

/**
 * Not read until `delayMs` have passed: a command writing more than the pipe holds (64 KiB) waits
 * for the reader, and all it wrote must arrive before it exits (a search ends with process.exit
 * once its output is flushed).
 */
function runSlowReader(args: readonly string[], cairnHome: string, delayMs: number): Promise<PipeRun> {
  return runPiped(args, cairnHome, (stdout, keep) => {
    stdout.pause();
    stdout.on('data', keep);
    setTimeout(() => stdout.resume(), delayMs);
  });
}

function quiet(res: PipeRun, what: string): void {
  assert.equal(res.code, 0, `${what}: exit ${res.code} (signal ${res.signal})\n${res.stderr}`);
  assert.doesNotMatch(res.stderr, /EPIPE|\n\s+at |internal error|Unhandled/, `${what}: no stack trace`);
}

describe('a reader that closes stdout early', () => {
  let h = '';
  before(async () => {
    h = home();
    // Enough memories that `export` and `list` write far more than a pipe's buffer (64 KiB).
    const cairn = await Cairn.open({ home: h, embedder: null });
    try {
      for (let i = 0; i < 400; i++) {
        await cairn.remember({ text: `Note ${i}: the quarterly planning meeting covers the garden project, ${'the budget for new tools and seeds '.repeat(8)}item ${i}.` });
      }
    } finally {
      await cairn.close();
    }
    writeFileSync(join(h, 'chat.jsonl'), Array.from({ length: 30 }, (_, i) => JSON.stringify({ role: 'user', content: `line ${i} about the garden`, id: `l${i}` })).join('\n') + '\n');
  });

  it('export, search and list | head -1: the first line arrives, then a quiet exit 0', async () => {
    for (const args of [['export'], ['search', '-l', '200', 'garden budget'], ['list', '--limit', '400']]) {
      const res = await runClosingStdout(args, h, 1);
      quiet(res, args.join(' '));
      assert.ok(res.read.split('\n')[0]!.length > 0, `${args.join(' ')}: the reader got its first line`);
    }
  });

  it('every command that prints, with its reader gone before it writes: a quiet exit 0', async () => {
    const commands = [
      ['export'],
      ['search', '-l', '200', 'garden'],
      ['search', '--json', 'garden'],
      ['list'],
      ['context'],
      ['status'],
      ['ingest', '-f', 'jsonl', join(h, 'chat.jsonl')],
      ['ingest', '-f', 'jsonl', '--json', join(h, 'chat.jsonl')],
      ['sources', 'list'],
      ['--version'],
      ['--help'],
    ];
    for (const args of commands) {
      const res = await runClosingStdout(args, h, 0);
      quiet(res, args.join(' '));
    }
  });

  it('a search whose output is larger than the pipe reaches a slow reader whole, then exits 0', async () => {
    for (const args of [['search', '--json', '-l', '200', 'garden budget'], ['search', '--explain', '-l', '200', 'garden budget']]) {
      const res = await runSlowReader(args, h, 300);
      quiet(res, args.join(' '));
      assert.ok(Buffer.byteLength(res.read) > 64 * 1024, `${args.join(' ')}: more than a pipe holds (${Buffer.byteLength(res.read)} bytes)`);
      if (args.includes('--json')) assert.equal((JSON.parse(res.read) as { results: unknown[] }).results.length, 200, 'every result, the JSON complete');
      else assert.match(res.read, /\n200\. /, 'the 200th result printed');
    }
  });

  it('the work is still done: an ingest whose reader left has stored its turns', async () => {
    const file = join(h, 'later.jsonl');
    writeFileSync(file, JSON.stringify({ role: 'user', content: 'the shed key is in the blue box', id: 'shed' }) + '\n');
    quiet(await runClosingStdout(['ingest', '-f', 'jsonl', file], h, 0), 'ingest');
    const again = ok(await runCli(['ingest', '-f', 'jsonl', '--json', file], { home: h }));
    assert.equal(JSON.parse(again).turnsInserted, 0, 'nothing left to capture: the first run stored it');
  });
});
