// Leases (store/leases.ts) against a store: taking a free or expired lease, renewing one's own,
// refusing another's while it runs, releasing, racing takers on two connections (exactly one
// wins), and hostile input. Only through the Store interface, so both backends run it unchanged.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/store.js';
import { rejectsCode } from '../helpers/store-fixtures.js';

/** A fresh store, a second connection to the same database, cleanup. */
export type LeaseStoreFactory = () => Promise<{ store: Store; connect: () => Promise<Store>; cleanup: () => Promise<void> }>;

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (ms: number): string => new Date(T0 + ms).toISOString();
const TTL = 30_000;

export function runLeaseConformance(name: string, makeStore: LeaseStoreFactory): void {
  describe(`leases on the store: ${name}`, () => {
    let store: Store;
    let connect: () => Promise<Store>;
    let cleanup: () => Promise<void>;
    const opened: Store[] = [];
    beforeEach(async () => {
      ({ store, connect, cleanup } = await makeStore());
    });
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
      await store.close();
      await cleanup();
    });
    const other = async (): Promise<Store> => {
      const s = await connect();
      opened.push(s);
      return s;
    };

    it('a free lease is taken; another holder is refused while it runs; the holder renews it', async () => {
      assert.deepEqual(await store.listLeases(), []);
      assert.equal(await store.acquireLease('source:1', 'host-a:10:x', TTL, at(0)), true);
      assert.deepEqual(await store.listLeases(), [{ name: 'source:1', holder: 'host-a:10:x', acquiredAt: at(0), expiresAt: at(TTL) }]);
      assert.equal(await store.acquireLease('source:1', 'host-b:20:y', TTL, at(TTL - 1)), false);
      assert.equal(await store.acquireLease('source:1', 'host-a:10:x', TTL, at(10_000)), true, 'renewed by its holder');
      assert.deepEqual(await store.listLeases(), [{ name: 'source:1', holder: 'host-a:10:x', acquiredAt: at(0), expiresAt: at(10_000 + TTL) }], 'a renewal keeps when it was taken');
      assert.equal(await store.acquireLease('source:1', 'host-b:20:y', TTL, at(TTL + 5_000)), false, 'still running after the renewal');
      assert.equal(await store.acquireLease('source:2', 'host-b:20:y', TTL, at(0)), true, 'another name is another lease');
      assert.deepEqual((await store.listLeases()).map((l) => [l.name, l.holder]), [['source:1', 'host-a:10:x'], ['source:2', 'host-b:20:y']]);
    });

    it('an expired lease is taken over (at its expiry exactly); the old holder can then neither renew nor release it', async () => {
      await store.acquireLease('source:1', 'a', TTL, at(0));
      assert.equal(await store.acquireLease('source:1', 'b', 5_000, at(TTL)), true, 'expired at expiresAt');
      assert.deepEqual(await store.listLeases(), [{ name: 'source:1', holder: 'b', acquiredAt: at(TTL), expiresAt: at(TTL + 5_000) }]);
      assert.equal(await store.acquireLease('source:1', 'a', TTL, at(TTL + 1)), false, 'the old holder lost it');
      assert.equal(await store.releaseLease('source:1', 'a'), false);
      assert.equal((await store.listLeases())[0]!.holder, 'b');
    });

    it('a released lease is free at once; releasing what one does not hold changes nothing', async () => {
      await store.acquireLease('source:1', 'a', TTL, at(0));
      assert.equal(await store.releaseLease('source:1', 'b'), false);
      assert.equal(await store.releaseLease('source:9', 'a'), false);
      assert.equal(await store.releaseLease('source:1', 'a'), true);
      assert.deepEqual(await store.listLeases(), []);
      assert.equal(await store.acquireLease('source:1', 'b', TTL, at(1)), true);
      assert.equal(await store.releaseLease('source:1', 'a'), false);
      assert.equal((await store.listLeases())[0]!.holder, 'b');
    });

    it('without `now` the database clock runs it: taken for ttl, held against others, and seen by another connection', async () => {
      assert.equal(await store.acquireLease('clock', 'a', 60_000), true);
      const [lease] = await store.listLeases();
      assert.equal(Date.parse(lease!.expiresAt) - Date.parse(lease!.acquiredAt), 60_000);
      const second = await other();
      assert.deepEqual(await second.listLeases(), [lease]);
      assert.equal(await second.acquireLease('clock', 'b', 60_000), false);
      assert.equal(await second.acquireLease('clock', 'a', 60_000), true, 'the same holder renews from any connection');
    });

    it('racing takers on two connections: exactly one gets a free lease, and then an expired one', async () => {
      const second = await other();
      const stores = [store, second];
      const race = async (now: string) =>
        Promise.all(Array.from({ length: 16 }, (_, i) => stores[i % 2]!.acquireLease('contested', `holder-${i}`, TTL, now)));
      const first = await race(at(0));
      assert.equal(first.filter(Boolean).length, 1, `winners: ${first.map(String).join(',')}`);
      const winner = `holder-${first.indexOf(true)}`;
      assert.equal((await second.listLeases())[0]!.holder, winner);
      const again = await race(at(TTL / 2));
      assert.deepEqual(again.map((ok, i) => ok && `holder-${i}` !== winner), again.map(() => false), 'only the holder may renew a running lease');
      const after = await race(at(TTL * 3));
      assert.equal(after.filter(Boolean).length, 1, 'one taker of the expired lease');
    });

    it('hostile names and holders are stored verbatim; empty, oversized or malformed input is INVALID_INPUT and stores nothing', async () => {
      const hostile = "x'); DROP TABLE leases; --\u00e9\u{1F600}";
      assert.equal(await store.acquireLease(hostile, hostile, TTL, at(0)), true);
      assert.deepEqual((await store.listLeases()).map((l) => [l.name, l.holder]), [[hostile, hostile]]);
      assert.equal(await store.releaseLease(hostile, hostile), true);
      for (const [n, h, ttl, now] of [
        ['', 'a', TTL, at(0)],
        ['n', '   ', TTL, at(0)],
        ['n', 'a\0b', TTL, at(0)],
        ['n'.repeat(201), 'a', TTL, at(0)],
        ['n', 'a', 0, at(0)],
        ['n', 'a', -5, at(0)],
        ['n', 'a', 1.5, at(0)],
        ['n', 'a', Number.NaN, at(0)],
        ['n', 'a', 86_400_001, at(0)],
        ['n', 'a', TTL, 'not a time'],
      ] as Array<[string, string, number, string]>) {
        await rejectsCode(store.acquireLease(n, h, ttl, now), 'INVALID_INPUT');
      }
      await rejectsCode(store.releaseLease('', 'a'), 'INVALID_INPUT');
      assert.deepEqual(await store.listLeases(), []);
    });
  });
}
