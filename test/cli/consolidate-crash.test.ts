// kill -9 in the middle of `cairn consolidate`, at the deterministic crash points of a digest job
// (src/core/crash-points.ts): just before a file is written and just after it (its store row not yet
// committed). Every file is then either as it was before the run or as the finished run writes it
// (never partial, no temporary file left), and the next run ends with the very bytes of a run that
// was never interrupted (a copy of the same home, so the ids are the same).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, childEnv, cliJson, HANG_GUARD_MS, ok, runCli, tempHomes } from '../helpers/cli.js';
import { allNames, BERLIN, jsonl, namespaceFiles, SEVERAL_DAYS, type Line } from '../helpers/consolidation.js';
import { tempDir } from '../helpers/store-fixtures.js';

const newHome = tempHomes(BERLIN);
const outside = tempDir('cairn-consolidate-crash-');
after(() => outside.cleanup());
const FIRST_AT = '2026-03-04T12:00:00Z';
const AT = '2026-03-06T08:00:00Z';
const LATE: Line = { id: 'late', session: 's2', timestamp: '2026-03-02T15:00:00Z', content: 'We decided to rotate the staging database password every month, starting with the March release.' };

let serial = 0;
async function ingest(home: string, lines: readonly Line[]): Promise<void> {
  const file = join(outside.dir, `t${serial++}.jsonl`);
  writeFileSync(file, jsonl(lines));
  chmodSync(file, 0o644);
  ok(await runCli(['-n', 'work', 'ingest', file, '-f', 'jsonl'], { home }));
}

/** Runs `cairn consolidate --at AT`, which stops itself at `point`'s n-th time; kills it there with SIGKILL. */
function killAt(home: string, point: string, n: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'consolidate', '--at', AT, '--json'], {
      cwd: ROOT,
      env: childEnv(home, { CAIRN_TEST_PAUSE: `${point}:${n}` }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    const guard = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes(`cairn-test-pause ${point} ${n}\n`)) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      if (signal === 'SIGKILL' && err.includes(`cairn-test-pause ${point} ${n}`)) resolve();
      else reject(new Error(`consolidate ended (${code}, ${signal}) before ${point}:${n}\n${err}`));
    });
  });
}

describe('kill -9 mid-consolidation', () => {
  it('leaves every file whole (before or after), then the next run writes the uninterrupted bytes', async (t) => {
    // A home consolidated once; then a late turn for a finished day and two more days arrive.
    const base = newHome();
    await ingest(base, SEVERAL_DAYS.slice(0, 8));
    ok(await runCli(['consolidate', '--at', FIRST_AT], { home: base }));
    await ingest(base, [LATE, ...SEVERAL_DAYS.slice(8)]);
    const previous = namespaceFiles(join(base, 'work'));
    assert.ok(previous.has('daily/2026-03-02.md'));

    const reference = newHome();
    cpSync(base, reference, { recursive: true });
    const run = await cliJson(['consolidate', '--at', AT, '--json'], { home: reference });
    const jobs = run.namespaces[0].files.filter((f: { changed: boolean }) => f.changed).length;
    assert.ok(jobs >= 6, `the run writes ${jobs} files`);
    const finished = namespaceFiles(join(reference, 'work'));
    assert.notEqual(finished.get('daily/2026-03-02.md'), previous.get('daily/2026-03-02.md'), 'the late turn changes a file that existed');

    const kills: string[] = [];
    for (const point of ['digest-before-file', 'digest-after-file']) {
      for (const n of [1, 2, Math.ceil(jobs / 2), jobs]) {
        const home = newHome();
        cpSync(base, home, { recursive: true });
        await killAt(home, point, n);
        kills.push(`${point}:${n}`);
        const names = allNames(join(home, 'work'));
        assert.deepEqual(names.filter((f) => /\.tmp/.test(f)), [], `${point}:${n}: no temporary file left`);
        const midway = namespaceFiles(join(home, 'work'));
        let done = 0;
        for (const [path, text] of midway) {
          const whole = text === previous.get(path) || text === finished.get(path);
          assert.ok(whole, `${point}:${n}: ${path} is neither the previous nor the finished file`);
          if (text !== previous.get(path)) done++;
        }
        for (const path of previous.keys()) assert.ok(midway.has(path), `${point}:${n}: ${path} was lost`);
        // Before the n-th file: n-1 written; after it: n.
        assert.equal(done, point === 'digest-before-file' ? n - 1 : n, `${point}:${n}: files already written`);

        const redo = await cliJson(['consolidate', '--at', AT, '--json'], { home });
        assert.ok(redo.namespaces[0].files.some((f: { changed: boolean }) => f.changed), `${point}:${n}: the job is redone`);
        assert.deepEqual(namespaceFiles(join(home, 'work')), finished, `${point}:${n}: the redone run equals the uninterrupted one`);
        const again = await cliJson(['consolidate', '--at', AT, '--json'], { home });
        assert.deepEqual(again.namespaces[0].files.filter((f: { changed: boolean }) => f.changed), [], `${point}:${n}: then nothing is left to do`);
      }
    }
    t.diagnostic(`killed at ${kills.join(' ')} of ${jobs} files`);
  });
});
