// The stages after capture overlap the model with this thread's work: the captured entries' own
// vectors are embedded while the judge runs, passages while the knowledge pass runs, and the
// knowledge pass still sees every new memory's own vector. Real SQLite homes, a fake embedder.
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { runStages, type CaptureDeps, type EmbedPart } from '../../src/service/capture.js';
import { passageModelId } from '../../src/embed/passages.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';

const tmp = tempDir('cairn-capture-stages-');
after(() => tmp.cleanup());
const NS = 'work';
const MODEL = 'test-hash@1';
const POLICY = 'windows';

// Long enough for three windows: the decision is in the last sentence.
const LONG = [
  'I traced the flaky deploy to the migration step, which ran before the connection pool was warm and timed out on the first query.',
  'The retry wrapper swallowed the error, so the job reported success while half of the tables stayed on the old schema for an hour.',
  'After reading the logs from Tuesday and Wednesday I am sure the pool size was never the issue, only the order of the two steps.',
  'We decided to always run migrations from a separate one-shot job before the web pods start, and to fail the release when it fails.',
].join(' ');

let n = 0;
let cairn: Cairn;
let embedder: HashEmbedder;

beforeEach(async () => {
  embedder = new HashEmbedder({ modelId: MODEL, dims: 64 });
  cairn = await Cairn.open({ home: join(tmp.dir, `case-${n++}`), embedder, config: { index: { passages: POLICY } } });
  await cairn.store.addTurns(
    Array.from({ length: 6 }, (_, i) => ({
      namespace: NS,
      sessionId: 's1',
      messageId: `m${i}`,
      role: i % 2 ? 'assistant' : 'user',
      // Every turn distinct; the even ones long (passages), the odd ones short.
      text: i % 2 ? `Short reply number ${i}: we decided to keep the retry limit at ${i + 2}.` : `${LONG} (case ${i})`,
      timestamp: `2026-03-01T10:0${i}:00.000Z`,
    })),
  );
});
afterEach(() => cairn.close());

const missing = async (model: string) => (await cairn.store.vectorStats(model)).find((s) => s.namespace === NS)?.missing ?? 0;

describe('runStages: the model works while this thread judges and learns (issue 29)', () => {
  it('embeds the captured turns while judging, every memory before the knowledge pass, passages alongside it', async () => {
    const deps = cairn.captureDeps();
    const parts: EmbedPart[] = [];
    let embedCallsWhenJudging = -1;
    let ownMissingWhenLearning = -1;
    const staged: CaptureDeps = {
      ...deps,
      embed: async (ns, onProgress, part) => {
        parts.push(part!);
        return deps.embed!(ns, onProgress, part);
      },
      judge: async (ns) => {
        // One turn of the event loop: embedding began before judging, not after it.
        await new Promise(setImmediate);
        embedCallsWhenJudging = embedder.calls.length;
        return deps.judge!(ns);
      },
      learn: async (ns) => {
        ownMissingWhenLearning = await missing(MODEL);
        return deps.learn!(ns);
      },
    };
    const out = await runStages(staged, { view: [NS], judge: [NS], embed: [NS] });
    assert.equal(out.warning, undefined);
    assert.ok(embedCallsWhenJudging > 0, 'the turns went to the model before the judge ran');
    assert.equal(ownMissingWhenLearning, 0, 'the knowledge pass sees every entry\'s own vector (near-duplicates by meaning)');
    assert.deepEqual(parts, ['vectors', 'vectors', 'passages']);
    assert.equal(out.judged, 6);
    const memories = (await cairn.store.namespaceStats()).find((s) => s.namespace === NS)!.memories;
    assert.ok(memories > 0, 'the judge made memories');
    // Each entry counted once, though it got its own vector and its passage row in two parts.
    assert.equal(out.embedded, 6 + memories);
    assert.deepEqual(out.byNamespace.get(NS), { judged: 6, embedded: 6 + memories });
    assert.equal(await missing(MODEL), 0);
    assert.equal(await missing(passageModelId(MODEL, POLICY)), 0);
    // A long turn's passage row holds its windows, the first being its own vector.
    const turns = await cairn.store.getEntries(NS, await cairn.store.filterEntries(NS, { kinds: ['turn'] }, 10));
    const long = turns.find((e) => e.text.startsWith('I traced'))!.seq;
    const own = (await cairn.store.getVectors(MODEL, [long])).get(long)!;
    const rows = (await cairn.store.getVectors(passageModelId(MODEL, POLICY), [long])).get(long)!;
    assert.ok(rows.length >= 2 * own.length, `${rows.length} floats of passages`);
    assert.deepEqual([...rows.subarray(0, own.length)].map((x) => x.toFixed(3)), [...own].map((x) => x.toFixed(3)));
    // Nothing is embedded twice: a second run has nothing to do.
    const calls = embedder.calls.length;
    const again = await runStages(staged, { view: [NS], judge: [NS], embed: [NS] });
    assert.deepEqual({ judged: again.judged, embedded: again.embedded }, { judged: 0, embedded: 0 });
    assert.equal(embedder.calls.length, calls);
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
    assert.equal(calls, 1, 'the parts after a failure do not call the model again');
    assert.equal(out.judged, 6);
    assert.equal(out.embedded, 0);
    assert.ok((out.learned ?? 0) > 0, 'the knowledge pass ran');
    assert.equal(out.warning, 'captured, but not embedded: model crashed; run "cairn reembed"');
    assert.ok((await missing(MODEL)) > 0);
    const next = await runStages(deps, { view: [NS], judge: [NS], embed: [NS] });
    assert.equal(next.warning, undefined);
    assert.ok(next.embedded > 6, `${next.embedded} entries embedded`);
    assert.equal(await missing(MODEL), 0);
    assert.equal(await missing(passageModelId(MODEL, POLICY)), 0);
  });

  it('without a judge or knowledge pass, both parts still run for the namespaces to embed', async () => {
    const deps = { ...cairn.captureDeps(), judge: null, learn: null };
    const out = await runStages(deps, { view: [], judge: [], embed: [NS] });
    assert.deepEqual({ judged: out.judged, embedded: out.embedded, warning: out.warning }, { judged: 0, embedded: 6, warning: undefined });
    assert.equal(await missing(passageModelId(MODEL, POLICY)), 0);
  });
});
