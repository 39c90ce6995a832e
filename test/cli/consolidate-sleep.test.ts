// The nightly side of consolidation as it runs for a user: `cairn watch` on a home with captured
// history and no consolidation catches up at start (and stops cleanly on SIGTERM mid-run); the
// sleep protocol makes one backup a night, consolidates and prepares the session-start brief that
// `cairn context` answers from until something changes; a purge reaches the layers' Markdown and
// the prepared briefs, and the next consolidation does not bring the purged text back.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';
import { eventually, startDaemon } from '../helpers/daemon.js';
import { BERLIN, jsonl, namespaceFiles, SEVERAL_DAYS, type Line } from '../helpers/consolidation.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { Cairn } from '../../src/service/cairn.js';

const newHome = tempHomes(BERLIN);
const LITERAL = 'Kestrel-5512-harbour';

async function filledHome(extra: readonly Line[] = []): Promise<string> {
  const home = newHome();
  const dir = tempDir('cairn-sleep-');
  try {
    const file = join(dir.dir, 't.jsonl');
    writeFileSync(file, jsonl([...SEVERAL_DAYS, ...extra]));
    chmodSync(file, 0o644);
    ok(await runCli(['-n', 'work', 'ingest', file, '-f', 'jsonl'], { home }));
  } finally {
    dir.cleanup();
  }
  return home;
}

describe('cairn watch catches up on consolidation', () => {
  it('writes the past days\' files and run/consolidation.json at start; SIGTERM mid-run exits 0 at once; a restart finishes', async () => {
    const home = await filledHome();
    // The daemon stops itself right after its second file (CAIRN_TEST_PAUSE), mid-run; SIGTERM then
    // SIGCONT: it must finish or drop the run and exit 0, leaving whole files.
    const first = startDaemon(home, ['--rescan-seconds', '3600'], { CAIRN_TEST_PAUSE: 'digest-after-file:2' });
    await first.waitFor(/cairn-test-pause digest-after-file 2/);
    // The line is written just before the process stops itself: SIGCONT must come after the stop.
    await eventually(async () => /^\d+ \(.*\) T /.test(readFileSync(`/proc/${first.child.pid}/stat`, 'utf8')), undefined, 20);
    first.child.kill('SIGTERM');
    first.child.kill('SIGCONT');
    const end = await first.exited;
    assert.equal(end.code, 0, `daemon did not exit cleanly (${end.signal}):\n${first.output().slice(-3000)}`);
    assert.doesNotMatch(first.output(), /internal error|"level":50/);

    // Stopping ends the run between jobs (each file is whole either way) without a mark: the next
    // start catches up on the rest.
    assert.doesNotMatch(first.output(), /"msg":"consolidated"/);
    assert.ok(!existsSync(join(home, 'run', 'consolidation.json')), 'a run cut short leaves no mark');
    const d = startDaemon(home, ['--rescan-seconds', '3600']);
    try {
      await d.waitFor(/answering searches on the local socket/);
      const mark = join(home, 'run', 'consolidation.json');
      await eventually(async () => existsSync(mark));
      const { lastRunAt, trigger } = JSON.parse(readFileSync(mark, 'utf8'));
      assert.equal(trigger, 'catch-up');
      assert.ok(Date.parse(lastRunAt) > Date.parse('2026-03-06T00:00:00Z'));
      const files = namespaceFiles(join(home, 'work'));
      for (const p of ['daily/2026-03-02.md', 'daily/2026-03-02-last-night.md', 'reviews/2026-03-05.md', 'weekly/2026-W10.md', 'MEMORY.md']) assert.ok(files.has(p), `${p} in ${[...files.keys()].join(', ')}`);
      assert.match(files.get('daily/2026-03-02-last-night.md')!, /30 second heartbeat/);
      // A home's first catch-up makes no backup (the first night does); later catch-ups are nightly runs.
      assert.ok(!existsSync(join(home, 'backups')) || readdirSync(join(home, 'backups')).length === 0, 'no backup at the first start');
    } finally {
      d.child.kill('SIGTERM');
      const last = await d.exited;
      assert.equal(last.code, 0, `second daemon: ${last.signal}\n${d.output().slice(-2000)}`);
    }
  });
});

describe('the sleep protocol, context and purge', () => {
  it('one backup a night; the prepared brief answers until a new memory; a purge reaches the layers for good', async () => {
    const home = await filledHome([{ id: 'secret', timestamp: '2026-03-04T10:00:00Z', content: `We decided the harbour gate code stays ${LITERAL} until the April audit.` }]);
    const cairn = await Cairn.open({ home, embedder: null });
    const briefs = join(cairn.paths.cacheDir, 'briefs');
    try {
      const night = await cairn.sleep({ trigger: 'review', at: '2026-03-05T21:10:00Z' });
      assert.deepEqual(night.errors, []);
      assert.ok('id' in night.backup, JSON.stringify(night.backup));
      assert.deepEqual(night.prepared, ['work']);
      assert.ok(night.consolidation!.namespaces[0]!.files.some((f) => f.path === 'reviews/2026-03-04.md' && f.changed));
      const again = await cairn.sleep({ trigger: 'review', at: '2026-03-06T05:00:00Z' });
      assert.deepEqual(again.backup, { skipped: 'a recent backup exists' }, 'a second night run within 20 hours makes no backup');
      const next = await cairn.sleep({ trigger: 'review', at: '2026-03-06T21:10:00Z' });
      assert.ok('id' in next.backup, 'the next night makes one');
      const micro = await cairn.sleep({ trigger: 'micro-sync', at: '2026-03-06T22:00:00Z' });
      assert.deepEqual(micro.backup, { skipped: 'not a nightly run' });
    } finally {
      await cairn.close();
    }
    assert.ok(readdirSync(briefs).length > 0);

    // `cairn context` without a query answers from the prepared brief, equal to a fresh build.
    const prepared = await cliJson(['-n', 'work', 'context', '--json', '--no-daemon'], { home });
    const file = JSON.parse(readFileSync(join(briefs, readdirSync(briefs).find((f) => f.startsWith('work.'))!), 'utf8'));
    assert.deepEqual(prepared, JSON.parse(JSON.stringify(file.brief)));
    assert.match(prepared.text, /MEMORY\.md|harbour|staging/);
    const saved = readFileSync(join(briefs, readdirSync(briefs)[0]!));
    writeFileSync(join(briefs, readdirSync(briefs)[0]!), saved.toString().replace('"version":1', '"version":0'));
    const fresh = await cliJson(['-n', 'work', 'context', '--json', '--no-daemon'], { home });
    assert.deepEqual(fresh, prepared, 'the prepared brief equals a fresh build');
    writeFileSync(join(briefs, readdirSync(briefs)[0]!), saved);
    // A new memory makes it stale: the next brief is built fresh and includes it.
    ok(await runCli(['-n', 'work', 'store', 'Ana owns the release checklist from now on', '--importance', '9'], { home }));
    const after = await cliJson(['-n', 'work', 'context', '--json', '--no-daemon'], { home });
    assert.match(after.text, /Ana owns the release checklist/);

    // Purge: the layers' files lose the literal, the prepared briefs go, and the next runs keep it out.
    const layered = [...namespaceFiles(join(home, 'work'))].filter(([, t]) => t.includes(LITERAL)).map(([p]) => p);
    assert.ok(layered.some((p) => p.startsWith('daily/')) && layered.some((p) => p.startsWith('reviews/')), layered.join(', '));
    const report = await cliJson(['-n', 'work', 'purge', '--text', '-', '--json'], { home, input: LITERAL });
    for (const p of layered) assert.ok(report.files.includes(join('work', p)), `${p} rewritten by the purge: ${report.files.join(', ')}`);
    assert.ok(!existsSync(briefs), 'prepared briefs are dropped');
    const afterPurge = namespaceFiles(join(home, 'work'));
    for (const [p, t] of afterPurge) assert.ok(!t.includes(LITERAL), `${p} still holds the literal`);
    ok(await runCli(['consolidate', '--at', '2026-03-07T08:00:00Z'], { home }));
    ok(await runCli(['consolidate', '--date', '2026-03-04', '--at', '2026-03-07T08:00:00Z'], { home }));
    for (const [p, t] of namespaceFiles(join(home, 'work'))) assert.ok(!t.includes(LITERAL), `${p} got the literal back from the store's digests`);
    const search = await cliJson(['-n', 'work', 'search', 'harbour gate code', '--layer', '2,3', '--json'], { home });
    assert.doesNotMatch(JSON.stringify(search.results), new RegExp(LITERAL));
  });
});
