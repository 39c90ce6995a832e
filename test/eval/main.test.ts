// `npm run eval -- <set>` (bench/eval/main.ts) as a real child process on the synthetic LoCoMo file:
// skip, errors, flags, splits, the summary table with the baseline and the paired differences,
// home reuse. Most runs use the "bm25 only" variant: no model to load.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, json, runNode, tempHomes, type RunResult } from '../helpers/cli.js';
import { FakeLlmServer, reply } from '../helpers/fake-llm.js';
import { judgeWith } from '../helpers/fake-judge.js';
import { SYNTHETIC, writeData } from './locomo-fixture.js';

const tempDir = tempHomes(undefined);
const MAIN = join(ROOT, 'bench', 'eval', 'main.ts');

describe('bench/eval/main.ts locomo', { concurrency: 2 }, () => {
  /** Runs the eval in a fresh working directory (its .cairn-eval/ and bench/results/ go there). */
  const evalIn = (cwd: string, args: string[], timeoutMs = 240_000, set = 'locomo'): Promise<RunResult> => {
    // As in a checkout: `--import tsx` (in the embedding worker threads too) resolves from the cwd.
    if (!existsSync(join(cwd, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(cwd, 'node_modules'));
    return runNode(['--import', 'tsx', MAIN, set, ...args], { home: null, cwd, timeoutMs });
  };
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
    assert.match(res.stdout, /locomo data not found where its loader looks \(see --help\): skipping/);
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
    fails(await evalIn(cwd, [good, '--split', 'test']), 2, /--split <split>' argument 'test' is invalid\. Allowed choices are dev, report, all/);
    fails(await evalIn(cwd, [good], undefined, 'nosuchset'), 3, /Unknown set "nosuchset": use one of locomo/);
    fails(await evalIn(cwd, [writeData(cwd, [SYNTHETIC[0]], 'one.json'), '--split', 'report', ...BM25]), 3, /the report split of locomo has no conversations \(the set has 1\)/);
    assert.equal(existsSync(join(cwd, '.cairn-eval', 'homes')), false, 'no run started');
  });

  test('--conversations 1, --json, the results file, then a second run reuses the home, --fresh does not', async () => {
    const cwd = tempDir(null);
    const data = writeData(cwd);
    const first = await evalIn(cwd, [data, ...BM25, '--conversations', '1', '--json']);
    assert.equal(first.code, 0, first.stderr);
    const report = json(first.stdout);
    assert.equal(report.dataset.conversations, 1);
    assert.deepEqual(report.dataset.byCategory, { '1 multi-hop': 1, '2 temporal': 1, '4 single-hop': 1 });
    assert.deepEqual([report.dataset.split, report.dataset.range, report.dataset.of], ['all', [0, 0], 2]);
    assert.equal(report.dataset.questions, 3);
    const [run] = report.variants;
    assert.equal(run.name, 'bm25 only');
    assert.equal(run.home.state, 'new');
    assert.equal(run.metrics.overall.questions, 3);
    assert.ok(run.metrics.overall.recall[20] > 0.5, JSON.stringify(run.metrics.overall));
    assert.match(first.stderr, /new, ingesting 1 conversation$/m);
    const md = readFileSync(join(cwd, 'bench', 'results', 'locomo.md'), 'utf8');
    assert.match(md, /^# Evidence recall: locomo, split all/);
    assert.match(md, /\| 1 multi-hop \| 1 \|/);
    assert.match(md, /Command: `node --import tsx bench\/eval\/main\.ts locomo .*--conversations 1 --json`/);
    const asked = readFileSync(join(cwd, '.cairn-eval', 'locomo', 'runs', 'all-bm25-only.jsonl'), 'utf8').trim().split('\n').map((l) => json(l));
    assert.deepEqual(asked.map((q) => q.category), ['1 multi-hop', '2 temporal', '4 single-hop'], 'category 5 and evidence-less questions are not asked');
    assert.ok(asked.every((q) => q.results.every((x: { ids: string[]; first: string[] }) => x.first.every((id) => x.ids.includes(id)))), 'a first hit is among the ids a result covers');
    assert.deepEqual(asked.map((q) => typeof q.answerWords), ['number', 'undefined', 'number'], 'answer words for every question but the temporal one');
    assert.equal(run.metrics.overall.answered, 2);
    assert.match(md, /\| overall \| 3 \|( [0-9.]+ \|){10} [0-9.]+ \|$/m, 'the answer-words column closes the row');
    assert.match(md, /95 % intervals: @5 [0-9.]+ \[[0-9.]+, [0-9.]+\]/);

    const again = await evalIn(cwd, [data, ...BM25, '--conversations', '1', '--out', 'again.md']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /reused \(already ingested\)/);
    assert.doesNotMatch(again.stderr, /ingested conv-1/);
    assert.match(again.stdout, /reused \(nothing ingested\)/);
    assert.ok(existsSync(join(cwd, 'again.md')));

    // The report split is the second conversation: the home grows by it.
    const more = await evalIn(cwd, [data, ...BM25, '--split', 'report', '--json']);
    assert.equal(more.code, 0, more.stderr);
    assert.match(more.stderr, /reused, ingesting the 1 conversation it lacks/);
    assert.match(more.stderr, /ingested conv-2 \(1\/1\)/);
    assert.deepEqual([json(more.stdout).dataset.split, json(more.stdout).dataset.range, json(more.stdout).dataset.questions], ['report', [1, 1], 2]);
    const reportMd = readFileSync(join(cwd, 'bench', 'results', 'locomo-report.md'), 'utf8');
    assert.match(reportMd, /split report \(conversations 1–1 of 0–1; the set's second half, to report\)/);
    assert.ok(existsSync(join(cwd, '.cairn-eval', 'locomo', 'runs', 'report-bm25-only.jsonl')));

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

  test('variants with the default: plain BM25 beside it, one summary table, each row\'s difference from the default (real vectors)', async () => {
    const cwd = tempDir(null);
    // A config file that changes nothing is the default again: asked once, its row the default's.
    writeFileSync(join(cwd, 'same.json'), '{"search":{}}');
    const res = await evalIn(cwd, [writeData(cwd), '--variants', 'bm25 only,default', '--config', join(cwd, 'same.json')], 290_000);
    assert.equal(res.code, 0, res.stderr);
    const table = res.stdout.split('\n').filter((l) => /^\| (variant|bm25 only|default|plain BM25|config same\.json) \|/.test(l));
    assert.deepEqual(table.map((l) => l.split(' | ')[0]), ['| variant', '| bm25 only', '| default', '| plain BM25', '| config same.json']);
    assert.match(table[0]!, /^\| variant \| @5 \| @10 \| @20 \| first-hit @10 \| @500 tok \| @1000 tok \| @2000 tok \| tokens @10 mean \/ p50 \| answer words @10 \| Δ @10 \| Δ first-hit @10 \| Δ @1000 tok \| changed @10 \|$/);
    const cells = (line: string) => line.split(' | ');
    assert.deepEqual(cells(table[4]!).slice(1, 10), cells(table[2]!).slice(1, 10), 'the same figures as the default');
    assert.match(table[2]!, /\| \(reference\) \|  \|  \|  \|$/);
    assert.match(table[4]!, /\| \+0\.000 \[\+0\.000, \+0\.000\] \| \+0\.000 \[\+0\.000, \+0\.000\] \| \+0\.000 \[\+0\.000, \+0\.000\] \| 0 of \d+ \|$/, 'no difference from itself');
    assert.match(table[3]!, /\| [0-9.]+ \| ([0-9.]+) \[[0-9.]+, [0-9.]+\] \| [0-9.]+ \| \1 \[/, 'plain BM25: one hit per result, so first-hit @10 is its @10');
    assert.equal(res.stderr.match(/its answers reused/g)?.length, 1, res.stderr);
    assert.equal(res.stdout.match(/^## Summary$/gm)?.length, 1);
    assert.match(res.stdout, /^Δ against default: @5 [+−]/m);
    assert.doesNotMatch(res.stdout.split('## default')[1]!.split('## plain BM25')[0]!, /Search fell back/, 'the default variant searched with vectors');
    assert.equal(readdirSync(join(cwd, '.cairn-eval', 'locomo', 'homes')).length, 2, 'different embedders: two homes; plain BM25 asks the default\'s');
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
