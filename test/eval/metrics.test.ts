// The eval's arithmetic (bench/eval/metrics.ts): recall@k, first-hit recall, token budgets, answer
// words, categories of any set, the issue-6 bar line, and the variants and splits a run picks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { splitConversations, variantsToRun } from '../../bench/eval/evaluate.js';
import { answerShown, changedAt, coveredIds, firstHitRecallAtK, questionAnswerShown, recallAtBudget, recallAtK, returnedTexts, summarise, tokensAtK, type QuestionOutcome, type RankedResult } from '../../bench/eval/metrics.js';
import { barLine } from '../../bench/eval/report.js';
import { pickVariants, resolveVariant, VARIANTS } from '../../bench/eval/variants.js';

const r = (ids: string[], tokens: number, first?: string[]): RankedResult => ({ ids, tokens, ...(first ? { first } : {}) });
const [MH, T, OD, SH] = ['1 multi-hop', '2 temporal', '3 open-domain', '4 single-hop'];

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
  const q = (category: string, found: boolean): QuestionOutcome => ({ conversation: 'c', question: 'q', category, evidence: ['A'], results: found ? [r(['A'], 10)] : [], latencyMs: 1 });

  test('a category the file has no questions of is not judged; one it has is', () => {
    const line = barLine(summarise([q(MH, true), q(T, true), q(SH, true)]));
    assert.match(line, /✓ overall @10 ≥ 0\.85/);
    assert.match(line, /✓ multi-hop @10 ≥ 0\.65/);
    assert.match(line, /– open-domain @10 ≥ 0\.6 \(no such questions\)/);
    assert.match(line, /✓ every category @20 ≥ 0\.8/);
    const missed = barLine(summarise([q(MH, true), q(T, true), q(OD, false), q(SH, true)]));
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
      returnedTexts({ snippet: 'hit', context: [ctx(-1, 'Ana', 'before'), ctx(1, null, 'after')] }),
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
    const q = (category: string, evidence: string[], results: RankedResult[], latencyMs: number): QuestionOutcome => ({ conversation: 'c', question: 'q', category, evidence, results, latencyMs });
    const m = summarise([q(MH, ['A', 'B'], [r(['A'], 10)], 5), q(SH, ['C'], [r(['C'], 20)], 15), q(SH, ['D'], [], 10)]);
    assert.equal(m.overall.questions, 3);
    assert.equal(m.overall.recall[5], (0.5 + 1 + 0) / 3);
    assert.equal(m.byCategory[MH]!.recall[10], 0.5);
    assert.equal(m.byCategory[SH]!.recall[20], 0.5);
    assert.equal(m.byCategory[SH]!.tokens[10], 10);
    assert.equal(m.byCategory[SH]!.tokensP50[10], 0, 'the median of 20 and 0 by nearest rank');
    assert.deepEqual(Object.keys(m.byCategory), [MH, SH], 'only the categories asked, sorted');
    assert.deepEqual([m.latencyMs.p50, m.latencyMs.p95], [10, 15]);
    assert.ok(Number.isNaN(m.overall.answerWords) && m.overall.answered === 0, 'no answers scored: no figure');
  });

  test('answer words average over the questions that have them, by category', () => {
    const q = (category: string, answerWords?: number): QuestionOutcome => ({ conversation: 'c', question: 'q', category, evidence: ['A'], results: [], latencyMs: 1, ...(answerWords === undefined ? {} : { answerWords }) });
    const m = summarise([q(MH, 1), q(T), q(SH, 0.5), q(SH, 0)]);
    assert.equal(m.overall.answerWords, 0.5);
    assert.equal(m.overall.answered, 3);
    assert.equal(m.byCategory[SH]!.answerWords, 0.25);
    assert.ok(Number.isNaN(m.byCategory[T]!.answerWords), 'a question without an answer text is never scored');
    assert.equal(questionAnswerShown({}, () => ['x']), null);
    assert.equal(questionAnswerShown({ answer: '' }, () => ['x']), null);
    assert.equal(questionAnswerShown({ answer: 'beagle' }, () => ['a beagle']), 1);
  });

  test('recall and tokens @k come from the search asked for k; budgets from the longest list', () => {
    // A search for 5 can return other results than the top 5 of a search for 20 (its candidate pool is smaller).
    const long = [r(['X'], 100), r(['A'], 100), r(['B'], 100)];
    const o: QuestionOutcome = { conversation: 'c', question: 'q', category: SH, evidence: ['A', 'B'], results: long, atLimit: { 5: [r(['B'], 40)], 20: long }, latencyMs: 1 };
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
    assert.throws(() => pickVariants(['nope']), /Unknown variant "nope": use one of "default", "plain BM25", "plain hybrid"/);
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

describe('first-hit recall', () => {
  test('a result counts only for its own hit, not for the hits folded into it or the context around it', () => {
    // Result 1 is hit X with D1:2 folded in and D1:3 shown beside it; result 2 is hit D2:1 alone.
    const results = [r(['X', 'D1:2', 'D1:3'], 50, ['X']), r(['D2:1'], 10, ['D2:1'])];
    assert.equal(recallAtK(['D1:2', 'D2:1'], results, 10), 1);
    assert.equal(firstHitRecallAtK(['D1:2', 'D2:1'], results, 10), 0.5);
    assert.equal(firstHitRecallAtK(['D1:2', 'D2:1'], results, 1), 0);
    assert.equal(firstHitRecallAtK(['X'], results, 1), 1);
    assert.equal(firstHitRecallAtK([], results, 10), 0, 'no evidence: nothing to find');
    assert.equal(firstHitRecallAtK(['X'], [], 10), 0);
    assert.equal(firstHitRecallAtK(['D1:2'], [r(['D1:2'], 5)], 10), 1, 'without a first hit recorded, the result\'s ids stand in');
  });

  test('summarise reports it beside result recall, and a result of one hit scores the same on both', () => {
    const o = (results: RankedResult[]): QuestionOutcome => ({ conversation: 'c', question: 'q', category: SH, evidence: ['A', 'B'], results, latencyMs: 1 });
    const m = summarise([o([r(['Z', 'A', 'B'], 30, ['Z'])]), o([r(['A'], 10, ['A']), r(['B'], 10, ['B'])])]);
    assert.equal(m.overall.recall[10], 1);
    assert.equal(m.overall.firstHit[10], 0.5);
    assert.equal(m.intervals.firstHit10.mean, 0.5);
    assert.equal(m.intervals.recall10.mean, 1);
    assert.deepEqual([m.intervals.recall10.low, m.intervals.recall10.high], [1, 1], 'no spread: a zero-width interval');
  });
});

describe('splits and the variants a run asks', () => {
  test('dev is the first half, report the second, all everything; an odd count gives dev the extra one', () => {
    const ten = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    assert.deepEqual(splitConversations(ten, 'dev'), { picked: [0, 1, 2, 3, 4], first: 0 });
    assert.deepEqual(splitConversations(ten, 'report'), { picked: [5, 6, 7, 8, 9], first: 5 });
    assert.deepEqual(splitConversations(ten, 'all'), { picked: ten, first: 0 });
    assert.deepEqual(splitConversations([0, 1, 2], 'report'), { picked: [2], first: 2 });
    assert.deepEqual(splitConversations([0], 'report'), { picked: [], first: 1 });
    assert.deepEqual(splitConversations([], 'dev'), { picked: [], first: 0 });
  });

  test('plain BM25 runs beside the default whenever the default runs, and only then', () => {
    assert.deepEqual(variantsToRun({}).map((v) => v.name), ['default', 'plain BM25']);
    assert.deepEqual(variantsToRun({ variants: ['bm25 only', 'default', 'no speaker'] }).map((v) => v.name), ['bm25 only', 'default', 'plain BM25', 'no speaker']);
    assert.deepEqual(variantsToRun({ variants: ['plain bm25', 'default'] }).map((v) => v.name), ['plain BM25', 'default'], 'not twice');
    assert.deepEqual(variantsToRun({ variants: ['bm25 only'] }).map((v) => v.name), ['bm25 only']);
    const compare = variantsToRun({ compare: true }).map((v) => v.name);
    assert.equal(compare.filter((n) => n === 'plain BM25').length, 1);
    const plain = resolveVariant(VARIANTS.find((v) => v.name === 'plain BM25')!);
    assert.deepEqual(plain.search, { mode: 'bm25' });
    assert.equal(plain.resolved.search.groupHits, 1, 'one hit per result');
    assert.deepEqual(plain.ingestConfig, resolveVariant(VARIANTS[0]!).ingestConfig, 'asked of the default\'s home');
  });
});

describe('changed results between two runs', () => {
  const q = (results: RankedResult[], extra: Partial<QuestionOutcome> = {}): QuestionOutcome => ({ conversation: 'c', question: 'q', category: SH, evidence: ['D1:1'], results, latencyMs: 1, ...extra });
  test('counts questions whose search for k shows other turns, order or grouping; the same recall can hide a change', () => {
    const a = [q([r(['D1:1'], 5), r(['D1:2'], 5)]), q([r(['D1:1', 'D1:3'], 5, ['D1:1'])]), q([r(['D1:4'], 5)])];
    const reordered = [q([r(['D1:2'], 5), r(['D1:1'], 5)]), q([r(['D1:1', 'D1:3'], 5, ['D1:3'])]), q([r(['D1:4'], 9)])];
    assert.equal(changedAt(10, a, a), 0);
    assert.equal(changedAt(10, reordered, a), 2, 'order and the hit a group leads with count; tokens alone do not');
    assert.equal(recallAtK(['D1:1'], reordered[0]!.results, 10), recallAtK(['D1:1'], a[0]!.results, 10));
    assert.equal(changedAt(5, [q([r(['D1:1'], 1)], { atLimit: { 5: [r(['D1:9'], 1)] } })], [q([r(['D1:1'], 1)])]), 1, 'the search for k, not the longest');
  });
  test('a k either run did not ask is NaN; runs of other lengths are an error', () => {
    assert.ok(Number.isNaN(changedAt(5, [q([], { limits: [10] })], [q([])])));
    assert.throws(() => changedAt(10, [q([])], []), RangeError);
  });
});
