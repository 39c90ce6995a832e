// Entry keys in the SQLite store: words an entry is found by beside its text, written with the
// entry, never shown, recomputed for every entry when the store opens with another keys version,
// and carried over from a database made before keys existed (schema 9).
import { queryTerms } from '../../src/search/query-terms.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import type { EntryKeys } from '../../src/store/store.js';
import { tempDir } from '../helpers/store-fixtures.js';

/** A provider the test controls: "harbour" implies "port" (version 1) or "dock" (version 2). */
function keysV(version: number): EntryKeys & { calls: number } {
  const word = version === 1 ? 'port' : 'dock';
  const provider = {
    version: `test-${version}`,
    calls: 0,
    keys(text: string): string {
      provider.calls++;
      return /harbour/i.test(text) ? word : '';
    },
  };
  return provider;
}

const NS = 'n';

async function found(store: SqliteStore, word: string): Promise<string[]> {
  const hits = await store.keywordSearch(NS, queryTerms(word), 10);
  const entries = await store.getEntries(NS, hits.map((h) => h.seq));
  return entries.map((e) => e.text).sort();
}

describe('entry keys (SQLite)', () => {
  it('a memory, a turn and a document are found by their keys; their text is unchanged', async () => {
    const tmp = tempDir();
    try {
      const store = new SqliteStore(join(tmp.dir, 'cairn.db'), { entryKeys: keysV(1) });
      await store.addMemory({ namespace: NS, text: 'We met at the harbour cafe' });
      await store.addTurns([{ namespace: NS, sessionId: 's', messageId: 'm1', role: 'user', text: 'The harbour was busy today', timestamp: '2026-01-02T10:00:00Z' }]);
      await store.replaceDocument({ namespace: NS, sourceId: null, path: '/notes.md', fileHash: 'h', time: '2026-01-03T00:00:00Z', chunks: [{ heading: 'Trip', text: 'Harbour walk', startLine: 1, endLine: 2 }] });
      await store.addMemory({ namespace: NS, text: 'Unrelated fact about lunch' });
      assert.deepEqual(await found(store, 'port'), ['Harbour walk', 'The harbour was busy today', 'We met at the harbour cafe']);
      assert.deepEqual(await found(store, 'lunch'), ['Unrelated fact about lunch']);
      const texts = (await store.getEntries(NS, (await store.keywordSearch(NS, ['harbour'], 10)).map((h) => h.seq))).map((e) => e.text);
      assert.ok(texts.every((t) => !t.includes('port')), 'keys are never part of the text');
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('a re-mention (tags merged) keeps the memory keyed', async () => {
    const tmp = tempDir();
    try {
      const store = new SqliteStore(join(tmp.dir, 'cairn.db'), { entryKeys: keysV(1) });
      await store.addMemory({ namespace: NS, text: 'Boats in the harbour' });
      const again = await store.addMemory({ namespace: NS, text: 'Boats in the harbour', tags: ['sea'] });
      assert.equal(again.duplicate, true);
      assert.deepEqual(await found(store, 'port'), ['Boats in the harbour']);
      assert.deepEqual(await found(store, 'sea'), ['Boats in the harbour']);
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('opening with another keys version rekeys every entry once; without a provider, keys stay', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      const first = new SqliteStore(path, { entryKeys: keysV(1) });
      for (let i = 0; i < 5; i++) await first.addMemory({ namespace: NS, text: `Harbour note ${i}` });
      await first.addMemory({ namespace: NS, text: 'Inland note' });
      await first.close();

      const v2 = keysV(2);
      const second = new SqliteStore(path, { entryKeys: v2 });
      assert.equal(v2.calls, 6, 'every entry read once');
      assert.equal((await found(second, 'dock')).length, 5);
      assert.deepEqual(await found(second, 'port'), [], 'old keys replaced');
      await second.close();

      const again = keysV(2);
      const third = new SqliteStore(path, { entryKeys: again });
      assert.equal(again.calls, 0, 'same version: nothing recomputed');
      await third.close();

      const plain = new SqliteStore(path);
      assert.equal((await found(plain, 'dock')).length, 5, 'a store opened without keys leaves them');
      await plain.addMemory({ namespace: NS, text: 'Harbour added without keys' });
      assert.equal((await found(plain, 'dock')).length, 5);
      await plain.close();

      const off: EntryKeys = { version: 'none', keys: () => '' };
      const fourth = new SqliteStore(path, { entryKeys: off });
      assert.deepEqual(await found(fourth, 'dock'), [], 'keys switched off: cleared');
      assert.equal((await found(fourth, 'harbour')).length, 6, 'the text is still searchable');
      await fourth.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('a read-only open never rekeys', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      const first = new SqliteStore(path, { entryKeys: keysV(1) });
      await first.addMemory({ namespace: NS, text: 'Harbour' });
      await first.close();
      const v2 = keysV(2);
      const reader = new SqliteStore(path, { readonly: true, entryKeys: v2 });
      assert.equal(v2.calls, 0);
      assert.deepEqual(await found(reader, 'port'), ['Harbour']);
      await reader.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('a schema-9 database (before keys) migrates: its entries stay searchable and get keyed', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      const raw = new Database(path);
      raw.pragma('journal_mode = WAL');
      for (let v = 0; v < 9; v++) raw.exec(MIGRATIONS[v]!);
      raw.pragma('user_version = 9');
      raw.prepare('INSERT INTO namespaces (id, created_at) VALUES (?, ?)').run(NS, '2026-01-01T00:00:00Z');
      const add = raw.prepare("INSERT INTO entries (namespace, kind, ref_id, body, time) VALUES (?, 'document', ?, ?, ?)");
      add.run(NS, 'x1', 'Lighthouse by the harbour', '2026-01-01T00:00:00Z');
      add.run(NS, 'x2', 'Mountain hut', '2026-01-01T00:00:00Z');
      raw.close();

      const store = new SqliteStore(path, { entryKeys: keysV(1) });
      assert.equal(store.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      assert.deepEqual(await found(store, 'mountain'), ['Mountain hut'], 'the rebuilt index holds the old entries');
      assert.deepEqual(await found(store, 'port'), ['Lighthouse by the harbour']);
      assert.equal((await store.health({ integrity: true })).ok, true);
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('keys with FTS syntax or huge keys are stored as plain words', async () => {
    const tmp = tempDir();
    try {
      const hostile: EntryKeys = { version: 'h', keys: (t) => (t.includes('x') ? 'NEAR( "quoted" OR * ^col: ' + 'w '.repeat(50_000) : '') };
      const store = new SqliteStore(join(tmp.dir, 'cairn.db'), { entryKeys: hostile });
      await store.addMemory({ namespace: NS, text: 'x marks the spot' });
      assert.deepEqual(await found(store, 'quoted'), ['x marks the spot']);
      assert.deepEqual(await found(store, 'spot'), ['x marks the spot']);
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });
});
