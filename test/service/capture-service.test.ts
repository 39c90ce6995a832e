// Capture as a service over a real SQLite home with a fake embedder: registering sources (default
// locations from a sandboxed HOME, bad input), scanning real-looking OpenClaw and Claude Code trees
// into per-agent and per-project namespaces, resets, unreadable units in status, stats, lag,
// removal, `cairn ingest` sharing a watched source's checkpoint, and the realtime Markdown view.
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { hostname } from 'node:os';
import { Cairn } from '../../src/service/cairn.js';
import { afterCapture, captureOne, scanSource, type CaptureDeps } from '../../src/service/capture.js';
import { findSource } from '../../src/service/sources.js';
import { realtimeDir, updateRealtimeView } from '../../src/consolidate/realtime-view.js';
import { claudeProjectFolder } from '../../src/capture/sources/discover.js';
import { OPENCLAW_DB_NAME, unitForPath } from '../../src/capture/sources/units.js';
import { parseNamespace } from '../../src/core/namespace.js';
import type { NewTurn, Turn } from '../../src/core/types.js';
import type { Store } from '../../src/store/store.js';
import { HashEmbedder, rejectsCode, tempDir } from '../helpers/store-fixtures.js';
import { OpenClawDb, conversation } from '../helpers/openclaw-db-fixture.js';
import { ccUser, chat, dir, fifoValve, mkfifo, ocHeader, ocLine, sandboxEnv } from '../helpers/capture-env.js';

const tmp = tempDir('cairn-capture-svc-');
after(() => tmp.cleanup());
let n = 0;

/** Per test: a Cairn home (Tokyo time, fake embedder) and a sandboxed HOME for the agents' data. */
function useCairn(timezone = 'Asia/Tokyo') {
  const ctx = {} as { base: string; home: string; cairn: Cairn; deps: CaptureDeps; restore: () => void };
  beforeEach(async () => {
    ctx.base = dir(tmp.dir, `case-${n++}`);
    ctx.home = join(ctx.base, 'home');
    ctx.restore = sandboxEnv(ctx.home);
    ctx.cairn = await Cairn.open({ home: join(ctx.base, 'cairn'), embedder: new HashEmbedder(), config: { timezone } });
    ctx.deps = ctx.cairn.captureDeps();
  });
  afterEach(async () => {
    await ctx.cairn.close();
    ctx.restore();
  });
  return ctx;
}

async function turnsOf(store: Store, namespace: string): Promise<Turn[]> {
  const seqs = await store.filterEntries(namespace, { kinds: ['turn'] }, 100_000);
  const entries = await store.getEntries(namespace, seqs);
  const out = await Promise.all(entries.map((e) => store.getTurn(namespace, e.refId)));
  return (out.filter(Boolean) as Turn[]).sort((a, b) => a.sessionId.localeCompare(b.sessionId) || (a.line ?? 0) - (b.line ?? 0));
}

async function turnCount(cairn: Cairn, namespace: string): Promise<number> {
  return (await cairn.store.namespaceStats()).find((s) => s.namespace === namespace)?.turns ?? 0;
}

/** ~/.openclaw with two agents (one with a reset archive), an agent database and noise files. */
function openclawTree(home: string): { root: string; main: string; ops: string; db: string } {
  const root = join(home, '.openclaw');
  const main = dir(root, 'agents', 'main', 'sessions');
  writeFileSync(join(main, 's1.jsonl'), ocHeader('s1') + ocLine('m1', 'user', 'Is the backup done?') + ocLine('m2', 'assistant', 'Yes, at 02:41.'));
  writeFileSync(join(main, 's0.jsonl.reset.2026-03-01T10-00-00.000Z'), ocHeader('s0') + ocLine('m0', 'user', 'an older session'));
  writeFileSync(join(main, 'sessions.json'), JSON.stringify({ s1: { updatedAt: 1 } }));
  writeFileSync(join(main, 's1.jsonl.lock'), '');
  const ops = dir(root, 'agents', 'ops', 'sessions');
  writeFileSync(join(ops, 'deploy.jsonl'), ocHeader('deploy') + ocLine('d1', 'user', 'Deploy billing on Friday'));
  const db = join(dir(root, 'agents', 'ops', 'agent'), OPENCLAW_DB_NAME);
  const oc = new OpenClawDb(db);
  oc.append('db-session', 1, conversation('db-session', 3));
  oc.close();
  dir(root, 'workspace', 'memory');
  writeFileSync(join(root, 'workspace', 'MEMORY.md'), '# Memory\n\nStaging DB is on port 5433.\n');
  return { root, main, ops, db };
}

describe('addSources', () => {
  const ctx = useCairn();

  it('without a path and nothing at the default location → NOT_FOUND naming where it looked; nothing registered', async () => {
    await rejectsCode(ctx.cairn.addSources({ kind: 'openclaw' }), 'NOT_FOUND', new RegExp(`default location \\(${join(ctx.home, '.openclaw')}\\).*cairn sources add openclaw PATH`));
    await rejectsCode(ctx.cairn.addSources({ kind: 'claude-code' }), 'NOT_FOUND', new RegExp(join(ctx.home, '.claude', 'projects')));
    await rejectsCode(ctx.cairn.addSources({ kind: 'markdown' }), 'NOT_FOUND', /workspace-<agent>/);
    await rejectsCode(ctx.cairn.addSources({ kind: 'jsonl' }), 'NOT_FOUND', /needs a path/);
    process.env.OPENCLAW_STATE_DIR = join(ctx.base, 'elsewhere');
    await rejectsCode(ctx.cairn.addSources({ kind: 'openclaw' }), 'NOT_FOUND', /elsewhere/);
    assert.deepEqual(await ctx.cairn.store.listSources(), []);
  });

  it('discovers ~/.openclaw, ~/.claude/projects and OpenClaw workspaces (workspace → main, workspace-<agent> → that agent)', async () => {
    const { root } = openclawTree(ctx.home);
    dir(root, 'workspace-ops');
    const projects = dir(ctx.home, '.claude', 'projects');
    const [oc, ...rest] = await ctx.cairn.addSources({ kind: 'openclaw' });
    assert.equal(rest.length, 0);
    assert.deepEqual([oc!.kind, oc!.path, oc!.namespace, oc!.options], ['openclaw', root, 'default', { watch: true, namespaceFrom: 'agent', host: hostname() }]);
    const [cc] = await ctx.cairn.addSources({ kind: 'claude-code' });
    assert.deepEqual([cc!.path, cc!.options], [projects, { watch: true, namespaceFrom: 'project', host: hostname() }]);
    const md = await ctx.cairn.addSources({ kind: 'markdown' });
    assert.deepEqual(md.map((s) => [relative(root, s.path), s.namespace, s.options]), [
      ['workspace', 'main', { watch: true, namespaceFrom: 'fixed', layout: 'openclaw-workspace', host: hostname() }],
      ['workspace-ops', 'ops', { watch: true, namespaceFrom: 'fixed', layout: 'tree', host: hostname() }],
    ]);
    // A named namespace fixes every discovered location to it.
    const fixed = await ctx.cairn.addSources({ kind: 'markdown', namespace: 'notes' });
    assert.deepEqual(fixed.map((s) => s.namespace), ['notes', 'notes']);
    const statuses = await ctx.cairn.sourceStatuses();
    assert.equal(statuses.length, 6);
    assert.ok(statuses.every((s) => s.watched && !s.missing && s.units === 0 && s.errors.length === 0));
  });

  it('honours OPENCLAW_STATE_DIR and CLAUDE_CONFIG_DIR, storing absolute paths', async () => {
    const state = dir(ctx.base, 'state');
    const claude = dir(ctx.base, 'claude', 'projects');
    process.env.OPENCLAW_STATE_DIR = state;
    process.env.CLAUDE_CONFIG_DIR = join(ctx.base, 'claude');
    assert.equal((await ctx.cairn.addSources({ kind: 'openclaw' }))[0]!.path, state);
    assert.equal((await ctx.cairn.addSources({ kind: 'claude-code' }))[0]!.path, claude);
    const cwd = process.cwd();
    try {
      process.chdir(ctx.base);
      const [rel] = await ctx.cairn.addSources({ kind: 'jsonl', path: 'state' });
      assert.equal(rel!.path, state, 'a relative path is stored absolute');
    } finally {
      process.chdir(cwd);
    }
  });

  it('rejects bad input with typed errors and registers nothing', async () => {
    const file = join(ctx.base, 'notes.txt');
    writeFileSync(file, 'x');
    await rejectsCode(ctx.cairn.addSources({ kind: 'slack', path: ctx.base }), 'INVALID_INPUT', /Unknown source kind "slack"/);
    await rejectsCode(ctx.cairn.addSources({ kind: 42 as unknown as string, path: ctx.base }), 'INVALID_INPUT');
    await rejectsCode(ctx.cairn.addSources({ kind: 'x'.repeat(1_000_000) }), 'INVALID_INPUT');
    const missing = await rejectsCode(ctx.cairn.addSources({ kind: 'openclaw', path: join(ctx.base, 'nope') }), 'NOT_FOUND', /No such file or folder/);
    assert.equal(missing.details?.path, join(ctx.base, 'nope'));
    for (const path of ['', '   ', 'a\0b', join(ctx.base, '\0')]) await rejectsCode(ctx.cairn.addSources({ kind: 'jsonl', path }), 'INVALID_INPUT', /non-empty path/);
    await rejectsCode(ctx.cairn.addSources({ kind: 'jsonl', path: 42 as unknown as string }), 'INVALID_INPUT');
    await rejectsCode(ctx.cairn.addSources({ kind: 'jsonl', path: '/' + 'x'.repeat(100_000) }), 'NOT_FOUND');
    await rejectsCode(ctx.cairn.addSources({ kind: 'jsonl', path: ctx.base, namespace: 'Bad NS' }), 'INVALID_NAMESPACE');
    await rejectsCode(ctx.cairn.addSources({ kind: 'jsonl', path: ctx.base, namespace: 'index' }), 'INVALID_NAMESPACE', /reserved/);
    await rejectsCode(ctx.cairn.addSources({ kind: 'jsonl', path: ctx.base, namespace: '../x' }), 'INVALID_NAMESPACE');
    await rejectsCode(ctx.cairn.addSources({ kind: 'markdown', path: file }), 'INVALID_INPUT', /Not a Markdown file/);
    assert.deepEqual(await ctx.cairn.store.listSources(), []);
  });

  it('adding the same source twice keeps one; findSource by id, path and kind; removeSource keeps the turns', async () => {
    const { root, main } = openclawTree(ctx.home);
    const [a] = await ctx.cairn.addSources({ kind: 'openclaw', path: root });
    const [b] = await ctx.cairn.addSources({ kind: 'openclaw', path: root + '/' });
    assert.equal(a!.id, b!.id);
    const [j] = await ctx.cairn.addSources({ kind: 'jsonl', path: root });
    assert.equal((await findSource(ctx.cairn.store, a!.id)).kind, 'openclaw');
    assert.equal((await findSource(ctx.cairn.store, String(j!.id))).kind, 'jsonl');
    assert.equal((await findSource(ctx.cairn.store, root, 'jsonl')).id, j!.id);
    await rejectsCode(findSource(ctx.cairn.store, root), 'INVALID_INPUT', /Several sources/);
    await rejectsCode(findSource(ctx.cairn.store, 9999), 'NOT_FOUND');
    await rejectsCode(findSource(ctx.cairn.store, join(ctx.base, 'nope')), 'NOT_FOUND');
    await rejectsCode(ctx.cairn.removeSource('\0'.repeat(10)), 'NOT_FOUND');
    await ctx.cairn.removeSource(j!.id);
    // Capture, then remove: the turns stay (their source link is cleared).
    const scan = await scanSource(ctx.deps, a!);
    const inserted = scan.results.reduce((sum, r) => sum + r.turnsInserted, 0);
    assert.ok(inserted >= 5);
    const before = (await turnsOf(ctx.cairn.store, 'main')).map((t) => t.id);
    const removed = await ctx.cairn.removeSource(root, 'openclaw');
    assert.equal(removed.id, a!.id);
    assert.deepEqual((await turnsOf(ctx.cairn.store, 'main')).map((t) => t.id), before);
    assert.ok((await turnsOf(ctx.cairn.store, 'main')).every((t) => t.sourceId === null));
    assert.deepEqual(await ctx.cairn.sourceStatuses(), []);
    assert.equal((await ctx.cairn.status()).capture.sources.length, 0);
    assert.ok(existsSync(join(main, 's1.jsonl')), 'removing a source never touches its files');
  });
});

describe('scanning sources', () => {
  const ctx = useCairn();

  it('captures every unit of an OpenClaw tree into per-agent namespaces, then updates views and vectors', async () => {
    openclawTree(ctx.home);
    const [source] = await ctx.cairn.addSources({ kind: 'openclaw' });
    const scan = await scanSource(ctx.deps, source!);
    assert.deepEqual(scan.walkErrors, []);
    const byPath = Object.fromEntries(scan.results.map((r) => [relative(source!.path, r.unit.path), [r.unit.namespace, r.read, r.turnsInserted, r.error?.code ?? null]]));
    assert.deepEqual(byPath, {
      'agents/main/sessions/s0.jsonl.reset.2026-03-01T10-00-00.000Z': ['main', 2, 1, null],
      'agents/main/sessions/s1.jsonl': ['main', 3, 2, null],
      [`agents/ops/agent/${OPENCLAW_DB_NAME}`]: ['ops', 3, 2, null],
      'agents/ops/sessions/deploy.jsonl': ['ops', 2, 1, null],
    });
    assert.equal(await turnCount(ctx.cairn, 'main'), 3);
    assert.equal(await turnCount(ctx.cairn, 'ops'), 3);
    assert.equal(await turnCount(ctx.cairn, 'default'), 0);
    const after1 = await afterCapture(ctx.deps, scan.results);
    assert.equal(after1.warning, undefined);
    assert.equal(after1.viewed, 6);
    assert.equal(after1.judged, 6);
    assert.ok(after1.embedded >= 6, 'every turn, plus the memories the judge made');
    assert.ok(readdirSync(realtimeDir(ctx.cairn.paths, parseNamespace('main'))).some((f) => /^realtime-\d{4}-\d{2}-\d{2}\.md$/.test(f)));
    // A second scan reads nothing new.
    const again = await scanSource(ctx.deps, source!);
    assert.ok(again.results.every((r) => r.read === 0 && r.turnsInserted === 0 && r.duplicates === 0));
    assert.deepEqual(await afterCapture(ctx.deps, again.results), { judged: 0, embedded: 0, viewed: 0 });
    const [status] = await ctx.cairn.sourceStatuses();
    assert.equal(status!.turns, 6);
    assert.equal(status!.stats.linesRead, 7 + 3, 'seven transcript lines and three database rows');
    assert.equal(status!.stats.turns, 6);
    assert.deepEqual(status!.errors, []);
    assert.equal(status!.pendingBytes, 0);
    assert.equal(status!.lagSeconds, 0);
  });

  it('Claude Code: a projects root and a project folder given directly both name the namespace after the project', async () => {
    const projects = dir(ctx.home, '.claude', 'projects');
    const proj = dir(projects, `${claudeProjectFolder(ctx.home)}-proj`);
    const uuid = '0b9d2c1e-7a44-4f5b-8e0d-3c2a1f6e9b77';
    writeFileSync(join(proj, `${uuid}.jsonl`), ccUser('u-1', 'Add a retry to the fetch helper', uuid));
    writeFileSync(join(dir(proj, uuid, 'subagents'), 'agent-1.jsonl'), ccUser('u-2', 'Find the callers of get()', uuid));
    writeFileSync(join(dir(projects, '-srv-app'), 'x.jsonl'), ccUser('u-3', 'Server app question', 'x'));
    const [all] = await ctx.cairn.addSources({ kind: 'claude-code' });
    const scan = await scanSource(ctx.deps, all!);
    assert.deepEqual(scan.results.map((r) => [r.unit.namespace, r.turnsInserted]).sort(), [['proj', 1], ['proj', 1], ['srv-app', 1]]);
    assert.deepEqual((await turnsOf(ctx.cairn.store, 'proj')).map((t) => t.text).sort(), ['Add a retry to the fetch helper', 'Find the callers of get()']);
    // The same folder as its own source shares nothing with the first (own checkpoints) but lands in the same namespace.
    const [direct] = await ctx.cairn.addSources({ kind: 'claude-code', path: proj });
    assert.equal(direct!.options.namespaceFrom, 'project');
    const scan2 = await scanSource(ctx.deps, direct!);
    assert.deepEqual(scan2.results.map((r) => [r.unit.namespace, r.turnsInserted, r.duplicates]), [['proj', 0, 1], ['proj', 0, 1]]);
    assert.equal(await turnCount(ctx.cairn, 'proj'), 2);
  });

  it('a live file renamed to .jsonl.reset.<ts> is not read again (0 lines, 0 duplicates); the new live file is', async () => {
    const root = join(ctx.home, '.openclaw');
    const main = dir(root, 'agents', 'main', 'sessions');
    const live = join(main, 'abc.jsonl');
    writeFileSync(live, ocHeader('abc') + ocLine('m1', 'user', 'before reset') + ocLine('m2', 'assistant', 'ok'));
    const [source] = await ctx.cairn.addSources({ kind: 'openclaw' });
    assert.equal((await scanSource(ctx.deps, source!)).results[0]!.turnsInserted, 2);
    // OpenClaw's /new: rename the transcript, start a new one; the daemon sees both in one scan.
    const archive = `${live}.reset.2026-03-02T06-20-00.000Z`;
    renameSync(live, archive);
    writeFileSync(live, ocHeader('abc2') + ocLine('m3', 'user', 'after reset'));
    const scan = await scanSource(ctx.deps, source!);
    const of = (p: string) => scan.results.find((r) => r.unit.path === p)!;
    assert.deepEqual([of(archive).read, of(archive).turnsInserted, of(archive).duplicates], [0, 0, 0]);
    assert.deepEqual([of(live).read, of(live).turnsInserted, of(live).duplicates], [2, 1, 0]);
    // And a second reset, this time seen between the two writes.
    const archive2 = `${live}.deleted.1772432045299`;
    renameSync(live, archive2);
    const mid = await scanSource(ctx.deps, source!);
    const a2 = mid.results.find((r) => r.unit.path === archive2)!;
    assert.deepEqual([a2.read, a2.duplicates, a2.adoptedFrom], [0, 0, live]);
    writeFileSync(live, ocLine('m4', 'user', 'third session'));
    const last = await scanSource(ctx.deps, source!);
    assert.deepEqual(last.results.map((r) => [relative(main, r.unit.path), r.read, r.turnsInserted, r.duplicates]), [
      ['abc.jsonl', 1, 1, 0],
      ['abc.jsonl.deleted.1772432045299', 0, 0, 0],
      ['abc.jsonl.reset.2026-03-02T06-20-00.000Z', 0, 0, 0],
    ]);
    assert.equal(await turnCount(ctx.cairn, 'main'), 4);
    const [status] = await ctx.cairn.sourceStatuses();
    assert.equal(status!.stats.linesRead, 3 + 2 + 1, 'every line counted once across the renamed keys');
    assert.equal(status!.stats.turns, 4);
  });

  it('unreadable units (a FIFO, a dangling symlink) get errors in status while the others are captured; errors clear once readable', async () => {
    const root = join(ctx.home, '.openclaw');
    const main = dir(root, 'agents', 'main', 'sessions');
    writeFileSync(join(main, 'good.jsonl'), ocLine('g1', 'user', 'good file'));
    const fifo = join(main, 'pipe.jsonl');
    mkfifo(fifo);
    const link = join(main, 'link.jsonl');
    const target = join(ctx.base, 'target.jsonl');
    symlinkSync(target, link);
    const [source] = await ctx.cairn.addSources({ kind: 'openclaw' });
    const valve = fifoValve(fifo, 3000);
    let scan;
    try {
      scan = await scanSource(ctx.deps, source!);
    } finally {
      valve.cancel();
    }
    assert.equal(valve.fired(), false, 'the scan blocked on the FIFO');
    const errs = Object.fromEntries(scan.results.filter((r) => r.error).map((r) => [relative(main, r.unit.path), r.error!.code]));
    assert.deepEqual(errs, { 'link.jsonl': 'NOT_FOUND', 'pipe.jsonl': 'INVALID_INPUT' });
    assert.equal(await turnCount(ctx.cairn, 'main'), 1, 'the readable file was captured');
    const [status] = await ctx.cairn.sourceStatuses();
    assert.deepEqual(status!.errors.map((e) => [relative(main, e.key), e.code]).sort(), [['link.jsonl', 'NOT_FOUND'], ['pipe.jsonl', 'INVALID_INPUT']]);
    assert.ok(status!.errors.every((e) => e.message.length > 0 && !Number.isNaN(Date.parse(e.at))));
    const report = await ctx.cairn.status();
    assert.ok(report.warnings.some((w) => w.includes('2 unit(s) cannot be captured')), report.warnings.join('\n'));
    // Scanning again keeps the errors (no duplicates of them), and still does not block.
    const valve2 = fifoValve(fifo, 3000);
    try {
      await scanSource(ctx.deps, source!);
    } finally {
      valve2.cancel();
    }
    assert.equal((await ctx.cairn.sourceStatuses())[0]!.errors.length, 2);
    // Fix both: the link gets its target, the FIFO becomes a file.
    writeFileSync(target, ocLine('t1', 'user', 'through the link'));
    unlinkSync(fifo);
    writeFileSync(fifo, ocLine('p1', 'user', 'was a pipe'));
    const fixed = await scanSource(ctx.deps, source!);
    assert.ok(fixed.results.every((r) => !r.error));
    assert.deepEqual((await ctx.cairn.sourceStatuses())[0]!.errors, []);
    assert.equal(await turnCount(ctx.cairn, 'main'), 3);
    assert.ok(!(await ctx.cairn.status()).warnings.some((w) => w.includes('cannot be captured')));
  });

  it('an unreadable unit reached through a file event (a directory named x.jsonl) is an error until it is a file', async () => {
    const root = join(ctx.home, '.openclaw');
    const main = dir(root, 'agents', 'main', 'sessions');
    const [source] = await ctx.cairn.addSources({ kind: 'openclaw' });
    const bad = dir(main, 'x.jsonl');
    writeFileSync(join(bad, 'inner.txt'), 'not a transcript');
    const unit = unitForPath(source!, bad)!;
    const r = await captureOne(ctx.deps, source!, unit);
    assert.equal(r.error?.code, 'INVALID_INPUT');
    assert.deepEqual((await ctx.cairn.sourceStatuses())[0]!.errors.map((e) => e.key), [bad]);
    rmSync(bad, { recursive: true });
    writeFileSync(bad, ocLine('x1', 'user', 'a file now'));
    assert.equal((await captureOne(ctx.deps, source!, unit)).turnsInserted, 1);
    assert.deepEqual((await ctx.cairn.sourceStatuses())[0]!.errors, []);
  });

  it('stats in status match what was ingested: lines, malformed lines with their numbers, redactions', async () => {
    const logs = dir(ctx.base, 'logs');
    const aws = 'AKIAIOSFODNN7EXAMPLQ';
    const lines = [
      chat('c1', 'plain message'),
      '{"role": "user", "content": "unterminated\n',
      chat('c2', `key ${aws} here`),
      JSON.stringify({ content: 'no role', id: 'c3' }) + '\n',
      '\n',
      chat('c4', 'last one'),
    ];
    writeFileSync(join(logs, 'a.jsonl'), lines.join(''));
    writeFileSync(join(logs, 'empty.jsonl'), '');
    const [source] = await ctx.cairn.addSources({ kind: 'jsonl', path: logs, namespace: 'bench' });
    const scan = await scanSource(ctx.deps, source!);
    const a = scan.results.find((r) => r.unit.path.endsWith('a.jsonl'))!;
    assert.equal(a.turnsInserted, 3);
    assert.equal(a.malformed, 2);
    assert.deepEqual(a.redactions, { 'aws-access-key': 1 });
    const [status] = await ctx.cairn.sourceStatuses();
    assert.equal(status!.stats.linesRead, lines.length);
    assert.equal(status!.stats.turns, 3);
    assert.equal(status!.stats.malformed, 2);
    assert.deepEqual(status!.stats.recentIssues.map((i) => i.line), [2, 4]);
    assert.deepEqual(status!.stats.redactions, { 'aws-access-key': 1 });
    assert.ok(status!.stats.lastCaptureAt && !Number.isNaN(Date.parse(status!.stats.lastCaptureAt)));
    assert.equal(status!.turns, 3);
    assert.ok(!JSON.stringify(await turnsOf(ctx.cairn.store, 'bench')).includes(aws), 'the secret was not stored');
    const report = await ctx.cairn.status();
    assert.deepEqual([report.capture.redactions, report.capture.malformed], [1, 2]);
    assert.deepEqual(report.capture.daemon, { running: false });
    assert.equal(report.capture.sources.length, 1);
    // More of the same adds up; nothing is counted twice on a re-scan.
    appendFileSync(join(logs, 'a.jsonl'), 'garbage\n' + chat('c5', `again ${aws}`));
    await scanSource(ctx.deps, source!);
    await scanSource(ctx.deps, source!);
    const [s2] = await ctx.cairn.sourceStatuses();
    assert.deepEqual([s2!.stats.linesRead, s2!.stats.turns, s2!.stats.malformed], [lines.length + 2, 4, 3]);
    assert.deepEqual(s2!.stats.recentIssues.map((i) => i.line), [2, 4, 7]);
    assert.deepEqual(s2!.stats.redactions, { 'aws-access-key': 2 });
  });

  it('pendingBytes and lagSeconds show what was appended but not captured yet; a missing root is flagged', async () => {
    const logs = dir(ctx.base, 'logs');
    const file = join(logs, 'a.jsonl');
    writeFileSync(file, chat('c1', 'first'));
    const [source] = await ctx.cairn.addSources({ kind: 'jsonl', path: logs });
    await scanSource(ctx.deps, source!);
    assert.equal((await ctx.cairn.sourceStatuses())[0]!.pendingBytes, 0);
    const more = chat('c2', 'second') + '{"partial": ';
    appendFileSync(file, more);
    const [behind] = await ctx.cairn.sourceStatuses();
    assert.equal(behind!.pendingBytes, Buffer.byteLength(more));
    assert.ok(behind!.lagSeconds >= 0 && Number.isInteger(behind!.lagSeconds));
    await scanSource(ctx.deps, source!);
    const [caught] = await ctx.cairn.sourceStatuses();
    assert.equal(caught!.pendingBytes, Buffer.byteLength('{"partial": '), 'an unfinished last line still waits');
    // A file replaced by another one (a new inode) is not measured against the old position.
    writeFileSync(join(logs, 'new.tmp'), 'x'.repeat(10_000));
    renameSync(join(logs, 'new.tmp'), file);
    assert.equal((await ctx.cairn.sourceStatuses())[0]!.pendingBytes, 0);
    rmSync(logs, { recursive: true });
    const [gone] = await ctx.cairn.sourceStatuses();
    assert.equal(gone!.missing, true);
    assert.ok((await ctx.cairn.status()).warnings.some((w) => w.includes('no longer exists')));
    const scan = await scanSource(ctx.deps, source!);
    assert.deepEqual(scan.results, [], 'a missing folder has no units (and leaves no error behind)');
    // Back again: captured, and no stale error about the root.
    writeFileSync(join(dir(logs), 'b.jsonl'), chat('c9', 'back'));
    const back = await scanSource(ctx.deps, source!);
    assert.deepEqual(back.results.map((r) => [r.turnsInserted, r.error ?? null]), [[1, null]]);
    const [ok] = await ctx.cairn.sourceStatuses();
    assert.deepEqual([ok!.missing, ok!.errors], [false, []]);
  });
});

describe('ingest (cairn ingest) beside watched sources', () => {
  const ctx = useCairn();

  it('a file inside a watched source of the same format and namespace shares its checkpoint', async () => {
    const root = join(ctx.home, '.openclaw');
    const main = dir(root, 'agents', 'main', 'sessions');
    const file = join(main, 's.jsonl');
    writeFileSync(file, ocHeader('s') + ocLine('m1', 'user', 'The deploy key rotates every Monday at noon') + ocLine('m2', 'assistant', 'Noted: rotation on Mondays at 12:00'));
    const [source] = await ctx.cairn.addSources({ kind: 'openclaw' });
    const r = await ctx.cairn.ingest([file], { format: 'openclaw', namespace: 'main' });
    assert.equal(r.turnsInserted, 2);
    assert.ok(r.embedded >= 2);
    assert.equal((await ctx.cairn.store.listSources()).length, 1, 'no one-off source was made');
    const scan = await scanSource(ctx.deps, source!);
    assert.deepEqual(scan.results.map((x) => [x.read, x.turnsInserted, x.duplicates]), [[0, 0, 0]], 'the daemon does not read those lines again');
    appendFileSync(file, ocLine('m3', 'user', 'more'));
    assert.equal((await scanSource(ctx.deps, source!)).results[0]!.read, 1);
    const again = await ctx.cairn.ingest([file], { format: 'openclaw', namespace: 'main' });
    assert.deepEqual([again.turnsInserted, again.files[0]!.report!.linesRead], [0, 0]);
    // Another namespace (or format) is another capture: a one-off, unwatched source of its own.
    const other = await ctx.cairn.ingest([file], { format: 'openclaw', namespace: 'scratch' });
    assert.equal(other.turnsInserted, 3);
    const sources = await ctx.cairn.store.listSources();
    assert.equal(sources.length, 2);
    assert.deepEqual(sources[1]!.options, {});
    assert.equal((await ctx.cairn.sourceStatuses({ watchedOnly: true })).length, 1);
    assert.equal((await ctx.cairn.ingest([file], { format: 'openclaw', namespace: 'scratch' })).turnsInserted, 0, 'the one-off source is reused');
    assert.equal((await ctx.cairn.store.listSources()).length, 2);
  });

  it('each unusable path (missing, FIFO, directory, NUL) gets its own typed error; the good path is captured once', async () => {
    const good = join(ctx.base, 'good.jsonl');
    writeFileSync(good, chat('c1', 'The quarterly report ships on the 5th'));
    const fifo = join(ctx.base, 'pipe.jsonl');
    mkfifo(fifo);
    const errorOf = async (bad: string) => {
      const res = await ctx.cairn.ingest([good, bad], { format: 'jsonl' });
      assert.equal(res.files[0]!.error, undefined);
      return res.files[1]!.error!;
    };
    assert.equal((await errorOf(join(ctx.base, 'missing.jsonl'))).code, 'NOT_FOUND');
    const valve = fifoValve(fifo, 3000);
    try {
      const e = await errorOf(fifo);
      assert.deepEqual([e.code, /not a regular file/.test(e.message)], ['INVALID_INPUT', true]);
    } finally {
      valve.cancel();
    }
    assert.equal(valve.fired(), false, 'ingest blocked on the FIFO');
    assert.match((await errorOf(ctx.base)).message, /directory/);
    assert.equal((await errorOf('a\0b.jsonl')).code, 'INVALID_INPUT');
    // Whole-call errors: nothing to do, an unknown format, a bad namespace.
    await rejectsCode(ctx.cairn.ingest([], { format: 'jsonl' }), 'INVALID_INPUT');
    await rejectsCode(ctx.cairn.ingest([good], { format: 'word-doc' }), 'INVALID_INPUT');
    await rejectsCode(ctx.cairn.ingest([good], { format: 'jsonl', namespace: '..' }), 'INVALID_NAMESPACE');
    assert.equal((await ctx.cairn.status()).totals.turns, 1, 'the good file, captured once across the calls');
    assert.deepEqual((await ctx.cairn.store.listSources()).map((s) => s.path), [good], 'no source for the unusable paths');
  });
});

describe('realtime view', () => {
  const ctx = useCairn('Asia/Tokyo');
  const NS = parseNamespace('agent-x');

  const turn = (id: string, text: string, timestamp: string, extra: Partial<NewTurn> = {}): NewTurn => ({
    namespace: NS, sessionId: 'sess-1', messageId: id, role: 'user', text, timestamp, ...extra,
  });
  const update = (cairn = ctx.cairn) => updateRealtimeView(cairn.store, cairn.paths, NS, cairn.config.timezone);
  const viewDir = () => realtimeDir(ctx.cairn.paths, NS);
  const viewFiles = () => readdirSync(viewDir()).filter((f) => f.endsWith('.md')).sort();
  const read = (day: string) => readFileSync(join(viewDir(), `realtime-${day}.md`), 'utf8');
  /** How often each message id appears in headings across every day file. */
  function headingCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const f of viewFiles()) {
      for (const m of readFileSync(join(viewDir(), f), 'utf8').matchAll(/^### .*#(\S+)/gm)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
    }
    return counts;
  }

  it('one file per local day in the configured zone, a header once, every turn exactly once across updates', async () => {
    await ctx.cairn.store.addTurns([
      turn('t1', 'morning in Tokyo', '2026-03-01T01:00:00.000Z'),
      turn('t2', 'late UTC evening', '2026-03-01T23:30:00.000Z'), // 08:30 on the 2nd in Tokyo
    ]);
    assert.equal(await update(), 2);
    assert.deepEqual(viewFiles(), ['realtime-2026-03-01.md', 'realtime-2026-03-02.md']);
    assert.match(read('2026-03-01'), /^# Raw log · agent-x · 2026-03-01 \(Asia\/Tokyo\)\n\n### 10:00 · user · sess-1#t1\n> morning in Tokyo\n/);
    assert.match(read('2026-03-02'), /### 08:30 · user · sess-1#t2\n> late UTC evening\n/);
    assert.equal(await update(), 0, 'nothing new');
    await ctx.cairn.store.addTurns([turn('t3', 'later on the 2nd', '2026-03-02T02:00:00.000Z'), turn('t1', 'a duplicate is not stored', '2026-03-01T01:00:00.000Z')]);
    assert.equal(await update(), 1);
    await ctx.cairn.store.addTurns([turn('t4', 'no valid time', 'not-a-time')]);
    assert.equal(await update(), 1);
    for (const day of ['2026-03-01', '2026-03-02']) assert.equal(read(day).match(/^# Raw log/gm)?.length, 1, `one header in ${day}`);
    const counts = headingCounts();
    assert.equal(counts.size, 4);
    assert.ok([...counts.values()].every((c) => c === 1), JSON.stringify([...counts]));
    const mark = JSON.parse(readFileSync(join(viewDir(), '.realtime.json'), 'utf8')) as { seq: number };
    assert.ok(Number.isSafeInteger(mark.seq) && mark.seq > 0);
    assert.ok(!existsSync(join(viewDir(), '.realtime.lock')), 'the lock is released');
  });

  it('turns from capture land in the view through afterCapture, on Tokyo days', async () => {
    const logs = dir(ctx.base, 'logs');
    writeFileSync(join(logs, 'a.jsonl'), chat('c1', 'captured late', { timestamp: '2026-03-01T23:30:00.000Z' }));
    const [source] = await ctx.cairn.addSources({ kind: 'jsonl', path: logs, namespace: NS });
    const scan = await scanSource(ctx.deps, source!);
    const out = await afterCapture(ctx.deps, scan.results);
    assert.equal(out.viewed, 1);
    assert.match(read('2026-03-02'), /08:30 · user · jsonl a#c1 L1\n> captured late/);
  });

  it('quotes Markdown-looking text and keeps hostile speakers, sessions and ids on one heading line', async () => {
    const md = '# Not a heading\n- not a list\n```\ncode fence\n\n> quote\r# after a lone CR\r\n## after CRLF';
    await ctx.cairn.store.addTurns([
      turn('m1', md, '2026-03-01T01:00:00.000Z', { speaker: 'Eve\n# Injected heading\n' }),
      turn('m2\n# id heading', 'hi', '2026-03-01T01:01:00.000Z', { sessionId: 'sess\r\n## session heading' }),
    ]);
    await update();
    const text = read('2026-03-01');
    const lines = text.split(/\r\n|\r|\n/);
    const headings = lines.filter((l) => l.startsWith('#'));
    assert.equal(headings.filter((l) => l.startsWith('# ')).length, 1, `only the file header is a level-1 heading:\n${text}`);
    assert.equal(headings.filter((l) => l.startsWith('## ')).length, 0, `no injected level-2 heading:\n${text}`);
    assert.equal(headings.filter((l) => l.startsWith('### ')).length, 2, `one heading per turn:\n${text}`);
    // Every line of a turn's body is a quote.
    const body = lines.slice(lines.findIndex((l) => l.startsWith('### ')) + 1, lines.findIndex((l, i) => i > 3 && l.startsWith('### ')) - 1);
    assert.ok(body.length >= 8);
    for (const l of body) assert.ok(l === '>' || l.startsWith('> '), `unquoted body line ${JSON.stringify(l)}`);
    assert.ok(text.includes('> # Not a heading') && text.includes('> ```') && text.includes('> > quote'));
  });

  it('two concurrent updates (one process or two) write every line once', async () => {
    const many = Array.from({ length: 300 }, (_, i) => turn(`c${i}`, `message ${i}`, new Date(Date.UTC(2026, 2, 1, 12, 0, i)).toISOString()));
    await ctx.cairn.store.addTurns(many.slice(0, 150));
    const [a, b] = await Promise.all([update(), update()]);
    assert.equal(a + b, 150);
    const other = await Cairn.open({ home: ctx.cairn.paths.root, embedder: new HashEmbedder(), config: { timezone: 'Asia/Tokyo' } });
    try {
      await ctx.cairn.store.addTurns(many.slice(150));
      const written = await Promise.all([update(), update(other), update(), update(other)]);
      // A caller that finds the view busy writes nothing; a later update brings any rest.
      const total = written.reduce((x, y) => x + y, 0) + (await update(other)) + (await update());
      assert.equal(total, 150);
    } finally {
      await other.close();
    }
    const counts = headingCounts();
    assert.equal(counts.size, 300);
    assert.ok([...counts.values()].every((c) => c === 1));
  });

  it('a crash-like stale lock is taken over; a fresh one defers to its holder without losing turns', async () => {
    await ctx.cairn.store.addTurns([turn('s1', 'one', '2026-03-01T01:00:00.000Z')]);
    mkdirSync(viewDir(), { recursive: true });
    const lock = join(viewDir(), '.realtime.lock');
    writeFileSync(lock, '');
    assert.equal(await update(), 0, 'a fresh lock: someone else is writing');
    assert.ok(existsSync(lock), 'and their lock is left alone');
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, old, old);
    assert.equal(await update(), 1, 'a lock left ten minutes ago is stale');
    assert.ok(!existsSync(lock));
    assert.equal(headingCounts().get('s1'), 1);
  });

  it('a long update keeps its lock fresh, so nobody takes it over midway and duplicates pages', async () => {
    const count = 1500; // more than one page
    await ctx.cairn.store.addTurns(Array.from({ length: count }, (_, i) => turn(`p${i}`, `page test ${i}`, new Date(Date.UTC(2026, 2, 1, 3, 0, 0, i)).toISOString())));
    const lock = join(viewDir(), '.realtime.lock');
    let calls = 0;
    let rival = -1;
    const slow = new Proxy(ctx.cairn.store, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== 'turnsAfter') return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: Parameters<Store['turnsAfter']>) => {
          calls++;
          if (calls === 1) {
            // The first page takes "two minutes".
            const old = new Date(Date.now() - 2 * 60_000);
            utimesSync(lock, old, old);
          } else if (calls === 2) {
            rival = await updateRealtimeView(ctx.cairn.store, ctx.cairn.paths, NS, 'Asia/Tokyo');
          }
          return target.turnsAfter(...args);
        };
      },
    });
    const written = await updateRealtimeView(slow, ctx.cairn.paths, NS, 'Asia/Tokyo');
    assert.equal(rival, 0, 'the rival found the lock held');
    assert.equal(written, count);
    const counts = headingCounts();
    assert.equal(counts.size, count);
    assert.ok([...counts.values()].every((c) => c === 1));
  });

  it('a view that cannot be written is a warning from afterCapture, never a lost capture', async () => {
    const logs = dir(ctx.base, 'logs');
    writeFileSync(join(logs, 'a.jsonl'), chat('c1', 'The billing export runs nightly at 02:00 UTC'));
    const [source] = await ctx.cairn.addSources({ kind: 'jsonl', path: logs, namespace: NS });
    const nsDir = join(ctx.cairn.paths.root, NS);
    mkdirSync(nsDir, { recursive: true });
    writeFileSync(join(nsDir, 'raw'), 'a file where the raw folder should be');
    const scan = await scanSource(ctx.deps, source!);
    const out = await afterCapture(ctx.deps, scan.results);
    assert.match(out.warning ?? '', /realtime view of agent-x not updated/);
    assert.ok(out.embedded >= 1);
    assert.equal(await turnCount(ctx.cairn, NS), 1);
    // Once the obstacle is gone the view catches up with everything.
    unlinkSync(join(nsDir, 'raw'));
    assert.equal(await update(), 1);
    assert.ok(statSync(join(viewDir(), 'realtime-2026-03-01.md')).size > 0);
  });
});
