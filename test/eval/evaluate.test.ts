// runEval (bench/eval/evaluate.ts) in process on the synthetic LoCoMo file: the report is rewritten
// after every variant (a run stopped part way keeps what it finished, marked incomplete); --limits
// asks only some searches; --reuse takes kept answers only when everything they depend on matches.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempHomes } from '../helpers/cli.js';
import { runEval, type EvalOptions } from '../../bench/eval/evaluate.js';
import { loadLocomo10 } from '../../bench/eval/locomo/devset.js';
import { writeData } from './locomo-fixture.js';

const tempDir = tempHomes(undefined);

describe('runEval writes its report as it goes', () => {
  function options(dir: string, log: EvalOptions['log']): EvalOptions {
    const set = loadLocomo10(writeData(dir))!;
    // A second variant over the same home: no embedder, coverage off (read at search time only).
    const config = join(dir, 'no-coverage.json');
    writeFileSync(config, JSON.stringify({ embedder: { provider: 'none' }, search: { coverageWeight: 0 } }));
    return { set, split: 'all', workDir: join(dir, '.cairn-eval'), out: join(dir, 'report.md'), variants: ['bm25 only'], configPath: config, command: 'test', log };
  }

  test('stopped in its second variant: the first is in the report, marked 1 of 2; a finished run is not marked', async () => {
    const dir = tempDir(null);
    const stop = new Error('stopped by the test');
    const lines: string[] = [];
    const stopping = options(dir, (line) => {
      lines.push(line);
      if (line.startsWith('config no-coverage.json: asked')) throw stop;
    });
    await assert.rejects(runEval(stopping), (err) => err === stop);
    assert.ok(lines.some((l) => l.startsWith('bm25 only: asked')), lines.join('\n'));
    const partial = readFileSync(stopping.out, 'utf8');
    assert.match(partial, /\*\*Incomplete: 1 of 2 variants finished when this was written\*\*/);
    assert.match(partial, /^\| bm25 only \| /m);
    assert.doesNotMatch(partial, /^\| config no-coverage\.json \| /m, 'the variant stopped part way is not reported');

    const finished = await runEval(options(dir, () => undefined));
    assert.equal(finished.report.incomplete, undefined);
    assert.deepEqual(finished.report.variants.map((v) => [v.name, v.home.state]), [['bm25 only', 'reused'], ['config no-coverage.json', 'reused']]);
    assert.ok(finished.report.variants[1]!.difference, 'the second variant is compared with the first');
    assert.equal(finished.report.variants[1]!.differenceFrom, 'bm25 only');
    const full = readFileSync(finished.out, 'utf8');
    assert.doesNotMatch(full, /Incomplete/);
    assert.match(full, /^\| config no-coverage\.json \| .*\| [+−]\d\.\d{3} \[/m);
    assert.ok(existsSync(join(dir, '.cairn-eval', 'runs', 'all-config-no-coverage-json.jsonl')));
  });

  test('--limits asks only those searches (the others read NaN); --reuse takes kept answers only under the same key', async () => {
    const dir = tempDir(null);
    const lines: string[] = [];
    const base = { ...options(dir, (line) => lines.push(line)), configPath: undefined, limits: [10] as const };
    const first = await runEval(base);
    const [run] = first.report.variants;
    assert.deepEqual(run!.limits, [10]);
    const o = run!.metrics.overall;
    assert.ok(o.recall[10] > 0, JSON.stringify(o));
    assert.ok(Number.isNaN(o.recall[5]) && Number.isNaN(o.recall[20]) && Number.isNaN(o.budget[1000]), 'no stand-in from the limit-10 search');
    assert.match(first.markdown, /^\| bm25 only \| – \| \d\.\d{3} \[/m);
    assert.match(first.markdown, /search call `\{"mode":"hybrid","limit":"10"\}`/);
    const asked = lines.filter((l) => l.startsWith('bm25 only: asked')).length;
    assert.ok(asked > 0);

    // Kept answers are taken only with --reuse and the same key; any other limit asks again.
    lines.length = 0;
    const again = await runEval({ ...base, reuse: true });
    assert.ok(lines.some((l) => /answers kept from an earlier run/.test(l)), lines.join('\n'));
    assert.equal(lines.filter((l) => l.startsWith('bm25 only: asked')).length, 0);
    assert.deepEqual(again.report.variants[0]!.metrics.overall, o);
    lines.length = 0;
    await runEval({ ...base, reuse: true, limits: [5, 10] });
    assert.equal(lines.filter((l) => l.startsWith('bm25 only: asked')).length, asked, 'other limits: asked again');
    lines.length = 0;
    await runEval(base);
    assert.equal(lines.filter((l) => l.startsWith('bm25 only: asked')).length, asked, 'without --reuse: asked again');

    // A kept file whose key does not match (another home, config or code) is never taken.
    const meta = join(dir, '.cairn-eval', 'runs', 'all-bm25-only.meta.json');
    writeFileSync(meta, JSON.stringify({ ...JSON.parse(readFileSync(meta, 'utf8')), key: 'other' }));
    lines.length = 0;
    await runEval({ ...base, reuse: true });
    assert.equal(lines.filter((l) => l.startsWith('bm25 only: asked')).length, asked, 'another key: asked again');
    writeFileSync(meta, '{ not json');
    lines.length = 0;
    await runEval({ ...base, reuse: true });
    assert.equal(lines.filter((l) => l.startsWith('bm25 only: asked')).length, asked, 'an unreadable key: asked again');
  });
});
