// What following memories costs writers on PostgreSQL (src/store/postgres/follow.ts): two stores
// (two pools, as two machines) each add N memories to one namespace at once, with no follower and
// then with a follower paging memoriesAfter and entryChangesAfter from its cursor all the while
// (the knowledge pass and consolidation beside capture). Prints wall time, this process's CPU and
// the server backends' CPU (from /proc, the server runs here), per memory. Run:
//   node --import tsx bench/pg-followers.ts [--memories 500] [--rounds 2]
// against CAIRN_TEST_DATABASE_URL or the test server of test/helpers/postgres.ts.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freshPgStore } from '../test/helpers/postgres.js';
import type { Store } from '../src/store/store.js';

const { values } = parseArgs({ options: { memories: { type: 'string', default: '500' }, rounds: { type: 'string', default: '2' } } });
const N = Number(values.memories);
const rounds = Number(values.rounds);
const NS = 'bench';
const TICKS = 100; // USER_HZ on Linux

function backendCpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      /* a backend that ended */
    }
  }
  return (ticks * 1000) / TICKS;
}

async function run(label: string, withFollower: boolean): Promise<void> {
  const app = `cairn-bench-follow-${process.pid}`;
  const made = await freshPgStore({ applicationName: app });
  const stores: Store[] = [made.store, await made.connect()];
  const admin = new pg.Client({ connectionString: made.url });
  await admin.connect();
  try {
    await made.store.ensureNamespace(NS);
    // Warm every pool's connection so the backends exist before the CPU is read.
    for (const s of stores) await s.getMemory(NS, 'm_none');
    const pids = async () => (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [app])).rows.map((r) => r.pid);
    let stop = false;
    let pages = 0;
    const follower = withFollower
      ? (async () => {
          let m = 0;
          let e = 0;
          while (!stop) {
            const mp = await made.store.memoriesAfter(NS, m, 100);
            const ep = await made.store.entryChangesAfter(NS, e, 100);
            m = mp.at(-1)?.seq ?? m;
            e = ep.at(-1)?.seq ?? e;
            pages++;
          }
          return m;
        })()
      : Promise.resolve(0);
    await new Promise((r) => setTimeout(r, 50));
    const before = await pids();
    const serverBefore = backendCpuMs(before);
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(stores.map(async (s, w) => {
      for (let i = 0; i < N; i++) await s.addMemory({ namespace: NS, text: `writer ${w} remembers item ${i} of the bench run` });
    }));
    const wall = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    const server = backendCpuMs(before) - serverBefore;
    stop = true;
    await follower;
    const total = 2 * N;
    const stored = (await made.store.listMemories({ namespace: NS, limit: 10 * total })).length;
    console.log(
      `${label.padEnd(28)} ${total} memories: wall ${wall.toFixed(0)} ms (${(wall / total).toFixed(2)} ms/memory), ` +
      `client CPU ${((used.user + used.system) / 1000).toFixed(0)} ms, server CPU ${server.toFixed(0)} ms` +
      `${withFollower ? `, follower pages ${pages}` : ''}; stored ${stored}`,
    );
  } finally {
    await admin.end();
    await made.store.close();
    await made.cleanup();
  }
}

// The first run warms the JIT and the server's caches; the next rounds are the figures.
await run('warm-up', false);
for (let round = 1; round <= rounds; round++) {
  await run(`2 writers #${round}`, false);
  await run(`2 writers + follower #${round}`, true);
}
