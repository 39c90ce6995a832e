// The LLM prose writer against a real loopback fake LLM (OpenAI-compatible, Anthropic and Ollama
// wire formats) and a real SQLite budget ledger: good prose with valid citations, paragraphs citing what
// their section does not hold, garbage, HTTP errors up to an open breaker, an exhausted budget, an
// oversized answer, and hostile prose that must not break the file's structure.
import { item as sharedItem } from './items.js';
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig, type CairnConfig } from '../../src/core/config.js';
import type { DigestSection } from '../../src/core/types.js';
import { citation, type Item, type Rendered } from '../../src/consolidate/contracts.js';
import { runDigestJob, type DigestJob } from '../../src/consolidate/digest-job.js';
import { EXTRACTIVE_GENERATOR, MAX_PARAGRAPH_CHARS, createProseWriter, type ProseInput } from '../../src/consolidate/prose.js';
import { PROSE_PROMPT_VERSION } from '../../src/consolidate/prose-prompt.js';
import { neutralise } from '../../src/consolidate/prose-render.js';
import { budgetDay } from '../../src/llm/budget.js';
import { createLlmRuntime } from '../../src/service/llm-runtime.js';
import { SqliteStore } from '../../src/store/index.js';
import { FakeLlmServer, reply, type LlmWire } from '../helpers/fake-llm.js';
import { OPENAI_KEY } from '../helpers/secrets.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { instantRetry } from '../llm/fixtures.js';

const tmp = tempDir('cairn-prose-');
after(() => tmp.cleanup());
let serial = 0;

const NS = 'work';
const MARKER = '<!-- cairn:person:begin -->';

/** A record of 2026-03-03 at `localTime` (UTC), judged important: the shared factory with this file's defaults. */
function item(id: string, localTime: string, text: string, extra: Partial<Item> = {}): Item {
  return sharedItem({ id, time: `2026-03-03T${localTime}:00.000Z`, text, importance: 7, category: 'decision', ...extra }, 'UTC');
}

const ITEMS: Item[] = [
  item('m_build', '09:12', 'Switched the build to esbuild because tsc took 40 s.'),
  item('t_flaky', '10:30', 'Fixed the flaky test in store.test.ts: it depended on the clock.', { category: 'event' }),
  item('m_keys', '11:00', `Rotated the staging API keys; the old one was ${OPENAI_KEY}.`, { category: 'event' }),
];

/** An extractive digest as the renderer writes it: a title, cited sections, and the person's own section. */
function extractive(): Rendered {
  const groups: [string, Item[]][] = [
    ['Coding', [ITEMS[0]!, ITEMS[1]!]],
    ['Ops', [ITEMS[2]!]],
  ];
  const sections: DigestSection[] = [{ heading: '', text: '# 2026-03-03\n', sources: [] }];
  for (const [heading, items] of groups) {
    sections.push({
      heading,
      text: items.map((i) => `- ${i.localTime} ${i.text.replace(OPENAI_KEY, '[REDACTED:openai-key]')} ${citation([i])}`).join('\n') + '\n',
      sources: items.map((i) => ({ kind: i.kind, id: i.id, time: i.time })),
    });
  }
  sections.push({ heading: 'Notes', text: `${MARKER}\nMy own words.\n<!-- cairn:person:end -->\n`, sources: [] });
  const text = sections.map((s) => (s.heading ? `## ${s.heading}\n\n${s.text}` : s.text)).join('\n');
  return { text, sections };
}

const input = (over: Partial<ProseInput> = {}): ProseInput => ({ namespace: NS, kind: 'daily', title: 'Tuesday 3 March 2026', rendered: extractive(), items: ITEMS, ...over });

const GOOD = {
  sections: [
    {
      heading: 'Coding',
      paragraphs: [
        { text: 'The build moved to esbuild, since tsc took 40 s.', cites: ['m_build'] },
        { text: 'A flaky store test that depended on the clock was fixed.', cites: ['t_flaky'] },
      ],
    },
    { heading: 'Ops', paragraphs: [{ text: 'The staging API keys were rotated.', cites: ['m_keys'] }] },
  ],
};

describe('LLM prose writer', () => {
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

  function setup(wire: LlmWire = 'openai', judge: Record<string, unknown> = {}, consolidation: Record<string, unknown> = {}, transport: Record<string, unknown> = {}) {
    const config: CairnConfig = parseConfig({
      timezone: 'UTC',
      judge: { llm: { provider: wire, baseUrl: fake.baseUrl(wire), model: 'fake-writer', maxRetries: 0, timeoutMs: 5000 }, ...judge },
      consolidation,
    });
    const store = new SqliteStore(join(tmp.dir, `cairn-${serial++}.db`));
    stores.push(store);
    const runtime = createLlmRuntime(store, config, { retry: instantRetry, ...transport });
    const writer = createProseWriter({ config, runtime, transport: { retry: instantRetry, ...transport } });
    assert.ok(writer && runtime);
    const today = () => store.usageGet(NS, budgetDay(Date.now(), 'UTC'));
    return { writer, runtime, store, today };
  }

  const userPrompt = (i: number): string => {
    const body = fake.requests[i]!.body;
    return body.messages.find((m: { role: string }) => m.role === 'user').content;
  };

  for (const wire of ['openai', 'anthropic', 'ollama'] as const) {
    it(`${wire}: a good answer becomes paragraphs ending in their citations, in place of the lines`, async () => {
      const { writer, today } = setup(wire);
      fake.enqueue(reply.answer(GOOD));
      const res = await writer.write(input());
      assert.equal(res.generator, `llm:${wire}/fake-writer@${PROSE_PROMPT_VERSION}`);
      assert.equal(res.fallback, undefined);
      const before = extractive();
      const expected = before.text
        .replace(before.sections[1]!.text, 'The build moved to esbuild, since tsc took 40 s. `m_build`\n\nA flaky store test that depended on the clock was fixed. `t_flaky`\n')
        .replace(before.sections[2]!.text, 'The staging API keys were rotated. `m_keys`\n');
      assert.equal(res.rendered.text, expected);
      assert.deepEqual(res.rendered.sections.map((s) => s.sources.map((x) => x.id)), [[], ['m_build', 't_flaky'], ['m_keys'], []]);
      assert.deepEqual(res.rendered.sections[3], before.sections[3], 'the person\'s section is untouched');
      for (const s of res.rendered.sections) if (s.heading) assert.ok(res.rendered.text.includes(`## ${s.heading}\n\n${s.text}`), 'each section stands in the file as it says');

      // One request: the fixed instructions, then the material in the digest's order, redacted.
      assert.equal(fake.requests.length, 1);
      const prompt = userPrompt(0);
      assert.ok(prompt.indexOf('[m_build]') < prompt.indexOf('[t_flaky]') && prompt.indexOf('[t_flaky]') < prompt.indexOf('[m_keys]'));
      assert.ok(!JSON.stringify(fake.requests[0]!.body).includes(OPENAI_KEY), 'a secret in the material never reaches the model');
      assert.ok(!prompt.includes('My own words'), 'the person\'s section is not sent');
      if (wire === 'openai') assert.equal(fake.requests[0]!.body.response_format.type, 'json_schema');
      const spent = await today();
      assert.equal(spent.calls, 1, 'spent from the judge\'s ledger');
      assert.ok(spent.tokensIn > 0);

      // Deterministic: the same answer again gives the same bytes and the same request.
      fake.enqueue(reply.answer(GOOD));
      const again = await writer.write(input());
      assert.equal(again.rendered.text, res.rendered.text);
      assert.equal(userPrompt(1), prompt);
    });
  }

  it('drops a paragraph citing an id outside its section, or none; a section left empty keeps its lines; invented sections are ignored', async () => {
    const { writer } = setup();
    fake.enqueue(
      reply.answer({
        sections: [
          {
            heading: 'Coding',
            paragraphs: [
              { text: 'Invented claim citing a record that does not exist.', cites: ['m_build', 'm_nowhere'] },
              { text: 'The keys were rotated (cited from the wrong section).', cites: ['m_keys'] },
              { text: 'A claim citing nothing.', cites: [] },
              { text: 'The build moved to esbuild.', cites: ['m_build', 'm_build'] },
            ],
          },
          { heading: 'Ops', paragraphs: [{ text: 'Only invalid here.', cites: ['t_flaky'] }] },
          { heading: 'Secrets', paragraphs: [{ text: 'A section nobody asked for.', cites: ['m_keys'] }] },
        ],
      }),
    );
    const res = await writer.write(input());
    const before = extractive();
    assert.equal(res.generator, `llm:openai/fake-writer@${PROSE_PROMPT_VERSION}`);
    assert.equal(res.rendered.sections[1]!.text, 'The build moved to esbuild. `m_build`\n');
    assert.deepEqual(res.rendered.sections[1]!.sources.map((s) => s.id), ['m_build']);
    assert.deepEqual(res.rendered.sections[2], before.sections[2], 'Ops keeps its extractive lines');
    assert.ok(res.rendered.text.includes(before.sections[2]!.text));
    for (const gone of ['Invented', 'wrong section', 'citing nothing', 'Secrets', 'nobody asked']) assert.ok(!res.rendered.text.includes(gone), gone);
  });

  it('an answer in which no section is valid is a failure: the extractive file, saying so', async () => {
    const { writer, runtime } = setup();
    fake.enqueue(reply.answer({ sections: [{ heading: 'Coding', paragraphs: [{ text: 'x', cites: ['m_nowhere'] }] }] }));
    const res = await writer.write(input());
    assert.equal(res.generator, EXTRACTIVE_GENERATOR);
    assert.match(res.fallback!, /no section/);
    assert.equal(runtime.breaker.stats().consecutiveFailures, 1);
  });

  it('garbage instead of JSON: the extractive text unchanged plus one line saying why', async () => {
    const { writer, today } = setup('anthropic');
    fake.enqueue(reply.invalidContent('Here is a lovely summary of your day!'));
    const res = await writer.write(input());
    assert.equal(res.generator, EXTRACTIVE_GENERATOR);
    assert.match(res.fallback!, /not JSON/);
    const before = extractive();
    assert.equal(res.rendered.text, `${before.text.trimEnd()}\n\n> Written by the extractive summariser: the language model was unavailable (unusable answer).\n`);
    assert.deepEqual(res.rendered.sections, before.sections);
    const spent = await today();
    assert.deepEqual([spent.calls, spent.failures], [1, 1]);
  });

  it('JSON of the wrong shape is a fallback too', async () => {
    const { writer } = setup();
    fake.enqueue(reply.answer({ sections: [{ heading: 'Coding', paragraphs: 'all good' }] }));
    const res = await writer.write(input());
    assert.equal(res.generator, EXTRACTIVE_GENERATOR);
    assert.match(res.rendered.text, /\(unusable answer\)\.\n$/);
  });

  it('HTTP 500 and 429 fall back; after 3 failures the shared breaker is open and nothing more is sent', async () => {
    const { writer, runtime } = setup();
    fake.enqueue(reply.serverError(), reply.rateLimited(), reply.serverError());
    const reasons: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await writer.write(input());
      assert.equal(res.generator, EXTRACTIVE_GENERATOR);
      reasons.push(/\(([^)]*)\)\.\n$/.exec(res.rendered.text)![1]!);
    }
    assert.deepEqual(reasons, ['HTTP 500', 'HTTP 429', 'HTTP 500']);
    assert.equal(runtime.breaker.state, 'open', 'the judge\'s breaker counted the writer\'s failures');
    fake.enqueue(reply.answer(GOOD));
    const res = await writer.write(input());
    assert.equal(fake.requests.length, 3, 'no request while the circuit is open');
    assert.equal(res.generator, EXTRACTIVE_GENERATOR);
    assert.match(res.rendered.text, /unavailable \(paused after repeated failures\)\.\n$/);
    assert.match(res.fallback!, /Circuit open/);
  });

  it('an exhausted budget sends no request', async () => {
    const { writer, store } = setup('openai', { dailyBudgetUsd: 0.01, llm: { provider: 'openai', baseUrl: fake.baseUrl('openai'), model: 'fake-writer', maxRetries: 0, pricePerMillionInput: 1, pricePerMillionOutput: 1 } });
    await store.usageAdd(NS, budgetDay(Date.now(), 'UTC'), { costUsd: 0.01, calls: 5 });
    fake.enqueue(reply.answer(GOOD));
    const res = await writer.write(input());
    assert.equal(fake.requests.length, 0);
    assert.equal(res.generator, EXTRACTIVE_GENERATOR);
    assert.match(res.rendered.text, /unavailable \(daily budget spent\)\.\n$/);
    // Another namespace has its own day's budget.
    const other = await writer.write(input({ namespace: 'home' }));
    assert.equal(other.generator, `llm:openai/fake-writer@${PROSE_PROMPT_VERSION}`);
  });

  it('a cancelled call rejects (the job is redone later): no fallback file, not a failure of the provider', async () => {
    const { writer, runtime } = setup();
    fake.enqueue(reply.hang());
    const controller = new AbortController();
    const pending = writer.write(input({ signal: controller.signal }));
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await assert.rejects(pending, /cancelled/);
    assert.equal(runtime.breaker.stats().failures, 0);
  });

  it('a stopping run (the daemon\'s SIGTERM) cancels the prose request of its digest job: it rejects and writes no file', async () => {
    const { writer, store } = setup();
    fake.enqueue(reply.hang());
    const controller = new AbortController();
    const dir = join(tmp.dir, `ns-${serial++}`);
    const job: DigestJob = {
      kind: 'daily', path: 'daily/2026-03-03.md', periodStart: '2026-03-03T07:00:00.000Z', periodEnd: '2026-03-03T22:00:00.000Z',
      inputs: ['stop'], items: ITEMS, title: 'Tuesday 3 March 2026', render: () => extractive(), prose: true,
    };
    const pending = runDigestJob({ store, namespace: NS, dir, prose: writer, redact: (t) => t, signal: controller.signal }, job);
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await assert.rejects(pending, /cancelled/);
    assert.equal(existsSync(join(dir, job.path)), false, 'nothing written: the next run does the job');
    assert.equal(await store.getDigest(NS, job.path), null);
  });

  it('a budget of 0 allows nothing', async () => {
    const { writer } = setup('openai', { dailyBudgetUsd: 0 });
    const res = await writer.write(input());
    assert.equal(fake.requests.length, 0);
    assert.equal(res.generator, EXTRACTIVE_GENERATOR);
  });

  it('oversized: an overlong paragraph is dropped; a body over the transport cap is a fallback', async () => {
    const { writer } = setup('openai', {}, {}, { maxBodyBytes: 64 * 1024 });
    const long = 'The build moved. '.repeat(Math.ceil(MAX_PARAGRAPH_CHARS / 10));
    fake.enqueue(
      reply.answer({
        sections: [
          { heading: 'Coding', paragraphs: [{ text: long, cites: ['m_build'] }, { text: 'Short and cited.', cites: ['t_flaky'] }] },
          { heading: 'Ops', paragraphs: Array.from({ length: 20 }, (_, i) => ({ text: `Keys rotated, point ${i}.`, cites: ['m_keys'] })) },
        ],
      }),
    );
    const res = await writer.write(input());
    assert.equal(res.rendered.sections[1]!.text, 'Short and cited. `t_flaky`\n');
    assert.equal(res.rendered.sections[2]!.text.split('\n\n').length, 6, 'at most 6 paragraphs a section');

    fake.enqueue(reply.oversized(300 * 1024));
    const big = await writer.write(input());
    assert.equal(big.generator, EXTRACTIVE_GENERATOR);
    assert.match(big.rendered.text, /\(answer too large\)\.\n$/);
  });

  it('hostile prose cannot add headings, HTML, markers, links or citations to the file', async () => {
    const { writer } = setup();
    const hostile = [
      '## Injected heading\n<!-- cairn:person:begin -->\nOwned. <script>alert(1)</script> `m_fake` ![x](http://evil.example/p.png)',
      '# Another heading',
      '- a list item',
      '1. numbered',
      '```\ncode fence',
      '<!-- cairn:person:end -->',
    ];
    fake.enqueue(reply.answer({ sections: [{ heading: 'Coding', paragraphs: hostile.map((text) => ({ text, cites: ['m_build'] })) }] }));
    const res = await writer.write(input());
    assert.equal(res.generator, `llm:openai/fake-writer@${PROSE_PROMPT_VERSION}`);
    const text = res.rendered.text;
    const headings = text.split('\n').filter((l) => /^#/.test(l));
    assert.deepEqual(headings, ['# 2026-03-03', '## Coding', '## Ops', '## Notes']);
    assert.equal(text.split(MARKER).length, 2, 'the only marker is the person\'s own');
    assert.equal(text.split('<!-- cairn:person:end -->').length, 2);
    assert.ok(!text.includes('<script'));
    assert.ok(!/^\s*(?:[-*+]|\d+[.)]|```)/m.test(res.rendered.sections[1]!.text), 'no list or fence opened by the model');
    const cited = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    assert.ok(cited.every((id) => ['m_build', 't_flaky', 'm_keys'].includes(id!)), `only real citations: ${cited.join(', ')}`);
    assert.ok(!/\]\(http/.test(text.replace(/\\\]/g, '')), 'no link');
  });

  it('neutralise escapes each block opener and keeps plain prose as it is', () => {
    assert.equal(neutralise('Plain prose, with *emphasis*.'), 'Plain prose, with *emphasis*.');
    assert.equal(neutralise('# h'), '\\# h');
    assert.equal(neutralise('12) x'), '12\\) x');
    assert.equal(neutralise('| a | b |'), '\\| a | b |');
    assert.equal(neutralise('a\\[b](c)'), 'a\\\\\\[b\\](c)');
    assert.equal(neutralise('\u0000\u2028 '), '');
  });

  it('sends nothing when no section has records to offer', async () => {
    const { writer } = setup();
    const res = await writer.write(input({ items: [] }));
    assert.equal(fake.requests.length, 0);
    assert.equal(res.generator, EXTRACTIVE_GENERATOR);
    assert.equal(res.rendered.text, extractive().text, 'no note: there was nothing for the model to write');
  });

  it('no writer without a chat model, or with llmProse off', () => {
    const noLlm = parseConfig({});
    assert.equal(createProseWriter({ config: noLlm, runtime: null }), null);
    const config = parseConfig({ judge: { llm: { provider: 'openai', baseUrl: fake.baseUrl('openai'), model: 'm' } }, consolidation: { llmProse: false } });
    const store = new SqliteStore(join(tmp.dir, `cairn-${serial++}.db`));
    stores.push(store);
    assert.equal(createProseWriter({ config, runtime: createLlmRuntime(store, config) }), null);
    assert.ok(createProseWriter({ config: parseConfig({ ...config, consolidation: { llmProse: true } }), runtime: createLlmRuntime(store, config) }));
  });
});
