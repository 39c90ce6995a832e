// cairn migrate's copier (src/store/migrate/): a SQLite home with a row in every table moved to a
// real PostgreSQL schema and back to a new SQLite file, checked table by table with checksums
// computed independently of the copier's own verification; interrupted and resumed; refused
// targets; wrong URLs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import pg from 'pg';
import { migrateFromPostgres, migrateToPostgres, PgEnd, SqliteEnd, tableChecksum, TABLE_ORDER, MARKER_KEY, type MigrationReport } from '../../src/store/migrate/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { PgStore } from '../../src/store/postgres/pg-store.js';
import type { Store } from '../../src/store/store.js';
import type { StoreEnd } from '../../src/store/migrate/end.js';
import { PG_ONLY_COLUMNS, sharedShape, type TableName } from '../../src/store/migrate/tables.js';
import { dropSchema, freshSchemaName, testDatabaseUrl } from '../helpers/postgres.js';
import { rejectsCode, tempDir } from '../helpers/store-fixtures.js';
import { seedMigrationHome } from '../helpers/migrate-seed.js';
import { assertBuilt, makeHome, NO_EMBEDDER, removeHome, runCli } from '../helpers/cli.js';

let url: string;
const schemas: string[] = [];
const dirs: Array<() => void> = [];

function schema(): string {
  const s = freshSchemaName();
  schemas.push(s);
  return s;
}

function home(): string {
  const t = tempDir('cairn-migrate-');
  dirs.push(t.cleanup);
  return t.dir;
}

before(async () => {
  url = await testDatabaseUrl();
});

after(async () => {
  for (const s of schemas) await dropSchema(url, s);
  for (const d of dirs) d();
});

async function query<T>(schemaName: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schemaName},public` });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Rows and checksum of every table, computed by tableChecksum over an end opened here (not the copier's report). */
async function sums(end: StoreEnd): Promise<Map<TableName, string>> {
  const out = new Map<TableName, string>();
  for (const name of TABLE_ORDER) {
    const { columns, key } = await end.describe(name);
    const shared = columns.filter((c) => end.backend === 'sqlite' || !(PG_ONLY_COLUMNS[name] ?? []).includes(c));
    const s = await tableChecksum(end, sharedShape(name, shared, key));
    out.set(name, `${s.rows}:${s.sha256}`);
  }
  return out;
}

async function sumsOfSqlite(path: string): Promise<Map<TableName, string>> {
  const end = SqliteEnd.open(path);
  try {
    return await sums(end);
  } finally {
    await end.close();
  }
}

async function sumsOfPg(schemaName: string): Promise<Map<TableName, string>> {
  const end = await PgEnd.open(url, schemaName);
  try {
    return await sums(end);
  } finally {
    await end.close();
  }
}

type VectorRow = { seq: number; model: string; vector: Buffer };

function naturalVectors(path: string): VectorRow[] {
  const store = new SqliteStore(path);
  try {
    return store.db.prepare('SELECT entry_seq AS seq, model, vector FROM vectors ORDER BY entry_seq, model').all() as VectorRow[];
  } finally {
    void store.close();
  }
}

function sqliteSequence(path: string): Array<{ name: string; seq: number }> {
  const store = new SqliteStore(path);
  try {
    return store.db.prepare('SELECT name, seq FROM sqlite_sequence ORDER BY name').all() as Array<{ name: string; seq: number }>;
  } finally {
    void store.close();
  }
}

function assertAllMatch(report: MigrationReport): void {
  assert.equal(report.ok, true, JSON.stringify(report.tables.filter((t) => !t.match)));
  assert.deepEqual(report.tables.map((t) => t.table), [...TABLE_ORDER]);
  for (const t of report.tables) assert.equal(t.sourceRows, t.targetRows, t.table);
}

describe('cairn migrate: SQLite ⇄ PostgreSQL', () => {
  test('every table moves to PostgreSQL and back unchanged: rows, checksums, vectors bit for bit, counters', async () => {
    const source = await seedMigrationHome(home(), 4);
    const original = await sumsOfSqlite(source);
    // The seed reaches every table, so a table the copier skipped could not pass unnoticed.
    for (const [name, sum] of original) assert.notEqual(sum.split(':')[0], '0', `the seed leaves ${name} empty`);

    const pgSchema = schema();
    const there = await migrateToPostgres({ sqlitePath: source, url, schema: pgSchema, batchSize: 7 });
    assertAllMatch(there);
    assert.equal(there.mode, 'fresh');
    assert.deepEqual(await sumsOfPg(pgSchema), original);
    assert.deepEqual(await query(pgSchema, 'SELECT key FROM store_meta WHERE key = $1', [MARKER_KEY]), [], 'the marker is gone once verified');

    // Vectors byte for byte, numbered as PostgreSQL numbers its own (writing transaction × 4096 + place); entries indexed.
    const pgVectors = await query<VectorRow>(pgSchema, 'SELECT entry_seq::int AS seq, model, vector FROM vectors ORDER BY entry_seq, model');
    assert.deepEqual(pgVectors, naturalVectors(source));
    const misnumbered = await query<{ n: number }>(pgSchema, "SELECT count(*)::int AS n FROM vectors WHERE id / 4096 <> tx::text::bigint OR embedding IS NULL");
    assert.equal(misnumbered[0]!.n, 0);
    const unindexed = await query<{ n: number }>(pgSchema, "SELECT count(*)::int AS n FROM entries WHERE terms = ''::tsvector OR terms_len = 0");
    assert.equal(unindexed[0]!.n, 0);
    const found = await query<{ ref_id: string }>(pgSchema, "SELECT ref_id FROM entries WHERE terms @@ to_tsquery('simple', 'heron') ORDER BY seq");
    assert.ok(found.length >= 2, 'the documents are found by a word of theirs');
    // Counters continue past the copied rows; feedback and aliases keep SQLite's rowid order as seq.
    for (const [table, column] of [['turns', 'seq'], ['memories', 'seq'], ['purge_log', 'id'], ['feedback', 'seq'], ['entity_aliases', 'seq']] as const) {
      const [next] = await query<{ n: number }>(pgSchema, `SELECT (CASE WHEN is_called THEN last_value + 1 ELSE last_value END)::int AS n FROM ${table}_${column}_seq`);
      const [max] = await query<{ m: number }>(pgSchema, `SELECT max(${column})::int AS m FROM ${table}`);
      assert.equal(next!.n, max!.m + 1, table);
    }
    const store0 = new SqliteStore(source);
    const aliasOrder = store0.db.prepare('SELECT rowid AS seq, key FROM entity_aliases ORDER BY rowid').all();
    await store0.close();
    assert.deepEqual(await query(pgSchema, 'SELECT seq::int AS seq, key FROM entity_aliases ORDER BY seq'), aliasOrder);

    const back = join(home(), 'cairn.db');
    const returned = await migrateFromPostgres({ sqlitePath: back, url, schema: pgSchema, batchSize: 5 });
    assertAllMatch(returned);
    assert.deepEqual(await sumsOfSqlite(back), original);
    assert.deepEqual(naturalVectors(back), naturalVectors(source));
    assert.deepEqual(sqliteSequence(back).find((r) => r.name === 'purge_log'), sqliteSequence(source).find((r) => r.name === 'purge_log'));

    // The new SQLite file's keyword index was fed by its triggers: search finds moved records.
    const store = new SqliteStore(back);
    try {
      const hits = await store.keywordSearch('default', ['heron'], 10);
      assert.ok(hits.length >= 2);
      const memory = await store.keywordSearch('team-b', ['zürich'], 10);
      assert.equal(memory.length, 1);
    } finally {
      await store.close();
    }
  });

  test('the migrated PostgreSQL store answers through PgStore as the SQLite store does', async () => {
    const source = await seedMigrationHome(home(), 6);
    const pgSchema = schema();
    assertAllMatch(await migrateToPostgres({ sqlitePath: source, url, schema: pgSchema }));
    const lite = new SqliteStore(source);
    const pgStore = await PgStore.open({ url, schema: pgSchema, max: 2 });
    try {
      assert.equal((await pgStore.health()).ok, true);
      const both = async <T>(read: (s: Store) => Promise<T>): Promise<T> => {
        const [a, b] = [await read(lite), await read(pgStore)];
        assert.deepEqual(b, a);
        return b;
      };
      const memories = await both((s) => s.listMemories({ namespace: 'default', includeSuperseded: true, limit: 100 }));
      const superseded = memories.find((m) => m.supersededBy !== null)!;
      assert.ok(superseded, 'the superseded memory moved with its link');
      assert.equal((await both((s) => s.memoryHistory('default', superseded.supersededBy!))).length, 2);
      // Keyword search: the same entries found (scores are each backend's own scale).
      const hits = await pgStore.keywordSearch('default', ['heron', 'migration'], 10);
      const liteHits = await lite.keywordSearch('default', ['heron', 'migration'], 10);
      assert.deepEqual(hits.map((h) => h.seq).sort(), liteHits.map((h) => h.seq).sort());
      assert.ok(hits.length >= 2);
      const seqs = (await pgStore.getEntries('default', hits.map((h) => h.seq))).map((e) => e.seq);
      assert.deepEqual(seqs.sort(), hits.map((h) => h.seq).sort());
      // Terms in their index form (the search pipeline's analysis), as the keyword index holds them.
      const zurich = await pgStore.keywordSearch('team-b', ['zurich', '日本語'], 5);
      assert.deepEqual(zurich.map((h) => h.seq), (await lite.keywordSearch('team-b', ['zurich', '日本語'], 5)).map((h) => h.seq));
      assert.equal(zurich.length, 1);
      // Vectors decode to the same floats; the store follows them from the start.
      const entrySeqs = (await lite.entriesMissingVector('m-none', 1000)).map((e) => e.seq);
      await both(async (s) => [...(await s.getVectors('m-one', entrySeqs))].sort((x, y) => x[0] - y[0]));
      assert.equal((await pgStore.vectorsAfter('default', 'm-one', 0, 1000)).length, (await lite.vectorsAfter('default', 'm-one', 0, 1000)).length);
      await both((s) => s.listFacts('default'));
      await both((s) => s.listEntities('default'));
      await both((s) => s.listFeedback('default', 10));
      await both((s) => s.listApiTokens({ includeRevoked: true }));
      await both((s) => s.getHotState('default'));
      await both((s) => s.listPurges());
      await both((s) => s.knowledgeCursor('default'));
      await both((s) => s.listDigests('default'));
      // And it takes new writes after the copied rows.
      const added = await pgStore.addMemory({ namespace: 'default', text: 'Written to PostgreSQL after the move' });
      assert.ok(added.memory.id);
      assert.equal((await pgStore.keywordSearch('default', ['postgresql'], 5)).length, 1);
    } finally {
      await lite.close();
      await pgStore.close();
    }
  });

  test('an interrupted migration resumes where it stopped, both ways, without a duplicate', async () => {
    const source = await seedMigrationHome(home(), 30);
    const original = await sumsOfSqlite(source);
    const pgSchema = schema();
    const stopAfter = (n: number) => async (p: { batches: number }) => {
      if (p.batches >= n) throw new Error(`interrupted after ${n} batches`);
    };
    const inMemories = async (p: { table: string; tableDone: number }) => {
      if (p.table === 'memories' && p.tableDone >= 8) throw new Error('interrupted inside memories');
    };
    await assert.rejects(migrateToPostgres({ sqlitePath: source, url, schema: pgSchema, batchSize: 4, afterBatch: inMemories }), /interrupted inside memories/);
    const partial = await query<{ n: number }>(pgSchema, 'SELECT count(*)::int AS n FROM memories');
    assert.ok(partial[0]!.n > 0 && partial[0]!.n < Number(original.get('memories')!.split(':')[0]), 'stopped inside the memories table');
    assert.equal((await query(pgSchema, 'SELECT 1 FROM store_meta WHERE key = $1', [MARKER_KEY])).length, 1);
    // A second interruption on the resumed run, then the end.
    await assert.rejects(migrateToPostgres({ sqlitePath: source, url, schema: pgSchema, batchSize: 4, afterBatch: stopAfter(5) }), /interrupted after 5/);
    const resumed = await migrateToPostgres({ sqlitePath: source, url, schema: pgSchema, batchSize: 4 });
    assert.equal(resumed.mode, 'resumed');
    assertAllMatch(resumed);
    assert.deepEqual(await sumsOfPg(pgSchema), original);

    const back = join(home(), 'cairn.db');
    await assert.rejects(migrateFromPostgres({ sqlitePath: back, url, schema: pgSchema, batchSize: 3, afterBatch: stopAfter(20) }), /interrupted/);
    const again = await migrateFromPostgres({ sqlitePath: back, url, schema: pgSchema, batchSize: 3 });
    assert.equal(again.mode, 'resumed');
    assertAllMatch(again);
    assert.deepEqual(await sumsOfSqlite(back), original);

    // Interrupted every fourth batch, in every table (vectors resume by their natural key, aliases keep their rowid), until done.
    const choppy = schema();
    const chopped = join(home(), 'cairn.db');
    const stopEvery4 = async (p: { batches: number }) => {
      if (p.batches % 4 === 0) throw new Error('chop');
    };
    for (const run of [() => migrateToPostgres({ sqlitePath: source, url, schema: choppy, batchSize: 3, afterBatch: stopEvery4 }), () => migrateFromPostgres({ sqlitePath: chopped, url, schema: choppy, batchSize: 3, afterBatch: stopEvery4 })]) {
      let runs = 0;
      for (;;) {
        runs++;
        try {
          assertAllMatch(await run());
          break;
        } catch (err) {
          assert.match((err as Error).message, /chop/);
        }
      }
      assert.ok(runs > 5, `${runs} runs`);
    }
    assert.deepEqual(await sumsOfPg(choppy), original);
    assert.deepEqual(await sumsOfSqlite(chopped), original);

    // Run once more on a finished target: nothing copied, verified equal.
    const done = await migrateFromPostgres({ sqlitePath: back, url, schema: pgSchema });
    assert.equal(done.mode, 'complete');
    assert.equal(done.rowsCopied, 0);
    assertAllMatch(done);
  });

  test('a target holding another store is refused and left untouched', async () => {
    const source = await seedMigrationHome(home());
    const pgSchema = schema();
    // Another store: one namespace of its own.
    const end = await PgEnd.open(url, pgSchema);
    await end.close();
    await query(pgSchema, "INSERT INTO namespaces (id, created_at) VALUES ('someone-else', '2026-01-01T00:00:00.000Z')");
    await rejectsCode(migrateToPostgres({ sqlitePath: source, url, schema: pgSchema }), 'CONFLICT', /already holds another store \(1 namespaces\)/);
    assert.deepEqual(await query(pgSchema, 'SELECT id FROM namespaces'), [{ id: 'someone-else' }]);
    assert.equal((await query(pgSchema, 'SELECT 1 FROM store_meta WHERE key = $1', [MARKER_KEY])).length, 0);

    // An unfinished migration from another source is not resumed by this one.
    const second = schema();
    const other = await seedMigrationHome(home());
    await assert.rejects(migrateToPostgres({ sqlitePath: other, url, schema: second, batchSize: 2, afterBatch: () => { throw new Error('stop'); } }), /stop/);
    await rejectsCode(migrateToPostgres({ sqlitePath: source, url, schema: second }), 'CONFLICT', /unfinished migration from sqlite:/);

    // A source changed between an interrupted run and its resume: the verification names the table, the marker stays.
    // (`second` holds the unfinished copy of `other` from above, stopped after its first batch.)
    const edit = new SqliteStore(other);
    edit.db.prepare("UPDATE namespaces SET created_at = '2000-01-01T00:00:00.000Z'").run();
    await edit.close();
    const changed = await migrateToPostgres({ sqlitePath: other, url, schema: second });
    assert.equal(changed.ok, false);
    assert.deepEqual(changed.tables.filter((t) => !t.match).map((t) => t.table), ['namespaces']);
    assert.equal((await query(second, 'SELECT 1 FROM store_meta WHERE key = $1', [MARKER_KEY])).length, 1);

    // --from into a home that already has data.
    await rejectsCode(migrateFromPostgres({ sqlitePath: source, url, schema: second }), 'CONFLICT', /unfinished migration|already holds/);
    const full = schema();
    assertAllMatch(await migrateToPostgres({ sqlitePath: other, url, schema: full }));
    const before = await sumsOfSqlite(source);
    await rejectsCode(migrateFromPostgres({ sqlitePath: source, url, schema: full }), 'CONFLICT', /already holds another store/);
    assert.deepEqual(await sumsOfSqlite(source), before);
  });

  test('wrong URLs, schemas and sources fail with a clear message before anything is written', async () => {
    const source = await seedMigrationHome(home());
    await rejectsCode(migrateToPostgres({ sqlitePath: source, url: 'not a url' }), 'INVALID_INPUT', /not a URL/);
    await rejectsCode(migrateToPostgres({ sqlitePath: source, url: 'mysql://127.0.0.1/x' }), 'INVALID_INPUT', /postgres:\/\/ URL, got a mysql/);
    await rejectsCode(migrateToPostgres({ sqlitePath: source, url, schema: 'Bad-Name; DROP' }), 'INVALID_INPUT', /schema/);
    await rejectsCode(migrateToPostgres({ sqlitePath: source, url: 'postgres://postgres:secret@127.0.0.1:1/cairn_test' }), 'STORE', /Cannot reach PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1/);
    const wrongDb = new URL(url);
    wrongDb.pathname = '/no_such_database';
    await rejectsCode(migrateToPostgres({ sqlitePath: source, url: wrongDb.toString() }), 'CONFIG', /no_such_database/);
    await rejectsCode(migrateToPostgres({ sqlitePath: join(home(), 'missing.db'), url, schema: schema() }), 'NOT_FOUND', /no store to migrate/);
    const empty = schema();
    await rejectsCode(migrateFromPostgres({ sqlitePath: join(home(), 'cairn.db'), url, schema: empty }), 'NOT_FOUND', new RegExp(`no Cairn store in schema ${empty}`));
    const created = await query(empty, "SELECT 1 FROM information_schema.schemata WHERE schema_name = $1", [empty]);
    assert.equal(created.length, 0, 'a missing source schema is not created');
  });

  test('hostile and oversized texts: a NUL PostgreSQL cannot hold is named and the run resumes once fixed; a 1 MB memory moves whole', async () => {
    const path = join(home(), 'cairn.db');
    const store = new SqliteStore(path);
    const huge = `huge ${Array.from({ length: 180_000 }, (_, i) => `w${i.toString(36)}`).join(' ')}`;
    await store.addMemory({ namespace: 'default', text: huge });
    const nul = (await store.addMemory({ namespace: 'default', text: 'before \u0000 after' })).memory;
    await store.addMemory({ namespace: 'default', text: "quotes ' \" \\ $1 ; DROP TABLE memories; --" });
    await store.close();
    const pgSchema = schema();
    await rejectsCode(migrateToPostgres({ sqlitePath: path, url, schema: pgSchema, batchSize: 1 }), 'INVALID_INPUT', /^memories \(seq=2\) has a NUL character in text/);
    assert.equal((await query<{ n: number }>(pgSchema, 'SELECT count(*)::int AS n FROM memories'))[0]!.n, 1, 'the rows before it stay');
    const fix = new SqliteStore(path);
    const clean = (v: string) => v.replaceAll('\u0000', '');
    const m = fix.db.prepare('SELECT text, dedup_key FROM memories WHERE id = ?').get(nul.id) as { text: string; dedup_key: string };
    fix.db.prepare('UPDATE memories SET text = ?, dedup_key = ? WHERE id = ?').run(clean(m.text), clean(m.dedup_key), nul.id);
    const e = fix.db.prepare('SELECT body FROM entries WHERE ref_id = ?').get(nul.id) as { body: string };
    fix.db.prepare('UPDATE entries SET body = ? WHERE ref_id = ?').run(clean(e.body), nul.id);
    await fix.close();
    const report = await migrateToPostgres({ sqlitePath: path, url, schema: pgSchema, batchSize: 1 });
    assert.equal(report.mode, 'resumed');
    assertAllMatch(report);
    const moved = await query<{ len: number; terms_len: number }>(pgSchema, "SELECT length(body) AS len, terms_len FROM entries WHERE body LIKE 'huge %'");
    assert.ok(huge.length > 1_000_000);
    assert.equal(moved[0]!.len, huge.length);
    assert.ok(moved[0]!.terms_len > 0);
  });

  test('the CLI: --to then --from through the built cairn, a verification table, exit codes for misuse', async () => {
    assertBuilt();
    const from = makeHome(NO_EMBEDDER);
    const to = makeHome(NO_EMBEDDER);
    const third = makeHome(NO_EMBEDDER);
    try {
      const source = await seedMigrationHome(from, 3);
      const pgSchema = schema();
      const there = await runCli(['migrate', '--to', url, '--schema', pgSchema, '--batch-size', '5'], { home: from });
      assert.equal(there.code, 0, there.stderr);
      assert.match(there.stdout, /^sqlite:.*cairn\.db → postgres:\/\/127\.0\.0\.1:\d+\/\w+#t_\w+ \(fresh, \d+ rows in \d+ batches; [\d.]+ s, CPU [\d.]+ s\)/);
      assert.match(there.stdout, /^memories +\d+  match [0-9a-f]{12}$/m);
      assert.match(there.stdout, /All 26 tables match/);
      // Not a terminal: a plain line per table that has rows, no bar.
      assert.match(there.stderr, /^migrate: memories (\d+)\/\1 rows/m);
      assert.doesNotMatch(there.stderr, /\[[░█]+\]/);

      const back = await runCli(['migrate', '--from', url, '--schema', pgSchema, '--json'], { home: to });
      assert.equal(back.code, 0, back.stderr);
      const report = JSON.parse(back.stdout) as MigrationReport & { seconds: { wall: number; cpu: number } };
      assert.equal(report.ok, true);
      assert.equal(report.tables.length, TABLE_ORDER.length);
      assert.ok(report.seconds.cpu > 0);
      assert.deepEqual(await sumsOfSqlite(join(to, 'cairn.db')), await sumsOfSqlite(source));

      const found = await runCli(['search', 'heron migration', '--json'], { home: to });
      assert.equal(found.code, 0, found.stderr);
      assert.match(found.stdout, /heron migration/);

      const again = await runCli(['migrate', '--to', url, '--schema', pgSchema], { home: to });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /already complete, nothing copied/);
      // A home with a store of its own is refused.
      assert.equal((await runCli(['store', 'A store of its own'], { home: third })).code, 0);
      const other = await runCli(['migrate', '--from', url, '--schema', pgSchema], { home: third });
      assert.equal(other.code, 5, other.stdout);
      assert.match(other.stderr, /^cairn: The target sqlite:.* already holds another store \(\d+ namespaces, /);
      const neither = await runCli(['migrate'], { home: from });
      assert.equal(neither.code, 3);
      assert.match(neither.stderr, /exactly one of --to/);
      const bad = await runCli(['migrate', '--to', 'postgres://postgres@127.0.0.1:1/cairn_test'], { home: from });
      assert.equal(bad.code !== 0, true);
      assert.match(bad.stderr, /Cannot reach PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1/);
    } finally {
      removeHome(from);
      removeHome(to);
      removeHome(third);
    }
  });
});
