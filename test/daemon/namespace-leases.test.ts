// NamespaceLeases on both stores: on PostgreSQL one holder per namespace, a refused daemon says
// so once per holder, a lost lease stops the work at the next slice, a released one is taken at
// once; on SQLite (one daemon per home) every namespace is worked and no lease row is written.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { NamespaceLeases, workLeaseName } from '../../src/daemon/namespace-leases.js';
import type { Logger } from '../../src/daemon/logger.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { freshPgStore } from '../helpers/postgres.js';
import { tempDir } from '../helpers/store-fixtures.js';

function recordingLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const put = (_fields: unknown, msg: string) => void lines.push(msg);
  return { log: { info: put, warn: put, error: put, debug: put } as unknown as Logger, lines };
}

describe('NamespaceLeases on PostgreSQL', async () => {
  const pg = await freshPgStore();
  const other = await pg.connect();
  after(async () => {
    await pg.store.close();
    await pg.cleanup();
  });

  it('one holder per namespace; the other skips it, said once per holder; released leases are taken at once', async () => {
    const a = recordingLog();
    const b = recordingLog();
    const first = new NamespaceLeases(pg.store, a.log, 'host-a:1:aa', 60_000);
    const second = new NamespaceLeases(other, b.log, 'host-b:2:bb', 60_000);
    assert.equal(first.shared, true);
    assert.deepEqual(await first.claim(['alpha', 'beta']), ['alpha', 'beta']);
    // Renewal takes nothing new.
    assert.deepEqual(await first.claim(['alpha', 'beta']), []);
    assert.deepEqual(await second.claim(['alpha', 'beta', 'gamma']), ['gamma']);
    assert.deepEqual(await second.claim(['alpha', 'beta', 'gamma']), []);
    assert.deepEqual([first.holds('alpha'), first.holds('gamma'), second.holds('alpha'), second.holds('gamma')], [true, false, false, true]);
    assert.deepEqual(first.heldNamespaces()!.sort(), ['alpha', 'beta']);
    assert.equal(b.lines.filter((l) => /namespace work done by another daemon/.test(l)).length, 2, 'alpha and beta said once each, not at every renewal');
    assert.equal(await second.confirm('alpha'), false);

    await first.releaseAll();
    assert.equal(first.holds('alpha'), false);
    assert.equal(await first.confirm('alpha'), false, 'a released namespace is not worked');
    assert.deepEqual((await second.claim(['alpha', 'beta', 'gamma'])).sort(), ['alpha', 'beta']);
    const leases = await pg.store.listLeases();
    assert.deepEqual(leases.map((l) => [l.name, l.holder]).sort(), [[workLeaseName('alpha'), 'host-b:2:bb'], [workLeaseName('beta'), 'host-b:2:bb'], [workLeaseName('gamma'), 'host-b:2:bb']]);
  });

  it('a lease taken over by another daemon (its holder stalled past the ttl) stops the work at the next slice', async () => {
    const a = recordingLog();
    const slow = new NamespaceLeases(pg.store, a.log, 'host-c:3:cc', 3_000);
    assert.deepEqual(await slow.claim(['delta']), ['delta']);
    // Another daemon takes it once it has run out (the server's clock: a time past the expiry).
    const later = new Date(Date.now() + 60_000).toISOString();
    assert.equal(await other.acquireLease(workLeaseName('delta'), 'host-d:4:dd', 60_000, later), true);
    assert.equal(await slow.confirm('delta'), false);
    assert.equal(slow.holds('delta'), false);
    assert.ok(a.lines.some((l) => /namespace lease lost to another daemon/.test(l)));
    // A namespace that is gone (purged) is forgotten.
    const c = new NamespaceLeases(pg.store, recordingLog().log, 'host-e:5:ee', 60_000);
    await c.claim(['epsilon']);
    await c.claim([]);
    assert.deepEqual(c.heldNamespaces(), []);
  });
});

describe('NamespaceLeases on SQLite', () => {
  it('works every namespace without writing a lease', async () => {
    const tmp = tempDir();
    const store = new SqliteStore(join(tmp.dir, 'cairn.db'));
    try {
      const { log, lines } = recordingLog();
      const leases = new NamespaceLeases(store, log, 'host:1:x', 30_000);
      assert.equal(leases.shared, false);
      assert.deepEqual(await leases.claim(['alpha']), []);
      assert.equal(leases.holds('alpha'), true);
      assert.equal(leases.holds('never-claimed'), true);
      assert.equal(await leases.confirm('alpha'), true);
      assert.equal(leases.heldNamespaces(), null);
      await leases.releaseAll();
      assert.deepEqual(await store.listLeases(), []);
      assert.deepEqual(lines, []);
    } finally {
      await store.close();
      tmp.cleanup();
    }
  });
});
