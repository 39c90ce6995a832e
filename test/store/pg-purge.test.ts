// What a purge leaves in PostgreSQL's files (src/store/postgres/purge-log.ts scrub): after purge or
// rewrite plus scrub, a secret is in no relation file of the store's schema (heap, TOAST, indexes)
// and in no planner statistic; before the scrub it still is (the controls: deletion alone is not
// enough). Files are read with pg_read_binary_file after a CHECKPOINT, so this needs a superuser
// (the test server of test/helpers/postgres.ts is one; a CAIRN_TEST_DATABASE_URL that is not skips).
// It runs in a database of its own on that server (purgeTestUrl).
// The rows are written with plain SQL as the store's modules write them, so these checks of the
// purge modules do not wait for the other modules of the port.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { dropSchema, freshSchemaName, testDatabaseUrl } from '../helpers/postgres.js';
import { PgStore } from '../../src/store/postgres/pg-store.js';
import { insertEntry } from '../../src/store/postgres/entry-terms.js';
import { scrub } from '../../src/store/postgres/purge-log.js';
import { createPool } from '../../src/store/postgres/connect.js';
import { encodeVector } from '../../src/store/vector-codec.js';
import { dedupKey } from '../../src/core/text.js';
import { PURGED_MARKER } from '../../src/store/purge.js';

const NS = 'alpha';
const SECRET = 'zqxvaultsecret42';
const AT = '2026-01-10T12:00:00.000Z';
/**
 * A transaction left open anywhere on the server (another suite's, in another database) holds back
 * what VACUUM may remove in every database: the scrubs that must complete wait it out this long.
 */
const LONG_WAIT = { waitMs: 120_000, lockTimeoutMs: 10_000 };

let store: PgStore;
let schema: string;
let admin: pg.Client;
let cleanup: () => Promise<void>;
let url: string;
let superuser = false;

async function addMemory(id: string, text: string): Promise<number> {
  await store.pool.query(
    `INSERT INTO memories (id, namespace, text, dedup_key, category, importance, created_at, updated_at, valid_from) VALUES ($1, $2, $3, $4, 'fact', 5, $5, $5, $5)`,
    [id, NS, text, dedupKey(text), AT],
  );
  return insertEntry(store.pool, { namespace: NS, kind: 'memory', refId: id, body: text, time: AT, category: 'fact', importance: 5 });
}

async function addTurn(id: string, text: string): Promise<void> {
  await store.pool.query(
    `INSERT INTO turns (id, namespace, session_id, message_id, role, speaker, text, ts, meta, created_at) VALUES ($1, $2, 's1', $1, 'user', 'Ana', $3, $4, '{"kind":"message"}', $4)`,
    [id, NS, text, AT],
  );
  await store.pool.query(`INSERT INTO speakers (namespace, name, turns) VALUES ($1, 'Ana', 1) ON CONFLICT (namespace, name) DO UPDATE SET turns = speakers.turns + 1`, [NS]);
  await insertEntry(store.pool, { namespace: NS, kind: 'turn', refId: id, body: `Ana: ${text}`, time: AT, category: null, importance: null });
}

/** A home with the secret in a memory (entry, vector, feedback), a turn and a long text stored in TOAST, among ordinary rows. */
async function seed(): Promise<{ memory: string; turn: string; long: string }> {
  await store.pool.query('INSERT INTO namespaces (id, created_at) VALUES ($1, $2)', [NS, AT]);
  for (let i = 0; i < 40; i++) await addMemory(`m_plain${i}`, `ordinary fact number ${i} about herons`);
  const seq = await addMemory('m_secret', `the vault code is ${SECRET}`);
  await store.pool.query('INSERT INTO vectors (entry_seq, namespace, model, dim, vector) VALUES ($1, $2, $3, 2, $4)', [seq, NS, 'model-a', encodeVector(Float32Array.from([1, 0]))]);
  await store.pool.query("INSERT INTO feedback (id, namespace, ref_id, text, category, important, created_at) VALUES ('f_1', $1, 'm_secret', $2, 'fact', 1, $3)", [NS, `the vault code is ${SECRET}`, AT]);
  await addTurn('t_secret', `my vault code is ${SECRET}`);
  await addTurn('t_plain', 'the deploy is on friday');
  // Long and varied enough that PostgreSQL moves it out of line (TOAST) without compressing the secret away.
  const long = Array.from({ length: 400 }, (_, i) => `line ${i} ${(i * 7919).toString(36)}`).join('\n') + ` ${SECRET}`;
  await addMemory('m_long', long);
  return { memory: 'm_secret', turn: 't_secret', long: 'm_long' };
}

/** Relations of the schema (heaps, their TOAST tables and indexes, every index) whose file holds `needle`. */
async function filesHolding(needle: string): Promise<string[]> {
  await admin.query('CHECKPOINT'); // what shared buffers hold, on disk
  const { rows } = await admin.query<{ name: string }>(
    `WITH own AS (SELECT oid, reltoastrelid FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind IN ('r', 'i')),
     rels AS (
       SELECT oid FROM own
       UNION SELECT reltoastrelid FROM own WHERE reltoastrelid <> 0
       UNION SELECT i.indexrelid FROM pg_index i JOIN own ON own.reltoastrelid = i.indrelid
     )
     SELECT oid::regclass::text AS name FROM rels
     WHERE position(convert_to($2, 'UTF8') IN pg_read_binary_file(pg_relation_filepath(oid), 0, pg_relation_size(oid), true)) > 0
     ORDER BY 1`,
    [schema, needle],
  );
  return rows.map((r) => r.name.replace(`${schema}.`, '').replace(/^pg_toast\.pg_toast_\d+(_index)?$/, (_m, idx: string | undefined) => (idx ? 'toast index' : 'toast')));
}

async function statsHolding(needle: string): Promise<string[]> {
  const { rows } = await admin.query<{ name: string }>("SELECT tablename || '.' || attname AS name FROM pg_stats s WHERE schemaname = $1 AND strpos(s::text, $2) > 0 ORDER BY 1", [schema, needle]);
  return rows.map((r) => r.name);
}

/**
 * A database of its own on the test server: VACUUM keeps what any snapshot in the same database may
 * still read, so another suite's long query in the shared test database would keep the scrub from
 * completing (as it should). With CAIRN_TEST_DATABASE_URL, that database as given.
 */
let ownDatabase: Promise<string> | null = null;
function purgeTestUrl(): Promise<string> {
  ownDatabase ??= (async () => {
    const shared = await testDatabaseUrl();
    if (process.env.CAIRN_TEST_DATABASE_URL) return shared;
    const own = new URL(shared);
    own.pathname = '/cairn_test_purge';
    const server = new URL(shared);
    server.pathname = '/postgres';
    const c = new pg.Client({ connectionString: server.toString() });
    await c.connect();
    try {
      if (!(await c.query("SELECT 1 FROM pg_database WHERE datname = 'cairn_test_purge'")).rowCount) {
        await c.query('CREATE DATABASE cairn_test_purge').catch((err: { code?: string }) => {
          if (err.code !== '42P04') throw err; // created by a parallel run
        });
      }
    } finally {
      await c.end();
    }
    return own.toString();
  })();
  return ownDatabase;
}

describe('PostgreSQL purge: what stays in the files', () => {
  beforeEach(async () => {
    url = await purgeTestUrl();
    schema = freshSchemaName();
    store = await PgStore.open({ url, schema, max: 4 });
    cleanup = () => dropSchema(url, schema);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    superuser = (await admin.query<{ s: boolean }>('SELECT rolsuper AS s FROM pg_roles WHERE rolname = current_user')).rows[0]!.s;
  });
  afterEach(async () => {
    await admin.end();
    await store.close();
    await cleanup();
  });

  it('after purgeRecords and rewriteTexts the secret is still in the files; after scrub it is in no heap, TOAST, index or statistic', async (t) => {
    if (!superuser) return t.skip('reading relation files needs a superuser');
    const ids = await seed();
    await admin.query(`ANALYZE ${schema}.memories`);
    const before = await filesHolding(SECRET);
    for (const name of ['memories', 'entries', 'turns', 'feedback', 'entries_terms', 'toast']) assert.ok(before.includes(name), `control: ${name} holds it before (${before.join(', ')})`);
    assert.ok((await statsHolding(SECRET)).includes('memories.text'), 'control: ANALYZE sampled it');

    const purged = await store.purgeRecords(NS, [ids.memory, ids.turn, ids.long]);
    assert.deepEqual(purged.missing, []);
    assert.equal(purged.vectors, 1);
    const rewritten = await store.rewriteTexts(NS, { rewrite: (s) => s.split(SECRET).join(PURGED_MARKER), mustContain: SECRET });
    assert.deepEqual(rewritten.rewritten, {}, 'the purge took every row that held it');
    const live = await store.pool.query("SELECT 1 FROM memories WHERE text LIKE '%' || $1 || '%' UNION ALL SELECT 1 FROM entries WHERE body LIKE '%' || $1 || '%' UNION ALL SELECT 1 FROM turns WHERE text LIKE '%' || $1 || '%'", [SECRET]);
    assert.equal(live.rowCount, 0, 'no live row holds it');
    const stillThere = await filesHolding(SECRET);
    assert.ok(stillThere.includes('memories') && stillThere.includes('entries'), `deleted row versions keep it until the scrub (${stillThere.join(', ')})`);

    assert.deepEqual(await scrub(store.pool, LONG_WAIT), { complete: true });
    assert.deepEqual(await filesHolding(SECRET), []);
    assert.deepEqual(await statsHolding(SECRET), []);
    assert.ok((await filesHolding('ordinary fact number 7 about herons')).includes('memories'), 'the live rows are still in the files');
    assert.equal((await store.pool.query('SELECT count(*)::int AS n FROM memories')).rows[0].n, 40);
  });

  it('a rewritten text leaves its old version behind until the scrub', async (t) => {
    if (!superuser) return t.skip('reading relation files needs a superuser');
    await store.pool.query('INSERT INTO namespaces (id, created_at) VALUES ($1, $2)', [NS, AT]);
    await addMemory('m_1', `wifi password ${SECRET} for guests`);
    await addTurn('t_1', `wifi password ${SECRET}`);
    const res = await store.rewriteTexts(NS, { rewrite: (s) => s.split(SECRET).join(PURGED_MARKER), mustContain: SECRET });
    assert.deepEqual(res.rewritten, { turns: 1, memories: 1 });
    assert.equal((await store.pool.query('SELECT text FROM memories')).rows[0].text, `wifi password ${PURGED_MARKER} for guests`);
    assert.ok((await filesHolding(SECRET)).includes('memories'), 'control: the old row version');
    assert.deepEqual(await scrub(store.pool, LONG_WAIT), { complete: true });
    assert.deepEqual(await filesHolding(SECRET), []);
  });

  it('scrub waits for a snapshot older than the purge, and says incomplete while one outlasts the wait (VACUUM must keep what it can see)', async (t) => {
    const ids = await seed();
    const reader = new pg.Client({ connectionString: url });
    await reader.connect();
    try {
      await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      assert.equal((await reader.query(`SELECT count(*)::int AS n FROM ${schema}.memories WHERE id = 'm_secret'`)).rows[0].n, 1);
      await store.purgeRecords(NS, [ids.memory]);
      assert.deepEqual(await scrub(store.pool, { waitMs: 300 }), { complete: false });
      assert.equal((await reader.query(`SELECT count(*)::int AS n FROM ${schema}.memories WHERE id = 'm_secret'`)).rows[0].n, 1, 'the old snapshot still reads it');
      if (superuser) assert.ok((await filesHolding(SECRET)).includes('memories'), 'so the rewritten file still holds it');
      // Ends while the next scrub waits for it: that one completes.
      setTimeout(() => void reader.query('COMMIT'), 200);
      assert.deepEqual(await scrub(store.pool, LONG_WAIT), { complete: true });
      if (superuser) assert.ok(!(await filesHolding(SECRET)).includes('memories'));
      else t.diagnostic('not a superuser: the files were not read');
    } finally {
      await reader.end();
    }
  });

  it('a table whose lock is not granted in time is skipped and reported; the others are scrubbed', async (t) => {
    if (!superuser) return t.skip('reading relation files needs a superuser');
    const ids = await seed();
    await store.purgeRecords(NS, [ids.memory, ids.turn, ids.long]);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      // READ COMMITTED and idle in its transaction: no snapshot to wait for, only the lock.
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE ${schema}.entries IN ACCESS SHARE MODE`);
      // Waits out transactions elsewhere on the shared test server (they would keep the rows too).
      assert.deepEqual(await scrub(store.pool, { waitMs: 120_000, lockTimeoutMs: 1_500 }), { complete: false });
      const left = await filesHolding(SECRET);
      assert.ok(left.includes('entries'), `the locked table keeps it (${left.join(', ')})`);
      assert.ok(!left.includes('memories') && !left.includes('turns'), `the others were scrubbed (${left.join(', ')})`);
      await holder.query('ROLLBACK');
      assert.deepEqual(await scrub(store.pool, LONG_WAIT), { complete: true });
      assert.deepEqual(await filesHolding(SECRET), []);
    } finally {
      await holder.end();
    }
  });

  it('a purge that loses a deadlock to another writer runs again and completes', async () => {
    await store.pool.query('INSERT INTO namespaces (id, created_at) VALUES ($1, $2)', [NS, AT]);
    await addMemory('m_1', 'the vault code is 1111');
    await addTurn('t_1', 'the vault code is 1111');
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT 1 FROM ${schema}.turns WHERE id = 't_1' FOR UPDATE`);
      // The purge locks the memory, then waits for the turn; the other writer then waits for the
      // memory. The purge waited first, so its deadlock check fires first and it is the victim.
      const purge = store.purgeRecords(NS, ['m_1', 't_1']);
      await new Promise((r) => setTimeout(r, 300));
      await other.query(`SELECT 1 FROM ${schema}.memories WHERE id = 'm_1' FOR UPDATE`);
      await other.query('COMMIT');
      const res = await purge;
      assert.deepEqual(res.removed.map((r) => r.id), ['m_1', 't_1']);
      assert.equal((await store.pool.query("SELECT text FROM turns WHERE id = 't_1'")).rows[0].text, PURGED_MARKER);
    } finally {
      await other.end();
    }
  });

  it('a role that does not own the tables (VACUUM only warns and skips them) gets complete: false', async (t) => {
    if (!superuser || process.env.CAIRN_TEST_DATABASE_URL) return t.skip('creates a role: only on the throw-away test server');
    await seed();
    // A role with every row privilege but not the tables' owner, as when a migration role owns them.
    await admin.query(`DO $$ BEGIN CREATE ROLE cairn_purge_writer LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
    await admin.query(`GRANT USAGE ON SCHEMA ${schema} TO cairn_purge_writer`);
    await admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO cairn_purge_writer`);
    const asWriter = new URL(url);
    asWriter.username = 'cairn_purge_writer';
    const pool = createPool({ url: asWriter.toString(), schema, max: 2 });
    try {
      assert.deepEqual(await scrub(pool, { waitMs: 1_500 }), { complete: false });
    } finally {
      await pool.end();
    }
    assert.deepEqual(await scrub(store.pool, LONG_WAIT), { complete: true }, 'the owner can');
  });

  it("a purge mark copied from another cluster (a future or absurd xid) is ignored, not waited for", async () => {
    await seed();
    const reader = new pg.Client({ connectionString: url });
    await reader.connect();
    try {
      await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await reader.query('SELECT 1'); // a snapshot older than anything that follows (and no table lock)
      for (const value of ['999999999999', 'not an xid', '-5', '1']) {
        await store.pool.query("INSERT INTO store_meta (key, value) VALUES ('purge.last_xid', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [value]);
        assert.deepEqual(await scrub(store.pool, { waitMs: 1_500 }), { complete: true }, value);
      }
      await store.pool.query("UPDATE store_meta SET value = '999999999999' WHERE key = 'purge.last_xid'");
      await store.purgeRecords(NS, ['m_plain1']);
      const mark = (await store.pool.query("SELECT value FROM store_meta WHERE key = 'purge.last_xid'")).rows[0].value as string;
      assert.ok(Number(mark) < 999999999999, 'a purge replaces a mark that is not this cluster\'s');
      assert.deepEqual(await scrub(store.pool, { waitMs: 300 }), { complete: false }, 'and the old snapshot counts again');
    } finally {
      await reader.query('ROLLBACK');
      await reader.end();
    }
  });

  it('hostile ids change nothing; hostile literals are matched literally in plain and JSON columns', async () => {
    await seed();
    const hostile = ["'; DROP TABLE memories; --", '', 'x'.repeat(10_000), 'm_%', 'm_secret\u0000', 'm_secret\u0000'.slice(0, 8).toUpperCase()];
    const res = await store.purgeRecords(NS, hostile);
    assert.deepEqual(res.missing.sort(), [...new Set(hostile)].sort());
    assert.deepEqual(res.removed, []);
    assert.equal((await store.pool.query('SELECT count(*)::int AS n FROM memories')).rows[0].n, 42);
    assert.deepEqual((await store.rewriteTexts(NS, { rewrite: () => 'x', mustContain: `${SECRET}\u0000` })).rewritten, {}, 'no stored text holds a NUL');
    assert.deepEqual(await store.purgeRecords(NS, []), { removed: [], rewritten: {}, entriesRemoved: 0, entriesRewritten: 0, vectors: 0, namespaces: [], digests: [], formerTexts: [], missing: [] });
    const odd = `q"u\\o'te%_${SECRET}`;
    await store.pool.query("UPDATE memories SET tags = $1 WHERE id = 'm_plain3'", [JSON.stringify([`tag ${odd}`])]);
    await store.pool.query("UPDATE memories SET text = 'ordinary fact with q\"u\\o''te%_ but no secret' WHERE id = 'm_plain4'");
    const rule = { rewrite: (s: string) => s.split(odd).join(PURGED_MARKER), mustContain: odd };
    const dry = await store.rewriteTexts(NS, rule, { dryRun: true });
    assert.deepEqual(dry.rewritten, { memories: 1 });
    const done = await store.rewriteTexts(NS, rule);
    assert.deepEqual([done.rewritten, done.entriesRewritten], [{ memories: 1 }, 1]);
    assert.deepEqual(JSON.parse((await store.pool.query("SELECT tags FROM memories WHERE id = 'm_plain3'")).rows[0].tags), [`tag ${PURGED_MARKER}`]);
    const body = (await store.pool.query("SELECT body, terms::text AS terms FROM entries WHERE ref_id = 'm_plain3'")).rows[0];
    assert.ok(body.body.includes(PURGED_MARKER) && !body.terms.includes(SECRET), 'the entry and its terms follow');
  });
});
