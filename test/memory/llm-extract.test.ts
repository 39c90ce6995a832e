// The LLM knowledge extractor against a real loopback fake LLM (OpenAI-compatible, Anthropic and
// Ollama wire formats) and a real SQLite budget ledger: good answers, malformed JSON, wrong types,
// extra fields, 500s up to an open breaker, timeouts, a spent budget, hostile strings, and answers
// that skip, repeat or invent memories. Whatever goes wrong, the result is null or a missing entry
// (the offline extractor's turn), never an exception.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseConfig, type CairnConfig } from '../../src/core/config.js';
import { budgetDay } from '../../src/llm/budget.js';
import { KNOWLEDGE_PROMPT_VERSION, MAX_MEMORIES_PER_REQUEST, createLlmKnowledgeExtractor, type KnowledgeItem } from '../../src/memory/knowledge/llm-extract.js';
import { MAX_ENTITIES_PER_MEMORY } from '../../src/memory/knowledge/llm-extract-validate.js';
import { createLlmRuntime } from '../../src/service/llm-runtime.js';
import { SqliteStore } from '../../src/store/index.js';
import { FakeLlmServer, reply, type LlmWire } from '../helpers/fake-llm.js';
import { OPENAI_KEY } from '../helpers/secrets.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { instantRetry } from '../llm/fixtures.js';

const tmp = tempDir('cairn-llmx-');
after(() => tmp.cleanup());
let serial = 0;
const NS = 'work';
const TIME = '2026-03-10T09:00:00.000Z';

const item = (id: string, text: string, ctx: Partial<KnowledgeItem['ctx']> = {}): KnowledgeItem => ({ id, text, ctx: { time: TIME, ...ctx } });

const ITEMS: KnowledgeItem[] = [
  item('m_port', 'We moved the staging database to port 6543 since 2026-03-02.', { speaker: 'Ana', role: 'user', userNames: ['Ana Souza'] }),
  item('m_sister', 'My sister Maria lives in Lisbon and loves Cairn.', { role: 'user' }),
  item('m_ok', 'Thanks, great!', { role: 'user' }),
];

const entity = (name: string, type: string, confidence = 0.9, relation: string | null = null) => ({ name, type, relation, confidence });
const fact = (subject: string, attribute: string, value: string, validFrom: string | null = null, confidence = 0.8) => ({ subject, attribute, value, validFrom, confidence });

const GOOD = {
  memories: [
    { index: 0, entities: [entity('staging database', 'tool', 0.7)], facts: [fact('the staging database', 'port', '6543', '2026-03-02')] },
    { index: 1, entities: [entity('Maria', 'person', 0.95, 'sister'), entity('Lisbon', 'place'), entity('Cairn', 'project', 0.6)], facts: [fact('Maria', 'lives in', 'Lisbon')] },
    { index: 2, entities: [], facts: [] },
  ],
};

describe('LLM knowledge extractor', () => {
  let fake: FakeLlmServer;
  const stores: SqliteStore[] = [];
  before(async () => {
    fake = await FakeLlmServer.start();
  });
  after(async () => {
    await fake.close();
    for (const s of stores) s.close();
  });
  afterEach(() => fake.reset());

  function setup(wire: LlmWire = 'openai', judge: Record<string, unknown> = {}, llm: Record<string, unknown> = {}, knowledge: Record<string, unknown> = {}) {
    const config: CairnConfig = parseConfig({
      timezone: 'UTC',
      judge: { llm: { provider: wire, baseUrl: fake.baseUrl(wire), model: 'fake-extractor', maxRetries: 0, timeoutMs: 5000, ...llm }, ...judge },
      knowledge: { llm: true, ...knowledge },
    });
    const store = new SqliteStore(join(tmp.dir, `cairn-${serial++}.db`));
    stores.push(store);
    const runtime = createLlmRuntime(store, config, { retry: instantRetry });
    const extractor = createLlmKnowledgeExtractor({ config, runtime, transport: { retry: instantRetry } });
    assert.ok(extractor && runtime);
    const today = () => store.usageGet(NS, budgetDay(Date.now(), 'UTC'));
    return { extractor, runtime, store, today };
  }

  const userPrompt = (i: number): string => fake.requests[i]!.body.messages.find((m: { role: string }) => m.role === 'user').content;

  for (const wire of ['openai', 'anthropic', 'ollama'] as const) {
    it(`${wire}: a good answer gives each memory its entities and facts, spent from the judge's budget`, async () => {
      const { extractor, today } = setup(wire);
      assert.equal(extractor.extractor, `llm:${wire}/fake-extractor@${KNOWLEDGE_PROMPT_VERSION}`);
      assert.equal(KNOWLEDGE_PROMPT_VERSION, 'knowledge-1');
      fake.enqueue(reply.answer(GOOD));
      const res = await extractor.extract(NS, ITEMS);
      assert.ok(res);
      assert.deepEqual([...res.keys()], ['m_port', 'm_sister', 'm_ok']);
      assert.deepEqual(res.get('m_port'), {
        entities: [{ name: 'staging database', type: 'tool', confidence: 0.7 }],
        facts: [{ subject: 'the staging database', attribute: 'port', value: '6543', validFrom: '2026-03-02T00:00:00.000Z', confidence: 0.8 }],
      });
      assert.deepEqual(res.get('m_sister')!.entities, [
        { name: 'Maria', type: 'person', relation: 'sister', confidence: 0.95 },
        { name: 'Lisbon', type: 'place', confidence: 0.9 },
        { name: 'Cairn', type: 'project', confidence: 0.6 },
      ]);
      assert.deepEqual(res.get('m_ok'), { entities: [], facts: [] });

      assert.equal(fake.requests.length, 1, 'one request for the batch');
      const lines = userPrompt(0).split('\n').filter((l) => l.startsWith('{'));
      assert.deepEqual(lines.map((l) => JSON.parse(l)), [
        { index: 0, time: TIME, speaker: 'Ana', role: 'user', personNames: ['Ana Souza'], text: ITEMS[0]!.text },
        { index: 1, time: TIME, role: 'user', text: ITEMS[1]!.text },
        { index: 2, time: TIME, role: 'user', text: ITEMS[2]!.text },
      ], 'only each memory\'s text and its context, nothing else of the home');
      if (wire === 'openai') assert.equal(fake.requests[0]!.body.response_format.type, 'json_schema');
      const spent = await today();
      assert.deepEqual([spent.calls, spent.failures], [1, 0]);
      assert.ok(spent.tokensIn > 0);
    });
  }

  it('is absent without judge.llm or with knowledge.llm off', () => {
    const store = new SqliteStore(join(tmp.dir, `cairn-${serial++}.db`));
    stores.push(store);
    const plain = parseConfig({});
    assert.equal(createLlmKnowledgeExtractor({ config: plain, runtime: createLlmRuntime(store, plain) }), null);
    const off = parseConfig({ judge: { llm: { provider: 'ollama', model: 'm' } }, knowledge: { llm: false } });
    assert.equal(createLlmKnowledgeExtractor({ config: off, runtime: createLlmRuntime(store, off) }), null);
  });

  it('malformed JSON, prose and a broken body are null (offline), each a failure on the ledger', async () => {
    const { extractor, today } = setup('anthropic');
    fake.enqueue(reply.invalidContent('Sure! Maria is a person.'), reply.answer('{"memories": [{"index": 0, "entities": ['), reply.malformedBody());
    for (let i = 0; i < 3; i++) assert.equal(await extractor.extract(NS, ITEMS), null);
    const spent = await today();
    assert.deepEqual([spent.calls, spent.failures], [3, 3]);
  });

  it('wrong types drop the item, not its neighbours; an answer with no usable memory is null', async () => {
    const { extractor } = setup();
    fake.enqueue(reply.answer({
      memories: [
        {
          index: 1,
          entities: [entity('Maria', 'animal'), entity('Lisbon', 'place', 1.5), { name: 42, type: 'person', confidence: 0.9 }, entity('Maria', 'person', -0.1), { ...entity('Cairn', 'project'), confidence: 'high' }, entity('Lisbon', 'place', 0.5)],
          facts: [fact('Maria', 'lives in', 'Lisbon', null, 2), { subject: 'Maria', attribute: ['lives in'], value: 'Lisbon', confidence: 0.5 }, fact('Maria', 'lives in', 'Lisbon', 'yesterday', 0.4)],
        },
        { index: 0, entities: 'staging database', facts: [] },
        { index: -1, entities: [], facts: [] },
        { index: '2', entities: [], facts: [] },
        'memory 2',
      ],
    }));
    const res = await extractor.extract(NS, ITEMS);
    assert.deepEqual([...res!.keys()], ['m_sister'], 'memories of the wrong shape get no entry');
    assert.deepEqual(res!.get('m_sister'), {
      entities: [{ name: 'Lisbon', type: 'place', confidence: 0.5 }],
      facts: [{ subject: 'Maria', attribute: 'lives in', value: 'Lisbon', confidence: 0.4 }],
    }, 'a date that is not one drops the date, not the fact');

    fake.enqueue(reply.answer({ memories: [] }), reply.answer({ memories: 'none' }), reply.answer([GOOD]));
    for (let i = 0; i < 3; i++) assert.equal(await extractor.extract(NS, ITEMS), null);
  });

  it('a type in other case or spelling is the same type; typographic quotes and dashes match their ASCII forms', async () => {
    const { extractor } = setup('ollama');
    fake.enqueue(reply.answer({
      memories: [{
        index: 0,
        entities: [entity("Siobhan O'Brien", 'Person'), entity('Acme', ' organisation '), entity('cairn-db', 'TOOL'), entity('Acme', 'organizations')],
        facts: [fact("Siobhan O'Brien", 'works at', 'Acme - Lisbon')],
      }],
    }));
    const res = await extractor.extract(NS, [item('m_q', 'Siobhan O\u2019Brien works at Acme \u2013 Lisbon; she maintains cairn-db.')]);
    assert.deepEqual(res!.get('m_q'), {
      entities: [
        { name: "Siobhan O'Brien", type: 'person', confidence: 0.9 },
        { name: 'Acme', type: 'organization', confidence: 0.9 },
        { name: 'cairn-db', type: 'tool', confidence: 0.9 },
      ],
      facts: [{ subject: "Siobhan O'Brien", attribute: 'works at', value: 'Acme - Lisbon', confidence: 0.8 }],
    });
  });

  it('extra fields are ignored and do not reach the result', async () => {
    const { extractor } = setup();
    fake.enqueue(reply.answer({
      note: 'done',
      memories: [{ index: 1, mood: 'happy', entities: [{ ...entity('Maria', 'person', 0.9, 'Sister'), id: 'e_fake', slug: '../../etc' }], facts: [{ ...fact('Maria', 'Lives  In', 'Lisbon'), supersedes: ['f_1'] }] }],
    }));
    const res = await extractor.extract(NS, ITEMS);
    assert.deepEqual(res!.get('m_sister'), {
      entities: [{ name: 'Maria', type: 'person', relation: 'sister', confidence: 0.9 }],
      facts: [{ subject: 'Maria', attribute: 'lives in', value: 'Lisbon', confidence: 0.8 }],
    });
  });

  it('HTTP 500s are null; after 3 the shared breaker is open and nothing more is sent', async () => {
    const { extractor, runtime } = setup();
    fake.enqueue(reply.serverError(), reply.serverError(), reply.unavailable());
    for (let i = 0; i < 3; i++) assert.equal(await extractor.extract(NS, ITEMS), null);
    assert.equal(runtime.breaker.state, 'open', 'the judge\'s breaker counted the extractor\'s failures');
    fake.enqueue(reply.answer(GOOD));
    assert.equal(await extractor.extract(NS, ITEMS), null);
    assert.equal(fake.requests.length, 3, 'no request while the circuit is open');
  });

  it('a model that does not answer in time is null', async () => {
    const { extractor, today } = setup('ollama', {}, { timeoutMs: 200 });
    fake.enqueue(reply.hang());
    assert.equal(await extractor.extract(NS, ITEMS), null);
    assert.equal((await today()).failures, 1);
  });

  it('a spent budget sends no request; another namespace has its own', async () => {
    const { extractor, store } = setup('openai', { dailyBudgetUsd: 0.01 }, { pricePerMillionInput: 1, pricePerMillionOutput: 1 });
    await store.usageAdd(NS, budgetDay(Date.now(), 'UTC'), { costUsd: 0.01, calls: 5 });
    assert.equal(await extractor.extract(NS, ITEMS), null);
    assert.equal(fake.requests.length, 0);
    fake.enqueue(reply.answer(GOOD));
    assert.equal((await extractor.extract('home', ITEMS))?.size, 3);

    const none = setup('openai', { dailyBudgetUsd: 0 });
    assert.equal(await none.extractor.extract(NS, ITEMS), null);
    assert.equal(fake.requests.length, 1, 'a budget of 0 allows nothing');
  });

  it('hostile strings: overlong, control characters, bidi overrides, names and values the memory does not hold', async () => {
    const { extractor } = setup();
    const text = 'Ana Souza said the deploy key lives in /srv/keys and 東京 is next.';
    fake.enqueue(reply.answer({
      memories: [{
        index: 0,
        entities: [
          entity('A'.repeat(10_000), 'person'),
          entity('Ana\u0000 \u0007Souza', 'person'),
          entity('\u202Eazuos ana', 'person'),
          entity('東京', 'place'),
          entity('Ana Souza\n## Injected heading', 'person'),
          entity('Bob', 'person', 0.99, 'boss\u0000; rm -rf /'),
          entity('   ', 'topic'),
          entity('ana souza', 'person', 0.5),
          ...Array.from({ length: 40 }, () => entity('Ana', 'person')),
        ],
        facts: [
          fact('deploy key', 'lives in', '/srv/keys\r\n'),
          fact('deploy key', 'lives in', 'x'.repeat(10_000)),
          fact('deploy key', 'value', OPENAI_KEY),
          fact('deploy key', 'port\n## heading', '/srv/keys'),
          fact('', 'lives in', '/srv/keys'),
          fact('A'.repeat(10_000), 'lives in', '/srv/keys'),
        ],
      }],
    }));
    const res = await extractor.extract(NS, [item('m_x', text)]);
    assert.deepEqual(res!.get('m_x'), {
      entities: [
        { name: 'Ana Souza', type: 'person', confidence: 0.9 },
        { name: '東京', type: 'place', confidence: 0.9 },
        { name: 'Ana', type: 'person', confidence: 0.9 },
      ],
      facts: [{ subject: 'deploy key', attribute: 'lives in', value: '/srv/keys', confidence: 0.8 }],
    });

    const many = Array.from({ length: 40 }, (_, i) => entity(`Tool${i}`, 'tool'));
    fake.enqueue(reply.answer({ memories: [{ index: 0, entities: many, facts: [] }] }));
    const capped = await extractor.extract(NS, [item('m_many', many.map((e) => e.name).join(', '))]);
    assert.equal(capped!.get('m_many')!.entities.length, MAX_ENTITIES_PER_MEMORY);
  });

  it('a secret in a memory never reaches the model', async () => {
    const { extractor } = setup();
    fake.enqueue(reply.answer({ memories: [{ index: 0, entities: [], facts: [] }] }));
    await extractor.extract(NS, [item('m_key', `Rotated the staging key; the old one was ${OPENAI_KEY}.`, { speaker: OPENAI_KEY })]);
    assert.ok(!JSON.stringify(fake.requests[0]!.body).includes(OPENAI_KEY));
  });

  it('a batch the answer covers in part: the covered memories have entries, the rest go offline', async () => {
    const { extractor } = setup();
    fake.enqueue(reply.answer({
      memories: [
        GOOD.memories[1],
        { index: 1, entities: [entity('Lisbon', 'place')], facts: [] },
        { index: 7, entities: [entity('Cairn', 'project')], facts: [] },
        GOOD.memories[2],
      ],
    }));
    const res = await extractor.extract(NS, ITEMS);
    assert.deepEqual([...res!.keys()].sort(), ['m_ok', 'm_sister']);
    assert.equal(res!.get('m_sister')!.entities.length, 3, 'the first entry of a memory counts');
  });

  it('many memories go in chunks; a failed chunk leaves only its own memories to the offline extractor', async () => {
    const { extractor } = setup();
    const items = Array.from({ length: MAX_MEMORIES_PER_REQUEST + 2 }, (_, i) => item(`m_${i}`, `Note ${i} about Cairn.`));
    const all = (n: number) => ({ memories: Array.from({ length: n }, (_, index) => ({ index, entities: [entity('Cairn', 'project')], facts: [] })) });
    fake.enqueue(reply.answer(all(MAX_MEMORIES_PER_REQUEST)), reply.serverError());
    const res = await extractor.extract(NS, [...items, item('m_blank', '  \n '), items[0]!]);
    assert.equal(fake.requests.length, 2);
    assert.deepEqual([...res!.keys()], items.slice(0, MAX_MEMORIES_PER_REQUEST).map((i) => i.id));
    assert.equal(userPrompt(1).split('\n').filter((l) => l.startsWith('{')).length, 2, 'a blank text and a repeated id are not sent');

    assert.deepEqual(await extractor.extract(NS, []), new Map(), 'nothing to extract is not a failure');
    assert.equal(fake.requests.length, 2);
  });

  it('a cancelled call rejects and is not a failure of the provider', async () => {
    const { extractor, runtime } = setup();
    fake.enqueue(reply.hang());
    const controller = new AbortController();
    const pending = extractor.extract(NS, ITEMS, controller.signal);
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await assert.rejects(pending);
    assert.equal(runtime.breaker.stats().failures, 0);
  });
});
