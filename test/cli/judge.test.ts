// The judge by hand through the real built CLI: `cairn judge` (offline and through a loopback
// LLM), `cairn judge --rejudge --since 1d --json`, `cairn feedback` (and its flag errors), the judge
// section of `cairn status`, and a bad judge config.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Cairn } from '../../src/service/cairn.js';
import { HEURISTIC_VERSION } from '../../src/judge/heuristic.js';
import { LLM_PROMPT_VERSION } from '../../src/judge/llm-judge.js';
import { NO_EMBEDDER, assertBuilt, cliJson, makeHome, removeHome, runCli, writeConfig } from '../helpers/cli.js';
import { FakeLlmServer, reply } from '../helpers/fake-llm.js';
import { judgePrompt, judgeWith } from '../helpers/fake-judge.js';

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** Stores turns without judging them (as a capture whose judge stage has not run yet). */
async function addTurns(home: string, namespace: string, turns: Array<{ id: string; text: string; timestamp: string }>): Promise<void> {
  const cairn = await Cairn.open({ home, embedder: null });
  try {
    await cairn.store.addTurns(turns.map((t, i) => ({ namespace, sessionId: 'cli', messageId: t.id, role: 'user', speaker: 'Ana', text: t.text, timestamp: t.timestamp, line: i + 1 })));
  } finally {
    await cairn.close();
  }
}

async function turnId(home: string, namespace: string, messageId: string): Promise<string> {
  const cairn = await Cairn.open({ home, embedder: null });
  try {
    const found = (await cairn.store.turnsAfter(namespace, 0, 1000)).find((r) => r.turn.messageId === messageId);
    assert.ok(found, messageId);
    return found.turn.id;
  } finally {
    await cairn.close();
  }
}

const TURNS = [
  { id: 'c1', text: 'We decided to move the staging database to port 5433 on Monday.', timestamp: ago(30 * 24 * HOUR) },
  { id: 'c2', text: 'ok', timestamp: ago(30 * 24 * HOUR) },
  { id: 'c3', text: 'Could you show me the list of files in the current folder one more time please?', timestamp: ago(2 * HOUR) },
  { id: 'c4', text: 'I prefer tabs over spaces in every Go file of this repository, always.', timestamp: ago(HOUR) },
];

describe('cairn judge / feedback / status (CLI)', () => {
  const homes: string[] = [];
  let fake: FakeLlmServer;
  before(async () => {
    assertBuilt();
    fake = await FakeLlmServer.start();
  });
  after(async () => {
    homes.forEach(removeHome);
    await fake.close();
  });
  const home = (config: object = NO_EMBEDDER) => {
    const h = makeHome(config);
    homes.push(h);
    return h;
  };

  it('judges pending turns offline; a second run finds nothing; status --json shows the judge', async () => {
    const h = home();
    await addTurns(h, 'cli', TURNS);
    const pending = await cliJson(['status', '--json'], { home: h });
    assert.deepEqual(pending.judge.namespaces.map((n: any) => [n.namespace, n.judged, n.pending]), [['cli', 0, 4]]);
    assert.ok(pending.warnings.some((w: string) => /4 turns are not judged yet: run "cairn judge"/.test(w)), JSON.stringify(pending.warnings));

    const text = await runCli(['judge'], { home: h });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^Judged 4 turns \\(4 by ${HEURISTIC_VERSION.replace('.', '\\.')}\\); \\d became or fed memories\\n$`));
    const again = await cliJson(['judge', '--json'], { home: h });
    assert.deepEqual([again.judged, again.promoted, again.llmRequests], [0, 0, 0]);

    const status = await cliJson(['status', '--json'], { home: h });
    assert.equal(status.judge.threshold, 5);
    assert.equal(status.judge.llm, null);
    const ns = status.judge.namespaces.find((n: any) => n.namespace === 'cli');
    assert.deepEqual([ns.judged, ns.pending, ns.needsRejudge, ns.byJudge], [4, 0, 0, { [HEURISTIC_VERSION]: 4 }]);
    assert.ok(ns.promoted >= 2 && ns.promoted < 4, String(ns.promoted));
    assert.deepEqual(status.judge.today.usage, []);
    assert.match(status.judge.today.day, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(!status.warnings.some((w: string) => /not judged yet/.test(w)));
    const human = await runCli(['status'], { home: h });
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /Judge: heuristic \(offline\) · memories from importance ≥ 5/);
    assert.match(human.stdout, /cli\s+judged 4 · pending 0 · promoted \d/);
  });

  it('judges through a loopback LLM; --rejudge --since 1d --json only touches the last day; status shows calls and tokens', async () => {
    const config = { ...NO_EMBEDDER, judge: { llm: { provider: 'ollama', baseUrl: fake.baseUrl('ollama'), model: 'fake-judge', maxRetries: 0, timeoutMs: 5000 } } };
    const h = home(config);
    fake.reset();
    fake.respond = judgeWith((t) => (/decided|prefer/.test(t.text) ? { importance: 7, category: /prefer/.test(t.text) ? 'preference' : 'decision', statement: `Ana: ${t.text}` } : { importance: 3, category: 'fact' }));
    await addTurns(h, 'cli', TURNS);
    const first = await cliJson(['-n', 'cli', 'judge', '--json'], { home: h });
    const llm = `llm:ollama/fake-judge@${LLM_PROMPT_VERSION}`;
    // "ok" and the request for a file list are noise to the prefilter; the other two go to the LLM in one batch.
    assert.deepEqual([first.judged, first.llmRequests, first.fallbacks, first.byJudge], [4, 1, 0, { [llm]: 2, [HEURISTIC_VERSION]: 2 }]);
    assert.equal(first.promoted, 2);
    assert.equal(fake.requests.length, 1);
    assert.deepEqual(judgePrompt(fake.requests[0]!).turns.map((t) => t.text), [TURNS[0]!.text, TURNS[3]!.text]);

    fake.reset();
    const re = await cliJson(['judge', '--rejudge', '--since', '1d', '--json'], { home: h });
    assert.equal(re.judged, 2, 'only c3 and c4 are from the last day');
    assert.deepEqual(re.byJudge, { [llm]: 1, [HEURISTIC_VERSION]: 1 });
    assert.deepEqual(fake.requests.flatMap((r) => judgePrompt(r).turns.map((t) => t.text)), [TURNS[3]!.text]);
    const status = await cliJson(['status', '--json'], { home: h });
    assert.deepEqual(status.judge.llm, { provider: 'ollama', model: 'fake-judge', dailyBudgetUsd: 0.5 });
    const usage = status.judge.today.usage.find((u: any) => u.namespace === 'cli');
    assert.deepEqual([usage.calls, usage.failures, usage.fallbacks], [2, 0, 0]);
    assert.ok(usage.tokensIn > 0 && usage.tokensOut > 0);
    assert.equal(status.totals.memories, 2, 're-judging made no duplicate memories');
    const human = await runCli(['status'], { home: h });
    assert.match(human.stdout, /Judge: LLM ollama\/fake-judge \(budget \$0\.5\/day per namespace\) with the heuristic as fallback/);
    assert.match(human.stdout, /LLM today \(\d{4}-\d{2}-\d{2}\) cli: 2 calls, 0 failures, 0 fallbacks, \d+\+\d+ tokens, \$0\.0000/);

    // Bad flag combinations and times are usage-level errors (exit 3), before anything changes.
    const orphan = await runCli(['judge', '--since', '1d'], { home: h });
    assert.equal(orphan.code, 3);
    assert.match(orphan.stderr, /--since and --fallbacks-only go with --rejudge/);
    const badSince = await runCli(['judge', '--rejudge', '--since', 'yesterday-ish', '--json'], { home: h });
    assert.equal(badSince.code, 3);
    assert.equal(JSON.parse(badSince.stderr).error.code, 'INVALID_INPUT');
    assert.equal(fake.requests.length, 1);
  });

  it('a down LLM: turns are judged by the fallback, and --rejudge --fallbacks-only re-judges them once it is back', async () => {
    const config = { ...NO_EMBEDDER, judge: { llm: { provider: 'openai', baseUrl: fake.baseUrl('openai'), model: 'fake-judge', maxRetries: 0, timeoutMs: 5000 }, batchSize: 1 } };
    const h = home(config);
    fake.reset();
    fake.respond = () => ({ type: 'status', status: 500 });
    await addTurns(h, 'cli', TURNS);
    const down = await cliJson(['judge', '--json'], { home: h });
    assert.deepEqual([down.judged, down.fallbacks], [4, 2]);
    assert.equal(fake.requests.length, 2);
    let status = await cliJson(['status', '--json'], { home: h });
    assert.equal(status.judge.namespaces[0].needsRejudge, 2);
    assert.deepEqual(status.judge.today.usage.map((u: any) => [u.namespace, u.calls, u.failures, u.fallbacks]), [['cli', 2, 2, 2]]);
    fake.reset();
    fake.respond = judgeWith(() => ({ importance: 6, category: 'fact' }));
    const back = await cliJson(['judge', '--rejudge', '--fallbacks-only', '--json'], { home: h });
    assert.deepEqual([back.judged, back.fallbacks, back.llmRequests], [2, 0, 2]);
    status = await cliJson(['status', '--json'], { home: h });
    assert.equal(status.judge.namespaces[0].needsRejudge, 0);
  });

  it('cairn feedback: --important makes a turn a memory, --not-important lowers it; both or neither flag exits 3; bad ids exit 3 or 4', async () => {
    const h = home();
    await addTurns(h, 'cli', TURNS);
    await cliJson(['judge', '--json'], { home: h });
    const c3 = await turnId(h, 'cli', 'c3');
    const up = await cliJson(['-n', 'cli', 'feedback', c3, '--important', '--json'], { home: h });
    assert.equal(up.turnId, c3);
    assert.ok(up.importance >= 8);
    assert.match(up.memoryId, /^m_/);
    assert.equal(up.feedback.important, true);
    const memory = await cliJson(['-n', 'cli', 'get', up.memoryId, '--json'], { home: h });
    assert.ok(memory.importance >= 8);
    assert.deepEqual(memory.provenance[0].turnIds, [c3]);

    const text = await runCli(['-n', 'cli', 'feedback', up.memoryId, '--not-important'], { home: h });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^Noted: ${up.memoryId} is not important; turn ${c3} now has importance 3 \\(memory ${up.memoryId}\\)`));
    assert.equal((await cliJson(['-n', 'cli', 'get', up.memoryId, '--json'], { home: h })).importance, 3);

    const both = await runCli(['-n', 'cli', 'feedback', c3, '--important', '--not-important'], { home: h });
    assert.equal(both.code, 3);
    assert.match(both.stderr, /exactly one of --important or --not-important/);
    const neither = await runCli(['-n', 'cli', 'feedback', c3, '--json'], { home: h });
    assert.equal(neither.code, 3);
    assert.equal(JSON.parse(neither.stderr).error.code, 'INVALID_INPUT');
    for (const bad of ['../../etc/passwd', "t_1' OR '1'='1", `t_${'a'.repeat(10_000)}`]) {
      const r = await runCli(['-n', 'cli', 'feedback', bad, '--important'], { home: h });
      assert.equal(r.code, 3, `${bad.slice(0, 30)}: ${r.stderr}`);
    }
    const missing = await runCli(['-n', 'cli', 'feedback', 't_doesnotexist', '--important'], { home: h });
    assert.equal(missing.code, 4);
    const otherNs = await runCli(['-n', 'elsewhere', 'feedback', c3, '--important'], { home: h });
    assert.equal(otherNs.code, 4, 'namespaces are walls');
    const missingArg = await runCli(['feedback', '--important'], { home: h });
    assert.equal(missingArg.code, 2);
    // Only the two good labels were stored.
    const cairn = await Cairn.open({ home: h, embedder: null });
    try {
      assert.deepEqual((await cairn.store.listFeedback('cli', 10)).map((f) => f.important), [false, true]);
      assert.equal((await cairn.store.listFeedback('elsewhere', 10)).length, 0);
    } finally {
      await cairn.close();
    }
  });

  it('a bad judge config is a CONFIG error (exit 6) naming the key', async () => {
    const h = home();
    for (const [judge, key] of [
      [{ threshold: -1 }, /judge\.threshold/],
      [{ batchsize: 4 }, /unknown key "judge\.batchsize"/],
      [{ llm: { provider: 'olama', model: 'x' } }, /judge\.llm\.provider/],
    ] as const) {
      writeConfig(h, { ...NO_EMBEDDER, judge });
      const r = await runCli(['judge'], { home: h });
      assert.equal(r.code, 6, r.stderr);
      assert.match(r.stderr, key);
    }
    writeFileSync(join(h, 'config.json'), JSON.stringify(NO_EMBEDDER));
    assert.equal((await runCli(['judge'], { home: h })).code, 0);
  });

  it('search --rewrite --explain shows what the model added; --no-rewrite overrides search.queryRewrite; a failure is a note', async () => {
    const llm = { provider: 'openai', baseUrl: fake.baseUrl('openai'), model: 'fake-rewriter', maxRetries: 0, timeoutMs: 5000 };
    const h = home({ ...NO_EMBEDDER, judge: { llm }, search: { queryRewrite: true } });
    fake.reset();
    fake.respond = () => reply.answer({ queries: ['I go climbing on Saturdays'], keywords: ['climbing', 'bouldering'] });
    const stored = await runCli(['-n', 'cli', 'store', 'Saturday bouldering at the climbing gym is my favourite thing'], { home: h });
    assert.equal(stored.code, 0, stored.stderr);
    const found = await runCli(['-n', 'cli', 'search', 'hobbies', '--rewrite', '--explain'], { home: h });
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, /rewritten in \d+ ms: "I go climbing on Saturdays", climbing, bouldering/);
    assert.match(found.stdout, /bouldering at the climbing gym/);
    const plain = await runCli(['-n', 'cli', 'search', 'hobbies', '--no-rewrite'], { home: h });
    assert.match(plain.stdout, /No results/);
    assert.equal(fake.requests.length, 1, '--no-rewrite sent nothing');
    fake.enqueue(reply.serverError());
    const failed = await runCli(['-n', 'cli', 'search', 'favourite thing'], { home: h });
    assert.equal(failed.code, 0);
    assert.match(failed.stderr, /note: searched without rewriting: query rewrite failed: .*500/);
    assert.match(failed.stdout, /climbing gym/);
  });
});

