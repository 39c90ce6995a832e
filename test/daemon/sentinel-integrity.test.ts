// The sentinel's database integrity check on a real damaged SQLite file (issue 30 item 22): the
// daemon's check runs PRAGMA quick_check at alerts.integrityCheckHours (not at every check),
// raises the alert once, saves it where `cairn status` (another process) reads it, and clears it
// when a later check passes.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { Cairn } from '../../src/service/cairn.js';
import { Sentinel } from '../../src/daemon/sentinel.js';
import type { Logger } from '../../src/daemon/logger.js';
import { healthStatePath } from '../../src/service/health/observe.js';
import { readHealthState } from '../../src/service/health/state-file.js';
import { assertBuilt, json, runCli } from '../helpers/cli.js';

const CONFIG = { embedder: { provider: 'none' }, alerts: { minFreeDiskMb: 0, integrityCheckHours: 24 } } as const;

function memoryLogger(): { log: Logger; messages: () => string[] } {
  let text = '';
  const stream = new Writable({
    write(chunk, _e, cb) {
      text += String(chunk);
      cb();
    },
  });
  return { log: pino({ level: 'info' }, stream), messages: () => text.split('\n').filter(Boolean).map((l) => String(JSON.parse(l).msg)) };
}

/**
 * Overwrites the root page of one B-tree with garbage: the file still opens, and a part that
 * `cairn status` never reads (an index of the feedback table) is what quick_check finds damaged.
 */
function damageBtree(dbPath: string, name: string): void {
  const db = new Database(dbPath);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const root = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(name) as number;
  db.close();
  assert.ok(root > 1, `no B-tree ${name}`);
  const fd = openSync(dbPath, 'r+');
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0x41), 0, pageSize, (root - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}

describe('sentinel: database integrity', () => {
  const home = mkdtempSync(join(tmpdir(), 'cairn-integrity-'));
  after(() => rmSync(home, { recursive: true, force: true }));

  it('raises the integrity alert for a damaged page, status shows it, a passing check clears it', { timeout: 120_000 }, async () => {
    assertBuilt();
    let cairn = await Cairn.open({ home, config: CONFIG });
    for (let i = 0; i < 20; i++) await cairn.remember({ text: `Memory ${i}: the staging database for team ${i} listens on port ${5000 + i}.` });
    await cairn.close();
    const db = join(home, 'cairn.db');
    copyFileSync(db, join(home, 'good.db'));
    damageBtree(db, 'feedback_ns_created');

    cairn = await Cairn.open({ home, config: CONFIG });
    const { log, messages } = memoryLogger();
    const sentinel = new Sentinel(cairn, log);
    await sentinel.check();
    const first = readHealthState(healthStatePath(cairn.paths));
    assert.deepEqual(first.alerts.map((a) => a.kind), ['integrity']);
    assert.match(first.alerts[0]!.message, /^the database integrity check failed: quick_check: /);
    assert.equal(messages().filter((m) => m.startsWith('alert raised: the database integrity check failed')).length, 1);

    // Not re-run at the next check (24 h interval), and not raised twice.
    await sentinel.check();
    const second = readHealthState(healthStatePath(cairn.paths));
    assert.equal(second.integrity!.at, first.integrity!.at);
    assert.equal(second.alerts[0]!.since, first.alerts[0]!.since);
    assert.equal(messages().filter((m) => m.startsWith('alert raised')).length, 1);
    await sentinel.stop();
    await cairn.close();

    // `cairn status` in another process reads what the daemon's check found.
    const res = await runCli(['status', '--json'], { home });
    assert.equal(res.code, 10, res.stderr);
    assert.deepEqual(json(res.stdout).alerts.map((a: { kind: string }) => a.kind), ['integrity']);

    // Repaired (here: the good copy back) and checked again: cleared, logged once.
    copyFileSync(join(home, 'good.db'), db);
    cairn = await Cairn.open({ home, config: { ...CONFIG, alerts: { ...CONFIG.alerts, integrityCheckHours: 0 } } });
    const again = new Sentinel(cairn, log);
    await again.check();
    await again.stop();
    await cairn.close();
    assert.deepEqual(readHealthState(healthStatePath(cairn.paths)).alerts, []);
    assert.deepEqual(messages().filter((m) => m.startsWith('alert cleared')), ['alert cleared: integrity']);
    const healthy = await runCli(['status', '--json'], { home });
    assert.equal(healthy.code, 0, healthy.stdout);
  });
});
