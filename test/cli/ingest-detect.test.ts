// `cairn ingest` as a new user runs it: no --format when the file says what it is, OpenClaw's
// SQLite store and state directory read as `watch` reads them, binary files refused without their
// bytes in the message, and a progress bar on a terminal (never in --json output).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, cliJson, runCli, tempHomes } from '../helpers/cli.js';
import { OpenClawDb, assistant, header, user } from '../helpers/openclaw-db-fixture.js';

const home = tempHomes();
const jl = (...records: object[]): string => records.map((r) => JSON.stringify(r) + '\n').join('');

/** An OpenClaw 2026.9 session file: header version 4, then pi records. */
function openclawSession(id: string, question: string, answer: string): string {
  return jl({ type: 'session', version: 4, id, timestamp: '2026-09-02T09:00:00.000Z', cwd: '/home/ana/.openclaw/workspace' }, user('a1b2c3d4', question), assistant('b2c3d4e5', answer));
}

function claudeSession(session: string, question: string): string {
  return jl({ type: 'user', sessionId: session, uuid: 'u-1', parentUuid: null, cwd: '/home/ana/billing', timestamp: '2026-02-18T11:43:58.858Z', message: { role: 'user', content: question } });
}

async function texts(h: string, ns: string, query: string): Promise<string[]> {
  const res = await cliJson(['-n', ns, 'search', query, '--json'], { home: h });
  return (res.results as Array<{ text: string }>).map((r) => r.text);
}

/** Runs the CLI with a terminal on stdout and stderr (util-linux `script`), returning what it showed. */
function onTerminal(h: string, args: readonly string[]): Promise<{ code: number | null; screen: string }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: childEnv(h), stdio: ['ignore', 'pipe', 'pipe'] });
    let screen = '';
    child.stdout.on('data', (d: Buffer) => (screen += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (screen += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, screen }));
  });
}

describe('cairn ingest: formats told from the files', () => {
  it('reads OpenClaw (header v4), Claude Code and generic JSONL files without --format, each in its own format', async () => {
    const h = home();
    const oc = join(h, 'oc.jsonl');
    const cc = join(h, 'cc.jsonl');
    const gen = join(h, 'chat.jsonl');
    writeFileSync(oc, openclawSession('sess-oc', 'Where do the nightly backups go?', 'They go to the cold bucket in Frankfurt'));
    writeFileSync(cc, claudeSession('sess-cc', 'Why do refunds fail for euro invoices?'));
    writeFileSync(gen, jl({ role: 'user', content: 'The quarterly report ships on the fifth', id: 'g1' }));
    const res = await cliJson(['-n', 'mix', 'ingest', oc, cc, gen, '--json'], { home: h });
    assert.deepEqual(res.files.map((f: any) => [f.format, f.report.turnsInserted, f.report.issues]), [['openclaw', 2, []], ['claude-code', 1, []], ['jsonl', 1, []]]);
    assert.equal(res.format, undefined);
    assert.ok((await texts(h, 'mix', 'cold bucket Frankfurt')).some((t) => /cold bucket/.test(t)));
    assert.ok((await texts(h, 'mix', 'refunds euro invoices')).some((t) => /euro invoices/.test(t)));
    // The human summary of the v4 session names no issue (2026.9 headers are read as they are).
    const again = await runCli(['-n', 'other', 'ingest', oc], { home: h });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /3 lines, 2 new turns, 0 duplicates, 0 skipped, 0 issues/);
    assert.equal(again.stderr, '');
  });

  it('text it cannot place, and an empty file, ask for --format (exit 3); --format still decides', async () => {
    const h = home();
    const notes = join(h, 'notes.txt');
    writeFileSync(notes, '# Notes\nnothing here is a transcript\n{"a": 1}\n');
    const unknown = await runCli(['ingest', notes], { home: h });
    assert.equal(unknown.code, 3);
    assert.match(unknown.stderr, /Cannot tell the format of .*notes\.txt: .*give the format \(--format openclaw\|claude-code\|jsonl\)/);
    const empty = join(h, 'empty.jsonl');
    writeFileSync(empty, '\n\n');
    const none = await runCli(['ingest', empty], { home: h });
    assert.equal(none.code, 3);
    assert.match(none.stderr, /empty\.jsonl is empty, so its format cannot be told/);
    assert.deepEqual((await cliJson(['sources', 'list', '--all', '--json'], { home: h })).sources, [], 'no source left for them');
    const given = await cliJson(['ingest', empty, '-f', 'jsonl', '--json'], { home: h });
    assert.deepEqual([given.format, given.files[0].format, given.turnsInserted], ['jsonl', 'jsonl', 0]);
  });
});

describe('cairn ingest: OpenClaw SQLite store and state directory', () => {
  function stateDir(h: string): { root: string; db: string } {
    const root = join(h, 'openclaw-state');
    mkdirSync(join(root, 'agents', 'main', 'sessions'), { recursive: true });
    mkdirSync(join(root, 'agents', 'ops', 'agent'), { recursive: true });
    writeFileSync(join(root, 'agents', 'main', 'sessions', 'sess-main.jsonl'), openclawSession('sess-main', 'Which port does staging use now?', 'Staging moved to port 5433'));
    const db = join(root, 'agents', 'ops', 'agent', 'openclaw-agent.sqlite');
    const store = new OpenClawDb(db);
    store.append('sess-ops-1', 1, [header('sess-ops-1'), user('00000001', 'Rotate the deploy key every Monday'), assistant('00000002', 'Noted: the deploy key rotates on Mondays')]);
    store.append('sess-ops-2', 1, [header('sess-ops-2'), user('00000003', 'The on-call phone is in the blue drawer')]);
    store.close();
    return { root, db };
  }

  it('reads the store as watch does: every session, rows as lines, exactly once; with or without --format openclaw', async () => {
    const h = home();
    const { db } = stateDir(h);
    const first = await runCli(['-n', 'ops', 'ingest', db], { home: h });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /openclaw-agent\.sqlite: 5 rows in 2 sessions, 3 new turns, 0 duplicates, 0 skipped, 0 issues/);
    assert.doesNotMatch(first.stdout + first.stderr, /SQLite format|invalid JSON/);
    assert.ok((await texts(h, 'ops', 'blue drawer phone')).some((t) => /blue drawer/.test(t)));
    const again = await cliJson(['-n', 'ops', 'ingest', db, '-f', 'openclaw', '--json'], { home: h });
    assert.deepEqual([again.files[0].format, again.turnsInserted, again.files[0].report.linesRead], ['openclaw-db', 0, 0]);
    const wrong = await runCli(['-n', 'ops', 'ingest', db, '-f', 'jsonl'], { home: h });
    assert.equal(wrong.code, 3);
    assert.match(wrong.stderr, /is a SQLite database, not a jsonl transcript/);
    // A SQLite file that is not OpenClaw's (Cairn's own database) is named as such.
    const other = join(h, 'copy.sqlite');
    copyFileSync(join(h, 'cairn.db'), other);
    const foreign = await runCli(['ingest', other], { home: h });
    assert.equal(foreign.code, 3);
    assert.match(foreign.stderr, /has no transcript_events table: not an OpenClaw agent database/);
  });

  it('reads a state directory: each agent to its own namespace (or all to -n), files and stores alike', async () => {
    const h = home();
    const { root } = stateDir(h);
    const res = await cliJson(['ingest', root, '--json'], { home: h });
    assert.deepEqual(res.files.map((f: any) => [f.format, f.namespace, f.report.turnsInserted]), [['openclaw', 'main', 2], ['openclaw-db', 'ops', 3]]);
    assert.ok((await texts(h, 'main', 'staging port')).some((t) => /5433/.test(t)));
    assert.ok((await texts(h, 'ops', 'deploy key Monday')).some((t) => /deploy key/.test(t)));
    assert.equal((await cliJson(['ingest', root, '--json'], { home: h })).turnsInserted, 0, 'exactly once');
    const fixed = await cliJson(['-n', 'all', 'ingest', root, '--json'], { home: h });
    assert.deepEqual(fixed.files.map((f: any) => f.namespace), ['all', 'all']);
    assert.equal(fixed.turnsInserted, 5);
    // A folder of no transcript kind is still refused, with the reason.
    const plain = join(h, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, 'chat.jsonl'), jl({ role: 'user', content: 'hello' }));
    const refused = await runCli(['ingest', plain], { home: h });
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /is a directory; give transcript files, or an OpenClaw state directory or Claude Code projects folder/);
  });

  it('reads a Claude Code projects folder, one namespace per project', async () => {
    const h = home();
    const proj = join(h, 'projects', '-home-ana-billing');
    mkdirSync(proj, { recursive: true });
    writeFileSync(join(proj, 'sess-cc.jsonl'), claudeSession('sess-cc', 'Why do refunds fail for euro invoices?'));
    const res = await cliJson(['ingest', join(h, 'projects'), '--json'], { home: h });
    assert.deepEqual(res.files.map((f: any) => [f.format, f.namespace, f.report.turnsInserted]), [['claude-code', 'home-ana-billing', 1]]);
  });
});

describe('cairn ingest: binary files', () => {
  it('refuses binary input with a clear error (exit 3), echoes none of its bytes, stores nothing', async () => {
    const h = home();
    const png = join(h, 'screenshot.png');
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('\x00\x00\x00\x0dIHDR\x1b[31mred\x07\n\x00\xff\xfe'), Buffer.alloc(4096, 0xab)]);
    writeFileSync(png, bytes);
    const good = join(h, 'chat.jsonl');
    writeFileSync(good, jl({ role: 'user', content: 'The release train leaves on Thursday', id: 'r1' }));
    for (const args of [[png], [png, '-f', 'jsonl'], [png, '-f', 'openclaw']]) {
      const res = await runCli(['ingest', ...args], { home: h });
      assert.equal(res.code, 3, `${args.join(' ')}: ${res.stderr}`);
      assert.match(res.stderr, /screenshot\.png is a binary file, not a transcript \(JSONL text or an OpenClaw SQLite store\); nothing was read/);
      const shown = res.stdout + res.stderr;
      assert.doesNotMatch(shown, /IHDR|PNG|\x1b|\x00|\x07|\ufffd/, 'no byte of the file is echoed');
    }
    // UTF-16 (a Windows shell's redirect) is named as such.
    const wide = join(h, 'wide.jsonl');
    writeFileSync(wide, Buffer.from('\uFEFF{"role":"user","content":"hello"}\n', 'utf16le'));
    const utf16 = await runCli(['ingest', wide], { home: h });
    assert.equal(utf16.code, 3);
    assert.match(utf16.stderr, /wide\.jsonl is UTF-16 text; transcripts are read as UTF-8: convert it first/);
    // Beside a good file: the good one is captured, the binary one is the error that sets the exit code.
    const mixed = await runCli(['ingest', png, good, '--json'], { home: h });
    assert.equal(mixed.code, 3);
    const out = JSON.parse(mixed.stdout);
    assert.deepEqual(out.files.map((f: any) => [f.error?.code ?? null, f.report?.turnsInserted ?? null]), [['INVALID_INPUT', null], [null, 1]]);
    assert.deepEqual((await cliJson(['sources', 'list', '--all', '--json'], { home: h })).sources.map((s: any) => s.path), [good], 'no source for the binary file');
  });
});

describe('cairn ingest: progress', () => {
  it('shows capture and judge bars on a terminal, none with --json', async () => {
    const h = home();
    const file = join(h, 'long.jsonl');
    writeFileSync(file, Array.from({ length: 600 }, (_, i) => jl({ role: i % 2 ? 'assistant' : 'user', content: `We decided item ${i} ships in week ${i % 52}`, id: `m${i}` })).join(''));
    const shown = await onTerminal(h, ['-n', 'bars', 'ingest', file]);
    assert.equal(shown.code, 0, shown.screen);
    assert.match(shown.screen, /Capturing \[[^\]]*\] 1\/1 files 100%/);
    assert.match(shown.screen, /Judging \[[^\]]*\] 600\/600 turns 100%/);
    assert.match(shown.screen, /600 new turns in namespace bars/);
    const quiet = await onTerminal(h, ['-n', 'bars2', 'ingest', file, '--json']);
    assert.equal(quiet.code, 0, quiet.screen);
    assert.doesNotMatch(quiet.screen, /Capturing|Judging|\u2591|\u2588/);
    assert.equal(JSON.parse(quiet.screen.replace(/\r\n/g, '\n')).turnsInserted, 600);
  });
});
