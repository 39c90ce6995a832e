// Near-duplicate memories: a restatement in other words is one memory; a change (a value, a number,
// a date, a negation, a name) never is, whatever the scores say, and says why. Vectors come from the
// bundled model where it understands the language; elsewhere they are built with a chosen cosine,
// so the test pins what the verdict does with a given score rather than what one model thinks.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UseLiteEmbedder } from '../../src/embed/use-lite.js';
import { NEAR_DUP_THRESHOLDS, nearDuplicate, nearDupQueryTerms, wordsOf } from '../../src/memory/knowledge/near-dup.js';

const DIMS = 16;

/** Two unit vectors whose cosine is `cos`. */
function vectorsAt(cos: number): [Float32Array, Float32Array] {
  const a = new Float32Array(DIMS);
  const b = new Float32Array(DIMS);
  a[0] = 1;
  b[0] = cos;
  b[1] = Math.sqrt(1 - cos * cos);
  return [a, b];
}

function verdict(a: string, b: string, cos?: number) {
  const [va, vb] = cos === undefined ? [null, null] : vectorsAt(cos);
  return nearDuplicate({ id: 'm-a', text: a, vector: va }, { id: 'm-b', text: b, vector: vb });
}

describe('nearDuplicate: restatements are one memory', () => {
  it('the same decision in other words, on words alone', () => {
    const v = verdict('We picked Postgres for the store', 'The store will use Postgres, we decided');
    assert.equal(v.duplicate, true);
    assert.equal(v.cosine, null);
    assert.ok(v.overlap >= NEAR_DUP_THRESHOLDS.overlap && v.overlap < 1);
    assert.equal(v.reason, undefined);
  });

  it('a reordered statement, and one with a plural or past form of the same words', () => {
    assert.equal(verdict('Backups run nightly at 02:00 UTC', 'Nightly backups run at 02:00 UTC').duplicate, true);
    assert.equal(verdict('We deploy on Fridays only after the QA sign-off', 'Friday deploys happen only after QA signs off').duplicate, true);
  });

  it('is symmetric', () => {
    const pairs = [
      ['We picked Postgres for the store', 'The store will use Postgres, we decided'],
      ['I drink a cortado every morning', 'I drink a flat white every morning'],
      ['The staging database runs on port 5433', 'We moved the staging database to port 6543'],
    ] as const;
    const scores = (v: ReturnType<typeof verdict>) => [v.duplicate, v.overlap, v.cosine, v.reason === undefined];
    for (const [a, b] of pairs) assert.deepEqual(scores(verdict(a, b, 0.9)), scores(verdict(b, a, 0.9)));
  });

  it('a high cosine lets lower word overlap through, a low one does not', () => {
    const a = 'I run every morning before work';
    const b = 'Every morning before work I go for a run';
    assert.equal(verdict(a, b, 0.9).duplicate, true);
    assert.equal(verdict(a, 'In the mornings I jog, before the office', 0.95).duplicate, false, 'too few shared words even with a close vector');
    const lowOverlap = verdict('Tomás is a data engineer at Globex', 'Globex employs Tomás in data engineering', 0.9);
    assert.equal(lowOverlap.duplicate, lowOverlap.overlap >= NEAR_DUP_THRESHOLDS.overlapWithCosine);
    const sameWordsFarVector = verdict('Priya joined the platform team', 'The platform team: Priya joined', 0.1);
    assert.equal(sameWordsFarVector.duplicate, sameWordsFarVector.overlap >= NEAR_DUP_THRESHOLDS.overlap);
  });

  it('takes thresholds from the caller', () => {
    const a = 'We picked Postgres for the store';
    const b = 'The store will use Postgres, we decided';
    assert.equal(nearDuplicate({ id: 'a', text: a }, { id: 'b', text: b }, { overlap: 0.95, cosine: 2, overlapWithCosine: 2 }).duplicate, false);
    assert.equal(nearDuplicate({ id: 'a', text: a }, { id: 'b', text: b }, { overlap: 0.1, cosine: 2, overlapWithCosine: 2 }).duplicate, true);
  });
});

describe('nearDuplicate: a change is not a duplicate, and says why', () => {
  const close = 0.97; // scores alone would merge every pair below
  it('a different value word', () => {
    const v = verdict('I drink a cortado every morning', 'I drink a flat white every morning', close);
    assert.equal(v.duplicate, false);
    assert.match(v.reason ?? '', /^values differ \(cortado \/ flat white\)$/);
    assert.equal(verdict('I drink cortado', 'I switched to flat white', close).duplicate, false);
    assert.equal(verdict('The billing service is written in Go', 'The billing service is written in Rust', close).duplicate, false);
    assert.equal(verdict('Keiko lives in Osaka', 'Keiko works in Osaka', close).duplicate, false, 'another attribute, same value');
  });

  it('a different number: ports, versions, amounts', () => {
    for (const [a, b] of [
      ['The staging database runs on port 5433', 'We moved the staging database to port 6543'],
      ['The staging database runs on port 5433', 'The staging database runs on port 6543'],
      ['We are on Node 18', 'We are on Node 20'],
      ['The cache holds three entries per key', 'The cache holds two entries per key'],
    ]) {
      const v = verdict(a!, b!, close);
      assert.equal(v.duplicate, false, `${a} / ${b}`);
      assert.equal(v.reason, 'numbers differ');
    }
  });

  it('a number on one side only', () => {
    assert.equal(verdict('Staging runs on port 5433', 'Staging runs on the usual port', close).reason, 'numbers differ');
  });

  it('a negation, including states that ended', () => {
    for (const [a, b] of [
      ['I eat meat', "I don't eat meat"],
      ['We use feature flags for the rollout', 'We no longer use feature flags for the rollout'],
      ['I use Vim for coding', 'I stopped using Vim for coding'],
      ['We picked SQLite for the store', 'We decided against SQLite for the store'],
    ]) assert.equal(verdict(a!, b!, close).reason, 'negation differs', `${a} / ${b}`);
    assert.equal(verdict('We are running Rails 5.0', 'We run Rails 5.0').duplicate, true, 'a 0 in a version is not a negation');
  });

  it('a different date', () => {
    assert.equal(verdict('The design review is on Monday', 'The design review is on Thursday', close).reason, 'dates differ');
    assert.equal(verdict('My flight to Berlin is tomorrow', 'My flight to Berlin is next week', close).reason, 'dates differ');
    assert.equal(verdict('The project deadline is March 14', 'The project deadline is April 14', close).reason, 'dates differ');
  });

  it('a different name, named as such', () => {
    const v = verdict('My manager is Ana', 'My manager is Bruno', close);
    assert.equal(v.duplicate, false);
    assert.match(v.reason ?? '', /^names differ/);
    assert.match(verdict('The CI pipeline runs on GitHub Actions', 'The CI pipeline runs on Buildkite', close).reason ?? '', /^names differ/);
  });

  it('no reason when the scores already say no', () => {
    const v = verdict('I drink cortado', 'The staging database runs on port 5433', 0.1);
    assert.deepEqual([v.duplicate, v.reason], [false, undefined]);
  });
});

describe('nearDuplicate: hostile and odd input', () => {
  it('empty and blank texts are never duplicates', () => {
    for (const [a, b] of [['', ''], ['', 'I drink cortado'], ['   \n\t', '  '], ['the of and', 'the of and']]) {
      const v = verdict(a!, b!, 1);
      assert.equal(v.duplicate, false, JSON.stringify([a, b]));
      assert.equal(v.overlap, 0);
    }
  });

  it('a text that is not a string reads as empty', () => {
    const v = nearDuplicate({ id: 'a', text: null as unknown as string }, { id: 'b', text: 42 as unknown as string });
    assert.deepEqual([v.duplicate, v.overlap], [false, 0]);
  });

  it('10k characters: one changed figure at the very end still keeps them apart', () => {
    const body = 'The ingest worker retries failed uploads with backoff and logs every attempt to the audit table. '.repeat(100);
    assert.ok(body.length >= 9_000);
    assert.equal(verdict(`${body} Limit 5.`, `${body} Limit 5.`).duplicate, true);
    const v = verdict(`${body} Limit 5.`, `${body} Limit 7.`, 0.99);
    assert.deepEqual([v.duplicate, v.reason], [false, 'numbers differ']);
  });

  it('emoji: alone they carry no words; beside words they are ignored', () => {
    assert.equal(verdict('🎉🎉🎉', '🎉🎉🎉', 1).duplicate, false);
    assert.equal(verdict('🚀 We picked Postgres for the store', 'The store will use Postgres, we decided 👍').duplicate, true);
  });

  it('non-Latin paraphrases with vectors are one memory; a changed figure is not', () => {
    assert.equal(verdict('Мы выбрали Postgres для хранилища', 'Для хранилища мы выбрали Postgres', 0.92).duplicate, true);
    assert.equal(verdict('我们决定用 Postgres 做存储', '我们选择了 Postgres 做存储', 0.9).duplicate, true);
    assert.equal(verdict('ステージングのポートは5433です', 'ステージングのポートは6543です', 0.98).reason, 'numbers differ');
    assert.equal(verdict('Я живу в Лиссабоне', 'Я не живу в Лиссабоне', 0.95).reason, 'negation differs');
    assert.equal(verdict('我喜欢喝咖啡', '我不喜欢喝咖啡', 0.95).reason, 'negation differs');
    assert.equal(verdict('我喜欢喝咖啡', '他明天去北京开会', 0.2).duplicate, false);
  });

  it('fullwidth digits are the same number as ASCII ones', () => {
    assert.equal(verdict('Staging runs on port ５４３３', 'Staging runs on port 5433').duplicate, true);
  });
});

describe('nearDuplicate: vectors', () => {
  const a = 'In the mornings I usually get a cappuccino';
  const b = 'I drink cappuccino every morning';
  it('missing on one side: words alone decide, cosine is null', () => {
    const [va] = vectorsAt(0.99);
    for (const [x, y] of [[va, null], [null, va], [va, undefined]] as const) {
      const v = nearDuplicate({ id: 'a', text: a, vector: x }, { id: 'b', text: b, vector: y });
      assert.equal(v.cosine, null);
      assert.deepEqual(v, verdict(a, b));
    }
  });

  it('of different lengths, empty or not finite: treated as missing', () => {
    const long = new Float32Array(DIMS + 1).fill(1 / Math.sqrt(DIMS + 1));
    const [va] = vectorsAt(1);
    const nan = new Float32Array(DIMS).fill(Number.NaN);
    for (const other of [long, new Float32Array(0), nan]) assert.equal(nearDuplicate({ id: 'a', text: a, vector: va }, { id: 'b', text: b, vector: other }).cosine, null);
  });

  it('a slightly off-unit vector is clamped to [-1, 1]', () => {
    const big = new Float32Array(DIMS).fill(1);
    assert.equal(nearDuplicate({ id: 'a', text: a, vector: big }, { id: 'b', text: b, vector: big }).cosine, 1);
  });

  describe('with the bundled model', () => {
    const embedder = new UseLiteEmbedder();
    before(async () => {
      await embedder.init();
    });
    after(async () => {
      await embedder.close();
    });
    it('a paraphrase is one memory; a changed value with a close vector is not', async () => {
      const texts = ['I usually have a cappuccino in the mornings', 'Every morning I drink a cappuccino', 'Every morning I drink a matcha'];
      const [p, q, r] = await embedder.embed(texts);
      const para = nearDuplicate({ id: 'a', text: texts[0]!, vector: p }, { id: 'b', text: texts[1]!, vector: q });
      assert.equal(para.duplicate, true);
      assert.ok(para.cosine !== null && para.cosine >= NEAR_DUP_THRESHOLDS.cosine);
      const change = nearDuplicate({ id: 'b', text: texts[1]!, vector: q }, { id: 'c', text: texts[2]!, vector: r });
      assert.equal(change.duplicate, false);
      assert.match(change.reason ?? '', /^values differ/);
    });
  });
});

describe('NEAR_DUP_THRESHOLDS', () => {
  it('are the ones the bench results report as in the code', () => {
    const md = readFileSync(fileURLToPath(new URL('../../bench/results/near-dup.md', import.meta.url)), 'utf8');
    const t = NEAR_DUP_THRESHOLDS;
    assert.ok(md.includes(`In the code (NEAR_DUP_THRESHOLDS): overlap ≥ ${t.overlap}, or cosine ≥ ${t.cosine} with overlap ≥ ${t.overlapWithCosine}.`));
    assert.ok(Object.isFrozen(t));
  });
});

describe('nearDupQueryTerms', () => {
  it('figures and names first, then longer words; no stop words or paraphrase wording', () => {
    const terms = nearDupQueryTerms("We decided to move the staging database to port 6543 after Ana's review");
    assert.deepEqual(terms.slice(0, 2), ['6543', 'ana']);
    assert.ok(terms.includes('staging') && terms.includes('database'));
    for (const w of ['we', 'the', 'to', 'decided', 'after']) assert.ok(!terms.includes(w), w);
  });

  it('at most 8, each once, even from 10k characters', () => {
    const terms = nearDupQueryTerms('alpha beta gamma delta epsilon zeta theta iota kappa lambda alpha '.repeat(150));
    assert.equal(terms.length, 8);
    assert.equal(new Set(terms).size, 8);
  });

  it('empty, blank, emoji-only and non-string give nothing', () => {
    for (const t of ['', '   ', '🎉🎉', 'the and of', undefined as unknown as string]) assert.deepEqual(nearDupQueryTerms(t), []);
  });

  it('non-Latin words are kept', () => {
    assert.ok(nearDupQueryTerms('Мы выбрали Postgres для хранилища').includes('хранилища'));
  });
});

describe('wordsOf: the ASCII fast path splits as Intl.Segmenter does', () => {
  const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
  const reference = (text: string) => [...segmenter.segment(text.normalize('NFKC').toLowerCase())].filter((s) => s.isWordLike).map((s) => s.segment);

  it('on random strings of letters, digits and the punctuation word rules turn on', () => {
    const alphabet = "aZ9_.,':;-/ \"\n!?()@#$%&*+=<>[]{}|\\~`^\t";
    let seed = 29;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      let s = '';
      for (let n = 1 + Math.floor(next() * 30); n > 0; n--) s += alphabet[Math.floor(next() * alphabet.length)];
      assert.deepEqual(wordsOf(s), reference(s), JSON.stringify(s));
    }
  });

  it('on agent-message text, and non-ASCII text still goes through the segmenter', () => {
    for (const s of [
      "Error: ENOENT at src/store/sqlite/entries.ts:246:5 — don't retry 3.14 or 1,000,000 (e.g. v2.0.1); foo_bar __init__ _x a:b",
      'Fixed it in commit 4f2a9c1: `npm run build && node dist/cli.js --help` prints usage.\n\n```ts\nconst x = await load(input.path, 12);\n```',
      '',
      'Der Fluss, über den wir gehen; 我们明天去北京; café’s naïve résumé',
    ]) assert.deepEqual(wordsOf(s), reference(s).map((w) => w.replace(/’/g, "'")), s);
  });
});
