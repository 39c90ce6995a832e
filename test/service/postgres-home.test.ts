// A home whose store is PostgreSQL (config `store` or CAIRN_DATABASE_URL), opened in-process: no
// SQLite file is made in it, the nightly run skips its backup step with the note that backups are
// the server's (and still consolidates), `backup create` and `backup restore` are CONFIG errors,
// and health names the URL with its password hidden.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { dropSchema, freshSchemaName, testDatabaseUrl } from '../helpers/postgres.js';
import { rejectsCode } from '../helpers/store-fixtures.js';
import { hostname } from 'node:os';
import { mkdirSync } from 'node:fs';
import { capturesHere } from '../../src/daemon/source-leases.js';

describe('a home on PostgreSQL', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  after(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  async function pgHome(via: 'config' | 'env'): Promise<{ home: string; cairn: Cairn; schema: string }> {
    const url = (await testDatabaseUrl()).replace('postgres://postgres@', 'postgres://postgres:s3cret-pw@');
    const schema = freshSchemaName();
    const home = mkdtempSync(join(tmpdir(), 'cairn-pg-home-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }), () => dropSchema(url, schema));
    const store = via === 'config' ? { backend: 'postgres', url, schema } : { schema };
    writeFileSync(join(home, 'config.json'), JSON.stringify({ embedder: { provider: 'none' }, store }));
    const saved = process.env.CAIRN_DATABASE_URL;
    if (via === 'env') process.env.CAIRN_DATABASE_URL = url;
    try {
      const cairn = await Cairn.open({ home, embedder: null });
      cleanups.push(() => cairn.close());
      return { home, cairn, schema };
    } finally {
      if (saved === undefined) delete process.env.CAIRN_DATABASE_URL;
      else process.env.CAIRN_DATABASE_URL = saved;
    }
  }

  for (const via of ['config', 'env'] as const) {
    it(`selected by ${via === 'config' ? 'the config file' : 'CAIRN_DATABASE_URL'}: stores there, and no SQLite file appears in the home`, async () => {
      const { home, cairn, schema } = await pgHome(via);
      assert.equal(cairn.store.backend, 'postgres');
      await cairn.remember({ text: 'The release train leaves every second Thursday', namespace: 'ops' });
      assert.deepEqual((await cairn.store.listMemories({ namespace: 'ops' })).map((m) => m.text), ['The release train leaves every second Thursday']);
      const health = await cairn.store.health();
      assert.equal(health.location, `postgres://postgres:***@127.0.0.1:${new URL(await testDatabaseUrl()).port}/cairn_test (schema ${schema})`);
      assert.equal(existsSync(join(home, 'cairn.db')), false);
    });
  }

  it('sources record their host; on the shared store only that host captures them, and another host cannot re-register the path', async () => {
    const { home, cairn } = await pgHome('config');
    const dir = join(home, 'transcripts');
    mkdirSync(dir);
    const [mine] = await cairn.addSources({ kind: 'jsonl', path: dir, namespace: 'ops' });
    assert.equal(mine!.options.host, hostname());
    assert.equal(capturesHere(mine!, true), true);
    assert.equal(capturesHere(mine!, true, 'another-host'), false);
    assert.equal(capturesHere({ ...mine!, options: { watch: true } }, true, 'another-host'), true, 'an older source without a host: any daemon, one at a time');
    assert.equal(capturesHere(mine!, false, 'another-host'), true, 'SQLite: one machine, hosts not compared');
    // The same path registered from another machine (its row rewritten as that machine would have).
    await cairn.store.addSource('ops', 'jsonl', dir, { watch: true, namespaceFrom: 'fixed', host: 'build-7' });
    await rejectsCode(cairn.addSources({ kind: 'jsonl', path: dir, namespace: 'ops' }), 'CONFLICT', /registered by host build-7.*cairn sources remove/);
    assert.equal((await cairn.store.listSources('ops'))[0]!.options.host, 'build-7', 'left as it was');
    assert.equal((await cairn.addSources({ kind: 'jsonl', path: dir, namespace: 'ops-here' }))[0]!.options.host, hostname(), 'another namespace is another source');
  });

  it('the nightly run skips its backup with the note; backup create and restore are CONFIG errors', async () => {
    const { home, cairn } = await pgHome('config');
    const report = await cairn.sleep({ trigger: 'manual', at: '2026-03-02T22:00:00.000Z', learn: false });
    assert.deepEqual(report.backup, { skipped: "PostgreSQL backups are the server's: pg_dump, or continuous archiving with point-in-time recovery (PITR); Cairn backs up only its embedded SQLite store" });
    assert.ok(!report.errors.some((e) => e.startsWith('backup')), report.errors.join('; '));
    assert.match(report.summary.backup, /^skipped \(PostgreSQL backups are the server's/);
    await rejectsCode(cairn.backupCreate(), 'CONFIG', /This home's store is PostgreSQL\. PostgreSQL backups are the server's: pg_dump/);
    await rejectsCode(Cairn.backupRestore('2026-03-01T220000Z-daily', { home }), 'CONFIG', /restore it on the server/);
    assert.equal(existsSync(join(home, 'cairn.db')), false);
    assert.equal(existsSync(join(home, 'backups')), false);
  });
});
