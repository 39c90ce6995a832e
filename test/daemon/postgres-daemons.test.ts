// Three machines, one PostgreSQL database: three homes (three folders standing for three hosts)
// with the same CAIRN_DATABASE_URL and schema, each running a real `cairn watch`. Transcripts are
// written to all sources at once; every turn is stored exactly once, each source is captured by
// the one daemon holding its lease, a memory stored through one home is found through another,
// and when a daemon holding a lease is killed (-9) another takes the source over once the lease
// has run out and captures what was written after. No SQLite file appears in any home.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, runCli } from '../helpers/cli.js';
import { eventually, startDaemon } from '../helpers/daemon.js';
import { testDatabaseUrl } from '../helpers/postgres.js';
import { PgMachines } from '../helpers/pg-machines.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';

const NS = 'team';
const LEASE_SECONDS = 6;
const LINES = 24;

const line = (session: string, id: string, content: string, minute: number) =>
  JSON.stringify({ id, role: minute % 2 ? 'assistant' : 'user', content, timestamp: new Date(Date.UTC(2026, 2, 2, 9, minute)).toISOString(), session }) + '\n';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('three daemons on one PostgreSQL database', () => {
  const machines = new PgMachines();
  const { homes, dirs, daemons } = machines;
  let store: PgStore;
  const env = () => machines.env();

  before(async () => {
    // Trust authentication ignores the password: it is there to prove no output shows it.
    machines.start((await testDatabaseUrl()).replace('postgres://postgres@', 'postgres://postgres:s3cret-pw@'));
    for (let i = 0; i < 3; i++) {
      const { added } = await machines.addMachine(NS, { embedder: { provider: 'none' }, capture: { leaseSeconds: LEASE_SECONDS } }, line(`h${i}`, 'm0', `Host ${i} opened the session about the quarterly roadmap`, 0));
      assert.equal(added.added.length, 1);
    }
    store = await machines.store();
  });

  after(() => machines.close());

  async function turnIds(): Promise<string[]> {
    return (await store.turnsAfter(NS, 0, 100_000)).map((t) => `${t.turn.sessionId}/${t.turn.messageId}`);
  }

  it('captures concurrently written transcripts: every turn once, each source by the daemon holding its lease', async () => {
    for (const home of homes) daemons.push(startDaemon(home, ['--debounce-ms', '50', '--rescan-seconds', '3'], env()));
    await Promise.all(daemons.map((d) => d.waitFor(/cairn watch started/)));
    // All three sources, three writers at once, each line its own append.
    await Promise.all(
      dirs.map(async (dir, i) => {
        for (let n = 1; n <= LINES; n++) {
          appendFileSync(join(dir, 'session.jsonl'), line(`h${i}`, `m${n}`, `Host ${i} note ${n}: the budget line ${n * 7} stays`, n));
          if (n % 4 === 0) await sleep(30);
        }
      }),
    );
    const expected = homes.flatMap((_, i) => Array.from({ length: LINES + 1 }, (_, n) => `h${i}/m${n}`)).sort();
    const ids = await eventually(async () => {
      const got = await turnIds();
      return got.length >= expected.length ? got : null;
    });
    assert.deepEqual([...ids].sort(), expected, 'every turn stored, none twice');

    // Source leases (each namespace's work has its own lease: postgres-namespace-work.test.ts).
    const leases = (await store.listLeases()).filter((l) => l.name.startsWith('source:'));
    const sources = await store.listSources(NS);
    assert.equal(sources.length, 3);
    assert.deepEqual(leases.map((l) => l.name).sort(), sources.map((s) => `source:${s.id}`).sort());
    const pids = new Set(daemons.map((d) => String(d.child.pid)));
    for (const lease of leases) assert.ok(pids.has(lease.holder.split(':')[1]!), `${lease.name} held by a running daemon: ${lease.holder}`);
    // A daemon that found a source taken said so once, not at every renewal.
    const skips = daemons.map((d) => d.output().split('\n').filter((l) => /source captured by another daemon/.test(l)).length);
    const held = daemons.map((d) => leases.filter((l) => l.holder.split(':')[1] === String(d.child.pid)).length);
    const taken = daemons.map((d) => d.output().split('\n').filter((l) => /lease taken/.test(l)).length);
    for (let i = 0; i < 3; i++) {
      assert.ok(skips[i]! >= 3 - held[i]!, `daemon ${i} said it skipped ${skips[i]} of the ${3 - held[i]!} sources others hold`);
      // While no lease moved (none lost under load), each foreign source was said exactly once.
      if (taken.reduce((a, b) => a + b, 0) === 3) assert.equal(skips[i], 3 - held[i]!, daemons[i]!.output());
    }
    for (const home of homes) assert.equal(existsSync(join(home, 'cairn.db')), false, `no SQLite file in ${home}`);
  });

  it('a memory stored through one home is found by search through another', async () => {
    const stored = await cliJson(['-n', NS, 'store', 'The staging cluster moved to the Frankfurt region on Tuesday', '--json'], { home: homes[0]!, env: env() });
    assert.ok(stored.id ?? stored.memory?.id);
    for (const home of [homes[1]!, homes[2]!]) {
      const found = await cliJson(['-n', NS, 'search', 'staging cluster Frankfurt', '--json'], { home, env: env() });
      assert.match(JSON.stringify(found.results), /Frankfurt region/, `found through ${home}`);
    }
  });

  it('status shows the PostgreSQL store with the password hidden; backup is refused as the server\'s job', async () => {
    const status = await runCli(['status'], { home: homes[1]!, env: env() });
    assert.match(status.stdout, /Database: postgres postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/\w+ \(schema t_\w+\) · schema v\d+ · PostgreSQL \d+/);
    const backup = await runCli(['backup', 'create'], { home: homes[1]!, env: env() });
    assert.equal(backup.code, 6, backup.stderr);
    assert.match(backup.stderr, /PostgreSQL backups are the server's: pg_dump, or continuous archiving with point-in-time recovery/);
    for (const text of [status.stdout, status.stderr, backup.stderr, ...daemons.map((d) => d.output()), ...homes.map((h) => (existsSync(join(h, 'logs', 'cairn.log')) ? readFileSync(join(h, 'logs', 'cairn.log'), 'utf8') : ''))]) {
      assert.ok(!text.includes('s3cret-pw'), 'the password never shows');
    }
  });

  it('kill -9 of a daemon holding a lease: another takes the source over after expiry and captures what came after', async () => {
    // Source leases (each namespace's work has its own lease: postgres-namespace-work.test.ts).
    const leases = (await store.listLeases()).filter((l) => l.name.startsWith('source:'));
    const sources = await store.listSources(NS);
    const victim = daemons.find((d) => leases.some((l) => l.holder.split(':')[1] === String(d.child.pid)))!;
    const lease = leases.find((l) => l.holder.split(':')[1] === String(victim.child.pid))!;
    const source = sources.find((s) => `source:${s.id}` === lease.name)!;
    const i = dirs.indexOf(source.path);
    assert.ok(i >= 0);
    victim.child.kill('SIGKILL');
    await victim.exited;
    for (let n = LINES + 1; n <= LINES + 5; n++) appendFileSync(join(dirs[i]!, 'session.jsonl'), line(`h${i}`, `m${n}`, `Host ${i} after the crash, note ${n}`, n));
    const survivors = daemons.filter((d) => d !== victim);
    const taken = await eventually(async () => {
      const now = (await store.listLeases()).find((l) => l.name === lease.name);
      return now && now.holder !== lease.holder ? now : null;
    });
    assert.ok(survivors.some((d) => taken.holder.split(':')[1] === String(d.child.pid)), `taken over by a survivor: ${taken.holder}`);
    // Not before the dead holder's lease ran out (the database's clock decides).
    assert.ok(Date.parse(taken.acquiredAt) >= Date.parse(lease.expiresAt) - 1, `${taken.acquiredAt} after ${lease.expiresAt}`);
    await eventually(async () => {
      const ids = await turnIds();
      return Array.from({ length: 5 }, (_, k) => `h${i}/m${LINES + 1 + k}`).every((id) => ids.includes(id));
    });
    const ids = await turnIds();
    assert.equal(new Set(ids).size, ids.length, 'nothing doubled');
    assert.equal(ids.length, 3 * (LINES + 1) + 5);
  });

  it('a stopped daemon gives its leases up at once', async () => {
    const survivor = daemons.find((d) => d.child.exitCode === null && d.child.signalCode === null)!;
    const pid = String(survivor.child.pid);
    survivor.child.kill('SIGTERM');
    assert.equal((await survivor.exited).code, 0);
    assert.deepEqual((await store.listLeases()).filter((l) => l.holder.split(':')[1] === pid), []);
  });
});
