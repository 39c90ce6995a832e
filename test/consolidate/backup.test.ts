// Backups (issue 24, sleep protocol step 1) over real homes: a backup is a verified, private,
// self-contained SQLite copy made online (also while another process writes); restore brings back
// exactly what was backed up, keeps what it replaced, and refuses — changing nothing — a corrupt,
// newer, unknown or hostile backup and a database another process has open.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, statSync, writeFileSync, writeSync, closeSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Cairn } from '../../src/service/cairn.js';
import { sha256 } from '../../src/core/text.js';
import { backupsDir, createBackup, listBackups } from '../../src/consolidate/backup.js';
import type { Store } from '../../src/store/store.js';
import { LIB, childEnv } from '../helpers/cli.js';
import { HashEmbedder, rejectsCode, tempDir } from '../helpers/store-fixtures.js';

const MODEL = 'test-hash@1';

describe('backups (service)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let home: string;
  let cairn: Cairn | null;
  const open = async () => (cairn = await Cairn.open({ home, embedder: new HashEmbedder({ modelId: MODEL }), config: { timezone: 'UTC' } }));
  const close = async () => {
    await cairn?.close();
    cairn = null;
  };

  beforeEach(async () => {
    tmp = tempDir();
    home = join(tmp.dir, 'home');
    await open();
  });
  afterEach(async () => {
    await close();
    tmp.cleanup();
  });

  async function ingest(name: string, lines: Array<{ id: string; content: string }>): Promise<void> {
    const file = join(tmp.dir, `${name}.jsonl`);
    writeFileSync(file, lines.map((l) => JSON.stringify({ role: 'user', content: l.content, id: l.id, session: 's1', timestamp: '2026-02-01T10:00:00.000Z' }) + '\n').join(''));
    await cairn!.ingest([file], { format: 'jsonl', namespace: 'default', final: true });
  }

  /** Everything a restore must bring back: memories, turns and vectors, as stored. */
  async function snapshot(c: Cairn) {
    const memories = await c.list({ limit: 1000, includeSuperseded: true });
    const turns = await c.store.turnsAfter('default', 0, 1000);
    const vectors = (await c.store.vectorsAfter('default', MODEL, 0, 1000)).map((v) => ({ ...v, vector: Array.from(v.vector as ArrayLike<number>) }));
    return { memories, turns, vectors };
  }

  const dbHash = () => sha256(readFileSync(join(home, 'cairn.db')).toString('latin1'));

  it('create → list → restore brings back memories, turns and vectors exactly; the replaced database is kept and restores back', async () => {
    await cairn!.remember({ text: 'The gate opens at nine', tags: ['ops'] });
    await cairn!.remember({ text: 'Deploys happen on Tuesdays' });
    await ingest('chat1', [{ id: 'a1', content: 'We chose SQLite for the store' }, { id: 'a2', content: 'Backups go to the backups folder' }]);
    const before = await snapshot(cairn!);
    assert.ok(before.vectors.length >= 2 && before.turns.length === 2);
    const made = await cairn!.backupCreate();
    assert.equal(made.kind, 'manual');
    assert.deepEqual(made.counts, { memories: before.memories.length, turns: 2 });

    await cairn!.remember({ text: 'A memory made after the backup' });
    await ingest('chat2', [{ id: 'b1', content: 'A turn after the backup' }]);
    const later = await snapshot(cairn!);
    mkdirSync(join(home, 'index', 'some-model'), { recursive: true });
    writeFileSync(join(home, 'index', 'some-model', 'default.64d.999.4096b.usearch'), 'newer derived index');
    const listed = await cairn!.backupList();
    assert.deepEqual(listed.map((b) => [b.id, b.kind, b.schemaVersion, b.counts]), [[made.id, 'manual', made.schemaVersion, made.counts]]);
    await close();

    const report = await Cairn.backupRestore(made.id, { home, now: new Date('2030-01-01T00:00:00Z') });
    assert.equal(report.restored, made.id);
    assert.equal(report.previous?.kind, 'pre-restore');
    assert.equal(report.previous?.id, '2030-01-01T000000Z-pre-restore');
    assert.equal(report.indexRemoved, true);
    assert.equal(existsSync(join(home, 'index')), false, 'a newer vector index never pairs with the older store');
    assert.deepEqual(report.viewsRewound, ['default']);
    for (const f of ['cairn.db-wal', 'cairn.db-shm', 'cairn.db-journal']) assert.equal(existsSync(join(home, f)), false, f);
    assert.deepEqual(readdirSync(home).filter((n) => n.includes('restore')), [], 'no staged copy left');

    await open();
    assert.deepEqual(await snapshot(cairn!), before);
    assert.equal((await cairn!.search('nine gate')).mode, 'hybrid', 'vectors usable after the index was removed');
    // The raw view follows again: a turn captured after the restore is appended.
    await ingest('chat3', [{ id: 'c1', content: 'The first turn after the restore' }]);
    assert.match(readFileSync(join(home, 'default', 'raw', 'realtime-2026-02-01.md'), 'utf8'), /first turn after the restore/);
    await close();

    // The undo: the kept database holds what the restore replaced.
    await Cairn.backupRestore(report.previous!.id, { home });
    await open();
    assert.deepEqual((await snapshot(cairn!)).memories, later.memories);
    assert.deepEqual((await snapshot(cairn!)).vectors, later.vectors);
  });

  it('a backup is private (folder 0700, file 0600) whatever the umask, self-contained, and named by its time and kind', async () => {
    const previous = process.umask(0o022);
    try {
      const made = await cairn!.backupCreate({ kind: 'daily', now: new Date('2026-11-26T22:10:00.456Z') });
      assert.equal(made.id, '2026-11-26T221000Z-daily');
      assert.equal(statSync(backupsDir(cairn!.paths)).mode & 0o777, 0o700);
      assert.equal(statSync(made.path).mode & 0o777, 0o600);
      assert.deepEqual(readdirSync(backupsDir(cairn!.paths)), ['cairn-2026-11-26T221000Z-daily.db'], 'no -wal/-shm, no temporary file');
      const db = new Database(made.path, { readonly: true });
      assert.equal(db.pragma('journal_mode', { simple: true }), 'delete');
      db.close();
      const again = await cairn!.backupCreate({ kind: 'daily', now: new Date('2026-11-26T22:10:00.999Z') });
      assert.equal(again.id, '2026-11-26T221000Z-daily-2', 'the same second does not overwrite');
      assert.deepEqual((await cairn!.backupList()).map((b) => b.id), [again.id, made.id]);
    } finally {
      process.umask(previous);
    }
  });

  it('a backup taken while another process stores memories in a loop is a consistent copy', { timeout: 120_000 }, async () => {
    await close();
    const script = join(tmp.dir, 'writer.mjs');
    writeFileSync(
      script,
      `import { Cairn } from ${JSON.stringify(LIB)};
       const c = await Cairn.open({ home: ${JSON.stringify(home)}, embedder: null, config: { timezone: 'UTC' } });
       let i = 0;
       process.on('SIGTERM', async () => { await c.close(); process.exit(0); });
       for (;;) { await c.remember({ text: 'writer memory number ' + i++ + ' about topic ' + (i % 17) }); if (i % 20 === 0) { process.stdout.write(i + '\\n'); await new Promise((r) => setImmediate(r)); } }`,
    );
    const child = spawn(process.execPath, [script], { env: childEnv(home), stdio: ['ignore', 'pipe', 'inherit'] });
    let written = 0;
    child.stdout.on('data', (d: Buffer) => (written = Math.max(written, ...d.toString().trim().split('\n').map(Number))));
    const exited = new Promise((r) => child.on('close', r));
    try {
      const reader = await Cairn.open({ home, embedder: null, config: { timezone: 'UTC' } });
      try {
        while (written < 100) await new Promise((r) => setTimeout(r, 20));
        const counts: number[] = [];
        for (let n = 0; n < 3; n++) {
          const b = await reader.backupCreate({ now: new Date(Date.UTC(2026, 0, 1, 0, 0, n)) });
          // Writable: FTS5's integrity check is an INSERT (it changes nothing).
          const db = new Database(b.path);
          assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
          // Each memory and its search entry are written in one transaction: a torn copy would differ.
          const memories = db.prepare('SELECT COUNT(*) FROM memories').pluck().get() as number;
          assert.equal(db.prepare("SELECT COUNT(*) FROM entries WHERE kind = 'memory'").pluck().get(), memories);
          db.prepare("INSERT INTO entries_fts(entries_fts) VALUES ('integrity-check')").run();
          db.close();
          counts.push(memories);
          while (written < 100 * (n + 2)) await new Promise((r) => setTimeout(r, 20));
        }
        assert.ok(counts[0]! >= 100 && counts[0]! < counts[1]! && counts[1]! < counts[2]!, `the writer kept writing between backups: ${counts}`);
      } finally {
        await reader.close();
      }
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('restore refuses while another process (here: an open facade) has the database open, and changes nothing', async () => {
    await cairn!.remember({ text: 'kept as it is' });
    const made = await cairn!.backupCreate();
    const hash = dbHash();
    await rejectsCode(Cairn.backupRestore(made.id, { home }), 'CONFLICT', /open/);
    assert.equal(dbHash(), hash);
    assert.deepEqual((await cairn!.backupList()).map((b) => b.id), [made.id], 'no pre-restore copy made');
    assert.equal((await cairn!.list()).length, 1, 'the open facade still works');
  });

  it('a corrupt, foreign or newer backup, an unknown id and a hostile id are refused and nothing changes', async () => {
    await cairn!.remember({ text: 'the live memory' });
    for (let i = 0; i < 30; i++) await cairn!.remember({ text: `filler memory ${i} ${'x'.repeat(400)}` });
    const made = await cairn!.backupCreate({ now: new Date('2026-03-01T10:00:00Z') });
    const dir = backupsDir(cairn!.paths);
    // Garbage over the middle of the b-tree pages (page 1, the header, stays).
    const corrupt = join(dir, 'cairn-2026-03-01T100001Z-manual.db');
    copyFileSync(made.path, corrupt);
    const fd = openSync(corrupt, 'r+');
    writeSync(fd, Buffer.alloc(8192 * 3, 0x5a), 0, 8192 * 3, 8192 * 2);
    closeSync(fd);
    writeFileSync(join(dir, 'cairn-2026-03-01T100002Z-manual.db'), 'not a database at all, just text');
    const newer = join(dir, 'cairn-2026-03-01T100003Z-manual.db');
    copyFileSync(made.path, newer);
    const n = new Database(newer);
    n.pragma('user_version = 999');
    n.close();
    await close();
    const hash = dbHash();
    const backupsBefore = readdirSync(dir).sort();

    await rejectsCode(Cairn.backupRestore('2026-03-01T100001Z-manual', { home }), 'STORE_CORRUPT', /nothing was changed/);
    await rejectsCode(Cairn.backupRestore('2026-03-01T100002Z-manual', { home }), 'STORE_CORRUPT');
    await rejectsCode(Cairn.backupRestore('2026-03-01T100003Z-manual', { home }), 'STORE', /newer than this Cairn/);
    await rejectsCode(Cairn.backupRestore('2026-03-01T000000Z-daily', { home }), 'NOT_FOUND');
    for (const hostile of ['../../etc/passwd', '2026-03-01T100000Z-manual/../../cairn', 'cairn-2026-03-01T100000Z-manual.db', '', '2026-13-45T999999Z-daily', `2026-03-01T100000Z-manual\0`]) {
      await rejectsCode(Cairn.backupRestore(hostile, { home }), 'INVALID_INPUT');
    }
    assert.equal(dbHash(), hash, 'the live database is untouched');
    assert.deepEqual(readdirSync(dir).sort(), backupsBefore, 'no pre-restore copy, no temporary file');
    assert.deepEqual(readdirSync(home).filter((f) => f.startsWith('cairn.db')), ['cairn.db']);

    const listed = listBackups((await open()).paths);
    assert.match(listed.find((b) => b.id === '2026-03-01T100002Z-manual')!.problem ?? '', /unreadable/);
    assert.equal(listed.find((b) => b.id === '2026-03-01T100003Z-manual')!.schemaVersion, 999);
  });

  it('restores over a live database SQLite cannot read, keeping the damaged file as the undo', async () => {
    await cairn!.remember({ text: 'worth restoring' });
    const made = await cairn!.backupCreate();
    await close();
    writeFileSync(join(home, 'cairn.db'), 'this database was overwritten by accident, no longer SQLite');
    const report = await Cairn.backupRestore(made.id, { home, now: new Date('2031-05-05T05:05:05Z') });
    assert.equal(report.previous?.id, '2031-05-05T050505Z-pre-restore');
    assert.equal(readFileSync(report.previous!.path, 'utf8'), 'this database was overwritten by accident, no longer SQLite');
    assert.equal(statSync(report.previous!.path).mode & 0o777, 0o600);
    await open();
    assert.deepEqual((await cairn!.list()).map((m) => m.text), ['worth restoring']);
  });

  it('purge reaches backups made by "backup create", and a purged backup still lists and restores', async () => {
    const LITERAL = 'Quokka-5512-harbour';
    await cairn!.remember({ text: `The harbour code is ${LITERAL}` });
    await cairn!.remember({ text: 'An unrelated memory' });
    const made = await cairn!.backupCreate();
    assert.ok(readFileSync(made.path).includes(LITERAL));
    const res = await cairn!.purge({ text: LITERAL });
    assert.deepEqual(res.backups.purged, [join('backups', `cairn-${made.id}.db`)]);
    assert.deepEqual(res.backups.skipped, []);
    for (const f of readdirSync(backupsDir(cairn!.paths))) assert.ok(!readFileSync(join(backupsDir(cairn!.paths), f)).includes(LITERAL), f);
    assert.equal((await cairn!.backupList())[0]!.counts?.memories, 2);
    await close();
    await Cairn.backupRestore(made.id, { home });
    await open();
    const texts = (await cairn!.list({ limit: 100 })).map((m) => m.text).join('\n');
    assert.ok(texts.includes('The harbour code is') && !texts.includes(LITERAL), texts);
  });

  it('a backup killed before its rename is never listed, and rotation removes its temporary file', async () => {
    const dir = backupsDir(cairn!.paths);
    mkdirSync(dir, { recursive: true });
    // A pid that is certainly gone: a child that already exited.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => gone.on('close', r));
    const temp = join(dir, `.tmp-${gone.pid}-2026-04-01T000000Z-daily.db`);
    writeFileSync(temp, 'half a copy');
    chmodSync(temp, 0o600);
    const live = join(dir, `.tmp-${process.pid}-2026-04-01T000001Z-daily.db`);
    writeFileSync(live, 'a copy in progress');
    assert.deepEqual(await cairn!.backupList(), []);
    const report = await cairn!.backupRotate();
    assert.deepEqual(report.abandoned, [`.tmp-${gone.pid}-2026-04-01T000000Z-daily.db`]);
    assert.equal(existsSync(temp), false);
    assert.equal(existsSync(live), true, 'a backup still being written is left alone');
  });

  it('createBackup takes the store or a database handle (the sleep protocol passes the store)', async () => {
    const made = await createBackup(cairn!.paths, cairn!.store, { kind: 'daily', now: new Date('2026-06-01T22:10:00Z') });
    assert.equal(made.id, '2026-06-01T221000Z-daily');
    const other = { backend: 'postgres' } as unknown as Store;
    await rejectsCode(createBackup(cairn!.paths, other, { kind: 'daily' }), 'CONFIG', /SQLite/);
    assert.deepEqual((await cairn!.backupList()).map((b) => b.id), [made.id], 'a refused backup leaves nothing');
  });
});
