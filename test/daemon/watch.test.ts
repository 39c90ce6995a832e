// `cairn watch` as a real process: it captures lines appended to a watched transcript while it
// runs, holds one lock per data directory, stops cleanly on SIGTERM, and keeps status current.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_EMBEDDER, assertBuilt, cliJson, makeHome, removeHome, runCli } from '../helpers/cli.js';
import { eventually, scansAfter, startDaemon, type DaemonProcess } from '../helpers/daemon.js';

const line = (id: string, role: string, content: string, ts = '2026-03-02T09:14:05.000Z') => JSON.stringify({ id, role, content, timestamp: ts, session: 's1' }) + '\n';

type Hit = { text: string; provenance: Array<{ path?: string; messageId?: string }> };

/**
 * One entry per turn that has a word of the query (a result holds up to four hits of one session):
 * a turn beside a hit is ranked too (search.neighbourHits) but is not what these tests count.
 */
async function search(home: string, ns: string, query: string): Promise<Hit[]> {
  const res = await cliJson(['-n', ns, 'search', query, '--json'], { home });
  const words = query.toLowerCase().split(/\s+/);
  return (res.results as Array<Hit & { context: Array<{ match: boolean; text: string; messageId: string }> }>)
    .flatMap((r) => [
      { text: r.text, provenance: r.provenance },
      ...r.context.filter((c) => c.match).map((c) => ({ text: c.text, provenance: r.provenance.filter((p) => p.messageId === c.messageId) })),
    ])
    .filter((h) => words.some((w) => h.text.toLowerCase().includes(w)));
}

describe('cairn watch (real daemon process)', () => {
  let home: string;
  let dir: string;
  let daemon: DaemonProcess | null = null;

  before(async () => {
    assertBuilt();
    home = makeHome(NO_EMBEDDER);
    dir = join(home, 'transcripts');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.jsonl'), line('m1', 'user', 'We decided the staging database moves to port 5433'));
    const added = await cliJson(['-n', 'proj', 'sources', 'add', 'jsonl', dir, '--json'], { home });
    assert.equal(added.added.length, 1);
  });

  after(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
    }
    removeHome(home);
  });

  it('captures existing lines at start, and appended lines within seconds', async () => {
    daemon = startDaemon(home, ['--debounce-ms', '50', '--rescan-seconds', '60']);
    await daemon.waitFor(/cairn watch started/);
    await eventually(async () => (await search(home, 'proj', 'staging port')).length === 1);
    // How soon is bench/capture-latency.ts's question; here: it arrives without a restart.
    appendFileSync(join(dir, 'a.jsonl'), line('m2', 'assistant', 'Noted: the kafka cluster runs on three brokers', '2026-03-02T09:15:00.000Z'));
    const hits = await eventually(async () => {
      const r = await search(home, 'proj', 'kafka brokers');
      return r.length > 0 ? r : null;
    });
    assert.match(hits[0]!.text, /three brokers/);
    // A new file in the watched folder is picked up too, and a partial line waits for its newline:
    // once the complete line before it is found, the daemon has read the file up to the partial one.
    const partial = line('m3', 'user', 'The retry budget is eleven attempts').trimEnd();
    writeFileSync(join(dir, 'b.jsonl'), line('m4', 'user', 'The deploy window opens at noon') + partial);
    await eventually(async () => (await search(home, 'proj', 'deploy window noon')).length === 1);
    assert.equal((await search(home, 'proj', 'retry budget eleven')).length, 0, 'half a line is never parsed');
    appendFileSync(join(dir, 'b.jsonl'), '\n');
    await eventually(async () => (await search(home, 'proj', 'retry budget eleven')).length === 1);
  });

  it('a second daemon on the same home is refused and names the holder', async () => {
    const res = await runCli(['watch'], { home });
    assert.equal(res.code, 5, res.stderr);
    assert.match(res.stderr, new RegExp(`already running .*pid ${daemon!.child.pid}`));
  });

  it('status shows the daemon and per-source figures', async () => {
    const status = await cliJson(['status', '--json'], { home });
    assert.equal(status.capture.daemon.running, true);
    assert.equal(status.capture.daemon.pid, daemon!.child.pid);
    const src = status.capture.sources[0];
    assert.equal(src.kind, 'jsonl');
    assert.equal(src.turns, 4);
    assert.equal(src.stats.linesRead, 4);
    assert.equal(src.errors.length, 0);
  });

  it('maps no part of its database: it runs until stopped, and every page it touched would stay resident', { skip: !existsSync('/proc/self/maps') }, () => {
    const maps = readFileSync(`/proc/${daemon!.child.pid}/maps`, 'utf8');
    assert.ok(maps.includes('better_sqlite3'), 'the daemon has the SQLite driver loaded');
    assert.doesNotMatch(maps, /cairn\.db$/m);
  });

  it('keeps a readable raw log per namespace', () => {
    const raw = join(home, 'proj', 'raw');
    const files = readdirSync(raw).filter((f) => f.startsWith('realtime-'));
    assert.deepEqual(files, ['realtime-2026-03-02.md']);
    const text = readFileSync(join(raw, files[0]!), 'utf8');
    for (const phrase of ['port 5433', 'three brokers', 'opens at noon', 'eleven attempts']) assert.equal(text.split(phrase).length - 1, 1, phrase);
  });

  it('SIGTERM: exits 0, releases the lock, logs the stop', async () => {
    daemon!.child.kill('SIGTERM');
    const { code } = await daemon!.exited;
    assert.equal(code, 0, daemon!.output().slice(-2000));
    assert.match(daemon!.output(), /cairn watch stopped/);
    assert.equal(existsSync(join(home, 'run', 'daemon.lock')), false);
    // With a watched source and no daemon, status raises the daemon-stopped alert (exit 10).
    const res = await runCli(['status', '--json'], { home });
    assert.equal(res.code, 10, res.stderr);
    const status = JSON.parse(res.stdout);
    assert.equal(status.capture.daemon.running, false);
    assert.deepEqual(status.alerts.map((a: { kind: string }) => a.kind), ['daemon-stopped']);
    assert.match(readFileSync(join(home, 'logs', 'cairn.log'), 'utf8'), /"msg":"captured"/);
  });

  it('an unreadable unit is logged and shown in status while other files are captured', async () => {
    // A FIFO named like a transcript cannot be read as a file (root ignores mode bits, so no chmod).
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    appendFileSync(join(dir, 'c.jsonl'), line('m9', 'user', 'The office wifi password rotates monthly'));
    daemon = startDaemon(home, ['--debounce-ms', '50']);
    await daemon.waitFor(/cannot capture/);
    await eventually(async () => (await search(home, 'proj', 'wifi rotates monthly')).length === 1);
    const status = await cliJson(['status', '--json'], { home });
    const errors = status.capture.sources[0].errors;
    assert.equal(errors.length, 1);
    assert.match(errors[0].key, /pipe\.jsonl$/);
    assert.match(errors[0].message, /not a regular file/);
    daemon.child.kill('SIGINT');
    assert.equal((await daemon.exited).code, 0);
  });
});

describe('cairn watch: bad input', () => {
  it('rejects bad timing flags with a clear usage error', async () => {
    const home = makeHome(NO_EMBEDDER);
    try {
      const res = await runCli(['watch', '--debounce-ms', 'soon'], { home });
      assert.notEqual(res.code, 0);
      assert.match(res.stderr, /debounce-ms/);
    } finally {
      removeHome(home);
    }
  });

  it('starts with no sources and says so in status', async () => {
    const home = makeHome(NO_EMBEDDER);
    const d = startDaemon(home);
    try {
      await d.waitFor(/cairn watch started/);
      const status = await cliJson(['status', '--json'], { home });
      assert.equal(status.capture.sources.length, 0);
      assert.equal(status.capture.daemon.running, true);
    } finally {
      d.child.kill('SIGTERM');
      await d.exited;
      removeHome(home);
    }
  });
});

describe('cairn watch over an OpenClaw home (JSONL sessions, archives, SQLite store, workspace notes)', () => {
  it('captures each agent into its namespace, never re-reads a reset archive, follows the database, indexes notes', async () => {
    const { OpenClawDb, header, user, assistant } = await import('../helpers/openclaw-db-fixture.js');
    const { renameSync } = await import('node:fs');
    const home = makeHome(NO_EMBEDDER);
    const oc = join(home, 'openclaw');
    const sessions = join(oc, 'agents', 'ana', 'sessions');
    mkdirSync(sessions, { recursive: true });
    mkdirSync(join(oc, 'agents', 'bob', 'agent'), { recursive: true });
    mkdirSync(join(oc, 'workspace-ana', 'memory'), { recursive: true });
    const live = join(sessions, 's1.jsonl');
    writeFileSync(live, [header('s1'), user('u0000001', 'The staging database moved to port 5433'), assistant('a0000001', 'Noted, port 5433 for staging')].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const db = new OpenClawDb(join(oc, 'agents', 'bob', 'agent', 'openclaw-agent.sqlite'));
    db.append('b1', 0, [header('b1'), user('u0000002', 'Invoices are sent on the first Monday')]);
    writeFileSync(join(oc, 'workspace-ana', 'MEMORY.md'), '# Ana\n\n## Preferences\nAna prefers tea over coffee.\n');
    const env = { OPENCLAW_STATE_DIR: oc };
    const d = startDaemon(home, ['--debounce-ms', '50', '--rescan-seconds', '1'], env);
    try {
      await cliJson(['sources', 'add', 'openclaw', '--json'], { home, env });
      await cliJson(['sources', 'add', 'markdown', '--json'], { home, env });
      await eventually(async () => (await search(home, 'ana', 'staging port')).length === 2);
      await eventually(async () => (await search(home, 'bob', 'invoices monday')).length === 1);
      const note = await eventually(async () => {
        const r = await search(home, 'ana', 'tea coffee');
        return r.length ? r : null;
      });
      assert.match(note[0]!.provenance[0]!.path!, /MEMORY\.md$/);
      const hit = (await search(home, 'ana', 'staging port'))[0]!;
      assert.equal(hit.provenance[0]!.path, live, 'provenance names the transcript file');

      const linesBefore = (await cliJson(['status', '--json'], { home })).capture.sources[0].stats.linesRead;
      renameSync(live, `${live}.reset.2026-08-10T11-00-00.000Z`);
      const renamedAt = Date.now();
      // Not a restatement of the first row ("First Monday it is, for all invoices" would fold into it
      // as a near-duplicate memory, and the search count below would not see it).
      db.append('b1', 2, [assistant('a0000002', 'First Monday works; I will email all invoices and the reminders then')]);
      await eventually(async () => (await search(home, 'bob', 'invoices monday')).length === 2);
      // Rescans of both sources that started after the rename have seen the archive.
      await scansAfter(home, renamedAt, 3);
      const after = (await cliJson(['status', '--json'], { home })).capture.sources[0];
      assert.equal(after.stats.linesRead, linesBefore + 1, 'the archive was not read again (only the new database row)');
      assert.equal((await search(home, 'ana', 'staging port')).length, 2);
    } finally {
      db.close();
      d.child.kill('SIGTERM');
      assert.equal((await d.exited).code, 0);
      removeHome(home);
    }
  });
});

describe('cairn watch over Claude Code projects', () => {
  it('captures a reply the transcript marks final at once, without the settle wait; a partial one still waits', async () => {
    // An hour of settle time: anything captured below was captured because it was final.
    const home = makeHome({ ...NO_EMBEDDER, capture: { settleSeconds: 3600 } });
    const proj = join(home, 'claude', 'projects', '-home-ana-shop');
    mkdirSync(proj, { recursive: true });
    const base = { sessionId: 'sess-9', cwd: '/home/ana/shop', version: '2.1.37' };
    const user = (uuid: string, content: string) => ({ ...base, type: 'user', uuid, timestamp: '2026-02-18T11:43:58.858Z', message: { role: 'user', content } });
    const part = (uuid: string, id: string, text: string, stop: string | null) =>
      ({ ...base, type: 'assistant', uuid, requestId: `r-${id}`, timestamp: '2026-02-18T11:44:02.101Z', message: { id, role: 'assistant', model: 'm', content: [{ type: 'text', text }], stop_reason: stop } });
    const file = join(proj, 'sess-9.jsonl');
    const write = (...records: object[]) => appendFileSync(file, records.map((r) => JSON.stringify(r) + '\n').join(''));
    write(user('u1', 'Why does the checkout page time out?'), part('a1', 'msg_1', 'The payment call has no deadline', null));
    const env = { CLAUDE_CONFIG_DIR: join(home, 'claude'), HOME: join(home, 'fake-home') };
    await cliJson(['sources', 'add', 'claude-code', '--json'], { home, env });
    const d = startDaemon(home, ['--debounce-ms', '50'], env);
    try {
      const ns = 'home-ana-shop';
      // The capture that stored the question read the partial reply after it, and holds it.
      await eventually(async () => (await search(home, ns, 'checkout page time')).length === 1);
      assert.deepEqual(await search(home, ns, 'payment deadline'), [], 'a reply whose parts may still come waits');
      // Its last part carries the stop reason: the whole reply is captured, as one turn.
      write(part('a2', 'msg_1', 'so the gateway waits forever.', 'end_turn'));
      const reply = await eventually(async () => (await search(home, ns, 'payment deadline gateway')).find((h) => /waits forever/.test(h.text)) ?? null);
      assert.match(reply.text, /no deadline[\s\S]*waits forever/);
      // Claude Code writes stop_reason null on every part; the turn's end is a system line after it.
      write(user('u2', 'And the refund page?'), part('b1', 'msg_2', 'Refunds reuse the same client without a timeout', null),
        { ...base, type: 'system', subtype: 'turn_duration', durationMs: 5200, uuid: 's2', timestamp: '2026-02-18T11:45:00.000Z' });
      await eventually(async () => (await search(home, ns, 'refunds reuse client timeout')).some((h) => /same client/.test(h.text)));
    } finally {
      d.child.kill('SIGTERM');
      assert.equal((await d.exited).code, 0);
      removeHome(home);
    }
  });

  it('one namespace per project; a response split over lines becomes one turn once the file settles', async () => {
    const home = makeHome(NO_EMBEDDER);
    const projects = join(home, 'claude', 'projects');
    const proj = join(projects, '-home-ana-billing');
    mkdirSync(join(proj, 'sess-1', 'subagents'), { recursive: true });
    const base = { sessionId: 'sess-1', cwd: '/home/ana/billing', version: '2.1.37' };
    const lines = [
      { ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-02-18T11:43:58.858Z', message: { role: 'user', content: 'Why do refunds fail for euro invoices?' } },
      { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', requestId: 'r1', timestamp: '2026-02-18T11:44:02.101Z', message: { id: 'msg_1', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'The currency rounding drops a cent' }] } },
      { ...base, type: 'assistant', uuid: 'a2', parentUuid: 'a1', requestId: 'r1', timestamp: '2026-02-18T11:44:03.101Z', message: { id: 'msg_1', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'so the ledger totals never match.' }] } },
    ];
    writeFileSync(join(proj, 'sess-1.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    writeFileSync(join(proj, 'sess-1', 'subagents', 'agent-7.jsonl'), JSON.stringify({ ...base, isSidechain: true, type: 'user', uuid: 's1', parentUuid: null, timestamp: '2026-02-18T11:45:00.000Z', message: { role: 'user', content: 'Search the ledger module for rounding helpers' } }) + '\n');
    const env = { CLAUDE_CONFIG_DIR: join(home, 'claude'), HOME: join(home, 'fake-home') };
    await cliJson(['sources', 'add', 'claude-code', '--json'], { home, env });
    const d = startDaemon(home, ['--debounce-ms', '50', '--settle-seconds', '1'], env);
    try {
      const ns = 'home-ana-billing';
      await eventually(async () => (await search(home, ns, 'refunds euro invoices')).length === 1);
      await eventually(async () => (await search(home, ns, 'rounding helpers ledger')).length >= 1);
      const merged = await eventually(async () => {
        const r = await search(home, ns, 'ledger totals never match');
        return r.find((x) => /never match/.test(x.text)) ?? null;
      });
      assert.match(merged.text, /drops a cent[\s\S]*ledger totals never match/);
    } finally {
      d.child.kill('SIGTERM');
      assert.equal((await d.exited).code, 0);
      removeHome(home);
    }
  });
});
