// Cairn against the real OpenClaw (2026.9.6 from npm, on npm's Node 24, installed once into a cache
// outside the repository): an isolated OpenClaw home whose only model is a loopback fake, real agent
// turns in embedded (--local) mode, and Cairn's real daemon capturing OpenClaw's transcript store.
// Nothing leaves loopback at test time; the install is the only registry access.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { CLI, NO_EMBEDDER, assertBuilt, cliJson, makeHome, ok, removeHome, runCli } from '../helpers/cli.js';
import { eventually, startDaemon, type DaemonProcess } from '../helpers/daemon.js';
import { FakeAgentModel, followsToolResult, toolNames, toolResults, turn, type ModelRequest } from '../helpers/fake-agent-model.js';
import { ensureOpenClaw, type OpenClawInstall } from '../helpers/openclaw-install.js';
import { createOpenClawEnv, openclawJson, type OpenClawEnv } from '../helpers/openclaw-env.js';

/** Install, start-up and model turns on a loaded two-core machine: a hang guard, not a speed check. */
const FILE_TIMEOUT_MS = 40 * 60_000;
const TURN_TIMEOUT_MS = 10 * 60_000;

const STORED = 'We decided to move the staging database to port 5433';

/** Turns whose text holds `marker`, from Cairn's store (read-only, beside the running daemon). */
function turnsWith(cairnHome: string, marker: string): { session_id: string; message_id: string; role: string }[] {
  const db = new Database(join(cairnHome, 'cairn.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT session_id, message_id, role FROM turns WHERE namespace = 'main' AND instr(text, ?) > 0").all(marker) as never;
  } finally {
    db.close();
  }
}

function sessionTurns(cairnHome: string, sessionId: string): number {
  const db = new Database(join(cairnHome, 'cairn.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM turns WHERE session_id = ?').get(sessionId) as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The chat requests of the agent turn whose user message holds `marker`. */
function turnRequests(model: FakeAgentModel, marker: string): ModelRequest[] {
  return model.chatRequests().filter((r) => JSON.stringify(r.body?.messages ?? []).includes(marker));
}

describe('Cairn with the real OpenClaw', { timeout: FILE_TIMEOUT_MS }, () => {
  let install: OpenClawInstall;
  let model: FakeAgentModel;
  let cairnHome: string;
  let oc: OpenClawEnv;
  let daemon: DaemonProcess;

  before(async () => {
    assertBuilt();
    const t0 = Date.now();
    install = await ensureOpenClaw();
    console.log(
      `openclaw: ${install.installed ? `installed in ${install.installed.wallMs} ms` : `cache reused (${Date.now() - t0} ms)`}, ${(install.bytes / 2 ** 20).toFixed(0)} MiB at ${install.dir}`,
    );
    model = await FakeAgentModel.start();
    cairnHome = makeHome(NO_EMBEDDER);
    ok(await runCli(['-n', 'main', 'store', '--category', 'decision', '--importance', '8', STORED], { home: cairnHome }));
    oc = createOpenClawEnv(install, model.baseUrl);
    await cliJson(['sources', 'add', 'openclaw', oc.stateDir, '--json'], { home: cairnHome });
    daemon = startDaemon(cairnHome, ['--debounce-ms', '50', '--rescan-seconds', '2']);
    await daemon.waitFor(/cairn watch started/);
  });

  after(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
    await model?.close();
    oc?.remove();
    if (cairnHome) removeHome(cairnHome);
  });

  it('memory-core in the slot, Cairn through MCP: a real agent turn calls cairn memory_search, gets Cairn’s memory, and is captured exactly once', async () => {
    oc.editConfig((c) => {
      c.plugins = { ...c.plugins, slots: { memory: 'memory-core' } };
      c.mcp = { servers: { cairn: { command: process.execPath, args: [CLI, 'mcp', '-n', 'main'], env: { CAIRN_HOME: cairnHome, CAIRN_TEST: '1' } } } };
      c.tools.alsoAllow = [...c.tools.alsoAllow, 'cairn__memory_search'];
    });
    const marker = 'mcp-probe-7f3a';
    const question = `Which port does the staging database use? (${marker})`;
    model.respond = (req) => {
      if (followsToolResult(req)) return turn.text('Cairn says staging is on port 5433.');
      if (toolNames(req).includes('cairn__memory_search')) return turn.tool('cairn__memory_search', { query: 'staging database port' });
      return turn.text('no Cairn tool was offered');
    };
    const res = await oc.run(['agent', '--local', '--agent', 'main', '--message', question, '--json'], { timeoutMs: TURN_TIMEOUT_MS });
    const out = openclawJson(res, 'agent --local');
    assert.equal(out.payloads?.[0]?.text, 'Cairn says staging is on port 5433.');
    const sessionId: string = out.meta.agentMeta.sessionId;

    const requests = turnRequests(model, marker);
    assert.equal(requests.length, 2, 'one request that called the tool, one that answered after its result');
    assert.ok(toolNames(requests[0]!).includes('cairn__memory_search'), `Cairn's MCP tools were offered: ${toolNames(requests[0]!).join(', ')}`);
    const results = toolResults(requests[1]!).filter((r) => r.name === 'cairn__memory_search');
    assert.equal(results.length, 1);
    assert.ok(results[0]!.text.includes('port 5433'), `the tool result holds Cairn's memory: ${results[0]!.text.slice(0, 500)}`);

    // The daemon follows OpenClaw's transcript store: the question arrives once, and a second
    // capture path over the same store (cairn ingest) adds nothing.
    const captured = await eventually(async () => {
      const t = turnsWith(cairnHome, marker);
      return t.length > 0 ? t : null;
    });
    assert.deepEqual(
      captured.map((t) => [t.session_id, t.role]),
      [[sessionId, 'user']],
    );
    const before = sessionTurns(cairnHome, sessionId);
    assert.ok(before >= 2, `the question and the answer at least (${before})`);
    const ingest = await runCli(['ingest', oc.stateDir], { home: cairnHome });
    ok(ingest, 'cairn ingest');
    assert.match(ingest.stdout, /\b0 new turns\b/);
    assert.equal(sessionTurns(cairnHome, sessionId), before);
    assert.equal(turnsWith(cairnHome, marker).length, 1);
  });
});
