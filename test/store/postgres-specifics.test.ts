// What only the PostgreSQL store has to get right, on a real server (test/helpers/postgres.ts):
// migrating a schema shared by processes that start together, refusing schemas that are not its
// own or are newer, a typed error for a server it cannot reach, transactions that keep failed
// batches out whole, and writers on separate connections (row locks where SQLite had its single
// writer lock), plus a namespace rename that reaches every table.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import pg from 'pg';
import { digestId } from '../../src/core/ids.js';
import { dedupKey } from '../../src/core/text.js';
import type { Memory } from '../../src/core/types.js';
import type { Store } from '../../src/store/store.js';
import { newMemoryRecord } from '../../src/memory/remember.js';
import { PgStore } from '../../src/store/postgres/pg-store.js';
import { PG_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { dropSchema, freshPgStore, freshSchemaName, testDatabaseUrl } from '../helpers/postgres.js';
import { rejectsCode } from '../helpers/store-fixtures.js';

const NS = 'alpha';
const at = (hours: number): string => new Date(Date.parse('2026-01-10T12:00:00.000Z') + hours * 3_600_000).toISOString();

let url: string;
let admin: pg.Client;
const schemas: string[] = [];

before(async () => {
  url = await testDatabaseUrl();
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});
after(async () => {
  await admin.end();
  for (const s of schemas) await dropSchema(url, s);
});

function newSchema(): string {
  const s = freshSchemaName();
  schemas.push(s);
  return s;
}

async function tablesOf(schema: string): Promise<string[]> {
  return (await admin.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema])).rows.map((r) => r.table_name);
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('PostgreSQL store: schema and connection', () => {
  it('two stores opening a fresh schema at once migrate it once; reopening migrates nothing and keeps the data', async () => {
    const schema = newSchema();
    const [a, b] = await Promise.all([PgStore.open({ url, schema, max: 2 }), PgStore.open({ url, schema, max: 2 })]);
    try {
      const versions = (await admin.query(`SELECT version FROM ${schema}.cairn_schema`)).rows;
      assert.deepEqual(versions, [{ version: PG_SCHEMA_VERSION }]);
      const stored = await a.addMemory({ namespace: NS, text: 'written before the reopen' }, { now: at(0) });
      assert.deepEqual(await b.getMemory(NS, stored.memory.id), stored.memory, 'both stores see one schema');
    } finally {
      await a.close();
      await b.close();
    }
    const tables = await tablesOf(schema);
    const again = await PgStore.open({ url, schema, max: 2 });
    try {
      assert.deepEqual(await tablesOf(schema), tables);
      assert.deepEqual((await admin.query(`SELECT version FROM ${schema}.cairn_schema`)).rows, [{ version: PG_SCHEMA_VERSION }]);
      assert.deepEqual((await again.listMemories({ namespace: NS })).map((m) => m.text), ['written before the reopen']);
      assert.equal((await again.health()).ok, true);
    } finally {
      await again.close();
    }
  });

  it('a schema holding tables that are not Cairn\'s is refused (STORE_CORRUPT) and left untouched', async () => {
    const schema = newSchema();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`CREATE TABLE ${schema}.invoices (id INTEGER PRIMARY KEY, total TEXT)`);
    await admin.query(`INSERT INTO ${schema}.invoices VALUES (1, '9.99'), (2, 'DROP TABLE invoices;')`);
    await rejectsCode(PgStore.open({ url, schema, max: 2 }), 'STORE_CORRUPT', /not Cairn's.*untouched/);
    assert.deepEqual(await tablesOf(schema), ['invoices']);
    assert.deepEqual((await admin.query(`SELECT * FROM ${schema}.invoices ORDER BY id`)).rows, [{ id: 1, total: '9.99' }, { id: 2, total: 'DROP TABLE invoices;' }]);
  });

  it('a schema at a newer version than this build is refused and not changed', async () => {
    const schema = newSchema();
    await (await PgStore.open({ url, schema, max: 2 })).close();
    await admin.query(`UPDATE ${schema}.cairn_schema SET version = $1`, [PG_SCHEMA_VERSION + 1]);
    await rejectsCode(PgStore.open({ url, schema, max: 2 }), 'STORE_CORRUPT', new RegExp(`version ${PG_SCHEMA_VERSION + 1}, newer`));
    assert.deepEqual((await admin.query(`SELECT version FROM ${schema}.cairn_schema`)).rows, [{ version: PG_SCHEMA_VERSION + 1 }]);
  });

  it('an unreachable server is a STORE error naming the URL without its password, at open and on later calls', async () => {
    const port = await closedPort();
    const secretUrl = `postgres://cairn:s3cr%27et-pw@127.0.0.1:${port}/cairn`;
    const err = await rejectsCode(PgStore.open({ url: secretUrl, schema: 'cairn' }), 'STORE', new RegExp(`127\\.0\\.0\\.1:${port}`));
    assert.doesNotMatch(err.message, /s3cr|et-pw/);
    assert.match(err.message, /cairn:\*\*\*@/);
    const store = new PgStore({ url: secretUrl });
    try {
      const later = await rejectsCode(store.addMemory({ namespace: NS, text: 'never stored' }), 'STORE');
      assert.doesNotMatch(later.message, /s3cr/);
    } finally {
      await store.close();
    }
  });
});

describe('PostgreSQL store: transactions and concurrent writers', () => {
  let made: Awaited<ReturnType<typeof freshPgStore>>;
  let store: PgStore;
  const count = async (sql: string, params: unknown[] = []): Promise<number> =>
    Number((await admin.query(sql.replace(/\{s\}/g, made.schema), params)).rows[0].n);

  before(async () => {
    made = await freshPgStore();
    store = made.store;
  });
  after(async () => {
    await store.close();
    await made.cleanup();
  });

  it('changeMark moves with a write through another handle, and with one that was in progress when it was read', async () => {
    // A schema of its own: the other tests here count what this one would write.
    const own = await freshPgStore();
    try {
      const other = await own.connect();
      const m1 = await own.store.changeMark();
      await other.addMemory({ namespace: 'marks', text: 'written by another handle' });
      const m2 = await own.store.changeMark();
      assert.notEqual(m2, m1);
      // A transaction that took its id before the mark was read and commits after it.
      await admin.query('BEGIN');
      await admin.query('SELECT pg_current_xact_id()');
      const m3 = await own.store.changeMark();
      await admin.query('COMMIT');
      assert.notEqual(await own.store.changeMark(), m3);
    } finally {
      await own.store.close();
      await own.cleanup();
    }
  });

  it('importance 42 is refused (INVALID_INPUT) and leaves no memory, entry or namespace', async () => {
    await rejectsCode(store.addMemory({ namespace: 'lone', text: 'out of range', importance: 42 }), 'INVALID_INPUT');
    await rejectsCode(store.addMemory({ namespace: 'lone', text: 'out of range too', importance: 0 }), 'INVALID_INPUT');
    assert.equal(await count("SELECT count(*) AS n FROM {s}.memories WHERE namespace = 'lone'"), 0);
    assert.equal(await count("SELECT count(*) AS n FROM {s}.entries WHERE namespace = 'lone'"), 0);
    assert.deepEqual(await store.namespaceIds(), []);
  });

  it('addMemories is one transaction: one bad importance stores none of the batch', async () => {
    await store.addMemory({ namespace: NS, text: 'already here' }, { now: at(0) });
    const batch = [
      { namespace: NS, text: 'first of the batch' },
      { namespace: NS, text: 'Already here.', tags: ['again'] },
      { namespace: NS, text: 'the bad one', importance: 42 },
    ];
    await rejectsCode(store.addMemories(batch, { now: at(1) }), 'INVALID_INPUT');
    const kept = await store.listMemories({ namespace: NS, includeSuperseded: true });
    assert.deepEqual(kept.map((m) => [m.text, m.mentions, m.tags]), [['already here', 1, []]], 'the re-mention was rolled back too');
    assert.equal(await count("SELECT count(*) AS n FROM {s}.entries WHERE namespace = $1 AND kind = 'memory'", [NS]), 1);
  });

  it('two connections superseding the same memory at once: one wins, the other is refused, one successor', async () => {
    const other = await made.connect();
    const old = (await store.addMemory({ namespace: NS, text: 'the deploy day is friday' }, { now: at(0) })).memory;
    const outcomes = await Promise.allSettled([
      store.supersedeMemory(NS, old.id, { namespace: NS, text: 'the deploy day is monday' }, { now: at(1) }),
      other.supersedeMemory(NS, old.id, { namespace: NS, text: 'the deploy day is tuesday' }, { now: at(1) }),
    ]);
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    assert.equal((refused.reason as { code?: string }).code, 'CONFLICT');
    const history = await store.memoryHistory(NS, old.id);
    assert.equal(history.length, 2);
    const current = await store.listMemories({ namespace: NS, limit: 100 });
    assert.equal(current.filter((m) => m.text.startsWith('the deploy day')).length, 1);
  });

  it('two units locking the same memories in opposite orders deadlock; the victim runs again and both commit', async () => {
    const other = await made.connect();
    const one = (await store.addMemory({ namespace: NS, text: 'lock order one' })).memory;
    const two = (await store.addMemory({ namespace: NS, text: 'lock order two' })).memory;
    const barrier = () => {
      let open!: () => void;
      return { reached: new Promise<void>((r) => (open = r)), open: () => open() };
    };
    const aHolds = barrier();
    const bHolds = barrier();
    let runs = 0;
    const crossing = (via: Store, first: Memory, second: Memory, mine: ReturnType<typeof barrier>, theirs: ReturnType<typeof barrier>) =>
      via.memoryUnit(async (unit) => {
        runs++;
        for (const [m, i] of [[first, 0], [second, 1]] as const) {
          const locked = (await unit.currentByKey(NS, dedupKey(m.text)))!;
          await unit.updateMemory(NS, m.id, { mentions: locked.mentions + 1 });
          if (i === 0) {
            mine.open();
            await theirs.reached;
          }
        }
      });
    await Promise.all([crossing(store, one, two, aHolds, bHolds), crossing(other, two, one, bHolds, aHolds)]);
    // The victim runs again (3 runs). Its rerun can take the first row back before the winner, still
    // waiting on it, wakes: a second deadlock and one more run. Each unit's effect lands exactly once.
    assert.ok(runs >= 3, `one of the two ran again (runs: ${runs})`);
    assert.deepEqual([(await store.getMemory(NS, one.id))!.mentions, (await store.getMemory(NS, two.id))!.mentions], [3, 3]);
  });

  it('two connections importing the same record at once: one imports it, the other finds it there', async () => {
    const other = await made.connect();
    const record = { ...newMemoryRecord({ namespace: 'imports', text: 'imported on two machines' }, at(0)), mentions: 4 };
    const outcomes = await Promise.all([store.importMemory(record), other.importMemory(record)]);
    assert.deepEqual([...outcomes].sort(), ['exists', 'imported']);
    assert.deepEqual(await store.listMemories({ namespace: 'imports' }), [record]);
  });

  it('hot state merged from two connections at once keeps every writer\'s keys', async () => {
    const other = await made.connect();
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? other : store).mergeHotState('hot', { [`k${i}`]: i })));
    const state = (await store.getHotState('hot'))!.state;
    assert.deepEqual(Object.keys(state).sort(), Array.from({ length: 12 }, (_, i) => `k${i}`).sort());
  });

  it('exportMemories pages with a small page size across a concurrent write without doubling', async () => {
    const { exportMemories } = await import('../../src/store/postgres/memories.js');
    for (let i = 0; i < 7; i++) await store.addMemory({ namespace: 'paged', text: `paged memory ${i}` }, { now: at(i) });
    const seen: string[] = [];
    for await (const m of exportMemories(store.pool, 'paged', 2)) {
      seen.push(m.text);
      if (seen.length === 3) await store.addMemory({ namespace: 'paged', text: 'written mid-export' });
    }
    assert.deepEqual(seen, [...Array.from({ length: 7 }, (_, i) => `paged memory ${i}`), 'written mid-export']);
  });
});

describe('PostgreSQL store: renameNamespace', () => {
  let made: Awaited<ReturnType<typeof freshPgStore>>;
  let store: PgStore;
  const q = (sql: string, params: unknown[] = []) => admin.query(sql.replace(/\{s\}/g, made.schema), params);

  before(async () => {
    made = await freshPgStore();
    store = made.store;
  });
  after(async () => {
    await store.close();
    await made.cleanup();
  });

  it('moves the rows of every table, foreign key or not, rekeys digests and rewrites token grants', async () => {
    const m = (await store.addMemory({ namespace: 'from', text: 'moves with its namespace', tags: ['t'] }, { now: at(0) })).memory;
    await store.mergeHotState('from', { objective: 'move' }, { now: at(0) });
    const entry = (await q("SELECT seq FROM {s}.entries WHERE kind = 'memory' AND ref_id = $1", [m.id])).rows[0].seq as number;
    // Tables without a foreign key to namespaces, written directly (their modules are other helpers').
    await q('INSERT INTO {s}.speakers (namespace, name, turns) VALUES ($1, $2, 3)', ['from', 'Ana']);
    await q("INSERT INTO {s}.llm_usage (namespace, day, calls) VALUES ('from', '2026-01-10', 4)");
    await q("INSERT INTO {s}.vectors (entry_seq, namespace, model, dim, vector) VALUES ($1, 'from', 'm', 2, '\\x0102')", [entry]);
    await q("INSERT INTO {s}.entities (id, namespace, name, slug, type, created_at, updated_at) VALUES ('e_1', 'from', 'Ana', 'ana', 'person', $1, $1)", [at(0)]);
    await q("INSERT INTO {s}.entity_aliases (namespace, key, entity_id, display) VALUES ('from', 'ana', 'e_1', 'Ana')");
    await q("INSERT INTO {s}.entity_mentions (entity_id, memory_id, namespace) VALUES ('e_1', $1, 'from')", [m.id]);
    await q("INSERT INTO {s}.purge_log (started_at, namespace, via, rule) VALUES ($1, 'from', 'cli', '{}')", [at(0)]);
    const oldDigest = digestId('from', 'memory/2026-01-10.md');
    await q(
      `INSERT INTO {s}.digests (id, namespace, kind, layer, path, period_start, period_end, text, inputs_hash, generator, created_at, updated_at)
       VALUES ($1, 'from', 'daily', 1, 'memory/2026-01-10.md', '2026-01-10', '2026-01-11', 'day', 'h', 'g', $2, $2)`,
      [oldDigest, at(0)],
    );
    await q('INSERT INTO {s}.digest_sources (source_id, digest_id) VALUES ($1, $2)', [m.id, oldDigest]);
    await q("INSERT INTO {s}.entries (namespace, kind, ref_id, body, time) VALUES ('from', 'digest', $1, 'day', '2026-01-10')", [`${oldDigest}#0`]);
    await store.addApiToken({ id: 'tok_a', hash: 'aa'.repeat(32), label: null, namespaces: ['other', 'from'], createdAt: at(0) });
    await store.addApiToken({ id: 'tok_b', hash: 'bb'.repeat(32), label: null, namespaces: ['other'], createdAt: at(0) });
    await q("INSERT INTO {s}.api_tokens (id, hash, namespaces, created_at) VALUES ('tok_bad', 'cc', 'not json [from', $1)", [at(0)]);

    assert.equal(await store.renameNamespace('from', 'to'), true);

    const left = (await q(
      `SELECT c.table_name FROM information_schema.columns c WHERE c.table_schema = $1 AND c.column_name = 'namespace' AND c.table_name <> 'namespaces'`,
      [made.schema],
    )).rows.map((r) => r.table_name as string);
    assert.ok(left.length >= 15, `tables with a namespace column: ${left.join(', ')}`);
    for (const table of left) {
      assert.equal(Number((await q(`SELECT count(*) AS n FROM {s}."${table}" WHERE namespace = 'from'`)).rows[0].n), 0, `${table} kept rows of "from"`);
    }
    for (const table of ['speakers', 'llm_usage', 'vectors', 'entity_aliases', 'entity_mentions', 'purge_log', 'memories', 'entries', 'hot_state', 'entities', 'digests']) {
      assert.ok(Number((await q(`SELECT count(*) AS n FROM {s}."${table}" WHERE namespace = 'to'`)).rows[0].n) > 0, `${table} has no rows of "to"`);
    }
    assert.deepEqual(await store.namespaceIds(), ['to']);
    assert.deepEqual(await store.getMemory('to', m.id), { ...m, namespace: 'to' });
    assert.equal(await store.getMemory('from', m.id), null);
    assert.deepEqual((await store.getHotState('to'))!.state, { objective: 'move' });
    const newDigest = digestId('to', 'memory/2026-01-10.md');
    assert.deepEqual((await q('SELECT id FROM {s}.digests')).rows, [{ id: newDigest }]);
    assert.deepEqual((await q('SELECT digest_id FROM {s}.digest_sources')).rows, [{ digest_id: newDigest }]);
    assert.deepEqual((await q("SELECT ref_id FROM {s}.entries WHERE kind = 'digest'")).rows, [{ ref_id: `${newDigest}#0` }]);
    const grants = Object.fromEntries((await store.listApiTokens()).map((t) => [t.id, t.namespaces]));
    assert.deepEqual(grants, { tok_a: ['other', 'to'], tok_b: ['other'], tok_bad: [] });
    assert.equal((await q("SELECT namespaces FROM {s}.api_tokens WHERE id = 'tok_bad'")).rows[0].namespaces, 'not json [from', 'a damaged grant list stays as it is');
    // The old name is free again: a new memory there is a new namespace.
    await store.addMemory({ namespace: 'from', text: 'moves with its namespace' });
    assert.deepEqual(await store.namespaceIds(), ['from', 'to']);
  });

  it('an existing target is CONFLICT and changes nothing; a missing source is false', async () => {
    await store.addMemory({ namespace: 'x1', text: 'in x1' });
    await store.addMemory({ namespace: 'x2', text: 'in x2' });
    await rejectsCode(store.renameNamespace('x1', 'x2'), 'CONFLICT', /"x2" exists already/);
    assert.deepEqual((await store.listMemories({ namespace: 'x1' })).map((m) => m.text), ['in x1']);
    assert.equal(await store.renameNamespace('nowhere', 'x3'), false);
    assert.ok(!(await store.namespaceIds()).includes('x3'));
  });

  it('hostile names are values, never SQL: a rename there and back keeps every row', async () => {
    const hostile = `o'hara"; DROP TABLE memories; -- ${'é'.repeat(500)}`;
    const m = (await store.addMemory({ namespace: 'plain', text: 'survives hostile names' })).memory;
    assert.equal(await store.renameNamespace('plain', hostile), true);
    assert.deepEqual(await store.getMemory(hostile, m.id), { ...m, namespace: hostile });
    assert.equal(await store.renameNamespace(hostile, 'plain'), true);
    assert.deepEqual(await store.getMemory('plain', m.id), m);
    assert.ok(!(await store.namespaceIds()).includes(hostile));
  });

  it('two connections renaming the same namespace at once: one moves it, the other finds it gone', async () => {
    const other = await made.connect();
    await store.addMemory({ namespace: 'racing', text: 'renamed once' });
    const results = await Promise.all([store.renameNamespace('racing', 'won_a'), other.renameNamespace('racing', 'won_b')]);
    assert.deepEqual([...results].sort(), [false, true]);
    const ids = await store.namespaceIds();
    assert.equal(ids.filter((id) => id === 'won_a' || id === 'won_b').length, 1);
    assert.ok(!ids.includes('racing'));
  });

  it('namespace ids and tokens sort by bytes (as SQLite does) in a database whose locale sorts otherwise', async () => {
    // An ICU English database puts "alpha" before "Zed" and "Émile" beside "emile"; SQLite's BINARY does not.
    const icu = new URL(url);
    icu.pathname = '/cairn_test_icu_en';
    try {
      await admin.query("CREATE DATABASE cairn_test_icu_en TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8' LOCALE_PROVIDER icu ICU_LOCALE 'en'");
    } catch (err) {
      if (!['42P04', '23505'].includes((err as { code?: string }).code ?? '')) throw err; // made by an earlier or parallel run
    }
    const schema = freshSchemaName();
    const en = await PgStore.open({ url: icu.toString(), schema, max: 2 });
    try {
      const names = ['beta', 'Zed', 'alpha', 'Émile', '_x', 'emile'];
      for (const ns of names) await en.ensureNamespace(ns);
      const bytes = [...names].sort();
      assert.notDeepEqual((await en.pool.query('SELECT id FROM namespaces ORDER BY id')).rows.map((r) => r.id), bytes, 'the locale sorts otherwise');
      assert.deepEqual(await en.namespaceIds(), bytes);
      assert.deepEqual((await en.namespaceStats()).map((s) => s.namespace), bytes);
      for (const id of ['tok_b', 'tok_B', 'tok_a']) await en.addApiToken({ id, hash: id, label: null, namespaces: [], createdAt: at(0) });
      assert.deepEqual((await en.listApiTokens()).map((t) => t.id), ['tok_B', 'tok_a', 'tok_b']);
    } finally {
      await en.close();
      await dropSchema(icu.toString(), schema);
    }
  });
});
