// Three machines, one PostgreSQL database, one namespace: three homes with the same URL and
// schema, each running a real `cairn watch` with its own loopback LLM judge and embedding server,
// so every request says which daemon sent it. The turns all three capture are judged and embedded
// by the one daemon holding the namespace's work lease: each turn goes to an LLM once (not once
// per machine), the other daemons send nothing and say once that they skip the namespace. When
// the holder is killed (-9), another daemon takes the namespace over once the lease has run out
// and judges what was written after, again each turn once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, startDaemon } from '../helpers/daemon.js';
import { testDatabaseUrl } from '../helpers/postgres.js';
import { PgMachines } from '../helpers/pg-machines.js';
import { FakeLlmServer } from '../helpers/fake-llm.js';
import { judgePrompt, judgeWith, type PromptTurn } from '../helpers/fake-judge.js';
import { FakeEmbeddingServer } from '../helpers/fake-embedder.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { missingVectors } from '../../src/service/indexer.js';
import { workLeaseName } from '../../src/daemon/namespace-leases.js';

const NS = 'team';
const LEASE_SECONDS = 6;
const LINES = 20;
const LATER = 6;
const PROBE = 'dimension probe';

const line = (home: number, n: number) =>
  JSON.stringify({ id: `m${n}`, role: n % 2 ? 'assistant' : 'user', content: `We decided #h${home}-m${n}: the invoice batch ${n} moves to the staging queue on port ${5000 + n}.`, timestamp: new Date(Date.UTC(2026, 2, 2, 9, n)).toISOString(), session: `h${home}` }) + '\n';

const tagOf = (text: string) => /#(h\d-m\d+)/.exec(text)?.[1] ?? text;
const verdict = (turn: PromptTurn) => ({ importance: 7, category: 'decision', statement: `Statement about ${tagOf(turn.text)}.` });
const pidOf = (holder: string) => holder.split(':')[1];

/** User + system CPU a running process has used (Linux /proc; clock ticks are 100 a second there). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

describe('three daemons on one PostgreSQL database share the work of a namespace', () => {
  const machines = new PgMachines();
  const { homes, dirs, daemons } = machines;
  let store: PgStore;
  const llms: FakeLlmServer[] = [];
  const embedders: FakeEmbeddingServer[] = [];
  const env = () => machines.env();

  /** Turn tags sent to be judged, per daemon's LLM (context turns are not counted). */
  const judgedBy = (i: number) => llms[i]!.requests.flatMap((r) => judgePrompt(r).turns.map((t) => tagOf(t.text)));
  const embeddedBy = (i: number) => embedders[i]!.requests.flat().filter((t) => t !== PROBE);

  before(async () => {
    machines.start(await testDatabaseUrl());
    for (let i = 0; i < 3; i++) {
      const llm = await FakeLlmServer.start();
      llm.respond = judgeWith(verdict);
      llms.push(llm);
      const embedder = await FakeEmbeddingServer.start();
      embedders.push(embedder);
      await machines.addMachine(NS, {
        embedder: embedder.config(),
        capture: { leaseSeconds: LEASE_SECONDS },
        judge: { llm: { provider: 'openai', baseUrl: llm.baseUrl('openai'), model: 'fake-judge', maxRetries: 0, timeoutMs: 30_000 }, batchSize: 8 },
      }, line(i, 0));
    }
    store = await machines.store();
  });

  after(async () => {
    await machines.close();
    for (const s of [...llms, ...embedders]) await s.close();
  });

  /** Resolves once `turns` turns are stored, all judged, none left to re-judge, and every entry embedded. */
  async function settled(turns: number): Promise<void> {
    await eventually(async () => {
      const stats = (await store.judgeStats()).find((s) => s.namespace === NS);
      if (!stats || stats.judged !== turns || stats.pending !== 0 || stats.needsRejudge !== 0) return false;
      const missing = await missingVectors(store, embedders[0]!.modelId);
      return [...missing.values()].every((n) => n === 0);
    }, undefined, 200);
  }

  const workLease = async () => (await store.listLeases()).find((l) => l.name === workLeaseName(NS));

  it('turns captured by three daemons are judged and embedded once, by the daemon holding the namespace', async (t) => {
    for (const home of homes) daemons.push(startDaemon(home, ['--debounce-ms', '50', '--rescan-seconds', '2'], env()));
    await Promise.all(daemons.map((d) => d.waitFor(/cairn watch started/)));
    await Promise.all(
      dirs.map(async (dir, i) => {
        for (let n = 1; n <= LINES; n++) {
          appendFileSync(join(dir, 'session.jsonl'), line(i, n));
          if (n % 5 === 0) await new Promise((r) => setTimeout(r, 30));
        }
      }),
    );
    const total = 3 * (LINES + 1);
    await settled(total);

    const perDaemon = [0, 1, 2].map((i) => judgedBy(i).length);
    const all = [0, 1, 2].flatMap(judgedBy);
    const expected = homes.flatMap((_, i) => Array.from({ length: LINES + 1 }, (_, n) => `h${i}-m${n}`)).sort();
    assert.deepEqual([...all].sort(), expected, `each turn sent to an LLM exactly once (per daemon: ${perDaemon.join(', ')})`);

    const lease = (await workLease())!;
    assert.ok(lease, 'the namespace has a work lease');
    const holder = daemons.findIndex((d) => String(d.child.pid) === pidOf(lease.holder));
    assert.ok(holder >= 0, `held by a running daemon: ${lease.holder}`);
    const embedded = [0, 1, 2].map((i) => embeddedBy(i).length);
    for (let i = 0; i < 3; i++) {
      if (i === holder) continue;
      // Nothing at all: no judging, no prose for a consolidation, no embedding.
      assert.equal(llms[i]!.requests.length, 0, `daemon ${i} sent no LLM request`);
      assert.equal(embedded[i], 0, `daemon ${i} embedded nothing`);
    }
    const texts = embeddedBy(holder);
    assert.equal(new Set(texts).size, texts.length, 'no text embedded twice');
    const memories = await store.listMemories({ namespace: NS, limit: 10_000 });
    assert.ok(memories.length > 0, 'the judge made memories');
    for (const text of [line(1, 3), ...memories.map((m) => m.text)]) {
      const wanted = text.startsWith('{') ? (JSON.parse(text) as { content: string }).content : text;
      assert.ok(texts.some((x) => x.includes(wanted)), `embedded by the holder: ${wanted}`);
    }

    // The daemons that do not hold the namespace said so once (while the lease did not move).
    const taken = daemons.map((d) => d.output().split('\n').filter((l) => /namespace work taken/.test(l)).length);
    assert.deepEqual(taken.map((n, i) => (i === holder ? n : 0)), taken, `only the holder took the lease: ${taken.join(', ')}`);
    for (let i = 0; i < 3; i++) {
      const skips = daemons[i]!.output().split('\n').filter((l) => /namespace work done by another daemon/.test(l)).length;
      assert.equal(skips, i === holder ? 0 : 1, `daemon ${i} said it skips the namespace ${skips} times`);
    }
    // The catch-up consolidation each daemon runs at first start: the namespace's by its holder only.
    for (let i = 0; i < 3; i++) {
      const runs = daemons[i]!.output().split('\n').filter((l) => /"msg":"(consolidated|consolidation skipped)/.test(l)).map((l) => JSON.parse(l) as { msg: string; namespaces?: string[] });
      assert.deepEqual(runs.map((r) => (r.msg === 'consolidated' ? r.namespaces : 'skipped')), [i === holder ? [NS] : 'skipped'], daemons[i]!.output().slice(-2000));
    }
    const cpu = daemons.map((d) => cpuSecondsOf(d.child.pid!).toFixed(1));
    t.diagnostic(`daemon CPU seconds so far: ${cpu.join(', ')} (holder ${holder})`);
    t.diagnostic(`${total} turns: ${all.length} turn-judgments (per daemon ${perDaemon.join(', ')}), ${llms[holder]!.requests.length} LLM requests; ${texts.length} texts embedded (per daemon ${embedded.join(', ')})`);
  });

  it('kill -9 of the holder: another daemon takes the namespace over after the ttl and judges what came after, once', async (t) => {
    const lease = (await workLease())!;
    const victim = daemons.findIndex((d) => String(d.child.pid) === pidOf(lease.holder));
    const before = [0, 1, 2].map((i) => judgedBy(i).length);
    daemons[victim]!.child.kill('SIGKILL');
    await daemons[victim]!.exited;
    const killedAt = Date.now();
    for (let i = 0; i < 3; i++) for (let n = LINES + 1; n <= LINES + LATER; n++) appendFileSync(join(dirs[i]!, 'session.jsonl'), line(i, n));

    const taken = await eventually(async () => {
      const now = await workLease();
      return now && now.holder !== lease.holder ? now : null;
    });
    const heir = daemons.findIndex((d) => String(d.child.pid) === pidOf(taken.holder));
    assert.ok(heir >= 0 && heir !== victim, `taken over by a survivor: ${taken.holder}`);
    // Not before the dead holder's lease ran out (the database's clock decides).
    assert.ok(Date.parse(taken.acquiredAt) >= Date.parse(lease.expiresAt) - 1, `${taken.acquiredAt} after ${lease.expiresAt}`);

    await settled(3 * (LINES + 1 + LATER));
    const later = homes.flatMap((_, i) => Array.from({ length: LATER }, (_, k) => `h${i}-m${LINES + 1 + k}`)).sort();
    const fresh = [0, 1, 2].flatMap((i) => judgedBy(i).slice(before[i]!));
    assert.deepEqual([...fresh].sort(), later, 'each later turn sent to an LLM exactly once');
    assert.equal(judgedBy(heir).length - before[heir]!, fresh.length, 'all by the daemon that took the namespace over');
    const all = [0, 1, 2].flatMap(judgedBy);
    assert.equal(new Set(all).size, all.length, 'no turn judged twice across the whole run');
    t.diagnostic(`took over ${Date.parse(taken.acquiredAt) - killedAt} ms after the kill (ttl ${LEASE_SECONDS} s); ${fresh.length} later turns judged by daemon ${heir}`);
  });

  it('a stopped holder gives the namespace up at once', async () => {
    const lease = (await workLease())!;
    const holder = daemons.find((d) => String(d.child.pid) === pidOf(lease.holder))!;
    holder.child.kill('SIGTERM');
    assert.equal((await holder.exited).code, 0);
    const next = await eventually(async () => {
      const now = await workLease();
      return now && now.holder !== lease.holder ? now : null;
    });
    // Taken well before the stopped holder's lease would have run out.
    assert.ok(Date.parse(next.acquiredAt) < Date.parse(lease.expiresAt), `${next.acquiredAt} before ${lease.expiresAt}`);
  });
});
