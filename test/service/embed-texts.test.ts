// What goes through the model at ingest: one call per distinct text. A memory the judge makes of
// a turn word for word is embedded by its own text, so it takes the turn's cached vector; one
// that is the turn after its speaker's name takes the turn's vector blended with the name's; the
// names and tags its index entry lists for BM25 never make a second, nearly identical text.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { sha256 } from '../../src/core/text.js';
import { SPEAKER_WEIGHT } from '../../src/service/indexer.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';

const MODEL = 'test-hash@1';

/** Stored vectors are int8 on disk (a scale per 128 values): the same vector reads back within rounding. */
function assertSameVector(stored: Float32Array | undefined, want: Float32Array, what = 'the stored vector is that text\'s'): void {
  assert.ok(stored && stored.length === want.length, what);
  let dot = 0;
  let a = 0;
  let b = 0;
  for (let i = 0; i < want.length; i++) {
    dot += stored![i]! * want[i]!;
    a += stored![i]! ** 2;
    b += want[i]! ** 2;
  }
  assert.ok(dot / Math.sqrt(a * b) > 0.9999, `${what} (cosine ${dot / Math.sqrt(a * b)})`);
}

/** What the indexer makes of a memory "Name: <turn>": the turn's vector moved toward the name's. */
function blend(turn: Float32Array, name: Float32Array): Float32Array {
  const out = new Float32Array(turn.length);
  for (let i = 0; i < out.length; i++) out[i] = (1 - SPEAKER_WEIGHT) * turn[i]! + SPEAKER_WEIGHT * name[i]!;
  return out;
}

describe('embedded texts per turn', () => {
  let tmp: ReturnType<typeof tempDir>;
  let cairn: Cairn;
  let embedder: HashEmbedder;

  beforeEach(async () => {
    tmp = tempDir();
    embedder = new HashEmbedder({ modelId: MODEL, dims: 64 });
    cairn = await Cairn.open({ home: join(tmp.dir, 'home'), embedder, config: { timezone: 'UTC' } });
  });
  afterEach(async () => {
    await cairn.close();
    tmp.cleanup();
  });

  async function ingest(contents: string[], speakers: string[] = []): Promise<void> {
    const file = join(tmp.dir, 'chat.jsonl');
    const lines = contents.map((content, i) =>
      JSON.stringify({ role: speakers.length ? 'user' : i % 2 ? 'assistant' : 'user', content, id: `m${i}`, session: 's1', timestamp: `2026-02-01T10:0${i}:00.000Z`, ...(speakers[i] ? { speaker: speakers[i] } : {}) }),
    );
    writeFileSync(file, lines.join('\n') + '\n');
    const res = await cairn.ingest([file], { format: 'jsonl', final: true });
    assert.equal(res.warning, undefined);
  }

  it('a memory made of its turn word for word reuses the turn\'s vector: every distinct text goes through the model once', async () => {
    const said = [
      'Remember that Ana Souza decided we deploy the billing service on Fridays only, after the March outage.',
      'Noted, I will keep deploys of the billing service to Fridays.',
      'My sister Maria moved to Lisbon last week for a new design job at a studio.',
    ];
    await ingest(said);
    const memories = await cairn.list({ limit: 50 });
    const fromTurns = memories.filter((m) => said.includes(m.text));
    assert.ok(fromTurns.length >= 1, `the judge made a memory of a turn word for word: ${memories.map((m) => m.text).join(' | ')}`);
    const texts = embedder.calls.flat();
    assert.equal(new Set(texts).size, texts.length, `no text embedded twice: ${JSON.stringify(texts)}`);
    for (const t of texts) assert.ok(said.includes(t) || memories.some((m) => m.text === t), `only turns' and memories' own texts: ${t}`);
    for (const m of fromTurns) {
      const entry = (await cairn.store.entryFor('memory', m.id))!;
      assert.equal(entry.text, m.text, 'a memory is embedded by its own text');
      const [vector] = (await cairn.store.getVectors(MODEL, [entry.seq])).values();
      assertSameVector(vector, embedder.vector(m.text));
    }
  });

  it('a memory that states its turn after the speaker\'s name ("Ana: …") takes its vector from the turn\'s and the name\'s: no second model text', async () => {
    const said = [
      'We moved the standup to 9:30 because the Lisbon office starts later, and Bruno will run it on Mondays.',
      'My daughter starts school in Porto next September, so I will work from home on Fridays.',
    ];
    const speakers = ['Ana', 'Chen'];
    await ingest(said, speakers);
    const memories = await cairn.list({ limit: 50 });
    const prefixed = memories.filter((m) => said.some((t, i) => m.text === `${speakers[i]}: ${t}`));
    assert.ok(prefixed.length >= 1, `the judge made a memory of a turn after its speaker's name: ${memories.map((m) => m.text).join(' | ')}`);
    const texts = embedder.calls.flat();
    assert.equal(new Set(texts).size, texts.length, `no text embedded twice: ${JSON.stringify(texts)}`);
    for (const m of prefixed) {
      assert.ok(!texts.includes(m.text), 'the prefixed text never went through the model');
      const entry = (await cairn.store.entryFor('memory', m.id))!;
      assert.equal(entry.text, m.text, 'the entry is still the memory\'s own text');
      const turn = said.find((t) => m.text.endsWith(t))!;
      const speaker = m.text.slice(0, m.text.indexOf(': '));
      assert.ok(texts.includes(`${speaker}:`), 'the name went through the model');
      const [vector] = (await cairn.store.getVectors(MODEL, [entry.seq])).values();
      assertSameVector(vector, blend(embedder.vector(turn), embedder.vector(`${speaker}:`)), 'the turn\'s vector moved toward the name\'s');
      assert.equal((await cairn.store.cacheGet(MODEL, [sha256(m.text)])).size, 0, 'a blend is no cached vector of the memory\'s text (a query of those words is embedded by the model)');
    }
    // A memory a caller stores is embedded as written, even when it reads "Name: <a known text>".
    const { memory } = await cairn.remember({ text: `Ana: ${said[1]}` });
    assert.equal((await cairn.store.entryFor('memory', memory.id))!.text, memory.text);
    assert.ok(embedder.calls.flat().includes(memory.text), 'a stored memory goes through the model');
  });

  it('names the knowledge pass adds to a memory\'s entry are for BM25: its vector and cached vector stay', async () => {
    const { memory } = await cairn.remember({ text: 'Ana wants the release notes before the demo.', tags: ['release'], entities: ['Ana Souza'] });
    const entry = (await cairn.store.entryFor('memory', memory.id))!;
    assert.equal(entry.text, memory.text);
    assert.deepEqual(embedder.calls, [[memory.text]], 'tags and names are not embedded');
    assert.equal((await cairn.store.cacheGet(MODEL, [sha256(memory.text)])).size, 1);
    assert.equal((await cairn.embedPending()).total, 0);
    const hits = await cairn.search('Souza', { mode: 'bm25', limit: 3 });
    assert.ok(hits.results.some((r) => r.id === memory.id), 'the name finds it by keyword');
  });
});
