// Passage vectors end to end on a real SQLite home: stored beside each entry's own vector when it
// is embedded (under the index's passage policy: windows, sentences or none), filled in for
// entries embedded before they existed, kept by reembed, and used by search so that one sentence
// of a long text can find it.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { Cairn } from '../../src/service/cairn.js';
import { passageModelId, passagesOf } from '../../src/embed/passages.js';
import type { CairnConfigInput } from '../../src/core/config.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';

/** Vectors are stored int8 (a scale per 128 values): one reads back within rounding of what was embedded. */
function assertNear(actual: ArrayLike<number>, expected: ArrayLike<number>, what = 'vector'): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) assert.ok(Math.abs(actual[i]! - expected[i]!) < 5e-3, `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
}

// A long message about other things whose last sentence is the one a search is after.
const LONG = [
  'The kitchen renovation took most of the spring and the contractor kept changing the schedule.',
  'We picked oak cabinets, a grey stone counter and a deep sink after weeks of arguing about tiles.',
  'The dog hated the noise, so he spent afternoons at the neighbours and came back covered in mud.',
  'By June the floor was finished, the painters had left and the whole house smelled of fresh varnish.',
  'The garden is next, although nobody has agreed on what to plant along the fence yet.',
  'My sister moved to Lisbon for a design job.',
].join(' ');
const SHORT = 'Lisbon trams are old and yellow.';
const OTHER_LONG = [
  'Our build server ran out of disk twice this week because nightly artifacts were never pruned.',
  'Ravi wrote a cron job that deletes anything older than ten days from the artifact bucket.',
  'The deploy pipeline now checks free space before it starts and fails early with a clear message.',
  'Monitoring pages the on-call engineer when the disk is more than ninety percent full.',
  'Finally the fence was painted green.',
].join(' ');
const QUERY = 'sister moved to Lisbon';
const MODEL = 'test-hash@1';

describe('passage vectors', () => {
  let tmp: ReturnType<typeof tempDir>;
  let cairn: Cairn;
  // The query vector is the query's own (no blend with its focus), so cosines can be checked by hand.
  let embedder: HashEmbedder;
  // Windows unless a test names another policy (the default is none: docs/SEARCH.md).
  const open = async (search: Record<string, number> = {}, index: CairnConfigInput['index'] = { passages: 'windows' }) =>
    Cairn.open({ home: tmp.dir, embedder: (embedder = new HashEmbedder({ modelId: MODEL, dims: 256 })), config: { search: { focusWeight: 0, ...search }, index } });

  beforeEach(async () => {
    tmp = tempDir();
    cairn = await open();
  });
  afterEach(async () => {
    await cairn.close();
    tmp.cleanup();
  });

  async function storeBoth(): Promise<{ long: number; short: number }> {
    const long = await cairn.remember({ text: LONG });
    const short = await cairn.remember({ text: SHORT });
    const seqOf = async (id: string) => (await cairn.store.entryFor('memory', id))!.seq;
    return { long: await seqOf(long.memory.id), short: await seqOf(short.memory.id) };
  }

  it('windows: the first window is the whole text\'s vector, neither embedded nor stored again; the others their own; a short text an empty row', async () => {
    const { long, short } = await storeBoth();
    const passages = passagesOf(LONG, 'windows');
    assert.equal(passages.length, 2);
    const rows = await cairn.store.getVectors(passageModelId(MODEL, 'windows'), [long, short]);
    assert.equal(rows.get(long)!.length, (passages.length - 1) * 256, 'the windows after the first');
    assert.equal(rows.get(short)!.length, 0);
    assertNear(rows.get(long)!, embedder.vector(passages[1]!));
    assert.deepEqual(embedder.calls.flat().sort(), [LONG, SHORT, passages[1]!].sort(), 'one model call per text and per later window');
  });

  it('sentences: every sentence run embedded on its own under its own model id; none: no passage rows at all', async () => {
    await cairn.close();
    cairn = await open({}, { passages: 'sentences' });
    const { long, short } = await storeBoth();
    const passages = passagesOf(LONG, 'sentences');
    const rows = await cairn.store.getVectors(passageModelId(MODEL, 'sentences'), [long, short]);
    assertNear(rows.get(long)!, passages.flatMap((p) => [...embedder.vector(p)]));
    assert.equal(rows.get(short)!.length, 0);
    assert.equal((await cairn.store.getVectors(passageModelId(MODEL, 'windows'), [long])).size, 0, 'no rows of another policy');
    await cairn.close();
    cairn = await open({}, {}); // the default: none
    const other = await cairn.remember({ text: OTHER_LONG });
    const seq = (await cairn.store.entryFor('memory', other.memory.id))!.seq;
    assert.deepEqual(embedder.calls, [[OTHER_LONG]]);
    assert.equal((await cairn.store.vectorModels()).map((m) => m.model).filter((m) => m.includes('#')).join(), `${MODEL}#passages`);
    assert.equal((await cairn.embedPending()).total, 0, 'nothing waits under none');
    assert.ok((await cairn.search('fence painted green', { mode: 'vector', limit: 3 })).results.some((r) => r.text.includes('fence was painted')));
    assert.ok(seq > long, 'a memory of its own');
  });

  it('a policy switch fills in its own rows on the next pass; the first window is the stored vector', async () => {
    await cairn.close();
    cairn = await open({}, { passages: 'none' });
    const { long } = await storeBoth();
    await cairn.close();
    cairn = await open();
    const pass = await cairn.embedPending();
    assert.deepEqual({ done: pass.done, total: pass.total }, { done: 2, total: 2 });
    assert.deepEqual(embedder.calls.flat(), [passagesOf(LONG, 'windows')[1]!], 'only the later window goes through the model');
    const row = (await cairn.store.getVectors(passageModelId(MODEL, 'windows'), [long])).get(long)!;
    assertNear(row, embedder.vector(passagesOf(LONG, 'windows')[1]!));
  });

  it('search: the closest sentence lifts a long text above the whole-text vector alone', async () => {
    const { long } = await storeBoth();
    const cosineOf = async (c: Cairn) => {
      const { results } = await c.search(QUERY, { mode: 'vector', limit: 5 });
      assert.equal(results[0]!.text, LONG, 'the long text comes first');
      return results.find((r) => r.text === LONG)!.parts.cosine!;
    };
    const withPassages = await cosineOf(cairn);
    await cairn.close();
    cairn = await open({ passageWeight: 0 });
    const whole = (await cairn.search(QUERY, { mode: 'vector', limit: 5 })).results.find((r) => r.text === LONG)!.parts.cosine!;
    const q = embedder.vector(QUERY);
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
    assert.ok(Math.abs(whole - dot(q, embedder.vector(LONG))) < 5e-3);
    // The first window's vector is the whole text's.
    const best = Math.max(dot(q, embedder.vector(LONG)), ...passagesOf(LONG, 'windows').slice(1).map((p) => dot(q, embedder.vector(p))));
    assert.ok(Math.abs(withPassages - (0.5 * whole + 0.5 * best)) < 5e-3, `${withPassages} vs ${whole} / ${best}`);
    assert.ok(withPassages > whole + 0.05, `${withPassages} vs ${whole} / ${best}`);
    assert.ok(long > 0);
  });

  it('entries embedded before passages existed get them on the next pass; nothing is left to do after', async () => {
    const { long, short } = await storeBoth();
    await cairn.store.dropVectorsExcept([MODEL]);
    assert.equal((await cairn.store.getVectors(passageModelId(MODEL, 'windows'), [long, short])).size, 0);
    const first = await cairn.embedPending();
    assert.deepEqual({ done: first.done, total: first.total }, { done: 2, total: 2 });
    assert.equal((await cairn.store.getVectors(passageModelId(MODEL, 'windows'), [long, short])).get(long)!.length, 256);
    const again = await cairn.embedPending();
    assert.deepEqual({ done: again.done, total: again.total }, { done: 0, total: 0 });
    // The other way round (own vectors gone, passage rows kept): the own vectors come back.
    await cairn.store.dropVectorsExcept([passageModelId(MODEL, 'windows')]);
    const own = await cairn.embedPending();
    assert.deepEqual({ done: own.done, total: own.total }, { done: 2, total: 2 });
    assert.equal((await cairn.store.getVectors(MODEL, [long, short])).size, 2);
  });

  it('reembed keeps passages (they belong to the model) and status does not call them another model', async () => {
    const { long } = await storeBoth();
    const report = await cairn.reembed({ force: true });
    assert.equal(report.done, 2);
    assert.equal((await cairn.store.getVectors(passageModelId(MODEL, 'windows'), [long])).get(long)!.length, 256);
    const status = await cairn.status();
    assert.deepEqual(status.warnings.filter((w) => /other models/.test(w)), []);
    // A model switch drops the old model's passages with its vectors.
    await cairn.close();
    cairn = await Cairn.open({ home: tmp.dir, embedder: new HashEmbedder({ modelId: 'test-hash-b@2', dims: 32, salt: 'b' }), config: { index: { passages: 'windows' } } });
    const switched = await cairn.reembed();
    assert.ok(switched.dropped >= 4, `dropped ${switched.dropped}`);
    const models = (await cairn.store.vectorModels()).map((m) => m.model);
    assert.deepEqual(models, ['test-hash-b@2', 'test-hash-b@2#windows']);
  });
});
