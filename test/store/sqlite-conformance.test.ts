// Runs the shared Store conformance suite on the SQLite backend, plus what only SQLite has: WAL,
// user_version migrations, refusing foreign files, and busy-timeout locking between processes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { MAPPED_BYTES } from '../../src/store/sqlite/open.js';
import { runStoreConformance } from './conformance.js';
import { rejectsCode, tempDir } from '../helpers/store-fixtures.js';
import { indexTerms } from '../helpers/index-terms.js';
import { runLeaseConformance } from './conformance-leases.js';

runStoreConformance('sqlite', async () => {
  const tmp = tempDir();
  const store = new SqliteStore(join(tmp.dir, 'cairn.db'));
  return { store, cleanup: async () => tmp.cleanup() };
});

runLeaseConformance('sqlite', async () => {
  const tmp = tempDir();
  const path = join(tmp.dir, 'cairn.db');
  return { store: new SqliteStore(path), connect: async () => new SqliteStore(path), cleanup: async () => tmp.cleanup() };
});

describe('SqliteStore specifics', () => {
  it('runs in WAL mode with foreign keys on', async () => {
    const tmp = tempDir();
    try {
      const store = new SqliteStore(join(tmp.dir, 'cairn.db'));
      assert.equal(store.db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(store.db.pragma('foreign_keys', { simple: true }), 1);
      const health = await store.health();
      assert.equal(health.details.journalMode, 'wal');
      assert.equal(health.schemaVersion, SCHEMA_VERSION);
      assert.equal(health.location, join(tmp.dir, 'cairn.db'));
      await store.close();
      await store.close(); // closing twice is harmless
    } finally {
      tmp.cleanup();
    }
  });

  it('maps no part of the file and bounds its page cache, read-write and read-only alike', async () => {
    const tmp = tempDir();
    try {
      const path = join(tmp.dir, 'cairn.db');
      const store = new SqliteStore(path);
      // A memory map would keep every page a long-lived process touched resident (issue 29).
      assert.equal(store.db.pragma('mmap_size', { simple: true }), 0);
      assert.equal(store.db.pragma('cache_size', { simple: true }), -16384);
      await store.close();
      const reader = new SqliteStore(path, { readonly: true });
      assert.equal(reader.db.pragma('mmap_size', { simple: true }), 0);
      assert.equal(reader.db.pragma('cache_size', { simple: true }), -16384);
      await reader.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('maps the file when asked (a process that ends soon), read-write and read-only alike', async () => {
    const tmp = tempDir();
    try {
      const path = join(tmp.dir, 'cairn.db');
      const store = new SqliteStore(path, { mapped: true });
      assert.equal(store.db.pragma('mmap_size', { simple: true }), MAPPED_BYTES);
      await store.addMemory({ namespace: 'default', text: 'The staging database listens on port 5433', provenance: [{ source: 'api' }] });
      assert.equal((await store.listMemories({ namespace: 'default', limit: 5 }))[0]?.text, 'The staging database listens on port 5433');
      await store.close();
      const reader = new SqliteStore(path, { readonly: true, mapped: true });
      assert.equal(reader.db.pragma('mmap_size', { simple: true }), MAPPED_BYTES);
      assert.equal((await reader.listMemories({ namespace: 'default', limit: 5 })).length, 1);
      await reader.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('creates missing parent folders for the database file', async () => {
    const tmp = tempDir();
    try {
      const path = join(tmp.dir, 'a', 'b', 'cairn.db');
      const store = new SqliteStore(path);
      await store.addMemory({ namespace: 'n', text: 'nested' });
      await store.close();
      assert.ok(existsSync(path));
    } finally {
      tmp.cleanup();
    }
  });

  it('reopening keeps the data and migrates nothing twice (user_version)', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      const first = new SqliteStore(path);
      const { memory } = await first.addMemory({ namespace: 'n', text: 'persisted fact' });
      assert.equal(first.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      await first.close();
      // Two opens at once (as daemon + CLI would) and one after another: no "table already exists".
      const a = new SqliteStore(path);
      const b = new SqliteStore(path);
      for (const s of [a, b]) {
        assert.equal(s.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
        assert.deepEqual(await s.getMemory('n', memory.id), memory);
        assert.equal((await s.health()).ok, true);
      }
      const tables = a.db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'memories'").pluck().get();
      assert.equal(tables, 1);
      await a.addMemory({ namespace: 'n', text: 'written by a' });
      assert.equal((await b.listMemories({ namespace: 'n' })).length, 2, 'b sees a\'s committed write');
      await a.close();
      await b.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('refuses a database from a newer Cairn and leaves it alone', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      const raw = new Database(path);
      raw.pragma('journal_mode = WAL'); // as a newer Cairn would have left it
      raw.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
      raw.exec('CREATE TABLE future (x)');
      raw.close();
      const before = readFileSync(path);
      const err = await rejectsCode(() => new SqliteStore(path), 'STORE', /newer/);
      assert.match(err.message, /upgrade Cairn/);
      assert.deepEqual(readFileSync(path), before);
    } finally {
      tmp.cleanup();
    }
  });

  it('a non-SQLite file at the db path → STORE_CORRUPT, bytes unchanged, nothing created beside it', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      const bytes = Buffer.concat([Buffer.from('this is my diary, not a database\n'), Buffer.from([0, 1, 2, 255, 254, 10])]);
      writeFileSync(path, bytes);
      const err = await rejectsCode(() => new SqliteStore(path), 'STORE_CORRUPT', /not a SQLite database/);
      assert.match(err.message, /untouched/);
      assert.deepEqual(readFileSync(path), bytes);
      assert.deepEqual(readdirSync(tmp.dir), ['cairn.db'], 'no -wal/-shm next to a foreign file');
    } finally {
      tmp.cleanup();
    }
  });

  it('a SQLite database of another application → STORE_CORRUPT, no Cairn tables added, bytes unchanged', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      const raw = new Database(path);
      raw.exec("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('bread')");
      raw.close();
      const before = readFileSync(path);
      await rejectsCode(() => new SqliteStore(path), 'STORE_CORRUPT', /another application/);
      assert.deepEqual(readFileSync(path), before);
      const check = new Database(path, { readonly: true });
      assert.deepEqual(check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all(), ['recipes']);
      check.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('a file with a SQLite header but garbage after it → STORE_CORRUPT, bytes unchanged', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      const garbage = Buffer.alloc(8192);
      for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 131 + 7) & 0xff;
      const bytes = Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), garbage]);
      writeFileSync(path, bytes);
      await rejectsCode(() => new SqliteStore(path), 'STORE_CORRUPT');
      assert.deepEqual(readFileSync(path), bytes);
    } finally {
      tmp.cleanup();
    }
  });

  it('an empty file is initialised as a new database', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      writeFileSync(path, '');
      const store = new SqliteStore(path);
      await store.addMemory({ namespace: 'n', text: 'first' });
      assert.equal((await store.health()).ok, true);
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('a write lock held by another connection → STORE_LOCKED after the busy timeout; writes work once released', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    const busyTimeoutMs = 150;
    let store: SqliteStore | undefined;
    const other = (() => {
      new SqliteStore(path).close(); // create and migrate first
      return new Database(path);
    })();
    try {
      store = new SqliteStore(path, { busyTimeoutMs });
      await store.addMemory({ namespace: 'n', text: 'before the lock' });
      other.exec('BEGIN IMMEDIATE');
      other.prepare("INSERT INTO namespaces (id, created_at) VALUES ('held', '2026-01-01T00:00:00.000Z')").run();

      const started = performance.now();
      const err = await rejectsCode(store.addMemory({ namespace: 'n', text: 'during the lock' }), 'STORE_LOCKED', /locked/);
      const waited = performance.now() - started;
      assert.ok(waited >= busyTimeoutMs * 0.8, `gave up after ${waited.toFixed(0)} ms, before the ${busyTimeoutMs} ms busy timeout`);
      assert.ok(err.cause, 'the SQLite error is kept as the cause');
      await rejectsCode(store.supersedeMemory('n', 'm_x', { namespace: 'n', text: 'y' }), 'STORE_LOCKED');
      await rejectsCode(store.putVectors('m', [{ seq: 1, vector: new Float32Array([1]) }]), 'STORE_LOCKED');
      // Readers are not blocked by a writer in WAL mode.
      assert.deepEqual((await store.listMemories({ namespace: 'n' })).map((m) => m.text), ['before the lock']);

      other.exec('COMMIT');
      const after = await store.addMemory({ namespace: 'n', text: 'after the lock' });
      assert.equal(after.duplicate, false);
      assert.deepEqual((await store.listMemories({ namespace: 'n' })).map((m) => m.text).sort(), ['after the lock', 'before the lock']);
      assert.equal((await store.namespaceStats()).some((s) => s.namespace === 'held'), true);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      await store?.close();
      tmp.cleanup();
    }
  });

  it('opening an up-to-date database while another connection writes: reads work, writes → STORE_LOCKED', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    const first = new SqliteStore(path);
    await first.addMemory({ namespace: 'n', text: 'already stored' });
    await first.close();
    const other = new Database(path);
    try {
      other.exec('BEGIN IMMEDIATE');
      const store = new SqliteStore(path, { busyTimeoutMs: 50 });
      try {
        assert.deepEqual((await store.listMemories({ namespace: 'n' })).map((m) => m.text), ['already stored']);
        await rejectsCode(store.addMemory({ namespace: 'n', text: 'blocked' }), 'STORE_LOCKED');
        other.exec('COMMIT');
        assert.equal((await store.addMemory({ namespace: 'n', text: 'unblocked' })).duplicate, false);
      } finally {
        await store.close();
      }
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      tmp.cleanup();
    }
  });

  it('creating a database while another connection holds its write lock → STORE_LOCKED, then it opens', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    const other = new Database(path);
    try {
      other.exec('BEGIN IMMEDIATE');
      await rejectsCode(() => new SqliteStore(path, { busyTimeoutMs: 50 }), 'STORE_LOCKED', /locked/);
      other.exec('COMMIT');
      const store = new SqliteStore(path, { busyTimeoutMs: 50 });
      assert.equal((await store.health()).ok, true);
      await store.close();
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      tmp.cleanup();
    }
  });

  it('addMemories is one transaction: a failing input stores none of the batch', async () => {
    const tmp = tempDir();
    try {
      const store = new SqliteStore(join(tmp.dir, 'cairn.db'));
      await rejectsCode(
        store.addMemories([
          { namespace: 'n', text: 'batch one' },
          { namespace: 'n', text: 'batch two', importance: 99 },
          { namespace: 'n', text: 'batch three' },
        ]),
        'STORE',
      );
      assert.deepEqual(await store.listMemories({ namespace: 'n' }), []);
      assert.deepEqual(await store.namespaceStats(), []);
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('a failed write inside a transaction leaves nothing half-written', async () => {
    const tmp = tempDir();
    try {
      const store = new SqliteStore(join(tmp.dir, 'cairn.db'));
      // importance outside 1–10 violates the schema's CHECK: a typed STORE error, and no memory row
      // or index entry left behind.
      await rejectsCode(store.addMemory({ namespace: 'n', text: 'bad importance kiwi', importance: 42 }), 'STORE');
      assert.deepEqual(await store.listMemories({ namespace: 'n' }), []);
      assert.deepEqual(await store.keywordSearch('n', indexTerms(['kiwi']), 10), []);
      assert.equal(store.db.prepare('SELECT COUNT(*) FROM entries').pluck().get(), 0);
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });
});
