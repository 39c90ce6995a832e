// The query's focus (content words minus the speakers it names) joins the query vector: unit
// checks of the focus and the blend, and the facade embedding exactly the question and its focus.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { blendVectors, queryFocus } from '../../src/search/query-focus.js';
import { parseConfig } from '../../src/core/config.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';

const tmp = tempDir('cairn-focus-');
after(() => tmp.cleanup());

const SPEAKERS = [
  { name: 'John', turns: 10 },
  { name: 'Maria Lopez', turns: 8 },
  { name: 'user', turns: 3 },
];

describe('queryFocus', () => {
  it('keeps the content words and drops the names of speakers the query mentions', () => {
    assert.equal(queryFocus("What might John's job be?", SPEAKERS), 'job');
    assert.equal(queryFocus('Where did Maria Lopez and John travel last summer?', SPEAKERS), 'travel last summer');
    assert.equal(queryFocus('what did we decide about the port', SPEAKERS), 'decide port');
  });

  it('keeps names of people who are not speakers, and role words', () => {
    assert.equal(queryFocus('What does Dave think of Rust?', SPEAKERS), 'dave think rust');
    assert.equal(queryFocus('what did the user say about caching', SPEAKERS), 'user say caching');
  });

  it('is null when it would add nothing: no content words, or the same words as the question', () => {
    assert.equal(queryFocus('what is it?', SPEAKERS), null);
    assert.equal(queryFocus('John', SPEAKERS), null);
    assert.equal(queryFocus('postgres migration', SPEAKERS), null);
    assert.equal(queryFocus('', SPEAKERS), null);
    assert.equal(queryFocus('???', []), null);
  });

  it('copes with hostile text: unicode, markup, FTS syntax, a huge query', () => {
    assert.equal(queryFocus('Was hat John über 東京 gesagt?', SPEAKERS), '東京 gesagt', '"was", "hat" and "über" are German stop words');
    assert.equal(queryFocus('"john" OR job* NEAR(x) <script>', SPEAKERS), 'job near script', 'one-letter words are dropped');
    const huge = queryFocus(`${'alpha '.repeat(5000)}beta John`, SPEAKERS)!;
    assert.equal(huge, 'alpha beta', 'deduplicated and bounded like the BM25 terms');
  });
});

describe('blendVectors', () => {
  const unit = (...xs: number[]) => Float32Array.from(xs);
  it('returns a unit vector between the base and the mean of the others', () => {
    const v = blendVectors(unit(1, 0, 0), [unit(0, 1, 0)], 1);
    assert.ok(Math.abs(v[0]! - Math.SQRT1_2) < 1e-6 && Math.abs(v[1]! - Math.SQRT1_2) < 1e-6);
    const mean = blendVectors(unit(1, 0, 0), [unit(0, 1, 0), unit(0, 0, 1)], 2);
    assert.ok(Math.abs(Math.hypot(...mean) - 1) < 1e-6);
    assert.ok(Math.abs(mean[1]! - mean[2]!) < 1e-6, 'the others count equally');
  });

  it('weight 0 or no others leaves a copy of the base', () => {
    const base = unit(0.6, 0.8);
    const same = blendVectors(base, [], 1);
    assert.deepEqual([...same], [...base]);
    assert.notEqual(same, base);
    assert.deepEqual([...blendVectors(base, [unit(1, 0)], 0)], [...base]);
  });
});

describe('search embeds the question and its focus', () => {
  let serial = 0;
  async function setup(focusWeight?: number): Promise<{ cairn: Cairn; embedder: HashEmbedder }> {
    const home = join(tmp.dir, `home-${serial++}`);
    mkdirSync(home);
    const embedder = new HashEmbedder();
    const cairn = await Cairn.open({ home, config: focusWeight === undefined ? {} : { search: { focusWeight } }, embedder });
    const file = join(home, 'chat.jsonl');
    const line = (speaker: string, content: string, i: number) =>
      JSON.stringify({ role: i % 2 ? 'assistant' : 'user', speaker, content, id: `m${i}`, session: 's1', timestamp: `2026-05-0${1 + (i % 5)}T10:00:00Z` });
    writeFileSync(
      file,
      [
        line('John', 'I started a new job as a nurse at the county hospital', 0),
        line('Maria', 'That is great news, congratulations on the hospital role', 1),
        line('John', 'Thanks! The night shifts are tiring but I like the patients', 2),
      ].join('\n') + '\n',
    );
    await cairn.ingest([file], { format: 'jsonl', namespace: 'default' });
    await cairn.embedPending();
    return { cairn, embedder };
  }

  it('a question naming a speaker embeds [question, focus] in one call', async () => {
    const { cairn, embedder } = await setup();
    try {
      const before = embedder.calls.length;
      const res = await cairn.search("What might John's job be?");
      assert.deepEqual(embedder.calls.slice(before), [["What might John's job be?", 'job']]);
      assert.ok(res.results.some((r) => r.text.includes('new job as a nurse')));
      assert.equal(res.mode, 'hybrid');
    } finally {
      await cairn.close();
    }
  });

  it('focusWeight 0 embeds the question alone; a focus equal to the question is not embedded twice', async () => {
    const off = await setup(0);
    try {
      const before = off.embedder.calls.length;
      await off.cairn.search("What might John's job be?");
      assert.deepEqual(off.embedder.calls.slice(before), [["What might John's job be?"]]);
    } finally {
      await off.cairn.close();
    }
    const on = await setup();
    try {
      const before = on.embedder.calls.length;
      await on.cairn.search('hospital shifts');
      assert.deepEqual(on.embedder.calls.slice(before), [['hospital shifts']]);
      // Bm25 mode embeds nothing at all.
      await on.cairn.search("What might John's job be?", { mode: 'bm25' });
      assert.equal(on.embedder.calls.length, before + 1);
    } finally {
      await on.cairn.close();
    }
  });

  it('the config key is validated and named when wrong', () => {
    assert.equal(parseConfig({}, 'test').search.focusWeight, 1);
    assert.equal(parseConfig({ search: { focusWeight: 0.5 } }, 'test').search.focusWeight, 0.5);
    assert.throws(() => parseConfig({ search: { focusWeight: -1 } }, 'test'), /search\.focusWeight/);
    assert.throws(() => parseConfig({ search: { focusWeight: 'yes' } } as never, 'test'), /search\.focusWeight/);
  });
});
