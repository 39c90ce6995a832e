// The stability sentinel with real processes (issue 30 item 22): `cairn status` exits 10 and names
// the alert when the daemon has stopped, when the LLM judge keeps failing (a loopback fake that
// always answers 500), when files wait unread, disk is low or backups are stale; the daemon logs
// each alert once when raised and once when cleared and hands it to `alerts.command` as JSON.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertBuilt, cliJson, json, makeHome, removeHome, runCli, writeConfig } from '../helpers/cli.js';
import { eventually, startDaemon, type DaemonProcess } from '../helpers/daemon.js';
import { FakeLlmServer, reply } from '../helpers/fake-llm.js';
import { judgeWith } from '../helpers/fake-judge.js';

const UNHEALTHY = 10;
const line = (id: string, content: string) => JSON.stringify({ id, role: 'user', content, timestamp: '2026-03-02T09:14:05.000Z', session: 's1' }) + '\n';
const DECISION = 'We decided to move the staging database to port 5433 on Friday';

/** A home with one watched JSONL folder holding one transcript. */
async function homeWithSource(config: object): Promise<{ home: string; file: string }> {
  const home = makeHome(config);
  const dir = join(home, 'transcripts');
  mkdirSync(dir);
  const file = join(dir, 'chat.jsonl');
  writeFileSync(file, line('m1', DECISION));
  await cliJson(['-n', 'proj', 'sources', 'add', 'jsonl', dir, '--json'], { home });
  return { home, file };
}

async function status(home: string): Promise<{ code: number | null; alerts: Array<{ kind: string; message: string; since: string }>; human: string }> {
  const res = await runCli(['status', '--json'], { home });
  const human = await runCli(['status'], { home });
  assert.equal(human.code, res.code, 'the same exit code with and without --json');
  return { code: res.code, alerts: json(res.stdout).alerts, human: human.stdout };
}

describe('stability sentinel: cairn status and the daemon (real processes)', () => {
  const homes: string[] = [];
  const daemons: DaemonProcess[] = [];
  let fake: FakeLlmServer;

  before(async () => {
    assertBuilt();
    fake = await FakeLlmServer.start();
  });

  after(async () => {
    for (const d of daemons) {
      if (d.child.exitCode === null && d.child.signalCode === null) {
        d.child.kill('SIGKILL');
        await d.exited;
      }
    }
    await fake.close();
    for (const h of homes) removeHome(h);
  });

  it('a stopped daemon with watched sources: status exits 10 naming it; a running one: 0', { timeout: 120_000 }, async () => {
    const { home } = await homeWithSource({ embedder: { provider: 'none' }, alerts: { minFreeDiskMb: 0 } });
    homes.push(home);
    const never = await status(home);
    assert.equal(never.code, UNHEALTHY, never.human);
    assert.deepEqual(never.alerts.map((a) => a.kind), ['daemon-stopped']);
    assert.match(never.human, /^Cairn ALERT \(1 raised\)/);
    assert.match(never.human, /^alert daemon-stopped since \S+: the capture daemon is not running: 1 watched source is not captured \(start it with "cairn watch"\)$/m);

    const d = startDaemon(home, ['--rescan-seconds', '60']);
    daemons.push(d);
    await d.waitFor(/cairn watch started/);
    await d.waitFor(/"msg":"captured"/);
    const running = await status(home);
    assert.equal(running.code, 0, running.human);
    assert.deepEqual(running.alerts, []);
    assert.match(running.human, /^Cairn healthy/);

    const stoppedAt = Date.now();
    d.child.kill('SIGTERM');
    assert.equal((await d.exited).code, 0);
    const stopped = await status(home);
    assert.equal(stopped.code, UNHEALTHY, stopped.human);
    assert.deepEqual(stopped.alerts.map((a) => a.kind), ['daemon-stopped']);
    // Since its last sign of life, not since the source was added.
    assert.ok(Date.parse(stopped.alerts[0]!.since) >= stoppedAt - 60_000, stopped.alerts[0]!.since);
  });

  it('an LLM judge that always fails: alert after judgeFallbackMinutes, logged, sent to alerts.command, cleared when it answers', { timeout: 180_000 }, async () => {
    fake.respond = () => reply.serverError();
    const events = join(makeHome(), 'events.jsonl');
    homes.push(join(events, '..'));
    const { home, file } = await homeWithSource({
      embedder: { provider: 'none' },
      judge: { llm: { provider: 'openai', baseUrl: fake.baseUrl('openai'), model: 'fake-judge', maxRetries: 0, timeoutMs: 5000 }, coolDownSeconds: 1 },
      alerts: { checkIntervalSeconds: 1, judgeFallbackMinutes: 0, minFreeDiskMb: 0, command: `cat >> '${events}'` },
    });
    homes.push(home);
    const d = startDaemon(home, ['--rescan-seconds', '1', '--debounce-ms', '20']);
    daemons.push(d);
    await d.waitFor(/alert raised: the LLM judge has been failing/, 60_000);
    assert.ok(fake.requests.length > 0, 'the daemon did call the LLM');

    const failing = await status(home);
    assert.equal(failing.code, UNHEALTHY, failing.human);
    assert.deepEqual(failing.alerts.map((a) => a.kind), ['judge-fallback']);
    assert.match(failing.human, /^alert judge-fallback since \S+: the LLM judge has been failing for \d+ min \(circuit [a-z-]+, \d+ consecutive failures\)/m);

    const raised = await eventually(async () => existsSync(events) && readFileSync(events, 'utf8').trim().split('\n').map((l) => JSON.parse(l)));
    assert.equal(raised.length, 1);
    assert.deepEqual([raised[0].state, raised[0].kind, raised[0].id, raised[0].home], ['raised', 'judge-fallback', 'judge-fallback', home]);
    assert.match(raised[0].message, /LLM judge has been failing/);
    assert.equal(raised[0].since, failing.alerts[0]!.since);

    // The provider recovers: the fallback judgments are judged again, the circuit closes, the alert clears.
    fake.respond = judgeWith(() => ({ importance: 8, category: 'decision', reason: 'a decision' }));
    await d.waitFor(/alert cleared: judge-fallback/, 60_000);
    // The command runs right after the log line.
    const lines = await eventually(async () => {
      const all = readFileSync(events, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      return all.length >= 2 && all;
    });
    assert.deepEqual(lines.map((e) => `${e.state} ${e.kind}`), ['raised judge-fallback', 'cleared judge-fallback']);
    const log = d.output();
    assert.equal(log.match(/alert raised/g)?.length, 1, 'raised once, however many checks saw it');
    assert.equal(log.match(/alert cleared/g)?.length, 1);
    await eventually(async () => (await status(home)).code === 0, 30_000);

    // Unread lines: the daemon is stopped, a line is appended, and it waits longer than captureLagSeconds.
    d.child.kill('SIGTERM');
    assert.equal((await d.exited).code, 0);
    writeConfig(home, { ...JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')), alerts: { minFreeDiskMb: 0, captureLagSeconds: 1 } });
    writeFileSync(file, line('m1', DECISION) + line('m2', 'The invoice exporter moved to the billing cluster'));
    // Once the line has waited longer than captureLagSeconds (past the daemon's last capture too):
    const lagging = await eventually(async () => {
      const s = await status(home);
      return s.alerts.length === 2 && s;
    });
    assert.equal(lagging.code, UNHEALTHY);
    assert.deepEqual(lagging.alerts.map((a) => a.kind).sort(), ['capture-lag', 'daemon-stopped']);
    assert.match(lagging.human, /^alert capture-lag since \S+: source \d+ \(jsonl .*transcripts\): \d+ bytes of new lines in 1 file not captured for \d+ s \(alerts\.captureLagSeconds 1\)$/m);
  });

  it('low disk and stale backups (none yet: no alert) raise alerts in status; fixing them clears them', async () => {
    const home = makeHome({ embedder: { provider: 'none' }, alerts: { minFreeDiskMb: 1_000_000_000, backupMaxAgeHours: 24 } });
    homes.push(home);
    const low = await status(home);
    assert.equal(low.code, UNHEALTHY);
    assert.deepEqual(low.alerts.map((a) => a.kind), ['disk-low']);
    assert.match(low.human, /^alert disk-low since \S+: \d+ MiB free on the data directory's file system \(alerts\.minFreeDiskMb 1000000000\)$/m);

    writeConfig(home, { embedder: { provider: 'none' }, alerts: { minFreeDiskMb: 0, backupMaxAgeHours: 24 } });
    assert.equal((await status(home)).code, 0);
    mkdirSync(join(home, 'backups'));
    const backup = join(home, 'backups', 'cairn-2026-03-01.db');
    writeFileSync(backup, 'a backup');
    const threeDays = (Date.now() - 3 * 86_400_000) / 1000;
    utimesSync(backup, threeDays, threeDays);
    const stale = await status(home);
    assert.equal(stale.code, UNHEALTHY);
    assert.deepEqual(stale.alerts.map((a) => a.kind), ['backup-stale']);
    assert.match(stale.human, /newest backup is 7\d h old \(alerts\.backupMaxAgeHours 24\)/);
    writeFileSync(join(home, 'backups', 'cairn-2026-03-04.db'), 'a fresh backup');
    assert.equal((await status(home)).code, 0);
  });
});
