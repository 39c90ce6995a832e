// The stability sentinel's rules (issue 30 item 22): each check's verdict from observed facts and
// the previous check, since-when kept while an alert lasts, the saved state surviving garbage, the
// probes on real files, and the alert command run as a real child process.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { alertsConfigSchema } from '../../src/core/alerts-config.js';
import { parseConfig } from '../../src/core/config.js';
import { resolveHome } from '../../src/core/home.js';
import { alertChanges, emptyHealthState, evaluateHealth, type HealthObservation, type HealthState } from '../../src/service/health/evaluate.js';
import { diskSpace, newestBackup } from '../../src/service/health/observe.js';
import { readHealthState, writeHealthState } from '../../src/service/health/state-file.js';
import { runAlertCommand, type AlertEvent } from '../../src/daemon/alert-command.js';
import type { Logger } from '../../src/daemon/logger.js';

const CFG = alertsConfigSchema().parse({});
const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const at = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();
const SOURCE = { id: 1, kind: 'jsonl', path: '/data/chat', createdAt: at(-86_400) };

function observe(extra: Partial<HealthObservation> = {}): HealthObservation {
  return {
    at: at(0), daemon: { running: true, lastSeen: at(0) }, sources: [SOURCE], units: [], llm: null, embedPending: null,
    disk: { freeBytes: 50 * 2 ** 30, totalBytes: 100 * 2 ** 30 }, integrity: null, newestBackupAt: null, ...extra,
  };
}

/** Runs checks in order, each continuing from the last; returns every state. */
function checks(observations: HealthObservation[], cfg = CFG, start: HealthState = emptyHealthState()): HealthState[] {
  const out: HealthState[] = [];
  let prev = start;
  for (const o of observations) out.push((prev = evaluateHealth(o, prev, cfg, 42)));
  return out;
}

const kinds = (s: HealthState): string[] => s.alerts.map((a) => a.id).sort();

describe('health rules', () => {
  it('raises nothing when all is well', () => {
    assert.deepEqual(kinds(checks([observe()])[0]!), []);
    assert.deepEqual(kinds(checks([observe({ sources: [], daemon: { running: false, lastSeen: null } })])[0]!), [], 'no sources: no daemon needed');
  });

  it('daemon stopped with watched sources: since it was last seen, or since the source was added', () => {
    const [s] = checks([observe({ daemon: { running: false, lastSeen: at(-600) } })]);
    assert.deepEqual(kinds(s!), ['daemon-stopped']);
    assert.equal(s!.alerts[0]!.since, at(-600));
    assert.match(s!.alerts[0]!.message, /not running: 1 watched source is not captured .*cairn watch/);
    const [never] = checks([observe({ daemon: { running: false, lastSeen: null } })]);
    assert.equal(never!.alerts[0]!.since, SOURCE.createdAt);
  });

  it('capture lag: the checkpoint stuck while complete lines wait longer than captureLagSeconds', () => {
    const unit = (offset: number, extra = {}) => ({ sourceId: 1, key: '/data/chat/a.jsonl', offset, capturedAt: at(-3600), pendingBytes: 120, modifiedAt: at(-1), ...extra });
    const cfg = { ...CFG, captureLagSeconds: 60 };
    // Appended a second ago and first seen now: no lag yet; the same offset 61 s later is.
    const states = checks([observe({ units: [unit(100)] }), observe({ at: at(30), units: [unit(100, { modifiedAt: at(29) })] }), observe({ at: at(61), units: [unit(100, { modifiedAt: at(60) })] })], cfg);
    assert.deepEqual(states.map(kinds), [[], [], ['capture-lag:1']]);
    assert.equal(states[2]!.alerts[0]!.since, at(0));
    assert.match(states[2]!.alerts[0]!.message, /source 1 \(jsonl \/data\/chat\): 120 bytes of new lines in 1 file not captured for 61 s/);
    // Progress (the offset moved) resets it, even with lines still waiting (a backfill in batches).
    const moved = checks([observe({ at: at(90), units: [unit(500, { capturedAt: at(89), modifiedAt: at(-5000) })] })], cfg, states[2]!);
    assert.deepEqual(kinds(moved[0]!), []);
    // Without a tracker (no daemon looked), the file's age bounds the wait: written 10 min ago, never read.
    const stale = checks([observe({ daemon: { running: false, lastSeen: null }, units: [unit(0, { capturedAt: at(-900), modifiedAt: at(-600) })] })], cfg);
    assert.deepEqual(kinds(stale[0]!), ['capture-lag:1', 'daemon-stopped']);
    assert.equal(stale[0]!.alerts.find((a) => a.kind === 'capture-lag')!.since, at(-600));
  });

  it('judge fallback: raised after judgeFallbackMinutes of failing, cleared when the LLM answers', () => {
    const failing = { inFallback: true, detail: 'circuit open, 3 consecutive failures' };
    const cfg = { ...CFG, judgeFallbackMinutes: 10 };
    const states = checks([
      observe({ llm: failing }), observe({ at: at(300), llm: failing }), observe({ at: at(600), llm: failing }), observe({ at: at(660), llm: { inFallback: false, detail: 'circuit closed' } }),
    ], cfg);
    assert.deepEqual(states.map(kinds), [[], [], ['judge-fallback'], []]);
    assert.equal(states[2]!.alerts[0]!.since, at(0));
    assert.match(states[2]!.alerts[0]!.message, /failing for 10 min \(circuit open, 3 consecutive failures\)/);
    assert.equal(states[3]!.fallbackSince, null);
    assert.deepEqual(kinds(checks([observe({ llm: failing })], { ...CFG, judgeFallbackMinutes: 0 })[0]!), ['judge-fallback'], '0 = at once');
  });

  it('embedding backlog: above embedBacklogMax, or growing at each of embedBacklogRisingChecks checks', () => {
    const cfg = { ...CFG, embedBacklogMax: 1000, embedBacklogRisingChecks: 3 };
    const seq = (counts: number[]) => checks(counts.map((n, i) => observe({ at: at(i * 60), embedPending: n })), cfg).map(kinds);
    assert.deepEqual(seq([10, 20, 30, 40, 40]), [[], [], [], ['embed-backlog'], []]);
    assert.deepEqual(seq([10, 20, 15, 30, 40]), [[], [], [], [], []]);
    assert.deepEqual(seq([5000, 0]), [['embed-backlog'], []]);
    const rising = checks([10, 20, 30, 40].map((n, i) => observe({ at: at(i * 60), embedPending: n })), cfg)[3]!.alerts[0]!;
    assert.equal(rising.since, at(0));
    assert.match(rising.message, /grew at each of the last 3 checks \(10 → 40\)/);
    assert.deepEqual(seq([]), []);
    assert.deepEqual(checks([observe({ embedPending: null })], cfg)[0]!.backlog, [], 'nothing embeds: nothing tracked');
  });

  it('disk low, integrity failed (kept until a check passes), backup stale', () => {
    const cfg = { ...CFG, minFreeDiskMb: 1024, backupMaxAgeHours: 24 };
    assert.deepEqual(kinds(checks([observe({ disk: { freeBytes: 100 * 2 ** 20, totalBytes: 2 ** 40 } })], cfg)[0]!), ['disk-low']);
    const bad = { at: at(0), ok: false, problems: ['quick_check: *** in database main *** Page 7: btreeInitPage() returns error code 11'] };
    const integrity = checks([observe({ integrity: bad }), observe({ at: at(60) }), observe({ at: at(120), integrity: { at: at(120), ok: true, problems: [] } })], cfg);
    assert.deepEqual(integrity.map(kinds), [['integrity'], ['integrity'], []]);
    assert.match(integrity[1]!.alerts[0]!.message, /integrity check failed: quick_check: .*Page 7/);
    assert.equal(integrity[1]!.alerts[0]!.since, at(0));
    const backup = checks([observe({ newestBackupAt: at(-25 * 3600) }), observe({ newestBackupAt: at(-3600) })], cfg);
    assert.deepEqual(backup.map(kinds), [['backup-stale'], []]);
    assert.equal(backup[0]!.alerts[0]!.since, at(-3600));
    assert.match(backup[0]!.alerts[0]!.message, /newest backup is 25 h old/);
  });

  it('keeps since-when while an alert lasts, and reports what was raised and cleared', () => {
    const low = { freeBytes: 0, totalBytes: 2 ** 30 };
    const states = checks([observe({ disk: low }), observe({ at: at(60), disk: low }), observe({ at: at(120) })]);
    assert.equal(states[1]!.alerts[0]!.since, at(0));
    assert.deepEqual(alertChanges([], states[0]!.alerts).raised.map((a) => a.id), ['disk-low']);
    assert.deepEqual(alertChanges(states[0]!.alerts, states[1]!.alerts), { raised: [], cleared: [] });
    assert.deepEqual(alertChanges(states[1]!.alerts, states[2]!.alerts).cleared.map((a) => a.id), ['disk-low']);
  });
});

describe('alerts config', () => {
  it('has defaults and rejects unknown keys and bad values by name', () => {
    const c = parseConfig({});
    assert.deepEqual(c.alerts, CFG);
    assert.equal(c.alerts.checkIntervalSeconds, 60);
    assert.equal(c.alerts.command, undefined);
    assert.throws(() => parseConfig({ alerts: { checkIntervalSecs: 5 } }), /unknown key "alerts\.checkIntervalSecs"/);
    assert.throws(() => parseConfig({ alerts: { checkIntervalSeconds: 0 } }), /"alerts\.checkIntervalSeconds"/);
    assert.throws(() => parseConfig({ alerts: { command: '' } }), /"alerts\.command"/);
    assert.throws(() => parseConfig({ alerts: { judgeFallbackMinutes: -1 } }), /"alerts\.judgeFallbackMinutes"/);
    assert.throws(() => parseConfig({ alerts: 'loud' }), /"alerts"/);
  });
});

describe('saved state and probes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-health-'));

  it('round-trips the state file and survives garbage in it', () => {
    const path = join(dir, 'run', 'health.json');
    const state = checks([observe({ disk: { freeBytes: 0, totalBytes: 1 }, embedPending: 3, llm: { inFallback: true, detail: 'x' } })], { ...CFG, judgeFallbackMinutes: 0 })[0]!;
    writeHealthState(path, state);
    assert.deepEqual(readHealthState(path), state);
    for (const garbage of ['', 'not json', 'null', '[]', '{"version":2}', JSON.stringify({ version: 1, alerts: [{ id: 1 }, null, { id: 'x', kind: 'nope', message: 'm', since: at(0), details: {} }], lag: { a: null }, backlog: [5] })]) {
      writeFileSync(path, garbage);
      const read = readHealthState(path);
      assert.deepEqual(read.alerts, [], garbage);
      assert.deepEqual(read.backlog, [], garbage);
    }
    assert.deepEqual(readHealthState(join(dir, 'missing.json')), emptyHealthState());
  });

  it('finds the newest backup (not one still being written), and none without the folder', async () => {
    const home = resolveHome(join(dir, 'home'));
    assert.equal(await newestBackup(home), null);
    mkdirSync(join(home.root, 'backups'), { recursive: true });
    assert.equal(await newestBackup(home), null, 'an empty folder: no backups yet');
    writeFileSync(join(home.root, 'backups', 'cairn-1.db'), 'x');
    utimesSync(join(home.root, 'backups', 'cairn-1.db'), (T0 - 7200_000) / 1000, (T0 - 7200_000) / 1000);
    writeFileSync(join(home.root, 'backups', 'cairn-2.db.tmp'), 'x');
    assert.equal(await newestBackup(home), at(-7200));
  });

  it('reads free disk space of a real directory', async () => {
    const d = await diskSpace(dir);
    assert.ok(d && d.totalBytes > 0 && d.freeBytes >= 0 && d.freeBytes <= d.totalBytes);
    assert.equal(await diskSpace(join(dir, 'no', 'such')), null);
  });

  it('cleans up', () => rmSync(dir, { recursive: true, force: true }));
});

describe('alerts.command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-alert-cmd-'));
  const event: AlertEvent = { state: 'raised', id: 'disk-low', kind: 'disk-low', message: '1 MiB free', since: at(0), at: at(5), home: '/h', details: { freeMb: 1 } };

  function logger(): { log: Logger; lines: () => Array<Record<string, unknown>> } {
    let text = '';
    const stream = new Writable({ write(chunk, _e, cb) { text += String(chunk); cb(); } });
    return { log: pino({ level: 'info' }, stream), lines: () => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
  }

  it('gets the alert as one JSON line on stdin', async () => {
    const out = join(dir, 'events.jsonl');
    const { log, lines } = logger();
    await runAlertCommand(`cat >> '${out}'`, 10, event, log);
    await runAlertCommand(`cat >> '${out}'`, 10, { ...event, state: 'cleared', at: at(60) }, log);
    const got = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(got, [event, { ...event, state: 'cleared', at: at(60) }]);
    assert.deepEqual(lines(), [], 'nothing to log when it works');
  });

  it('logs a failing, missing, slow or stdin-ignoring command and carries on', async () => {
    const { log, lines } = logger();
    await runAlertCommand('echo boom >&2; exit 3', 10, event, log);
    await runAlertCommand(join(dir, 'no-such-command'), 10, event, log);
    await runAlertCommand('true', 10, event, log);
    await runAlertCommand('sleep 60', 1, event, log);
    const msgs = lines().map((l) => `${String(l.msg)} ${l.code ?? ''} ${l.stderr ?? ''}`);
    assert.equal(msgs.length, 3, msgs.join('\n'));
    assert.match(msgs[0]!, /alerts\.command failed 3 boom/);
    assert.match(msgs[1]!, /alerts\.command failed 127 .*not found/);
    assert.match(msgs[2]!, /did not finish within 1 s and was killed/);
  });

  it('cleans up', () => rmSync(dir, { recursive: true, force: true }));
});
