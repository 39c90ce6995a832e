// `cairn backup [list] | create | restore ID` as a user's shell runs it (real processes): the round
// trip, JSON output, private modes, exit codes of the refusals (a live `cairn watch`, unknown,
// hostile and corrupt backups), and that a refusal changes nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync, readdirSync, statSync, writeSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { EXIT_CODES } from '../../src/core/errors.js';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';
import { startDaemon } from '../helpers/daemon.js';

const newHome = tempHomes();
const hashOf = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('cairn backup', () => {
  it('create → list → restore round trip; restore keeps the replaced database; files are private', { timeout: 120_000 }, async () => {
    const home = newHome();
    await cliJson(['store', 'The gate opens at nine', '--json'], { home });
    assert.match(ok(await runCli(['backup'], { home })), /No backups yet/);
    const made = await cliJson(['backup', 'create', '--json'], { home });
    assert.equal(made.kind, 'manual');
    assert.equal(made.counts.memories, 1);
    assert.equal(statSync(join(home, 'backups')).mode & 0o777, 0o700);
    assert.equal(statSync(made.path).mode & 0o777, 0o600);
    await cliJson(['store', 'A memory after the backup', '--json'], { home });

    const listed = await cliJson(['backup', 'list', '--json'], { home });
    assert.deepEqual(listed.map((b: { id: string }) => b.id), [made.id]);
    const text = ok(await runCli(['backup'], { home }));
    assert.match(text, new RegExp(`^${made.id}\\s+\\S+\\s+[\\d.]+ \\w+\\s+manual\\s+schema v\\d+, 1 memories, 0 turns$`, 'm'));

    const restored = ok(await runCli(['backup', 'restore', made.id], { home }));
    assert.match(restored, new RegExp(`Restored ${made.id}`));
    const undo = /kept as backup (\S+):/.exec(restored)![1]!;
    const memories = await cliJson(['list', '--json'], { home });
    assert.deepEqual(memories.map((m: { text: string }) => m.text), ['The gate opens at nine']);

    const back = await cliJson(['backup', 'restore', undo, '--json'], { home });
    assert.equal(back.counts.memories, 2);
    const after = await cliJson(['list', '--json'], { home });
    assert.equal(after.length, 2);
    assert.equal(statSync(join(home, 'cairn.db')).mode & 0o777, 0o600);
    for (const f of readdirSync(join(home, 'backups'))) assert.equal(statSync(join(home, 'backups', f)).mode & 0o777, 0o600, f);
  });

  it('restore is refused under a live "cairn watch" (exit 5) and changes nothing', { timeout: 180_000 }, async () => {
    const home = newHome();
    await cliJson(['store', 'kept', '--json'], { home });
    const made = await cliJson(['backup', 'create', '--json'], { home });
    const daemon = startDaemon(home, ['--debounce-ms', '20']);
    try {
      await daemon.waitFor(/cairn watch started/, 60_000);
      const before = readdirSync(join(home, 'backups'));
      const res = await runCli(['backup', 'restore', made.id, '--json'], { home });
      assert.equal(res.code, EXIT_CODES.CONFLICT, res.stderr);
      assert.equal(JSON.parse(res.stderr).error.code, 'CONFLICT');
      assert.match(res.stderr, /cairn watch is running/);
      assert.deepEqual(readdirSync(join(home, 'backups')), before, 'no pre-restore copy made');
      // A backup while the daemon runs works (online copy).
      const online = await cliJson(['backup', 'create', '--json'], { home });
      assert.equal(online.counts.memories, 1);
    } finally {
      daemon.child.kill('SIGTERM');
      assert.equal((await daemon.exited).code, 0);
    }
    ok(await runCli(['backup', 'restore', made.id], { home }), 'restore once the daemon stopped');
  });

  it('unknown (exit 4), hostile (exit 3) and corrupt (exit 8) backups are refused; the database is untouched', { timeout: 120_000 }, async () => {
    const home = newHome();
    for (let i = 0; i < 20; i++) await cliJson(['store', `memory ${i} ${'y'.repeat(500)}`, '--json'], { home });
    const made = await cliJson(['backup', 'create', '--json'], { home });
    const corruptId = made.id.replace(/-manual$/, '-manual-9');
    const corrupt = join(home, 'backups', `cairn-${corruptId}.db`);
    copyFileSync(made.path, corrupt);
    const fd = openSync(corrupt, 'r+');
    writeSync(fd, Buffer.alloc(8192 * 4, 0x33), 0, 8192 * 4, 8192);
    closeSync(fd);
    const db = join(home, 'cairn.db');
    const hash = hashOf(db);

    const unknown = await runCli(['backup', 'restore', '2020-01-01T000000Z-daily'], { home });
    assert.equal(unknown.code, EXIT_CODES.NOT_FOUND, unknown.stderr);
    for (const hostile of ['../../etc/passwd', '/etc/passwd', `../backups/cairn-${made.id}.db`]) {
      const res = await runCli(['backup', 'restore', hostile], { home });
      assert.equal(res.code, EXIT_CODES.INVALID_INPUT, `${hostile}: ${res.stderr}`);
      assert.match(res.stderr, /Not a backup id/);
    }
    const bad = await runCli(['backup', 'restore', corruptId], { home });
    assert.equal(bad.code, EXIT_CODES.STORE_CORRUPT, bad.stderr);
    assert.match(bad.stderr, /nothing was changed/);
    const usage = await runCli(['backup', 'restore'], { home });
    assert.equal(usage.code, EXIT_CODES.USAGE);

    assert.equal(hashOf(db), hash);
    assert.deepEqual(readdirSync(join(home, 'backups')).sort(), [`cairn-${made.id}.db`, `cairn-${corruptId}.db`].sort());
    assert.equal((await cliJson(['list', '--json', '--limit', '100'], { home })).length, 20);
  });
});
