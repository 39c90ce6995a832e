// The `store` section of config.json and CAIRN_DATABASE_URL: SQLite by default, PostgreSQL by the
// file or by the variable (which wins), and bad, empty, hostile values refused with the key named
// and without ever echoing a URL (it may hold a password).
import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../src/core/config.js';
import { storeTarget } from '../../src/core/store-config.js';

const saved = process.env.CAIRN_DATABASE_URL;
const setEnv = (value: string | undefined) => {
  if (value === undefined) delete process.env.CAIRN_DATABASE_URL;
  else process.env.CAIRN_DATABASE_URL = value;
};

const refused = (store: unknown, key: RegExp) =>
  assert.throws(() => parseConfig({ store }), (err: Error & { code?: string }) => err.code === 'CONFIG' && key.test(err.message) && !/s3cret/.test(err.message), JSON.stringify(store).slice(0, 80));

describe('store config', () => {
  afterEach(() => setEnv(saved));

  it('is the SQLite file in the home by default', () => {
    setEnv(undefined);
    const config = parseConfig({});
    assert.deepEqual(config.store, { backend: 'sqlite', poolSize: 10 });
    assert.deepEqual(storeTarget(config.store), { backend: 'sqlite' });
  });

  it('selects PostgreSQL by the file, with schema and pool size', () => {
    setEnv(undefined);
    const config = parseConfig({ store: { backend: 'postgres', url: 'postgresql://cairn:pw@db.example:5432/cairn?sslmode=require', schema: 'team_a', poolSize: 4 } });
    assert.deepEqual(storeTarget(config.store), { backend: 'postgres', url: 'postgresql://cairn:pw@db.example:5432/cairn?sslmode=require', schema: 'team_a', poolSize: 4, from: 'config' });
    assert.equal((storeTarget(parseConfig({ store: { backend: 'postgres', url: 'postgres://h/db' } }).store) as { schema: string }).schema, 'public');
  });

  it('CAIRN_DATABASE_URL wins over the file (schema and pool size still from it); empty is unset', () => {
    setEnv('  postgres://u@127.0.0.1:5432/shared  ');
    const fromSqlite = storeTarget(parseConfig({ store: { backend: 'sqlite', schema: 'fleet' } }).store);
    assert.deepEqual(fromSqlite, { backend: 'postgres', url: 'postgres://u@127.0.0.1:5432/shared', schema: 'fleet', poolSize: 10, from: 'env' });
    const overFile = storeTarget(parseConfig({ store: { backend: 'postgres', url: 'postgres://other/db', poolSize: 3 } }).store);
    assert.equal((overFile as { url: string }).url, 'postgres://u@127.0.0.1:5432/shared');
    // With the variable set, a file naming only the backend and schema is complete.
    assert.equal(storeTarget(parseConfig({ store: { backend: 'postgres', schema: 'fleet' } }).store).backend, 'postgres');
    setEnv('');
    assert.deepEqual(storeTarget(parseConfig({}).store), { backend: 'sqlite' });
  });

  it('a CAIRN_DATABASE_URL that is no PostgreSQL URL is a CONFIG error that does not repeat it', () => {
    for (const bad of ['mysql://root:s3cret@h/db', 'http://s3cret@h/', 's3cret', 'postgres://h:99999999/db', '/var/run/postgresql s3cret']) {
      setEnv(bad);
      assert.throws(() => storeTarget(parseConfig({}).store), (err: Error & { code?: string }) => err.code === 'CONFIG' && /CAIRN_DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/.test(err.message) && !err.message.includes('s3cret'), bad);
    }
  });

  it('refuses a missing or wrong url, bad schemas and pool sizes, unknown keys, naming the key', () => {
    setEnv(undefined);
    refused({ backend: 'postgres' }, /"store\.url": is required with backend "postgres" \(or set CAIRN_DATABASE_URL\)/);
    refused({ backend: 'postgres', url: 'mysql://u:s3cret@h/db' }, /"store\.url": must be a postgres:\/\/ or postgresql:\/\/ URL/);
    refused({ backend: 'postgres', url: '' }, /"store\.url"/);
    refused({ backend: 'postgres', url: 'postgres:// s3cret' }, /"store\.url"/);
    refused({ backend: 'postgres', url: 42 }, /"store\.url"/);
    refused({ url: 'postgres://u:s3cret@h/db' }, /"store\.url": is for backend "postgres"/);
    refused({ backend: 'mysql' }, /"store\.backend"/);
    refused({ backend: 'postgres', url: 'postgres://h/db', schema: 'Team' }, /"store\.schema"/);
    refused({ backend: 'postgres', url: 'postgres://h/db', schema: 'a; DROP SCHEMA public' }, /"store\.schema"/);
    refused({ backend: 'postgres', url: 'postgres://h/db', schema: 'x'.repeat(64) }, /"store\.schema"/);
    refused({ backend: 'postgres', url: 'postgres://h/db', poolSize: 0 }, /"store\.poolSize"/);
    refused({ backend: 'postgres', url: 'postgres://h/db', poolSize: 2.5 }, /"store\.poolSize"/);
    refused({ backend: 'postgres', url: 'postgres://h/db', password: 's3cret' }, /unknown key "store\.password"/);
    refused('postgres://h/db', /store/);
  });
});
