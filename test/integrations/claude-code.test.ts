// Claude Code integration through the real CLI: `cairn hooks install|uninstall|status claude-code`
// on temporary settings files, and `cairn hook claude-code` fed the JSON Claude Code sends on stdin.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { appendFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { projectNamespace } from '../../src/integrations/claude-code/hook.js';
import { CLI, HANG_GUARD_MS, ROOT, NO_EMBEDDER, assertBuilt, childEnv, cliJson, json, makeHome, ok, removeHome, runCli, type RunResult } from '../helpers/cli.js';

before(() => assertBuilt());

/** Another tool's settings and hooks, indented with 4 spaces as some editors save it. */
const ORIGINAL = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test:*)'], deny: [] },
  env: { FOO: '1' },
  hooks: {
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send "Claude is done"' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/opt/guard.sh', timeout: 5 }] }],
    // Another memory tool whose command also ends in "hook claude-code": not ours.
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'other-mem hook claude-code session-init' }] }],
  },
  statusLine: { type: 'command', command: '~/bin/status' },
};
const ORIGINAL_TEXT = JSON.stringify(ORIGINAL, null, 4) + '\n';
/** The package's executable (dist/bin/cairn.js), which hooks run. */
const BIN = join(ROOT, 'dist', 'bin', 'cairn.js');
const EVENTS = ['SessionStart', 'PreCompact', 'Stop', 'SessionEnd'] as const;

function backups(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.includes('.cairn-backup-')).sort();
}

/** Our hook commands per event in a settings object. */
function ours(settings: any, event: string): string[] {
  const out: string[] = [];
  for (const g of settings.hooks?.[event] ?? []) for (const h of g.hooks ?? []) if (/\/bin\/cairn\.js.* hook claude-code$/.test(h.command)) out.push(h.command);
  return out;
}

describe('cairn hooks install|uninstall|status claude-code', () => {
  let home: string;
  let dir: string;
  let path: string;
  before(() => {
    home = makeHome(NO_EMBEDDER);
    dir = mkdtempSync(join(tmpdir(), 'cairn-claude-settings-'));
    path = join(dir, 'settings.json');
  });
  after(() => {
    removeHome(home);
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds ours beside every other setting and hook, backs up first, twice changes nothing, uninstall restores', async () => {
    writeFileSync(path, ORIGINAL_TEXT);
    const res = await cliJson(['hooks', 'install', 'claude-code', '--settings', path, '--json'], { home });
    assert.equal(res.changed, true);
    assert.equal(res.path, path);
    // The backup is the file as it was, byte for byte.
    assert.deepEqual(backups(dir).map((b) => join(dir, b)), [res.backup]);
    assert.equal(readFileSync(res.backup, 'utf8'), ORIGINAL_TEXT);

    const installedText = readFileSync(path, 'utf8');
    assert.match(installedText, /^\{\n {4}"model"/, 'indentation kept');
    const installed = JSON.parse(installedText);
    // Every other key as it was.
    for (const key of ['model', 'permissions', 'env', 'statusLine'] as const) assert.deepEqual(installed[key], ORIGINAL[key]);
    assert.deepEqual(installed.hooks.PreToolUse, ORIGINAL.hooks.PreToolUse);
    // Other tools' hooks on our events stay first and untouched.
    assert.deepEqual(installed.hooks.Stop[0], ORIGINAL.hooks.Stop[0]);
    assert.deepEqual(installed.hooks.SessionStart[0], ORIGINAL.hooks.SessionStart[0]);
    for (const event of EVENTS) {
      assert.equal(ours(installed, event).length, 1, `one Cairn hook on ${event}`);
      const group = installed.hooks[event].at(-1);
      assert.deepEqual(Object.keys(group), ['hooks']);
      assert.equal(group.hooks[0].type, 'command');
      assert.equal(group.hooks[0].timeout, 30);
      assert.equal(group.hooks[0].command, res.command);
    }
    // An absolute node and CLI, and the non-default home, so it runs without PATH or CAIRN_HOME. The
    // CLI is the package's executable, which runs the bundle from the home's code cache.
    assert.equal(res.command, `${process.execPath} ${BIN} --home ${home} hook claude-code`);

    const again = await cliJson(['hooks', 'install', 'claude-code', '--settings', path, '--json'], { home });
    assert.equal(again.changed, false);
    assert.equal(readFileSync(path, 'utf8'), installedText, 'installing twice changes nothing');
    assert.equal(backups(dir).length, 1, 'no backup when nothing changes');

    const status = await cliJson(['hooks', 'status', 'claude-code', '--settings', path, '--json'], { home });
    assert.equal(status.installed, true);
    assert.equal(status.current, true);
    assert.deepEqual(status.stale, []);
    const human = ok(await runCli(['hooks', 'status', 'claude-code', '--settings', path], { home }));
    assert.match(human, /^Installed in /);

    const removed = await cliJson(['hooks', 'uninstall', 'claude-code', '--settings', path, '--json'], { home });
    assert.equal(removed.changed, true);
    assert.equal(readFileSync(removed.backup, 'utf8'), installedText);
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), ORIGINAL, 'uninstall restores the original');
    assert.equal(readFileSync(path, 'utf8'), ORIGINAL_TEXT, 'even byte for byte here');

    const twice = await cliJson(['hooks', 'uninstall', 'claude-code', '--settings', path, '--json'], { home });
    assert.equal(twice.changed, false);
    assert.equal(backups(dir).length, 2);
    const notInstalled = ok(await runCli(['hooks', 'status', 'claude-code', '--settings', path], { home }));
    assert.match(notInstalled, /^Not installed/);
  });

  it('replaces an outdated Cairn hook (moved home) instead of adding a second one', async () => {
    const p = join(dir, 'moved.json');
    writeFileSync(p, '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"node /old/cairn/dist/interfaces/cli/main.js hook claude-code"},{"type":"command","command":"keep-me"}]}]}}');
    const status = await cliJson(['hooks', 'status', 'claude-code', '--settings', p, '--json'], { home });
    assert.equal(status.installed, false);
    assert.equal(status.current, false);
    ok(await runCli(['hooks', 'install', 'claude-code', '--settings', p], { home }));
    const s = JSON.parse(readFileSync(p, 'utf8'));
    assert.deepEqual(s.hooks.Stop[0], { hooks: [{ type: 'command', command: 'keep-me' }] }, 'the other hook of the mixed group stays');
    for (const event of EVENTS) assert.equal(ours(s, event).length, 1);
    assert.ok(!JSON.stringify(s).includes('/old/cairn'));
    ok(await runCli(['hooks', 'uninstall', 'claude-code', '--settings', p], { home }));
    assert.deepEqual(JSON.parse(readFileSync(p, 'utf8')), { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'keep-me' }] }] } });
  });

  it("an earlier version's hooks (the unbundled main.js of this very install) are out of date, and replaced in place", async () => {
    const p = join(dir, 'earlier.json');
    const earlier = `${process.execPath} ${CLI} --home ${home} hook claude-code`;
    writeFileSync(p, JSON.stringify({ hooks: Object.fromEntries(EVENTS.map((e) => [e, [{ hooks: [{ type: 'command', command: earlier, timeout: 30 }] }]])) }));
    const status = await cliJson(['hooks', 'status', 'claude-code', '--settings', p, '--json'], { home });
    assert.equal(status.current, false);
    assert.deepEqual([...status.stale].sort(), [...EVENTS].sort());
    assert.match(ok(await runCli(['hooks', 'status', 'claude-code', '--settings', p], { home })), /Run `cairn hooks install claude-code` to bring them up to date/);
    ok(await runCli(['hooks', 'install', 'claude-code', '--settings', p], { home }));
    const s = JSON.parse(readFileSync(p, 'utf8'));
    for (const event of EVENTS) assert.deepEqual(s.hooks[event], [{ hooks: [{ type: 'command', command: `${process.execPath} ${BIN} --home ${home} hook claude-code`, timeout: 30 }] }], event);
    assert.equal((await cliJson(['hooks', 'status', 'claude-code', '--settings', p, '--json'], { home })).current, true);
  });

  it('creates a missing file (default location from CLAUDE_CONFIG_DIR); uninstall leaves an empty object', async () => {
    const config = join(dir, 'claude-config');
    const env = { CLAUDE_CONFIG_DIR: config };
    const res = await cliJson(['hooks', 'install', 'claude-code', '--json'], { home, env });
    assert.equal(res.path, join(config, 'settings.json'));
    assert.equal(res.created, true);
    assert.equal(res.backup, undefined);
    for (const event of EVENTS) assert.equal(ours(JSON.parse(readFileSync(res.path, 'utf8')), event).length, 1);
    ok(await runCli(['hooks', 'uninstall', 'claude-code'], { home, env }));
    assert.deepEqual(JSON.parse(readFileSync(res.path, 'utf8')), {});
  });

  it('writes through a symlinked settings file and keeps the link', async () => {
    const real = join(dir, 'dotfiles-settings.json');
    const link = join(dir, 'linked.json');
    writeFileSync(real, '{"model":"sonnet"}\n');
    symlinkSync(real, link);
    ok(await runCli(['hooks', 'install', 'claude-code', '--settings', link], { home }));
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(readlinkSync(link), real);
    assert.equal(ours(JSON.parse(readFileSync(real, 'utf8')), 'Stop').length, 1);
  });

  it('refuses a file that is not a JSON object, or whose hooks are not the expected shape, leaving it untouched', async () => {
    const cases = ['{"model": "opus",', '[1,2]', 'null', '"text"', '{"hooks": []}', '{"hooks": {"Stop": {"command": "x"}}}'];
    for (const [i, text] of cases.entries()) {
      const p = join(dir, `bad-${i}.json`);
      writeFileSync(p, text);
      const before = backups(dir).length;
      for (const verb of ['install', 'uninstall', 'status']) {
        const res = await runCli(['hooks', verb, 'claude-code', '--settings', p], { home });
        assert.equal(res.code, 3, `${verb} ${text}: ${res.stderr}`);
        assert.match(res.stderr, /^cairn: .*(not valid JSON|must hold a JSON object|must be an (object|array))/);
        assert.equal(res.stderr.trim().split('\n').length, 1);
      }
      assert.equal(readFileSync(p, 'utf8'), text, 'untouched');
      assert.equal(backups(dir).length, before, 'no backup');
      assert.deepEqual(readdirSync(dir).filter((n) => n.includes('cairn-tmp')), [], 'no temp file left');
    }
  });

  it('rejects an unknown agent', async () => {
    const res = await runCli(['hooks', 'install', 'cursor', '--settings', join(dir, 'x.json')], { home });
    assert.equal(res.code, 3);
    assert.match(res.stderr, /Unknown agent "cursor"/);
    assert.equal(existsSync(join(dir, 'x.json')), false);
  });
});

// ---- the hook handler ----

const SESSION = '4f35e220-c435-4cf7-b9b9-f40426042847';
const CWD = '/tmp/proj';
const NS = 'tmp-proj';

/** Claude Code transcript lines, as Claude Code writes them. */
const cc = {
  base: (uuid: string, parentUuid: string | null, timestamp: string) => ({ parentUuid, isSidechain: false, userType: 'external', cwd: CWD, sessionId: SESSION, version: '2.1.37', gitBranch: 'main', uuid, timestamp }),
  user: (uuid: string, parent: string | null, text: string, ts: string) => ({ ...cc.base(uuid, parent, ts), type: 'user', message: { role: 'user', content: text } }),
  /** One part of an assistant response (several parts share message.id and requestId). */
  assistant: (uuid: string, parent: string, msgId: string, content: unknown[], ts: string) => ({
    ...cc.base(uuid, parent, ts), type: 'assistant', requestId: `req_${msgId}`,
    message: { id: msgId, type: 'message', role: 'assistant', model: 'claude-opus-4-6', content, stop_reason: null, usage: { input_tokens: 10, output_tokens: 20 } },
  }),
  toolResult: (uuid: string, parent: string, toolUseId: string, output: string, ts: string) => ({
    ...cc.base(uuid, parent, ts), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: output }] },
    toolUseResult: { stdout: output, stderr: '', interrupted: false },
  }),
  noise: (ts: string) => ({ type: 'file-history-snapshot', messageId: 'x', snapshot: { trackedFileBackups: {}, timestamp: ts } }),
};

const FIRST_EXCHANGE = [
  cc.user('u-1', null, 'Why do refunds fail for euro invoices?', '2026-02-18T11:43:58.858Z'),
  cc.noise('2026-02-18T11:43:58.900Z'),
  cc.assistant('a-1', 'u-1', 'msg_01', [{ type: 'text', text: 'Let me look at the refund module.' }], '2026-02-18T11:44:01.000Z'),
  cc.assistant('a-2', 'a-1', 'msg_01', [{ type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: '/tmp/proj/src/refund.ts' } }], '2026-02-18T11:44:01.500Z'),
  cc.toolResult('t-1', 'a-2', 'toolu_01', 'export function refund(amount) { return Math.floor(amount * 100) / 100 }', '2026-02-18T11:44:02.000Z'),
  // The final response: held open by capture until SessionEnd says the transcript is complete.
  cc.assistant('a-3', 't-1', 'msg_02', [{ type: 'text', text: 'The currency rounding drops a cent, so the ledger totals never match.' }], '2026-02-18T11:44:05.000Z'),
];
const SECOND_EXCHANGE = [
  cc.user('u-2', 'a-3', 'Switch the refund rounding to banker rounding with decimal.js', '2026-02-18T12:00:00.000Z'),
  cc.assistant('a-4', 'u-2', 'msg_03', [{ type: 'text', text: 'Done: refunds now round half-even through decimal.js.' }], '2026-02-18T12:00:09.000Z'),
];

const lines = (recs: unknown[]) => recs.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('cairn hook claude-code', () => {
  let home: string;
  let claude: string;
  let transcript: string;
  let env: Record<string, string>;
  const timings: Record<string, number[]> = {};

  const hookInput = (event: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ session_id: SESSION, transcript_path: transcript, cwd: CWD, permission_mode: 'default', hook_event_name: event, ...extra });

  async function hook(input: string | Buffer, args: string[] = []): Promise<RunResult> {
    const res = await runCli(['hook', 'claude-code', ...args], { home, env, input });
    assert.equal(res.code, 0, `a hook always exits 0; stderr: ${res.stderr}`);
    const name = typeof input === 'string' && /"hook_event_name":"(\w+)"/.exec(input)?.[1];
    if (name) (timings[name] ??= []).push(res.ms);
    return res;
  }

  /** Status as JSON; exit 10 too: once a source is watched without a daemon, status raises that alert. */
  async function statusJson(): Promise<any> {
    const res = await runCli(['status', '--json'], { home, env });
    assert.ok(res.code === 0 || res.code === 10, res.stderr);
    return json(res.stdout);
  }

  async function turns(ns = NS): Promise<number> {
    const status = await statusJson();
    return status.namespaces.find((s: any) => s.namespace === ns)?.turns ?? 0;
  }

  async function found(query: string, ns = NS): Promise<string[]> {
    const res = await cliJson(['-n', ns, 'search', query, '--json'], { home, env });
    return res.results.map((r: any) => r.text as string);
  }

  before(() => {
    home = makeHome(NO_EMBEDDER);
    claude = join(home, 'claude');
    mkdirSync(join(claude, 'projects', '-tmp-proj'), { recursive: true });
    transcript = join(claude, 'projects', '-tmp-proj', `${SESSION}.jsonl`);
    // A HOME without the project in it, and Claude Code's directory inside the test's home.
    env = { HOME: join(home, 'fake-home'), CLAUDE_CONFIG_DIR: claude };
  });
  after(() => {
    removeHome(home);
    const summary = Object.entries(timings).map(([e, ms]) => `${e}: ${ms.join(', ')} ms`).join('; ');
    console.log(`# hook wall times (process start to exit): ${summary}`);
  });

  it('Stop captures the transcript into the project namespace; Stop again captures nothing new', async () => {
    writeFileSync(transcript, lines(FIRST_EXCHANGE));
    const res = await hook(hookInput('Stop', { stop_hook_active: false }), ['--verbose']);
    assert.equal(res.stdout, '', 'nothing on stdout for a capture hook');
    assert.match(res.stderr, /^cairn: Stop: 3 new turns from .*\.jsonl in namespace tmp-proj\n$/);
    assert.equal(await turns(), 3, 'user, merged assistant response, tool results (the last response is held)');
    const refunds = await found('refunds euro invoices');
    assert.ok(refunds.some((t) => /Why do refunds fail for euro invoices/.test(t)));
    // The response split over two lines is one turn.
    const merged = await found('refund module');
    assert.ok(merged.some((t) => /Let me look at the refund module[\s\S]*Read/.test(t)), merged.join(' | '));
    assert.deepEqual(await found('ledger totals never match'), [], 'the final response is held until the transcript is complete');

    const again = await hook(hookInput('Stop', { stop_hook_active: false }), ['--verbose']);
    assert.match(again.stderr, /Stop: 0 new turns/);
    assert.equal(await turns(), 3);
  });

  it('SessionEnd flushes the held response (final); PreCompact after more lines captures only them', async () => {
    const end = await hook(hookInput('SessionEnd', { reason: 'prompt_input_exit' }), ['--verbose']);
    assert.match(end.stderr, /SessionEnd: 1 new turns .* \(final\)/);
    assert.equal(await turns(), 4);
    assert.ok((await found('ledger totals never match')).some((t) => /drops a cent/.test(t)));

    // The session is resumed and goes on in the same file.
    appendFileSync(transcript, lines(SECOND_EXCHANGE));
    const compact = await hook(hookInput('PreCompact', { trigger: 'auto', custom_instructions: '' }), ['--verbose']);
    assert.match(compact.stderr, /PreCompact: 1 new turns/, 'the new user line; the new response is held');
    assert.equal(await turns(), 5);
    assert.ok((await found('banker rounding decimal.js')).length >= 1);
    await hook(hookInput('SessionEnd', { reason: 'clear' }));
    assert.equal(await turns(), 6);
    await hook(hookInput('SessionEnd', { reason: 'logout' }));
    assert.equal(await turns(), 6, 'exactly once');
    // Turns went to the project's namespace only, through one source.
    const status = await cliJson(['status', '--json'], { home, env });
    assert.deepEqual(status.namespaces.filter((s: any) => s.turns > 0).map((s: any) => s.namespace), [NS]);
  });

  it('captures sub-agent transcripts beside the session', async () => {
    const sub = join(claude, 'projects', '-tmp-proj', SESSION, 'subagents');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'agent-a1.jsonl'), lines([{ ...cc.user('s-1', null, 'Search the ledger module for rounding helpers', '2026-02-18T12:01:00.000Z'), isSidechain: true }]));
    await hook(hookInput('Stop'));
    assert.ok((await found('rounding helpers')).some((t) => /Search the ledger module/.test(t)));
  });

  it('shares the checkpoint of a watched source that captures the transcript', async () => {
    ok(await runCli(['sources', 'add', 'claude-code', '--json'], { home, env }));
    const before = await turns();
    appendFileSync(transcript, lines([cc.user('u-3', 'a-4', 'Also add a regression test for one-cent refunds', '2026-02-18T12:05:00.000Z')]));
    const res = await hook(hookInput('Stop'), ['--verbose']);
    assert.match(res.stderr, /1 new turns .* namespace tmp-proj/);
    assert.equal(await turns(), before + 1);
    // The watched source's checkpoints were used (the daemon resumes where the hook stopped).
    const sources = await cliJson(['sources', 'list', '--json'], { home, env });
    assert.equal(sources.sources.length, 1);
    const watched = sources.sources[0];
    assert.equal(watched.kind, 'claude-code');
    assert.equal(watched.units, 2, 'the session transcript and its sub-agent transcript');
    assert.equal(watched.pendingBytes, 0);
    await hook(hookInput('Stop'), ['--verbose']).then((r) => assert.match(r.stderr, /0 new turns/));
  });

  it('SessionStart prints the project\'s context brief as additionalContext', async () => {
    ok(await runCli(['-n', NS, 'store', '--category', 'decision', '--importance', '9', 'Refund amounts are rounded half-even with decimal.js, never with Math.floor'], { home, env }));
    const res = await hook(hookInput('SessionStart', { source: 'startup', model: 'claude-opus-4-6' }));
    assert.equal(res.stderr, '');
    const out = json(res.stdout);
    assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
    assert.match(out.hookSpecificOutput.additionalContext, /rounded half-even with decimal\.js/);
    assert.equal(res.stdout.trim().split('\n').length, 1, 'one JSON line');

    // Another project's session does not see it.
    const other = await hook(JSON.stringify({ session_id: 'x', transcript_path: join(claude, 'projects', '-srv-other', 'x.jsonl'), cwd: '/srv/other', hook_event_name: 'SessionStart', source: 'startup' }));
    assert.doesNotMatch(other.stdout, /half-even/);
    // -n pins the namespace.
    const pinned = await runCli(['-n', NS, 'hook', 'claude-code'], { home, env, input: JSON.stringify({ hook_event_name: 'SessionStart', cwd: '/srv/other' }) });
    assert.equal(pinned.code, 0);
    assert.match(json(pinned.stdout).hookSpecificOutput.additionalContext, /half-even/);
  });

  it('the installed command runs as Claude Code runs it: through a shell, without CAIRN_HOME or PATH', async () => {
    const settings = join(home, 'settings.json');
    ok(await runCli(['hooks', 'install', 'claude-code', '--settings', settings], { home, env }));
    const command: string = JSON.parse(readFileSync(settings, 'utf8')).hooks.SessionStart[0].hooks[0].command;
    const shellEnv = childEnv(null, { ...env, PATH: '/nonexistent' });
    const started = Date.now();
    const res = spawnSync('/bin/sh', ['-c', command], { input: hookInput('SessionStart', { source: 'resume' }), env: shellEnv, encoding: 'utf8', timeout: HANG_GUARD_MS });
    (timings.SessionStart ??= []).push(Date.now() - started);
    assert.equal(res.status, 0, res.stderr);
    assert.match(json(res.stdout).hookSpecificOutput.additionalContext, /half-even/);
  });

  it('malformed input, a missing transcript, an unknown event: exit 0, one line on stderr, nothing stored', async () => {
    const before = await statusJson();
    const missing = join(claude, 'projects', '-tmp-proj', 'gone.jsonl');
    const cases: Array<[string | Buffer, RegExp]> = [
      ['', /no hook JSON on stdin/],
      ['   \n', /no hook JSON on stdin/],
      ['not json at all', /stdin is not JSON/],
      ['{"hook_event_name": "Stop", "transcript_path": ', /stdin is not JSON/],
      ['[1,2,3]', /invalid hook JSON/],
      ['null', /invalid hook JSON/],
      ['{}', /invalid hook JSON: hook_event_name/],
      ['{"hook_event_name": 5}', /invalid hook JSON: hook_event_name/],
      [JSON.stringify({ hook_event_name: 'Stop', transcript_path: 42, cwd: CWD }), /invalid hook JSON: transcript_path/],
      [JSON.stringify({ hook_event_name: 'Stop', transcript_path: transcript, cwd: ['x'] }), /invalid hook JSON: cwd/],
      [JSON.stringify({ hook_event_name: 'Stop', cwd: CWD }), /Stop without a transcript_path/],
      [JSON.stringify({ hook_event_name: 'Stop', transcript_path: missing, cwd: CWD }), /gone\.jsonl/],
      [JSON.stringify({ hook_event_name: 'PreCompact', transcript_path: join(home, 'claude'), cwd: CWD }), /not a \.jsonl transcript/],
      [JSON.stringify({ hook_event_name: 'SessionEnd', transcript_path: join(claude, 'projects', '-tmp-proj'), cwd: CWD }), /not a \.jsonl transcript/],
      [Buffer.alloc(3 * 1024 * 1024, 0x20), /larger than/],
      [JSON.stringify({ hook_event_name: 'Stop', transcript_path: transcript, padding: 'x'.repeat(2 * 1024 * 1024) }), /larger than/],
      [Buffer.from([0xff, 0xfe, 0x00, 0x7b]), /stdin is not JSON/],
    ];
    for (const [input, expected] of cases) {
      const res = await hook(input);
      assert.equal(res.stdout, '', `nothing on stdout for ${String(input).slice(0, 60)}`);
      assert.match(res.stderr, expected, `stderr for ${String(input).slice(0, 60)}`);
      assert.match(res.stderr, /^cairn: [^\n]+\n$/, 'exactly one line');
    }
    const unknown = await hook(JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'hi', transcript_path: transcript }), ['--verbose']);
    assert.match(unknown.stderr, /not one Cairn handles/);
    const afterStatus = await statusJson();
    assert.deepEqual(afterStatus.totals, before.totals, 'nothing stored');
    // Hidden by Claude Code on exit 0, so they are logged too.
    assert.match(readFileSync(join(home, 'logs', 'hooks.log'), 'utf8'), /stdin is not JSON/);
  });

  it('a broken home or config is reported, not fatal', async () => {
    const broken = makeHome('{"embedder": ');
    try {
      const res = await runCli(['hook', 'claude-code'], { home: broken, env, input: hookInput('Stop') });
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stderr, /^cairn: Stop: .*config/i);
      const ss = await runCli(['hook', 'claude-code'], { home: broken, env, input: hookInput('SessionStart') });
      assert.equal(ss.code, 0, ss.stderr);
      assert.equal(ss.stdout, '');
    } finally {
      removeHome(broken);
    }
  });
});

describe('projectNamespace', () => {
  it('names the project after the transcript folder, as the capture sources do, else after the cwd', () => {
    const t = (folder: string) => join('/x/.claude/projects', folder, 's.jsonl');
    assert.equal(projectNamespace({ transcript_path: t('-tmp-proj'), cwd: '/tmp/proj' }), 'tmp-proj');
    // The session started in /tmp/proj and then cd'ed into src: the folder still names it.
    assert.equal(projectNamespace({ transcript_path: t('-tmp-proj'), cwd: '/tmp/proj/src' }), 'tmp-proj');
    assert.equal(projectNamespace({ transcript_path: t('C--Users-ana-Billing-App'), cwd: null }), 'c-users-ana-billing-app');
    // Not a Claude Code project folder: the cwd.
    assert.equal(projectNamespace({ transcript_path: '/var/tmp/session.jsonl', cwd: '/srv/My Project' }), 'srv-my-project');
    assert.equal(projectNamespace({ cwd: '/srv/api' }), 'srv-api');
    assert.equal(projectNamespace({ cwd: 'relative/dir' }), null);
    assert.equal(projectNamespace({}), null);
    assert.equal(projectNamespace({ transcript_path: t('-'), cwd: '/' }), null);
  });
});
