// Kill -9 the real daemon at chosen points while it judges a few thousand turns through a slow,
// sometimes failing loopback LLM (so batches are in flight, fall back, and get re-judged), restart
// it each time, and check the end state: every turn has exactly one judgment, none is left
// unjudged or marked for re-judging, and re-judging never duplicated a memory. Also: SIGTERM
// during an LLM request exits cleanly without recording a fallback for the cancelled batch.
//
// The kill points are deterministic, not timed: the fake LLM kills the daemon when its n-th
// request of that run arrives (n drawn, seeded), so the daemon dies with that batch in flight
// however loaded the machine is.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { assertBuilt, cliJson, makeHome, removeHome } from '../helpers/cli.js';
import { eventually, startDaemon, type DaemonProcess } from '../helpers/daemon.js';
import { FakeLlmServer, reply } from '../helpers/fake-llm.js';
import { judgePrompt, judgmentsJson, type FakeVerdict, type PromptTurn } from '../helpers/fake-judge.js';
import { HEURISTIC_VERSION } from '../../src/judge/heuristic.js';
import { LLM_PROMPT_VERSION } from '../../src/judge/llm-judge.js';
import { seeded as prng } from '../helpers/prng.js';

const KILLS = 12;
const FILES = 4;
const LINES_PER_FILE = 600;
const NS = 'judged';
const LLM = `llm:openai/fake-judge@${LLM_PROMPT_VERSION}`;
/** Only stops a hang: this test restarts a daemon 13 times and may run for minutes on a busy machine. */
const TEST_GUARD_MS = 30 * 60_000;


const WORDS = 'staging database port queue retry budget kafka broker deploy rollback invoice customer schema migration latency cache index vector'.split(' ');

/** Each turn says who it is (`#f2-m17`), so the fake's verdict and statement are a function of the turn. */
function makeLine(rand: () => number, file: number, n: number): string {
  const words = Array.from({ length: 8 + Math.floor(rand() * 14) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const text = n % 10 === 9 ? 'ok' : `We decided #f${file}-m${n}: ${words} on port ${5000 + n}.`;
  return JSON.stringify({ id: `f${file}-m${n}`, role: n % 2 ? 'assistant' : 'user', content: text, session: `s${file}`, timestamp: new Date(Date.UTC(2026, 2, 2, 9, 0, n)).toISOString() });
}

function tagOf(text: string): string | null {
  return /#(f\d+-m\d+)/.exec(text)?.[1] ?? null;
}

/** The fake judge's verdict for a turn: importance from its number, a statement naming it. */
function verdict(text: string): FakeVerdict {
  const tag = tagOf(text) ?? 'untagged';
  const n = Number(tag.split('-m')[1] ?? 0);
  const importance = 1 + ((n * 7) % 10);
  return { importance, category: 'decision', reason: `fake ${tag}`, statement: importance >= 5 ? `Statement about ${tag}.` : null };
}

describe('kill -9 while judging through an LLM: every turn judged exactly once, no duplicate memories', () => {
  let home: string;
  let dir: string;
  let fake: FakeLlmServer;
  let failRate = 0.12;
  /** The daemon to kill when the LLM receives its `killAt`-th request of this run (then left hanging). */
  let victim: { daemon: DaemonProcess; killAt: number; requests: number } | null = null;
  const rand = prng(20261122);
  const counters = Array.from({ length: FILES }, () => 0);

  function grow(file: number, lines: number): void {
    const out: string[] = [];
    for (let i = 0; i < lines; i++) out.push(makeLine(rand, file, counters[file]!++));
    appendFileSync(join(dir, `t${file}.jsonl`), out.join('\n') + '\n');
  }

  before(async () => {
    assertBuilt();
    fake = await FakeLlmServer.start();
    const answerRand = prng(7);
    fake.respond = (req) => {
      if (victim && ++victim.requests === victim.killAt) {
        victim.daemon.child.kill('SIGKILL');
        victim = null;
        return reply.hang();
      }
      if (answerRand() < failRate) return reply.serverError();
      const turns: PromptTurn[] = judgePrompt(req).turns;
      return reply.answer(judgmentsJson(turns.map((t) => verdict(t.text))), { delayMs: 50 + Math.floor(answerRand() * 100) });
    };
    home = makeHome({
      embedder: { provider: 'none' },
      capture: { batchLines: 200 },
      judge: {
        llm: { provider: 'openai', baseUrl: fake.baseUrl('openai'), model: 'fake-judge', maxRetries: 0, timeoutMs: 3000 },
        batchSize: 20,
        contextTurns: 4,
        coolDownSeconds: 1,
      },
    });
    dir = join(home, 'transcripts');
    mkdirSync(dir);
    for (let f = 0; f < FILES; f++) writeFileSync(join(dir, `t${f}.jsonl`), '');
    for (let f = 0; f < FILES; f++) grow(f, LINES_PER_FILE);
    await cliJson(['-n', NS, 'sources', 'add', 'jsonl', dir, '--json'], { home });
  });

  after(async () => {
    await fake.close();
    removeHome(home);
  });

  const query = <T>(sql: string): T[] => {
    const db = new Database(join(home, 'cairn.db'), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all() as T[];
    } catch {
      return []; // not created yet
    } finally {
      db.close();
    }
  };
  const progress = () =>
    query<{ turns: number; judged: number; rejudge: number }>(
      `SELECT (SELECT COUNT(*) FROM turns WHERE namespace = '${NS}') AS turns,
              (SELECT COUNT(*) FROM judgments WHERE namespace = '${NS}') AS judged,
              (SELECT COUNT(*) FROM judgments WHERE namespace = '${NS}' AND needs_rejudge = 1) AS rejudge`,
    )[0] ?? { turns: 0, judged: 0, rejudge: 0 };

  it(`survives ${KILLS} kill -9 at chosen points while judging`, { timeout: TEST_GUARD_MS }, async (t) => {
    const started = Date.now();
    let midJudging = 0;
    const seen: number[] = [];
    const points: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      // New turns keep arriving between some restarts.
      if (k % 3 === 1) grow(k % FILES, 40 + Math.floor(rand() * 60));
      const d = startDaemon(home, ['--debounce-ms', '20', '--rescan-seconds', '1']);
      // Killed by the fake LLM when this daemon's n-th request arrives: that batch is in flight.
      // Every run has judging left (a run judges at most n batches of 20 of thousands of turns).
      const killAt = 1 + Math.floor(rand() * 6);
      points.push(killAt);
      victim = { daemon: d, killAt, requests: 0 };
      await eventually(async () => d.child.exitCode !== null || d.child.signalCode !== null);
      assert.equal((await d.exited).signal, 'SIGKILL', d.output().slice(-2000));
      const p = progress();
      seen.push(p.judged);
      // The kill landed while there was judging left to do (unjudged turns or fallbacks to redo).
      if (p.turns > 0 && (p.judged < p.turns || p.rejudge > 0)) midJudging++;
    }
    assert.equal(midJudging, KILLS, `kills mid-judging (killed at requests ${points.join(', ')}; judged after each: ${seen.join(', ')})`);
    assert.ok(seen.at(-1)! > 0, 'judging made progress across restarts');
    const failedRequests = fake.requests.length;
    assert.ok(failedRequests > 0);

    // The provider recovers; the last daemon finishes the work: every turn judged, fallbacks re-judged.
    failRate = 0;
    const expected = counters.reduce((a, b) => a + b, 0);
    const final = startDaemon(home, ['--debounce-ms', '20', '--rescan-seconds', '1']);
    try {
      await eventually(async () => {
        const p = progress();
        return p.turns === expected && p.judged === expected && p.rejudge === 0;
      }, undefined, 250);
    } finally {
      final.child.kill('SIGTERM');
      assert.equal((await final.exited).code, 0);
    }

    const [counts] = query<{ turns: number; judgments: number; distinctTurns: number; unjudged: number; orphans: number }>(
      `SELECT (SELECT COUNT(*) FROM turns WHERE namespace = '${NS}') AS turns,
              (SELECT COUNT(*) FROM judgments) AS judgments,
              (SELECT COUNT(DISTINCT turn_id) FROM judgments) AS distinctTurns,
              (SELECT COUNT(*) FROM turns t WHERE NOT EXISTS (SELECT 1 FROM judgments j WHERE j.turn_id = t.id)) AS unjudged,
              (SELECT COUNT(*) FROM judgments j WHERE NOT EXISTS (SELECT 1 FROM turns t WHERE t.id = j.turn_id)) AS orphans`,
    );
    assert.equal(counts!.turns, expected, 'every line captured once');
    assert.deepEqual([counts!.judgments, counts!.distinctTurns, counts!.unjudged, counts!.orphans], [expected, expected, 0, 0]);

    // Memories: one per promoted turn, never two for the same turn or the same text.
    const memories = query<{ id: string; text: string; mentions: number; provenance: string; importance: number }>(`SELECT id, text, mentions, provenance, importance FROM memories WHERE namespace = '${NS}'`);
    const judgments = query<{ turn_id: string; text: string; importance: number; judge: string; statement: string | null; memory_id: string | null; speaker: string | null }>(
      `SELECT j.turn_id, t.text, j.importance, j.judge, j.statement, j.memory_id, t.speaker FROM judgments j JOIN turns t ON t.id = j.turn_id WHERE j.namespace = '${NS}'`,
    );
    const linked = judgments.filter((j) => j.memory_id !== null);
    assert.equal(new Set(memories.map((m) => m.text)).size, memories.length, 'no two memories with the same text');
    assert.equal(memories.length, new Set(linked.map((j) => j.memory_id)).size, 'every memory belongs to a judged turn');
    assert.equal(linked.length, memories.length, 'no memory shared by two turns (texts are distinct)');
    for (const m of memories) assert.equal(m.mentions, 1, `${m.text} stored again by a re-judgment`);
    const byId = new Map(memories.map((m) => [m.id, m]));
    let byLlm = 0;
    for (const j of judgments) {
      if (j.judge === LLM) {
        byLlm++;
        // The verdict stored is the one the LLM gave for this very turn (batches never misaligned).
        const v = verdict(j.text);
        assert.deepEqual([j.importance, j.statement], [v.importance, v.statement ?? null], j.text);
      } else {
        assert.equal(j.judge, HEURISTIC_VERSION, `${j.text}: judged by ${j.judge}`);
        assert.equal(j.text, 'ok', 'only prefiltered noise stays with the heuristic once the LLM is back');
      }
      // At or above the bar means a memory; below it, a memory the fallback made earlier may stay (with the lower score).
      if (j.importance >= 5) assert.ok(j.memory_id, `${j.text} (${j.importance}) is not a memory`);
      if (j.memory_id) {
        const m = byId.get(j.memory_id)!;
        assert.equal(m.importance, j.importance, 'the memory follows the latest judgment');
        assert.deepEqual(JSON.parse(m.provenance)[0].turnIds, [j.turn_id]);
        // Made from the LLM's statement, or (promoted by the fallback first) from the turn itself.
        assert.ok(m.text === j.statement || m.text === j.text, `${m.text} vs ${j.statement} / ${j.text}`);
      }
    }
    assert.ok(byLlm > expected * 0.8, `${byLlm} of ${expected} judged by the LLM`);
    const usage = query<{ calls: number; failures: number; fallbacks: number }>(`SELECT calls, failures, fallbacks FROM llm_usage WHERE namespace = '${NS}'`);
    assert.ok(usage.reduce((n, u) => n + u.failures, 0) > 0, 'some requests failed and fell back');
    const total = usage.reduce((acc, u) => ({ calls: acc.calls + u.calls, failures: acc.failures + u.failures, fallbacks: acc.fallbacks + u.fallbacks }), { calls: 0, failures: 0, fallbacks: 0 });
    t.diagnostic(`${expected} turns, ${midJudging}/${KILLS} kills mid-judging (judged after each: ${seen.join(', ')}); ${fake.requests.length} LLM requests, usage ${JSON.stringify(total)}; ${memories.length} memories; ${Date.now() - started} ms`);
  });
});

describe('SIGTERM during an LLM request', () => {
  it('exits cleanly, leaving the batch in flight unjudged (judged by the LLM after the restart, not by the fallback)', { timeout: TEST_GUARD_MS }, async () => {
    assertBuilt();
    const fake = await FakeLlmServer.start();
    // The first request is never answered, and the client would wait 10 minutes for it: a daemon
    // that awaited it instead of cancelling it would not exit, and the hang guard of startDaemon
    // would kill it (signal SIGKILL, not exit code 0).
    let hang = true;
    fake.respond = (req) => (hang ? reply.hang() : reply.answer(judgmentsJson(judgePrompt(req).turns.map(() => ({ importance: 7, category: 'decision' })))));
    const home = makeHome({
      embedder: { provider: 'none' },
      judge: { llm: { provider: 'anthropic', baseUrl: fake.baseUrl('anthropic'), model: 'fake-judge', maxRetries: 0, timeoutMs: 600_000 } },
    });
    try {
      const dir = join(home, 'transcripts');
      mkdirSync(dir);
      writeFileSync(join(dir, 'a.jsonl'), Array.from({ length: 5 }, (_, i) => JSON.stringify({ role: 'user', content: `We decided to ship release ${i + 1} on Friday after the review.`, id: `m${i}` })).join('\n') + '\n');
      await cliJson(['-n', NS, 'sources', 'add', 'jsonl', dir, '--json'], { home });
      const d = startDaemon(home, ['--rescan-seconds', '1']);
      await eventually(async () => fake.requests.length >= 1, undefined, 20);
      d.child.kill('SIGTERM');
      const { code, signal } = await d.exited;
      assert.deepEqual([code, signal], [0, null], 'the request in flight was cancelled, not awaited');
      const read = <T>(sql: string): T[] => {
        const db = new Database(join(home, 'cairn.db'), { readonly: true, fileMustExist: true });
        try {
          return db.prepare(sql).all() as T[];
        } finally {
          db.close();
        }
      };
      assert.equal(read<{ n: number }>('SELECT COUNT(*) AS n FROM judgments')[0]!.n, 0, 'no fallback judgment for a cancelled request');
      assert.equal(read<{ n: number }>('SELECT COALESCE(SUM(failures), 0) AS n FROM llm_usage')[0]!.n, 0);
      hang = false;
      const again = startDaemon(home, ['--rescan-seconds', '1']);
      try {
        await eventually(async () => read<{ n: number }>(`SELECT COUNT(*) AS n FROM judgments WHERE judge = 'llm:anthropic/fake-judge@${LLM_PROMPT_VERSION}'`)[0]!.n === 5);
      } finally {
        again.child.kill('SIGTERM');
        assert.equal((await again.exited).code, 0);
      }
    } finally {
      await fake.close();
      removeHome(home);
    }
  });
});
