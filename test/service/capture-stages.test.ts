// The stages after capture: while the judge runs, the turns it has judged get their vectors in the
// model's threads, never a turn it has not judged (it decides what is embedded: noise is not), and
// the knowledge pass still sees every entry's own vector. Real SQLite homes, a fake embedder.
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { runStages, type CaptureDeps } from '../../src/service/capture.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';

const tmp = tempDir('cairn-capture-stages-');
after(() => tmp.cleanup());
const NS = 'work';
const MODEL = 'test-hash@1';
/** More than one judge page (256 turns), so judging and embedding can overlap. */
const TURNS = 300;
const NOISE = new Set(['ok', 'thanks!', 'sure']);

const WORDS = ['billing', 'staging', 'cluster', 'timeout', 'ledger', 'queue', 'parser', 'cache', 'router', 'backup', 'schema', 'worker', 'index'];
const tag = (i: number) => i.toString(26).replace(/./g, (c) => String.fromCharCode(97 + parseInt(c, 26)));
const textOf = (i: number) =>
  i % 10 === 3 ? [...NOISE][i % 3]! : `We moved the ${WORDS[i % 13]} ${tag(i + 700)}x job to the ${WORDS[(i * 7) % 13]} after the ${tag(i + 9000)}q failure on port ${5000 + i}.`;

let n = 0;
let cairn: Cairn;
let embedder: HashEmbedder;

beforeEach(async () => {
  embedder = new HashEmbedder({ modelId: MODEL, dims: 32 });
  cairn = await Cairn.open({ home: join(tmp.dir, `case-${n++}`), embedder });
  await cairn.store.addTurns(
    Array.from({ length: TURNS }, (_, i) => ({ namespace: NS, sessionId: `s${Math.floor(i / 50)}`, messageId: `m${i}`, role: i % 2 ? 'assistant' : 'user', text: textOf(i), timestamp: new Date(Date.UTC(2026, 2, 1, 9, 0, i)).toISOString() })),
  );
});
afterEach(() => cairn.close());

const missing = async () => (await cairn.store.vectorStats(MODEL)).find((s) => s.namespace === NS)?.missing ?? 0;
const embedded = () => embedder.calls.flat();

describe('runStages: vectors of judged turns while the judge runs (issue 29)', () => {
  it('embeds judged turns during judging, never a noise turn, every own vector before the knowledge pass', async () => {
    const deps = cairn.captureDeps();
    let judging = false;
    let textsDuringJudging = 0;
    let missingWhenLearning = -1;
    const model = embedder.embed.bind(embedder);
    embedder.embed = async (texts) => {
      if (judging) textsDuringJudging += texts.length;
      return model(texts);
    };
    const staged: CaptureDeps = {
      ...deps,
      judge: async (ns, onProgress, onJudged) => {
        judging = true;
        try {
          return await deps.judge!(ns, onProgress, onJudged);
        } finally {
          judging = false;
        }
      },
      learn: async (ns) => {
        missingWhenLearning = await missing();
        return deps.learn!(ns);
      },
    };
    const out = await runStages(staged, { view: [NS], judge: [NS], embed: [NS] });
    assert.equal(out.warning, undefined);
    assert.equal(out.judged, TURNS);
    assert.ok(textsDuringJudging >= 256, `${textsDuringJudging} texts went to the model while the judge ran`);
    assert.deepEqual(embedded().filter((t) => NOISE.has(t)), [], 'a noise turn is never embedded');
    assert.equal(missingWhenLearning, 0, 'the knowledge pass sees every entry\'s own vector (near-duplicates by meaning)');
    const stats = (await cairn.store.vectorStats(MODEL)).find((s) => s.namespace === NS)!;
    assert.equal(stats.missing, 0);
    assert.equal(out.embedded, stats.vectors, 'each entry counted once');
    assert.equal(out.byNamespace.get(NS)!.embedded, stats.vectors);
    assert.equal(new Set(embedded()).size, embedded().length, 'no text went to the model twice');
    // A second run has nothing to do.
    const calls = embedder.calls.length;
    const again = await runStages(staged, { view: [NS], judge: [NS], embed: [NS] });
    assert.deepEqual({ judged: again.judged, embedded: again.embedded }, { judged: 0, embedded: 0 });
    assert.equal(embedder.calls.length, calls);
  });

  it('the same vectors as judging first and embedding after', async () => {
    const deps = cairn.captureDeps();
    const overlapped = await runStages(deps, { view: [NS], judge: [NS], embed: [NS] });
    const other = await Cairn.open({ home: join(tmp.dir, `case-${n++}`), embedder: new HashEmbedder({ modelId: MODEL, dims: 32 }) });
    try {
      await other.store.addTurns(Array.from({ length: TURNS }, (_, i) => ({ namespace: NS, sessionId: `s${Math.floor(i / 50)}`, messageId: `m${i}`, role: i % 2 ? 'assistant' : 'user', text: textOf(i), timestamp: new Date(Date.UTC(2026, 2, 1, 9, 0, i)).toISOString() })));
      const plain = other.captureDeps();
      // A judge that never reports a frontier: nothing is embedded before it has finished.
      const sequential = await runStages({ ...plain, judge: (ns) => plain.judge!(ns) }, { view: [NS], judge: [NS], embed: [NS] });
      assert.deepEqual({ judged: sequential.judged, embedded: sequential.embedded }, { judged: overlapped.judged, embedded: overlapped.embedded });
      const byText = async (c: Cairn) => {
        const seqs = await c.store.filterEntries(NS, {}, 10_000);
        const entries = await c.store.getEntries(NS, seqs);
        const vectors = await c.store.getVectors(MODEL, seqs);
        return new Map(entries.map((e) => [`${e.kind}:${e.text}`, vectors.has(e.seq)]));
      };
      assert.deepEqual(await byText(cairn), await byText(other));
    } finally {
      await other.close();
    }
  });

  it('a failing model warns once; judging and learning still run, and the next run embeds what was left', async () => {
    const deps = cairn.captureDeps();
    let calls = 0;
    const failing: CaptureDeps = {
      ...deps,
      embed: async () => {
        calls++;
        throw new Error('model crashed');
      },
    };
    const out = await runStages(failing, { view: [NS], judge: [NS], embed: [NS] });
    assert.equal(calls, 1, 'nothing calls the model again after a failure');
    assert.equal(out.judged, TURNS);
    assert.equal(out.embedded, 0);
    assert.ok((out.learned ?? 0) > 0, 'the knowledge pass ran');
    assert.equal(out.warning, 'captured, but not embedded: model crashed; run "cairn reembed"');
    assert.ok((await missing()) > 0);
    const next = await runStages(deps, { view: [NS], judge: [NS], embed: [NS] });
    assert.equal(next.warning, undefined);
    assert.equal(await missing(), 0);
    assert.deepEqual(embedded().filter((t) => NOISE.has(t)), []);
  });

  it('a failing judge stops judging; what it judged keeps its vectors and the rest is embedded as before', async () => {
    const deps = cairn.captureDeps();
    let pages = 0;
    const out = await runStages(
      {
        ...deps,
        judge: (ns, onProgress, onJudged) =>
          deps.judge!(ns, onProgress, (seq) => {
            onJudged?.(seq);
            if (++pages === 2) throw new Error('judge crashed');
          }),
      },
      { view: [NS], judge: [NS], embed: [NS] },
    );
    assert.match(out.warning ?? '', /^captured, but not judged: judge crashed; run "cairn judge"$/);
    assert.equal(await missing(), 0, 'the embed stage still embeds what is pending (unjudged turns too, as before)');
  });
});
