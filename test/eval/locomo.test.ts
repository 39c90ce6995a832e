// The LoCoMo evaluation on a tiny synthetic file of the same shape (the real one never enters the
// repository): loading and evidence repair, the transcripts it writes, the recall arithmetic on
// hand-computed cases, and `cairn eval locomo` through the real built CLI (skip, errors, flags,
// the ablation table, home reuse). Most runs use the "bm25 only" variant: no model to load.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CairnError } from '../../src/core/errors.js';
import { normaliseEvidence, parseLocomoDate, readLocomo } from '../../src/eval/locomo/dataset.js';
import { answerShown, coveredIds, questionAnswerShown, recallAtBudget, returnedTexts, recallAtK, summarise, tokensAtK, type QuestionOutcome, type RankedResult } from '../../src/eval/locomo/metrics.js';
import { namespaceOf, transcriptLines } from '../../src/eval/locomo/transcripts.js';
import { barLine } from '../../src/eval/locomo/report.js';
import { pickVariants, resolveVariant, VARIANTS } from '../../src/eval/locomo/variants.js';
import { json, runCli, tempHomes, type RunResult } from '../helpers/cli.js';
import { FakeLlmServer, reply } from '../helpers/fake-llm.js';
import { judgeWith } from '../helpers/fake-judge.js';

const tempDir = tempHomes(undefined);

const turn = (dia_id: string, speaker: string, text: string, extra: object = {}) => ({ speaker, dia_id, text, ...extra });

/** Two conversations with LoCoMo's quirks: a date key with no session, captions, evidence defects, category 5. */
const SYNTHETIC = [
  {
    sample_id: 'conv-1',
    conversation: {
      speaker_a: 'Ana',
      speaker_b: 'Ben',
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [
        turn('D1:1', 'Ana', 'I adopted a puppy named Biscuit last week.'),
        turn('D1:2', 'Ben', 'Lovely! Look at mine.', { img_url: ['http://example.invalid/x.jpg'], blip_caption: 'a photo of a golden retriever on a beach', query: 'dog beach' }),
        turn('D1:3', 'Ana', 'Biscuit is a beagle and loves chasing seagulls.'),
      ],
      session_2_date_time: '10:15 am on 3 June, 2023',
      session_2: [
        turn('D2:1', 'Ben', 'I started cello lessons in Vienna yesterday.'),
        turn('D2:2', 'Ana', 'Vienna is a great place for music.'),
      ],
      // A date with no session (as in the real file): ignored.
      session_3_date_time: '9:00 am on 1 July, 2023',
    },
    qa: [
      { question: 'What breed is the puppy Ana adopted?', answer: 'beagle', evidence: ['D1:1; D1:03'], category: 1 },
      { question: 'When did Ben start cello lessons?', answer: 'June 2023', evidence: ['D:2:1'], category: 2 },
      { question: 'Would Ana enjoy a trip to the seaside?', answer: 'likely', evidence: ['D9:99'], category: 3 },
      { question: 'Where does Ben take cello lessons?', answer: 'Vienna', evidence: ['D2:1', 'D30:05'], category: 4 },
      { question: 'What is the name of Ben\'s cat?', adversarial_answer: 'Biscuit', evidence: ['D1:1'], category: 5 },
    ],
    observation: { session_1_observation: { Ana: [['Ana adopted a beagle', 'D1:1']] } },
    session_summary: { session_1_summary: 'SUMMARY-MUST-NOT-BE-INGESTED' },
    event_summary: { events_session_1: { Ana: ['EVENT-MUST-NOT-BE-INGESTED'] } },
  },
  {
    sample_id: 'Conv-2',
    conversation: {
      speaker_a: 'Cleo',
      speaker_b: 'Dev',
      session_1_date_time: '8:05 pm on 20 January, 2022',
      session_1: [turn('D1:1', 'Cleo', 'My marathon is in Lisbon this October.'), turn('D1:2', 'Dev', 'How long have you trained for the marathon?')],
      session_2_date_time: '7:30 am on 2 February, 2022',
      session_2: [turn('D2:1', 'Cleo', 'Eight months of running every morning before work.')],
    },
    qa: [
      { question: 'Where is Cleo running her marathon?', answer: 'Lisbon', evidence: ['D1:1'], category: 4 },
      { question: 'How long has Cleo trained?', answer: 'eight months', evidence: ['D2:1'], category: 1 },
      { question: 'Is Cleo fit?', answer: 'yes', evidence: [], category: 3 },
    ],
  },
];

function writeData(dir: string, data: unknown = SYNTHETIC, name = 'locomo.json'): string {
  const path = join(dir, name);
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
  return path;
}

const r = (ids: string[], tokens: number): RankedResult => ({ ids, tokens });

describe('dataset and transcripts', () => {
  test('evidence strings are split, repaired, and unknown ids dropped', () => {
    const known = new Set(['D1:3', 'D2:1', 'D11:26', 'D30:5']);
    assert.deepEqual(normaliseEvidence(['D1:3; D2:1'], known), { ids: ['D1:3', 'D2:1'], unknown: 0 });
    assert.deepEqual(normaliseEvidence(['D:11:26', 'D30:05'], known), { ids: ['D11:26', 'D30:5'], unknown: 0 });
    assert.deepEqual(normaliseEvidence(['D9:99', 'D', 'D1:3 D1:3'], known), { ids: ['D1:3'], unknown: 2 });
  });

  test('questions: categories 1–4 with evidence; category 5 and evidence-less ones are counted, not asked', () => {
    const data = readLocomo(writeData(tempDir(null)))!;
    const [a, b] = data.conversations;
    assert.deepEqual(
      a!.questions.map((q) => [q.category, q.evidence]),
      [[1, ['D1:1', 'D1:3']], [2, ['D2:1']], [4, ['D2:1']]],
    );
    assert.deepEqual(a!.questions.map((q) => q.answer), ['beagle', 'June 2023', 'Vienna'], 'answers kept as text, never asked with');
    assert.deepEqual(a!.excluded, { adversarial: 1, noEvidence: 1, unknownEvidenceIds: 2 });
    assert.deepEqual(b!.excluded, { adversarial: 0, noEvidence: 1, unknownEvidenceIds: 0 });
    assert.match(data.sha256, /^[0-9a-f]{64}$/);
    assert.equal(readLocomo(join(tempDir(null), 'absent.json')), null);
  });

  test('transcript lines: ids, sessions, a minute apart, speakers, captions; nothing but the conversation', () => {
    const data = readLocomo(writeData(tempDir(null)))!;
    const lines = transcriptLines(data.conversations[0]!);
    assert.deepEqual(lines[0], { role: 'user', content: 'I adopted a puppy named Biscuit last week.', timestamp: '2023-05-08T13:56:00.000Z', id: 'D1:1', session: 'session_1', speaker: 'Ana' });
    assert.deepEqual(lines[1], {
      role: 'user', content: 'Lovely! Look at mine. [shared an image: a photo of a golden retriever on a beach]',
      timestamp: '2023-05-08T13:57:00.000Z', id: 'D1:2', session: 'session_1', speaker: 'Ben',
    });
    assert.deepEqual(lines.map((l) => [l.id, l.session, l.timestamp]).slice(3), [['D2:1', 'session_2', '2023-06-03T10:15:00.000Z'], ['D2:2', 'session_2', '2023-06-03T10:16:00.000Z']]);
    assert.equal(lines.length, 5, 'the date key without a session adds nothing');
    assert.doesNotMatch(JSON.stringify(lines), /MUST-NOT|observation/);
    assert.equal(namespaceOf(data.conversations[1]!), 'conv-2');
  });

  test('session dates as LoCoMo writes them, and as other files in its format may', () => {
    for (const [text, iso] of [
      ['1:56 pm on 8 May, 2023', '2023-05-08T13:56:00.000Z'],
      ['12:09 am on 13 September, 2023', '2023-09-13T00:09:00.000Z'],
      ['12:00 pm on 1 Jan, 2024', '2024-01-01T12:00:00.000Z'],
      ['8 May 2023', '2023-05-08T00:00:00.000Z'],
      ['3rd of May 2023', '2023-05-03T00:00:00.000Z'],
      ['May 8, 2023 at 1:56 PM', '2023-05-08T13:56:00.000Z'],
      ['Sept 3, 2023, 9:05 a.m.', '2023-09-03T09:05:00.000Z'],
      ['2023-05-08', '2023-05-08T00:00:00.000Z'],
      ['2023-05-08 13:56', '2023-05-08T13:56:00.000Z'],
      ['2023-05-08T13:56:00+02:00', '2023-05-08T11:56:00.000Z'],
    ] as const) assert.equal(parseLocomoDate(text), iso, text);
    for (const bad of ['', 'yesterday', '31 February, 2023', '13:75 on 8 May 2023', '0:30 am on 8 May 2023', '8 Mayo 2023', '2023-13-01', 'x'.repeat(100_000), '1:56 pm on 8 May, 2023'.replace('2023', '')]) {
      assert.equal(parseLocomoDate(bad), null, bad.slice(0, 30));
    }
  });

  test('a category written as text and evidence as one string are read', () => {
    const [one] = SYNTHETIC as Array<Record<string, unknown>>;
    const data = readLocomo(writeData(tempDir(null), [{ ...one, qa: [{ question: 'Which dog?', answer: 'beagle', evidence: 'D1:1; D1:2', category: ' 4 ' }, { question: 'x', evidence: ['D1:1'], category: '5' }] }], 'text-fields.json'))!;
    assert.deepEqual(data.conversations[0]!.questions, [{ question: 'Which dog?', category: 4, evidence: ['D1:1', 'D1:2'], answer: 'beagle' }]);
    assert.equal(data.conversations[0]!.excluded.adversarial, 1);
  });

  test('a malformed file is a CairnError naming what is wrong', () => {
    const dir = tempDir(null);
    const broken = (data: unknown) => () => readLocomo(writeData(dir, data, `bad-${Math.random()}.json`));
    const conv = (patch: object) => [{ ...SYNTHETIC[0], ...patch }];
    const cases: Array<[unknown, RegExp]> = [
      ['{"not json', /is not valid JSON/],
      [{ sample_id: 'x' }, /the top level is not a list \(got object\)/],
      [[], /empty list/],
      [conv({ sample_id: 7 }), /conversation 0: sample_id is not a string \(got number\)/],
      [conv({ qa: undefined }), /conversation 0 \(conv-1\): qa is not a list \(got nothing: the field is missing\)/],
      [conv({ conversation: { session_1_date_time: 'yesterday', session_1: [] } }), /conversation\.session_1_date_time is not a date like/],
      [conv({ conversation: { session_1_date_time: '1:56 pm on 8 May, 2023', session_1: [{ speaker: 'Ana', dia_id: 'D1:1' }] } }), /conversation\.session_1\[0\]\.text is not a string \(got nothing: the field is missing\)/],
      [conv({ qa: [{ question: 'q', evidence: ['D1:1'], category: 9 }] }), /qa\[0\]\.category is not a category 1–5/],
      [conv({ qa: [{ question: 'q', evidence: ['D1:1'], category: 'two' }] }), /qa\[0\]\.category is not a category 1–5 \(got "two"\)/],
      [conv({ qa: [{ question: 'q', evidence: 7, category: 1 }] }), /qa\[0\]\.evidence is not a list \(got number\)/],
      [[SYNTHETIC[0], SYNTHETIC[0]], /sample_id "conv-1" appears twice/],
    ];
    for (const [data, message] of cases) assert.throws(broken(data), (err: unknown) => err instanceof CairnError && err.code === 'INVALID_INPUT' && message.test(err.message), String(message));
  });
});

describe('answer words shown', () => {
  test('the share of an answer\'s words in the returned texts, matched by their first five letters', () => {
    assert.equal(answerShown('Adoption agencies', ['Caroline: I am researching adoption agency options.']), 1);
    assert.equal(answerShown('Psychology, counseling certification', ['She wants a counseling job.']), 1 / 3);
    assert.equal(answerShown('Vienna', ['Vie', 'nna']), 0, 'words, not substrings across texts');
    assert.equal(answerShown('2022', ['I painted it in 2022.']), 1);
    assert.equal(answerShown('7', ['7 cats']), 1, 'a number counts whatever its length');
  });

  test('no words to look for is null; empty and hostile input cope', () => {
    assert.equal(answerShown('', ['anything']), null);
    assert.equal(answerShown('the and of', ['the']), null);
    assert.equal(answerShown('beagle', []), 0);
    assert.equal(answerShown('<script>beagle</script>', ['a beagle']), 0.5);
    assert.equal(answerShown('東京 tower', ['東京 and the tower']), 1);
    assert.equal(answerShown('beagle', ['beagle '.repeat(100_000)]), 1);
  });
});

describe('the bar line', () => {
  const q = (category: number, found: boolean): QuestionOutcome => ({ conversation: 'c', question: 'q', category, evidence: ['A'], results: found ? [r(['A'], 10)] : [], latencyMs: 1 });

  test('a category the file has no questions of is not judged; one it has is', () => {
    const line = barLine(summarise([q(1, true), q(2, true), q(4, true)]));
    assert.match(line, /✓ overall @10 ≥ 0\.85/);
    assert.match(line, /✓ multi-hop @10 ≥ 0\.65/);
    assert.match(line, /– open-domain @10 ≥ 0\.6 \(no such questions\)/);
    assert.match(line, /✓ every category @20 ≥ 0\.8/);
    const missed = barLine(summarise([q(1, true), q(2, true), q(3, false), q(4, true)]));
    assert.match(missed, /✗ open-domain @10 ≥ 0\.6 ·/);
    assert.match(missed, /✗ every category @20/);
  });
});

describe('recall arithmetic', () => {
  test('a result covers every turn of its provenance', () => {
    assert.deepEqual(coveredIds([{ messageId: 'D1:1' }, { messageId: 'D1:2' }, { source: 'x' }, { messageId: 'D1:1' }]), ['D1:1', 'D1:2']);
    const results = [r(['D1:1'], 10), r(['D2:1', 'D2:2', 'D2:3'], 30), r(['D3:1'], 10)];
    assert.equal(recallAtK(['D2:2', 'D2:3'], results, 2), 1, 'one three-turn result counts for two evidence turns');
    assert.equal(recallAtK(['D2:2', 'D3:1', 'D9:9'], results, 1), 0);
    assert.equal(recallAtK(['D2:2', 'D3:1', 'D9:9'], results, 2), 1 / 3);
    assert.equal(recallAtK(['D2:2', 'D3:1', 'D9:9'], results, 20), 2 / 3);
    assert.equal(tokensAtK(results, 2), 40);
    assert.equal(tokensAtK(results, 20), 50, 'fewer results than k: the tokens of those returned');
    const ctx = (offset: number, speaker: string | null, text: string) => ({ offset, match: false, speaker, role: 'user', text, time: '2023-05-08T13:56:00.000Z', messageId: `D1:${offset + 2}` });
    assert.deepEqual(
      returnedTexts({ text: 'hit', context: [ctx(-1, 'Ana', 'before'), ctx(1, null, 'after')] }),
      ['hit', 'Ana: before', 'user: after'],
      'context shown with a hit, with who said it, is returned text',
    );
  });

  test('token budgets take results in rank order; the first that would exceed the budget ends the list', () => {
    const results = [r(['A'], 300), r(['B'], 250), r(['C'], 100)];
    assert.equal(recallAtBudget(['A', 'B', 'C'], results, 500), 1 / 3, 'B would make 550: neither B nor the small C after it counts');
    assert.equal(recallAtBudget(['A', 'B', 'C'], results, 550), 2 / 3, 'exactly at the budget counts');
    assert.equal(recallAtBudget(['A'], [r(['A'], 501)], 500), 0);
    assert.equal(recallAtBudget(['C'], results, 2000), 1);
  });

  test('overall averages over questions; categories separately', () => {
    const q = (category: number, evidence: string[], results: RankedResult[], latencyMs: number): QuestionOutcome => ({ conversation: 'c', question: 'q', category, evidence, results, latencyMs });
    const m = summarise([q(1, ['A', 'B'], [r(['A'], 10)], 5), q(4, ['C'], [r(['C'], 20)], 15), q(4, ['D'], [], 10)]);
    assert.equal(m.overall.questions, 3);
    assert.equal(m.overall.recall[5], (0.5 + 1 + 0) / 3);
    assert.equal(m.byCategory[1]!.recall[10], 0.5);
    assert.equal(m.byCategory[4]!.recall[20], 0.5);
    assert.equal(m.byCategory[4]!.tokens[10], 10);
    assert.equal(m.byCategory[2]!.questions, 0);
    assert.deepEqual([m.latencyMs.p50, m.latencyMs.p95], [10, 15]);
    assert.ok(Number.isNaN(m.overall.answerWords) && m.overall.answered === 0, 'no answers scored: no figure');
  });

  test('answer words average over the questions that have them, by category', () => {
    const q = (category: number, answerWords?: number): QuestionOutcome => ({ conversation: 'c', question: 'q', category, evidence: ['A'], results: [], latencyMs: 1, ...(answerWords === undefined ? {} : { answerWords }) });
    const m = summarise([q(1, 1), q(2), q(4, 0.5), q(4, 0)]);
    assert.equal(m.overall.answerWords, 0.5);
    assert.equal(m.overall.answered, 3);
    assert.equal(m.byCategory[4]!.answerWords, 0.25);
    assert.ok(Number.isNaN(m.byCategory[2]!.answerWords), 'a temporal answer is never scored');
    assert.equal(questionAnswerShown({ answer: '7 May 2023', category: 2 }, () => ['7 May 2023']), null);
    assert.equal(questionAnswerShown({ category: 4 }, () => ['x']), null);
    assert.equal(questionAnswerShown({ answer: 'beagle', category: 1 }, () => ['a beagle']), 1);
  });

  test('recall and tokens @k come from the search asked for k; budgets from the longest list', () => {
    // A search for 5 can return other results than the top 5 of a search for 20 (its candidate pool is smaller).
    const long = [r(['X'], 100), r(['A'], 100), r(['B'], 100)];
    const o: QuestionOutcome = { conversation: 'c', question: 'q', category: 4, evidence: ['A', 'B'], results: long, atLimit: { 5: [r(['B'], 40)], 20: long }, latencyMs: 1 };
    const m = summarise([o]);
    assert.equal(m.overall.recall[5], 0.5, 'from the limit-5 search, not the top 5 of the longer one');
    assert.equal(m.overall.tokens[5], 40);
    assert.equal(m.overall.recall[10], 1, 'no search for 10: the top 10 of the longest list');
    assert.equal(m.overall.recall[20], 1);
    assert.equal(m.overall.budget[500], 1);
    assert.equal(m.overall.budget[1000], 1);
  });

  test('variants: names pick case-insensitively; search-only variants share an ingest config', () => {
    assert.deepEqual(pickVariants(['BM25  Only', 'default']).map((v) => v.name), ['bm25 only', 'default']);
    assert.throws(() => pickVariants(['nope']), /Unknown variant "nope": use one of "default", "plain hybrid"/);
    const [def, bm25, vector] = ['default', 'bm25 only', 'vector only'].map((n) => resolveVariant(VARIANTS.find((v) => v.name === n)!));
    assert.deepEqual(vector!.ingestConfig, def!.ingestConfig);
    assert.notDeepEqual(bm25!.ingestConfig, def!.ingestConfig);
    assert.equal('search' in def!.ingestConfig, false);
  });

  test('the ablation ladder ends at the default search: each step adds a technique until nothing is left out', () => {
    const ladder = VARIANTS.filter((v) => v.name === 'plain hybrid' || v.name.startsWith('+ ')).map(resolveVariant);
    const def = resolveVariant(VARIANTS[0]!);
    assert.deepEqual(ladder.at(-1)!.resolved.search, def.resolved.search);
    for (let i = 1; i < ladder.length; i++) assert.notDeepEqual(ladder[i]!.resolved.search, ladder[i - 1]!.resolved.search, ladder[i]!.name);
  });
});

describe('cairn eval locomo (CLI)', { concurrency: 2 }, () => {
  /** Runs the eval in a fresh working directory (its .cairn-eval/ and bench/results/ go there). */
  const evalIn = (cwd: string, args: string[], timeoutMs = 60_000): Promise<RunResult> => runCli(['eval', 'locomo', ...args], { home: null, cwd, timeoutMs });
  const BM25 = ['--variants', 'bm25 only'];

  function fails(res: RunResult, code: number, message: RegExp): void {
    assert.equal(res.code, code, `exit ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
    assert.match(res.stderr, message);
    assert.doesNotMatch(res.stderr, /internal error|\n\s+at /, 'no stack trace');
  }

  test('an absent file: a clear message and exit 0', async () => {
    const cwd = tempDir(null);
    const res = await evalIn(cwd, []);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /LoCoMo data not found at .*shared\/bench\/data\/locomo10\.json: skipping/);
    const explicit = await evalIn(cwd, [join(cwd, 'nope.json'), '--json']);
    assert.equal(explicit.code, 0);
    assert.match(json(explicit.stdout).skipped, /nope\.json/);
    assert.equal(existsSync(join(cwd, '.cairn-eval')), false, 'nothing created');
  });

  test('a malformed file and bad flags: clear errors, non-zero exits', async () => {
    const cwd = tempDir(null);
    fails(await evalIn(cwd, [writeData(cwd, '[{"sample_id": "conv-1"')]), 3, /^cairn: LoCoMo file .*locomo\.json: is not valid JSON/);
    const noText = [{ ...SYNTHETIC[0], conversation: { session_1_date_time: '1:56 pm on 8 May, 2023', session_1: [{ speaker: 'Ana', dia_id: 'D1:1' }] } }];
    fails(await evalIn(cwd, [writeData(cwd, noText, 'b.json'), '--json']), 3, /"code":"INVALID_INPUT".*session_1\[0\]\.text is not a string/);
    const good = writeData(cwd);
    fails(await evalIn(cwd, [good, '--conversations', '0']), 3, /--conversations must be between 1 and/);
    fails(await evalIn(cwd, [good, '--conversations', '2x']), 3, /--conversations must be an integer/);
    fails(await evalIn(cwd, [good, '--variants', 'bm25 only,bogus']), 3, /Unknown variant "bogus": use one of/);
    fails(await evalIn(cwd, [good, '--out', cwd]), 3, /--out .* is a directory/);
    fails(await evalIn(cwd, [good, '--nope']), 2, /unknown option '--nope'/);
    assert.equal(existsSync(join(cwd, '.cairn-eval', 'homes')), false, 'no run started');
  });

  test('--conversations 1, --json, the results file, then a second run reuses the home, --fresh does not', async () => {
    const cwd = tempDir(null);
    const data = writeData(cwd);
    const first = await evalIn(cwd, [data, ...BM25, '--conversations', '1', '--json']);
    assert.equal(first.code, 0, first.stderr);
    const report = json(first.stdout);
    assert.equal(report.dataset.conversations, 1);
    assert.deepEqual(report.dataset.byCategory, { 1: 1, 2: 1, 3: 0, 4: 1 });
    assert.equal(report.dataset.questions, 3);
    const [run] = report.variants;
    assert.equal(run.name, 'bm25 only');
    assert.equal(run.home.state, 'new');
    assert.equal(run.metrics.overall.questions, 3);
    assert.ok(run.metrics.overall.recall[20] > 0.5, JSON.stringify(run.metrics.overall));
    assert.match(first.stderr, /new, ingesting 1 conversation$/m);
    const md = readFileSync(join(cwd, 'bench', 'results', 'locomo.md'), 'utf8');
    assert.match(md, /^# LoCoMo evidence recall/);
    assert.match(md, /\| 1 multi-hop \| 1 \|/);
    assert.match(md, /Command: `cairn eval locomo .*--conversations 1/);
    const asked = readFileSync(join(cwd, '.cairn-eval', 'locomo', 'runs', 'bm25-only.jsonl'), 'utf8').trim().split('\n').map((l) => json(l));
    assert.deepEqual(asked.map((q) => q.category), [1, 2, 4], 'category 5 and evidence-less questions are not asked');
    assert.deepEqual(asked.map((q) => typeof q.answerWords), ['number', 'undefined', 'number'], 'answer words for every question but the temporal one');
    assert.equal(run.metrics.overall.answered, 2);
    assert.match(md, /\| overall \| 3 \|( [0-9.]+ \|){9} [0-9.]+ \|$/m, 'the answer-words column closes the row');

    const again = await evalIn(cwd, [data, ...BM25, '--conversations', '1', '--out', 'again.md']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /reused \(already ingested\)/);
    assert.doesNotMatch(again.stderr, /ingested conv-1/);
    assert.match(again.stdout, /reused \(nothing ingested\)/);
    assert.ok(existsSync(join(cwd, 'again.md')));

    const more = await evalIn(cwd, [data, ...BM25]);
    assert.equal(more.code, 0, more.stderr);
    assert.match(more.stderr, /reused, ingesting the 1 conversation it lacks/);
    assert.match(more.stderr, /ingested conv-2 \(1\/1\)/);

    // A home built by another store schema can never be reused: it is removed.
    const stale = join(cwd, '.cairn-eval', 'locomo', 'homes', 'stale');
    mkdirSync(stale, { recursive: true });
    writeFileSync(join(stale, 'eval-home.json'), JSON.stringify({ key: 'x', components: { package: '0.0.1', pipeline: 1, schema: 1 }, conversations: {} }));
    const fresh = await evalIn(cwd, [data, ...BM25, '--fresh']);
    assert.equal(existsSync(stale), false);
    assert.match(fresh.stderr, /removed .*homes\/stale: built by an older pipeline or store schema/);
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.match(fresh.stderr, /new, ingesting 2 conversations/);
    assert.equal(readdirSync(join(cwd, '.cairn-eval', 'locomo', 'homes')).length, 1, 'one home for one ingest config');
  });

  test('--compare with two variants prints one ablation table (the default one with real vectors)', async () => {
    const cwd = tempDir(null);
    // A config file that changes nothing is the default again: asked once, its row the default's.
    writeFileSync(join(cwd, 'same.json'), '{"search":{}}');
    const res = await evalIn(cwd, [writeData(cwd), '--compare', '--variants', 'bm25 only,default', '--config', join(cwd, 'same.json')], 120_000);
    assert.equal(res.code, 0, res.stderr);
    const table = res.stdout.split('\n').filter((l) => l.startsWith('| ') && /^\| (variant|bm25 only|default|config same\.json) \|/.test(l));
    assert.equal(table.length, 4, res.stdout);
    assert.equal(table[3]!.replace('config same.json', 'default'), table[2], 'the same figures as the default');
    assert.equal(res.stderr.match(/its answers reused/g)?.length, 1, res.stderr);
    assert.match(table[0]!, /\| variant \| @5 \| @10 \| @20 \| 1 multi-hop @10 \| 2 temporal @10 \| 3 open-domain @10 \| 4 single-hop @10 \| 1 @20 \| 2 @20 \| 3 @20 \| 4 @20 \| tokens @10 \| @1000 tok \| answer words @10 \|/);
    assert.equal(res.stdout.match(/^## Ablation$/gm)?.length, 1);
    assert.match(res.stdout, /^## default$/m);
    assert.doesNotMatch(res.stdout.split('## default')[1]!, /Search fell back/, 'the default variant searched with vectors');
    assert.equal(readdirSync(join(cwd, '.cairn-eval', 'locomo', 'homes')).length, 2, 'different embedders: two homes');
  });

  test('--config measures a config file: an LLM judge and query rewriting against a loopback fake; bad files are clear errors', async () => {
    const cwd = tempDir(null);
    const data = writeData(cwd);
    const fake = await FakeLlmServer.start();
    try {
      const judge = judgeWith((t) => ({ importance: 7, category: 'fact', reason: 'fact', statement: `Restated: ${t.text}` }));
      fake.respond = (req) => (JSON.stringify(req.body).includes('Query: ') ? reply.answer({ queries: ['a rewritten question'], keywords: ['rewritten'] }) : judge(req));
      const llm = { provider: 'openai', baseUrl: fake.baseUrl('openai'), model: 'fake', maxRetries: 0, timeoutMs: 5000 };
      const cfg = join(cwd, 'llm.json');
      writeFileSync(cfg, JSON.stringify({ embedder: { provider: 'none' }, judge: { llm }, search: { queryRewrite: true } }));
      const res = await evalIn(cwd, [data, '--config', cfg, '--conversations', '1', '--json']);
      assert.equal(res.code, 0, res.stderr);
      const [run, ...others] = json(res.stdout).variants;
      assert.equal(others.length, 0, 'alone, the config replaces the default variant');
      assert.equal(run.name, 'config llm.json');
      assert.equal(run.metrics.overall.questions, 3);
      assert.deepEqual(run.degraded.filter((d: string) => /rewriting/.test(d)), [], 'every search was rewritten');
      const bodies = fake.requests.map((r) => JSON.stringify(r.body));
      assert.equal(bodies.filter((b) => b.includes('Query: ')).length, 3, 'one rewrite per question');
      assert.ok(bodies.some((b) => !b.includes('Query: ')), 'the judge was asked too');

      fails(await evalIn(cwd, [data, '--config', join(cwd, 'missing.json')]), 6, /Config file .*missing\.json does not exist/);
      writeFileSync(cfg, JSON.stringify({ search: { queryRewrite: 'yes' } }));
      fails(await evalIn(cwd, [data, '--config', cfg]), 6, /search\.queryRewrite/);
    } finally {
      await fake.close();
    }
  });
});

