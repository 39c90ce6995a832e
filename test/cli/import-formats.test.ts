// `cairn import` from what people actually have: `{"text": …}` lines, a mem0 export, an OpenClaw
// workspace, Cairn's own export (still lossless); -n as a target; malformed, empty and oversized
// input reported record by record while the good records are kept and nothing stored is lost.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';

const home = tempHomes();
const jl = (...records: unknown[]): string => records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)) + '\n').join('');

type Mem = { id: string; namespace: string; text: string; category: string; importance: number; tags: string[]; createdAt: string; eventTime: string | null; provenance: Array<Record<string, unknown>> };

async function memories(h: string, ns: string): Promise<Mem[]> {
  const out = ok(await runCli(['-n', ns, 'export'], { home: h })).trim();
  return out === '' ? [] : out.split('\n').map((l) => JSON.parse(l) as Mem);
}

const byText = (list: Mem[], text: string): Mem => {
  const found = list.find((m) => m.text === text);
  assert.ok(found, `no memory "${text}" in ${JSON.stringify(list.map((m) => m.text))}`);
  return found;
};

describe('cairn import: the minimal shape', () => {
  it('imports {"text": …} lines with their optional fields and provenance; again, it doubles nothing', async () => {
    const h = home();
    const file = join(h, 'notes.jsonl');
    writeFileSync(file, jl(
      { text: 'The staging database listens on port 5433' },
      { text: 'We use pnpm, not npm', category: 'decision', importance: 8, tags: ['tooling'], time: '2025-03-01T10:00:00Z' },
      { text: 'Ana prefers morning standups', category: 'preference', createdAt: 1740823200, id: 'note-17', source: 'notion' },
    ));
    const res = await cliJson(['import', file, '--json'], { home: h });
    assert.deepEqual([res.lines, res.imported, res.errors], [3, 3, []]);
    const got = await memories(h, 'default');
    const port = byText(got, 'The staging database listens on port 5433');
    assert.deepEqual([port.category, port.importance, port.tags], ['note', 5, []]);
    assert.deepEqual(port.provenance, [{ source: 'import', system: 'jsonl', path: file, line: 1 }]);
    const pnpm = byText(got, 'We use pnpm, not npm');
    assert.deepEqual([pnpm.category, pnpm.importance, pnpm.tags, pnpm.createdAt], ['decision', 8, ['tooling'], '2025-03-01T10:00:00.000Z']);
    const ana = byText(got, 'Ana prefers morning standups');
    assert.equal(ana.createdAt, '2025-03-01T10:00:00.000Z', 'epoch seconds');
    assert.deepEqual(ana.provenance, [{ source: 'import', system: 'notion', path: file, line: 3, originalId: 'note-17' }]);
    const again = await cliJson(['import', file, '--json'], { home: h });
    assert.deepEqual([again.imported, again.existing, again.merged], [0, 3, 0]);
    assert.equal((await memories(h, 'default')).length, 3);
    const found = await cliJson(['search', 'pnpm npm', '--json'], { home: h });
    assert.equal(found.results[0].text, 'We use pnpm, not npm');
  });

  it('-n names the target namespace like --into; both naming different ones is an error', async () => {
    const h = home();
    const file = join(h, 'one.jsonl');
    writeFileSync(file, jl({ text: 'Deploys freeze on Fridays after noon' }));
    assert.equal((await cliJson(['-n', 'team', 'import', file, '--json'], { home: h })).imported, 1);
    assert.deepEqual((await memories(h, 'team')).map((m) => m.text), ['Deploys freeze on Fridays after noon']);
    assert.deepEqual(await memories(h, 'default'), []);
    const both = await runCli(['-n', 'team', 'import', file, '--into', 'ops'], { home: h });
    assert.equal(both.code, 3);
    assert.match(both.stderr, /-n team and --into ops name different namespaces; give one/);
    assert.equal((await cliJson(['-n', 'ops', 'import', file, '--into', 'ops', '--json'], { home: h })).imported, 1);
    // Export records too: -n moves them as --into does (fresh ids, links kept).
    const src = home();
    ok(await runCli(['store', 'The VPN config lives in the ops vault'], { home: src }));
    const exported = join(src, 'export.jsonl');
    ok(await runCli(['export', '-o', exported], { home: src }));
    assert.equal((await cliJson(['-n', 'moved', 'import', exported, '--json'], { home: h })).imported, 1);
    const moved = await memories(h, 'moved');
    assert.deepEqual(moved.map((m) => [m.namespace, m.text]), [['moved', 'The VPN config lives in the ops vault']]);
  });

  it('export → import stays lossless', async () => {
    const src = home();
    const a = (await cliJson(['store', 'Sprint length is two weeks', '-c', 'decision', '-i', '7', '-t', 'process', '--json'], { home: src })).memory;
    ok(await runCli(['supersede', a.id, 'Sprint length is three weeks'], { home: src }));
    ok(await runCli(['store', 'Retro on Thursdays'], { home: src }));
    const file = join(src, 'all.jsonl');
    ok(await runCli(['export', '-o', file], { home: src }));
    const dst = home();
    const res = await cliJson(['import', file, '--json'], { home: dst });
    assert.deepEqual([res.imported, res.errors], [3, []]);
    assert.equal(ok(await runCli(['export'], { home: dst })), ok(await runCli(['export'], { home: src })));
  });
});

describe('cairn import: mem0', () => {
  const item = (id: string, memory: string, extra: Record<string, unknown> = {}) => ({
    id, memory, hash: `h-${id}`, metadata: null, created_at: '2024-07-01T12:00:00Z', updated_at: '2024-07-05T15:30:00Z', ...extra,
  });

  it('reads a get_all export (paginated envelope, pretty-printed) with provenance naming line and original id', async () => {
    const h = home();
    const file = join(h, 'mem0-export.json');
    const doc = {
      count: 3, next: null, previous: null,
      results: [
        item('f4cbdb08-7062-4f3e-8eb2-9f5c80dfe64c', 'Alex is planning a trip to San Francisco in July', { user_id: 'alex', categories: ['travel'], metadata: { type: 'plan' } }),
        item('a2b8c3d4-5e6f-4a8b-9c0d-1e2f3a4b5c6d', 'Alex prefers vegetarian restaurants', { user_id: 'alex', agent_id: 'concierge', categories: ['food', 'user_preferences'] }),
        item('0d3c2b1a-0000-4000-8000-000000000003', '   ', { user_id: 'alex' }),
      ],
    };
    writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
    const res = await runCli(['-n', 'alex', 'import', file, '--json'], { home: h });
    assert.equal(res.code, 3, 'one item was empty');
    const report = JSON.parse(res.stdout);
    assert.equal(report.imported, 2);
    assert.deepEqual(report.errors.map((e: any) => [e.item, e.message]), [[3, 'text is empty']]);
    const lines = JSON.stringify(doc, null, 2).split('\n');
    const lineOf = (id: string) => lines.findIndex((l) => l.includes(`"id": "${id}"`)) + 1;
    assert.equal(report.errors[0].line, lineOf('0d3c2b1a-0000-4000-8000-000000000003'));
    const got = await memories(h, 'alex');
    const trip = byText(got, 'Alex is planning a trip to San Francisco in July');
    assert.deepEqual(trip.tags, ['travel', 'user:alex']);
    assert.equal(trip.createdAt, '2024-07-01T12:00:00.000Z');
    assert.deepEqual(trip.provenance, [{
      source: 'import', system: 'mem0', path: file, line: lineOf('f4cbdb08-7062-4f3e-8eb2-9f5c80dfe64c'),
      originalId: 'f4cbdb08-7062-4f3e-8eb2-9f5c80dfe64c', metadata: { type: 'plan' },
    }]);
    assert.deepEqual(byText(got, 'Alex prefers vegetarian restaurants').tags, ['food', 'user_preferences', 'user:alex', 'agent:concierge']);
    const shown = ok(await runCli(['-n', 'alex', 'get', trip.id], { home: h }));
    assert.match(shown, /source: import from mem0 · .*mem0-export\.json:\d+ · id f4cbdb08-7062-4f3e-8eb2-9f5c80dfe64c/);
    const again = JSON.parse((await runCli(['-n', 'alex', 'import', file, '--json'], { home: h })).stdout);
    assert.deepEqual([again.imported, again.existing], [0, 2]);
  });

  it('reads the OSS bare array and mem0 items one per line; --format cairn reads them as Cairn records', async () => {
    const h = home();
    const arr = join(h, 'oss.json');
    writeFileSync(arr, JSON.stringify([item('1', 'Likes hiking in the Alps'), item('2', 'Works at TechCorp as a senior engineer')]));
    assert.equal((await cliJson(['import', arr, '--json'], { home: h })).imported, 2);
    const lines = join(h, 'items.jsonl');
    writeFileSync(lines, jl(item('3', 'Is allergic to peanuts', { user_id: 'dev' }), item('4', 'Drives an electric car')));
    const res = await cliJson(['import', lines, '--json'], { home: h });
    assert.deepEqual([res.imported, res.errors], [2, []]);
    const got = await memories(h, 'default');
    assert.deepEqual(byText(got, 'Is allergic to peanuts').provenance, [{ source: 'import', system: 'mem0', path: lines, line: 1, originalId: '3' }]);
    const forced = await runCli(['import', lines, '--format', 'cairn', '--json'], { home: h });
    assert.equal(forced.code, 3);
    assert.match(JSON.parse(forced.stdout).errors[0].message, /unknown field "memory"/);
  });
});

describe('cairn import: an OpenClaw workspace', () => {
  it('makes each bullet and paragraph a memory, with its file, line range and headings', async () => {
    const h = home();
    const ws = join(h, 'workspace');
    mkdirSync(join(ws, 'memory'), { recursive: true });
    writeFileSync(join(ws, 'MEMORY.md'), [
      '---', 'title: Long-term memory', '---', '', // 1-4
      '# Infrastructure', '', // 5-6
      '## Staging', // 7
      '- The staging DB moved to port 5433', // 8
      '- Deploy key rotates every Monday', '  - stored in the ops vault, entry `deploy-key`', // 9-10
      '', '<!-- reviewed 2026-03 -->', '', // 11-13
      'Backups run nightly at 02:00 and go to the cold bucket', 'in Frankfurt.', // 14-15
      '', '---', '', '## People', '* Ana owns billing', // 16-20
    ].join('\n') + '\n');
    writeFileSync(join(ws, 'memory', '2026-03-02.md'), '# 2026-03-02\n\n1. Decided to drop the Redis cache\n2. Ana is on leave next week\n');
    writeFileSync(join(ws, 'AGENTS.md'), '- not a memory file\n');
    utimesSync(join(ws, 'MEMORY.md'), new Date('2026-03-10T08:00:00Z'), new Date('2026-03-10T08:00:00Z'));
    const res = await cliJson(['-n', 'main', 'import', ws, '--json'], { home: h });
    assert.deepEqual([res.imported, res.errors, res.lines], [6, [], 24]);
    const got = await memories(h, 'main');
    const port = byText(got, 'The staging DB moved to port 5433');
    assert.deepEqual(port.provenance, [{ source: 'import', system: 'openclaw', path: join(ws, 'MEMORY.md'), line: 8, endLine: 8, heading: 'Infrastructure > Staging' }]);
    assert.deepEqual(port.tags, ['Infrastructure', 'Staging']);
    assert.equal(port.createdAt, '2026-03-10T08:00:00.000Z', 'MEMORY.md: its modification time');
    const key = byText(got, 'Deploy key rotates every Monday\n- stored in the ops vault, entry `deploy-key`');
    assert.deepEqual([key.provenance[0]!.line, key.provenance[0]!.endLine], [9, 10]);
    const backups = byText(got, 'Backups run nightly at 02:00 and go to the cold bucket\nin Frankfurt.');
    assert.deepEqual([backups.provenance[0]!.line, backups.provenance[0]!.endLine], [14, 15]);
    assert.equal(byText(got, 'Ana owns billing').provenance[0]!.heading, 'Infrastructure > People');
    const redis = byText(got, 'Decided to drop the Redis cache');
    assert.deepEqual([redis.createdAt, redis.provenance[0]!.path, redis.provenance[0]!.line], ['2026-03-02T12:00:00.000Z', join(ws, 'memory', '2026-03-02.md'), 3]);
    assert.ok(!got.some((m) => /not a memory file|Long-term memory|reviewed/.test(m.text)));
    // Again: nothing doubled. One file of it: read alone.
    assert.deepEqual((await cliJson(['-n', 'main', 'import', ws, '--json'], { home: h })).existing, 6);
    const single = await cliJson(['-n', 'daily', 'import', join(ws, 'memory', '2026-03-02.md'), '--json'], { home: h });
    assert.equal(single.imported, 2);
    // A folder that is no workspace, and a workspace asked for on stdin, are clear errors.
    const empty = join(h, 'empty');
    mkdirSync(empty);
    const refused = await runCli(['import', empty], { home: h });
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /empty is a directory, not a JSONL file nor an OpenClaw workspace \(no MEMORY\.md or memory\/\*\.md\)/);
    const stdin = await runCli(['import', '-', '--format', 'openclaw'], { home: h, input: '- a\n' });
    assert.equal(stdin.code, 3);
    assert.match(stdin.stderr, /read from its folder, not from stdin/);
  });
});

describe('cairn import: malformed, empty and oversized input', () => {
  it('reports each bad record by line, keeps every good one, leaves stored memories alone', async () => {
    const h = home();
    const before = (await cliJson(['store', 'Already here before the import', '-i', '6', '--json'], { home: h })).memory;
    const file = join(h, 'mixed.jsonl');
    writeFileSync(file, jl(
      { text: 'First good record' }, // 1
      '{"text": "unterminated', // 2
      '', // 3
      { text: '' }, // 4
      { text: 'typo', catgory: 'decision' }, // 5
      { text: 42 }, // 6
      { text: 'bad category', category: 'musing' }, // 7
      { text: 'too important', importance: 11 }, // 8
      { text: 'bad time', time: 'last tuesday-ish' }, // 9
      { text: 'x'.repeat(9000) }, // 10 over limits.maxTextChars (8000)
      { text: 'y'.repeat(1_200_000) }, // 11 over the line cap
      '[1, 2]', // 12
      { text: 'Already here before the import', importance: 9 }, // 13 merged into the stored one
      { text: 'Last good record' }, // 14
    ));
    const res = await runCli(['import', file], { home: h });
    assert.equal(res.code, 3);
    assert.match(res.stdout, /Read 14 lines: 2 imported, 0 already present, 1 merged into equal memories, 10 bad/);
    for (const [line, why] of [
      [2, /invalid JSON/], [4, /text is empty/], [5, /unknown field "catgory"/], [6, /text: /], [7, /category: /], [8, /importance: /],
      [9, /time: not a date: "last tuesday-ish"/], [10, /text longer than 8000 characters/], [11, /line longer than 1000000 characters/], [12, /not a JSON object \(array\)/],
    ] as const) assert.match(res.stderr, new RegExp(`^  line ${line}: ${why.source}`, 'm'));
    assert.ok(res.stderr.length < 5000, 'no record is echoed whole');
    const got = await memories(h, 'default');
    assert.deepEqual(got.map((m) => m.text).sort(), ['Already here before the import', 'First good record', 'Last good record']);
    const kept = byText(got, 'Already here before the import');
    assert.deepEqual([kept.id, kept.importance], [before.id, 9], 'the stored memory is kept (a re-mention may raise its importance)');
  });

  it('an empty input is an empty report (exit 0); a newline-free 3 MB stdin is one bad line, not a crash', async () => {
    const h = home();
    const empty = join(h, 'empty.jsonl');
    writeFileSync(empty, '');
    const none = await runCli(['import', empty], { home: h });
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /Read 0 lines: 0 imported/);
    const big = await runCli(['import', '-', '--json'], { home: h, input: '{"text": "' + 'z'.repeat(3 * 1024 * 1024) });
    assert.equal(big.code, 3);
    assert.deepEqual(JSON.parse(big.stdout).errors, [{ line: 1, message: 'line longer than 1000000 characters' }]);
    const doc = await runCli(['import', '-', '--json'], { home: h, input: '[\n{"memory": "half a doc",\n' });
    assert.equal(doc.code, 3);
    assert.deepEqual(JSON.parse(doc.stdout).errors.map((e: any) => e.line), [1, 2], 'a document that does not parse is read line by line');
  });
});
