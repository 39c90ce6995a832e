// `cairn consolidate` as a user runs it: real child processes on a home that captured a JSONL
// transcript spanning several days (night turns at 23:30 and 02:00 Berlin time). What --json
// reports is what is on disk; a second run changes no byte; each flag narrows the run; bad input
// exits with its documented code and writes nothing; a read-only home exits 12; digests are found
// by search in their layer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';
import { NOBODY, canRunAs, isRoot } from '../helpers/cli-as.js';
import { BERLIN, citedIds, jsonl, namespaceFiles, SEVERAL_DAYS, storedIds, type Line } from '../helpers/consolidation.js';

const newHome = tempHomes(BERLIN);
const AT = '2026-03-06T08:00:00Z';
const EXIT = { invalid: 3, readOnly: 12 } as const;

let scratch: string;
before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-consolidate-cli-'));
  chmodSync(scratch, 0o755);
});
after(() => rmSync(scratch, { recursive: true, force: true }));

let serial = 0;
/** Writes the lines to a transcript outside the home and ingests it into `namespace`. */
async function ingest(home: string, namespace: string, lines: readonly Line[]): Promise<void> {
  const file = join(scratch, `t${serial++}.jsonl`);
  writeFileSync(file, jsonl(lines));
  chmodSync(file, 0o644);
  const res = await cliJson(['-n', namespace, 'ingest', file, '-f', 'jsonl', '--json'], { home });
  assert.equal(res.turnsInserted, lines.length);
}

interface Report {
  at: string;
  namespaces: Array<{ namespace: string; days: string[]; weeks: string[]; files: Array<{ path: string; kind: string; changed: boolean }> }>;
}

const consolidate = (home: string, args: readonly string[]) => cliJson<Report>(['consolidate', '--json', ...args], { home });

describe('cairn consolidate (CLI)', () => {
  it('--json prints what was written, the files exist, cite only stored ids; a second run changes no byte', async () => {
    const home = newHome();
    await ingest(home, 'work', SEVERAL_DAYS);
    const first = await consolidate(home, ['--at', AT]);
    assert.equal(first.at, '2026-03-06T08:00:00.000Z');
    assert.equal(first.namespaces.length, 1);
    const ns = first.namespaces[0]!;
    assert.deepEqual(ns.days, ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']);
    assert.deepEqual(ns.weeks, ['2026-W10']);
    const written = ns.files.filter((f) => f.changed).map((f) => f.path);
    for (const p of ['daily/2026-03-02.md', 'daily/2026-03-02-last-night.md', 'reviews/2026-03-02.md', 'daily/2026-03-04.md', 'weekly/2026-W10.md', 'MEMORY.md']) {
      assert.ok(written.includes(p), `${p} in ${written.join(', ')}`);
    }
    const files = namespaceFiles(join(home, 'work'));
    assert.deepEqual([...files.keys()].sort(), [...written].sort(), 'the report names exactly the files on disk');
    // The night of 2026-03-02 holds its 23:30 and its 02:00 turn; no file for the night after.
    const night = files.get('daily/2026-03-02-last-night.md')!;
    assert.match(night, /^- 23:30 .*websocket reconnect loop/m);
    assert.match(night, /^- 02:00 .*30 second heartbeat/m);
    assert.doesNotMatch(files.get('daily/2026-03-03.md') ?? '', /heartbeat/);
    const ids = new Set([...files.values()].flatMap(citedIds));
    assert.ok(ids.size >= 4);
    const stored = storedIds(home, 'work');
    for (const id of ids) assert.ok(stored.has(id), `${id} is cited but not stored`);

    const second = await consolidate(home, ['--at', AT]);
    assert.deepEqual(second.namespaces[0]!.files.filter((f) => f.changed), []);
    assert.deepEqual(second.namespaces[0]!.days, [], 'nothing new since the last run');
    assert.deepEqual(namespaceFiles(join(home, 'work')), files);
    const human = ok(await runCli(['consolidate', '--at', AT], { home }));
    assert.match(human, /^work: no new days; 0 files written, 1 unchanged$/m);
  });

  it('--date, --week, --now and --force each run only their jobs; --force rewrites the same bytes', async () => {
    const home = newHome();
    await ingest(home, 'work', SEVERAL_DAYS);
    const date = await consolidate(home, ['-n', 'work', '--date', '2026-03-04', '--at', AT]);
    assert.deepEqual(date.namespaces[0]!.days, ['2026-03-04']);
    assert.deepEqual(date.namespaces[0]!.files.map((f) => f.path).sort(), ['MEMORY.md', 'daily/2026-03-04.md', 'reviews/2026-03-04.md', 'weekly/2026-W10.md']);
    assert.ok(!existsSync(join(home, 'work', 'daily', '2026-03-02.md')), '--date leaves the other days alone');

    const week = await consolidate(home, ['-n', 'work', '--week', '2026-w10', '--at', AT]);
    assert.deepEqual(week.namespaces[0]!.weeks, ['2026-W10']);
    assert.deepEqual(week.namespaces[0]!.files.map((f) => f.path).sort(), ['MEMORY.md', 'weekly/2026-W10.md']);

    // 11:00 Berlin on the 5th: the day file is due, its night and review are not yet.
    const now = await consolidate(home, ['-n', 'work', '--now', '--at', '2026-03-05T10:00:00Z']);
    assert.deepEqual(now.namespaces[0]!.days, ['2026-03-05']);
    const nowPaths = now.namespaces[0]!.files.map((f) => f.path);
    assert.ok(nowPaths.includes('daily/2026-03-05.md'), nowPaths.join(', '));
    assert.ok(!nowPaths.some((p) => p.startsWith('reviews/') || p.includes('last-night')), nowPaths.join(', '));
    // 02:00 Berlin on the 3rd is still the night of the 2nd.
    const night = await consolidate(home, ['-n', 'work', '--now', '--at', '2026-03-03T01:00:00Z']);
    assert.deepEqual(night.namespaces[0]!.days, ['2026-03-02']);

    ok(await runCli(['consolidate', '--at', AT], { home }));
    const before = namespaceFiles(join(home, 'work'));
    const forced = await consolidate(home, ['--date', '2026-03-02', '--force', '--at', AT]);
    assert.ok(forced.namespaces[0]!.files.length >= 4);
    assert.deepEqual(namespaceFiles(join(home, 'work')), before, 'forced: redone, byte-identical');
  });

  it('-n consolidates one namespace; without it every namespace', async () => {
    const home = newHome();
    await ingest(home, 'work', SEVERAL_DAYS);
    await ingest(home, 'side', SEVERAL_DAYS.slice(0, 3).map((l) => ({ ...l, id: `side-${l.id}` })));
    const one = await consolidate(home, ['-n', 'side', '--at', AT]);
    assert.deepEqual(one.namespaces.map((n) => n.namespace), ['side']);
    assert.ok(existsSync(join(home, 'side', 'daily', '2026-03-02.md')));
    assert.equal(namespaceFiles(join(home, 'work')).size, 0, 'the other namespace is untouched');
    const all = await consolidate(home, ['--at', AT]);
    assert.deepEqual(all.namespaces.map((n) => n.namespace).sort(), ['side', 'work']);
    assert.deepEqual(all.namespaces.find((n) => n.namespace === 'side')!.files.filter((f) => f.changed), []);
    assert.ok(existsSync(join(home, 'work', 'daily', '2026-03-02.md')));
  });

  it('bad input exits with its documented code, says why in one line and writes nothing', async () => {
    const home = newHome();
    await ingest(home, 'work', SEVERAL_DAYS);
    const cases: Array<[string[], number, RegExp]> = [
      [['--date', '2026-02-30'], EXIT.invalid, /Invalid date "2026-02-30"/],
      [['--date', 'yesterday'], EXIT.invalid, /Invalid date/],
      [['--week', '2026-W54'], EXIT.invalid, /week/i],
      [['--week', '2025-W53'], EXIT.invalid, /week/i],
      [['--date', '2026-03-02', '--week', '2026-W10'], EXIT.invalid, /at most one of --date, --week and --now/],
      [['--now', '--date', '2026-03-02'], EXIT.invalid, /at most one/],
      [['--at', 'soon'], EXIT.invalid, /soon/],
      [['-n', '../x'], EXIT.invalid, /namespace/i],
      [['--bogus'], 2, /unknown option/],
    ];
    for (const [args, code, message] of cases) {
      const res = await runCli(['consolidate', ...args], { home });
      assert.equal(res.code, code, `${args.join(' ')}: ${res.stderr}`);
      assert.match(res.stderr, message, args.join(' '));
      assert.doesNotMatch(res.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(res.stdout, '');
    }
    const asJson = await runCli(['consolidate', '--json', '--week', '2026-W54'], { home });
    assert.equal(JSON.parse(asJson.stderr).error.code, 'INVALID_INPUT');
    assert.equal(namespaceFiles(join(home, 'work')).size, 0);
    assert.ok(!existsSync(join(home, 'x')));
  });

  it('--help lists every option', async () => {
    const help = ok(await runCli(['consolidate', '--help'], { home: newHome() }));
    for (const opt of ['--date <day>', '--week <week>', '--now', '--at <time>', '--force', '--json']) assert.ok(help.includes(opt), `${opt} in\n${help}`);
  });

  it('a read-only home: exit 12 READ_ONLY and no file changed', async (t) => {
    const asRoot = isRoot();
    if (asRoot && !canRunAs(NOBODY)) return t.skip('running as root, and nobody cannot run the built CLI here');
    // As in read-only.test.ts: the home belongs to the user the CLI runs as (nobody, under root).
    const user = asRoot ? NOBODY : {};
    const home = join(scratch, 'ro-home');
    const tmp = join(scratch, 'ro-tmp');
    mkdirSync(home);
    mkdirSync(tmp);
    writeFileSync(join(home, 'config.json'), JSON.stringify(BERLIN));
    if (asRoot) for (const p of [home, tmp, join(home, 'config.json')]) chownSync(p, NOBODY.uid, NOBODY.gid);
    const cli = (args: readonly string[]) => runCli(args, { home, env: { TMPDIR: tmp }, ...user });
    const file = join(scratch, 'ro.jsonl');
    writeFileSync(file, jsonl(SEVERAL_DAYS));
    chmodSync(file, 0o644);
    ok(await cli(['-n', 'work', 'ingest', file, '-f', 'jsonl']));
    ok(await cli(['consolidate', '--at', '2026-03-02T12:00:00Z']));
    const before = namespaceFiles(join(home, 'work'));
    assert.ok(before.has('daily/2026-03-02.md'));
    chmodSync(join(home, 'cairn.db'), 0o400);
    chmodSync(home, 0o500);
    try {
      for (const args of [['consolidate', '--at', AT], ['-n', 'work', 'consolidate', '--date', '2026-03-04', '--force', '--at', AT]]) {
        const res = await cli(args);
        assert.equal(res.code, EXIT.readOnly, `${args.join(' ')}: ${res.stderr}`);
        assert.match(res.stderr, /read-only/);
        assert.deepEqual(namespaceFiles(join(home, 'work')), before, 'no file written or changed');
      }
    } finally {
      chmodSync(home, 0o700);
      chmodSync(join(home, 'cairn.db'), 0o600);
    }
    // The store writable, the namespace folder not: READ_ONLY naming the folder, not an internal error.
    const folders = [join(home, 'work'), join(home, 'work', 'daily')];
    for (const f of folders) chmodSync(f, 0o500);
    try {
      const res = await cli(['consolidate', '--at', AT]);
      assert.equal(res.code, EXIT.readOnly, res.stderr);
      assert.match(res.stderr, /^cairn: Cannot write \S+\/ro-home\/work\/\S+: its folder is read-only for this process \(EACCES\)\n$/);
      assert.deepEqual(namespaceFiles(join(home, 'work')), before);
    } finally {
      for (const f of folders) chmodSync(f, 0o700);
    }
  });

  it('search --layer 2 finds a review section, --layer 4 finds turns and no digest', async () => {
    const home = newHome();
    await ingest(home, 'work', SEVERAL_DAYS);
    ok(await runCli(['consolidate', '--at', AT], { home }));
    const layer2 = await cliJson(['-n', 'work', 'search', 'heartbeat timeout', '--layer', '2', '--json'], { home });
    const review = layer2.results.find((r: { provenance: Array<{ path?: string }> }) => r.provenance[0]?.path === 'reviews/2026-03-02.md');
    assert.ok(review, JSON.stringify(layer2.results.map((r: { id: string }) => r.id)));
    assert.equal(review.kind, 'digest');
    assert.ok(layer2.results.every((r: { kind: string }) => r.kind === 'digest'));
    const layer4 = await cliJson(['-n', 'work', 'search', 'heartbeat timeout', '--layer', '4', '--json'], { home });
    assert.ok(layer4.results.length > 0);
    assert.ok(layer4.results.every((r: { kind: string }) => r.kind === 'turn'), JSON.stringify(layer4.results.map((r: { kind: string }) => r.kind)));
    const bad = await runCli(['-n', 'work', 'search', 'x', '--layer', '5'], { home });
    assert.equal(bad.code, EXIT.invalid, bad.stderr);
  });
});
