// Query rewriting through the facade against a real HTTP fake LLM on 127.0.0.1 (OpenAI and
// Anthropic wire formats): the model's words reach BM25 and its phrasings the query vector, a
// repeated query is served from the cache, and every failure (429 with Retry-After, 500, malformed
// body, prose instead of JSON, a hang past the timeout, an open circuit, a spent budget) leaves
// the plain search with a reason. Hostile answers (huge lists, FTS syntax) are cut and quoted.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import type { CairnConfigInput } from '../../src/core/config.js';
import { MAX_REWRITE_KEYWORDS, MAX_REWRITE_QUERIES, QueryRewriter } from '../../src/search/query-rewrite.js';
import { createChatClient } from '../../src/llm/factory.js';
import { CircuitBreaker } from '../../src/llm/circuit-breaker.js';
import { llmConfigSchema } from '../../src/core/llm-config.js';
import { FakeLlmServer, reply, type LlmWire } from '../helpers/fake-llm.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';
import { HANG_GUARD_MS } from '../helpers/cli.js';
import { fakeTiming } from '../llm/fixtures.js';
import type { Timing } from '../../src/llm/retry.js';

const tmp = tempDir('cairn-rewrite-');
after(() => tmp.cleanup());
let serial = 0;

const QUERY = 'what does Ana do for fun on weekends';
const HOBBY = 'I have been painting watercolor landscapes by the river';
const OTHER = 'The quarterly budget review moved to Thursday';

function llm(fake: FakeLlmServer, wire: LlmWire = 'openai') {
  return { provider: wire, baseUrl: fake.baseUrl(wire), model: 'fake-rewriter', maxRetries: 0, timeoutMs: 5000 } as never;
}

describe('query rewriting (fake LLM on loopback)', () => {
  let fake: FakeLlmServer;
  const open: Cairn[] = [];
  before(async () => {
    fake = await FakeLlmServer.start();
  });
  after(() => fake.close());
  afterEach(async () => {
    fake.reset();
    fake.respond = () => reply.answer({ queries: [], keywords: [] });
    while (open.length) await open.pop()!.close();
  });

  /** A home with two stored memories; BM25 only unless an embedder is given. */
  async function setup(config: CairnConfigInput, embedder: HashEmbedder | null = null, llmTiming?: Timing): Promise<Cairn> {
    const home = join(tmp.dir, `home-${serial++}`);
    mkdirSync(home);
    const cairn = await Cairn.open({ home, config: { ...(embedder ? {} : { embedder: { provider: 'none' } }), ...config }, embedder, ...(llmTiming ? { llmTiming } : {}) });
    open.push(cairn);
    await cairn.remember({ text: HOBBY });
    await cairn.remember({ text: OTHER });
    if (embedder) await cairn.embedPending();
    return cairn;
  }
  const texts = (res: Awaited<ReturnType<Cairn['search']>>) => res.results.map((r) => r.text);

  for (const wire of ['openai', 'anthropic'] as const) {
    it(`${wire}: the model's words find what the query's words cannot; the request carries today's date and a schema`, async () => {
      const cairn = await setup({ judge: { llm: llm(fake, wire) } });
      assert.deepEqual(texts(await cairn.search(QUERY)), [], 'no shared word: nothing found without rewriting');
      assert.equal(fake.requests.length, 0, 'rewriting is off by default');
      fake.enqueue(reply.answer({ queries: ['I spent the weekend painting'], keywords: ['painting', 'hiking', 'hobby'] }));
      const res = await cairn.search(QUERY, { rewrite: true });
      assert.deepEqual(texts(res), [HOBBY]);
      assert.equal(res.rewrite?.status, 'used');
      assert.deepEqual(res.rewrite?.status === 'used' && res.rewrite.keywords, ['painting', 'hiking', 'hobby']);
      const body = JSON.stringify(fake.requests[0]!.body);
      assert.match(body, /what does Ana do for fun on weekends/);
      assert.match(body, /Today is \d{4}-\d{2}-\d{2}/);
      assert.match(body, wire === 'openai' ? /"response_format"/ : /JSON schema/);
    });
  }

  it('config search.queryRewrite turns it on for every search; a repeated query is served from the cache', async () => {
    const cairn = await setup({ judge: { llm: llm(fake) }, search: { queryRewrite: true } });
    fake.respond = () => reply.answer({ queries: [], keywords: ['painting'] });
    const first = await cairn.search(QUERY);
    const second = await cairn.search(QUERY);
    assert.deepEqual(texts(first), [HOBBY]);
    assert.deepEqual(texts(second), [HOBBY]);
    assert.equal(fake.requests.length, 1);
    assert.equal(second.rewrite?.status === 'used' && second.rewrite.cached, true);
    assert.equal((await cairn.search(QUERY, { rewrite: false })).rewrite, undefined, 'a search can turn it off');
    assert.equal(fake.requests.length, 1);
  });

  it('the phrasings move the query vector: vector-only search ranks the hobby first', async () => {
    const embedder = new HashEmbedder();
    const cairn = await setup({ judge: { llm: llm(fake) } }, embedder);
    fake.enqueue(reply.answer({ queries: ['painting watercolor landscapes', 'landscapes by the river'], keywords: [] }));
    const res = await cairn.search(QUERY, { rewrite: true, mode: 'vector' });
    assert.equal(res.results[0]?.text, HOBBY);
    assert.ok(embedder.calls.some((c) => c.includes('landscapes by the river')), 'the phrasings were embedded');
  });

  const failures: Array<[string, () => void, RegExp]> = [
    ['429 with Retry-After', () => fake.enqueue(reply.rateLimited('30')), /429|rate/i],
    ['500', () => fake.enqueue(reply.serverError()), /500/],
    ['a malformed body', () => fake.enqueue(reply.malformedBody()), /JSON|parse|malformed/i],
    ['prose instead of JSON', () => fake.enqueue(reply.invalidContent()), /not JSON/],
    ['JSON of the wrong shape', () => fake.enqueue(reply.answer({ queries: 'painting', keywords: 7 })), /wrong shape/],
  ];
  for (const [what, arrange, reason] of failures) {
    it(`${what}: the plain search, with the reason`, async () => {
      const cairn = await setup({ judge: { llm: llm(fake) } });
      arrange();
      const res = await cairn.search('budget review', { rewrite: true });
      assert.deepEqual(texts(res), [OTHER]);
      assert.equal(res.rewrite?.status, 'skipped');
      assert.match(res.rewrite?.status === 'skipped' ? res.rewrite.reason : '', reason);
    });
  }

  it('a model that hangs past search.queryRewriteTimeoutMs is abandoned; three failures open the circuit', { timeout: HANG_GUARD_MS }, async () => {
    // The client would wait 10 minutes for the hanging model: only the rewrite's own 300 ms deadline
    // ends these searches (else the test's hang guard fails it). The breaker's clock stands still,
    // so its cool-down never ends during the test.
    const slowLlm = { ...(llm(fake) as object), timeoutMs: 600_000 } as never;
    const cairn = await setup({ judge: { llm: slowLlm, coolDownSeconds: 60 }, search: { queryRewriteTimeoutMs: 300 } }, null, fakeTiming());
    fake.respond = () => reply.hang();
    const res = await cairn.search('budget review', { rewrite: true });
    assert.deepEqual(texts(res), [OTHER]);
    assert.equal(res.rewrite?.status, 'skipped');
    await cairn.search('budget review again', { rewrite: true });
    await cairn.search('budget review once more', { rewrite: true });
    const asked = fake.requests.length;
    assert.equal(asked, 3);
    const cooled = await cairn.search('the budget', { rewrite: true });
    assert.equal(fake.requests.length, asked, 'no request while the circuit is open');
    assert.match(cooled.rewrite?.status === 'skipped' ? cooled.rewrite.reason : '', /cooling down/);
    assert.deepEqual(texts(cooled), [OTHER]);
  });

  it('a spent daily budget skips the model; without a chat model rewriting says so', async () => {
    const broke = await setup({ judge: { llm: llm(fake), dailyBudgetUsd: 0 } });
    const res = await broke.search('budget review', { rewrite: true });
    assert.match(res.rewrite?.status === 'skipped' ? res.rewrite.reason : '', /budget/);
    assert.equal(fake.requests.length, 0);
    const offline = await setup({ search: { queryRewrite: true } });
    const plain = await offline.search('budget review');
    assert.deepEqual(texts(plain), [OTHER]);
    assert.match(plain.rewrite?.status === 'skipped' ? plain.rewrite.reason : '', /no chat model/);
  });

  it('hostile answers: long lists and long items are cut, FTS syntax is only words, the query itself is dropped', async () => {
    const cairn = await setup({ judge: { llm: llm(fake) } });
    fake.enqueue(
      reply.answer({
        queries: [QUERY, ...Array.from({ length: 60 }, (_, i) => `phrasing ${i} ${'x'.repeat(5000)}`)],
        keywords: ['"NEAR(painting', 'budget* OR', ')', '', '   ', ...Array.from({ length: 80 }, (_, i) => `kw${i}`)],
      }),
    );
    const res = await cairn.search(QUERY, { rewrite: true });
    assert.equal(res.rewrite?.status, 'used');
    if (res.rewrite?.status !== 'used') return;
    assert.equal(res.rewrite.queries.length, MAX_REWRITE_QUERIES);
    assert.ok(!res.rewrite.queries.includes(QUERY));
    assert.ok(res.rewrite.queries.every((q) => q.length <= 200));
    assert.equal(res.rewrite.keywords.length, MAX_REWRITE_KEYWORDS);
    assert.deepEqual(texts(res).sort(), [HOBBY, OTHER].sort(), 'the quoted words matched, nothing broke');
  });

  it('a failing budget ledger is a skipped rewrite, never a failed search', async () => {
    const client = createChatClient(llmConfigSchema().parse({ provider: 'openai', baseUrl: fake.baseUrl('openai'), model: 'fake-rewriter', maxRetries: 0 }));
    const broken = { canSpend: async () => { throw new Error('database is locked'); }, record: async () => { throw new Error('database is locked'); } };
    const rewriter = new QueryRewriter(client, new CircuitBreaker(), { timeoutMs: 2000, spend: broken });
    const out = await rewriter.expand('ns', 'anything', '2026-11-22');
    assert.deepEqual(out, { status: 'skipped', reason: 'query rewrite failed: database is locked' });
    const recordOnly = new QueryRewriter(client, new CircuitBreaker(), { timeoutMs: 2000, spend: { canSpend: async () => true, record: broken.record } });
    fake.enqueue(reply.serverError());
    assert.equal((await recordOnly.expand('ns', 'anything', '2026-11-22')).status, 'skipped');
  });

  it('bad input: rewrite must be a boolean', async () => {
    const cairn = await setup({});
    await assert.rejects(cairn.search('x', { rewrite: 'yes' as never }), (err: Error & { code?: string }) => err.code === 'INVALID_INPUT' && /rewrite/.test(err.message));
  });
});
