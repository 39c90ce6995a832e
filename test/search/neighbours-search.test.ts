// Search ranks and shows exactly the same results with the batched, cached neighbour lookup as
// with the one it replaced (bench/baseline-neighbours.ts), in every mode, before and after writes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Cairn } from '../../src/service/cairn.js';
import { hybridSearch, type SearchMode, type SearchParams, type VectorSide } from '../../src/search/hybrid.js';
import { passageModelId } from '../../src/embed/passages.js';
import type { VectorIndex } from '../../src/search/vector-index.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import type { NewTurn } from '../../src/core/types.js';
import { withBaselineNeighbours } from '../../bench/baseline-neighbours.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';
import { seeded } from '../helpers/prng.js';

const NS = 'default';
const WORDS = 'dog cat snake paris museum chess climbing reading walk river shop hobby family test results adopt friday painting concert guitar sister'.split(' ');
const QUERIES = ['where did you buy the snake', 'chess club tonight', 'family painting results', 'guitar concert with my sister', 'adopt a dog on friday', 'river walk museum'];

function chat(seed: number, count: number, offset: number): NewTurn[] {
  const rand = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const words = Array.from({ length: 4 + Math.floor(rand() * 10) }, () => WORDS[Math.floor(rand() * WORDS.length)]!);
    return {
      namespace: NS, sessionId: `s${Math.floor(rand() * 8)}`, messageId: `m${offset + i}`, role: 'user', speaker: rand() < 0.5 ? 'Ana' : 'Bo',
      text: words.join(' '), timestamp: new Date(Date.UTC(2025, 0, 1) + (offset + i) * 60_000).toISOString(), line: null, meta: {},
    };
  });
}

describe('search with the batched neighbour lookup', () => {
  let dir: { dir: string; cleanup: () => void };
  let cairn: Cairn;
  let store: SqliteStore;
  let embedder: HashEmbedder;
  before(async () => {
    dir = tempDir('cairn-nb-search-');
    embedder = new HashEmbedder();
    cairn = await Cairn.open({ home: dir.dir, embedder, config: {} });
    store = cairn.store as SqliteStore;
    await store.addTurns(chat(7, 300, 0));
    await cairn.embedPending({ namespace: NS });
  });
  after(async () => {
    await cairn.close();
    dir.cleanup();
  });

  const run = async (s: Store, query: string, mode: SearchMode) => {
    const index = (cairn as unknown as { index(): VectorIndex }).index();
    await index.ready(NS);
    const vectors: VectorSide | null = mode === 'bm25' ? null : { index, model: embedder.modelId, passageModel: passageModelId(embedder.modelId), queryVector: Promise.resolve(embedder.vector(query)) };
    const params: SearchParams = { namespace: NS, query, limit: 10, mode, filter: { includeSuperseded: false }, now: Date.UTC(2025, 6, 1), speakers: await s.speakers(NS) };
    return hybridSearch({ store: s, ranking: { ...cairn.config.search, contextTurns: 1 }, candidates: cairn.config.search.candidates, vectors }, params);
  };

  const compare = async () => {
    let withContext = 0;
    for (const mode of ['hybrid', 'bm25', 'vector'] as const) {
      for (const q of QUERIES) {
        const want = await run(withBaselineNeighbours(store), q, mode);
        const got = await run(store, q, mode);
        assert.deepEqual(got, want, `${mode}: ${q}`);
        withContext += got.filter((r) => r.context.some((c) => !c.match)).length;
      }
    }
    // The comparison covered results that show neighbours, not only bare hits.
    assert.ok(withContext > 10, `results with neighbours: ${withContext}`);
  };

  it('returns identical results, then again after turns are added and one is rewritten', async () => {
    await compare();
    await compare(); // the second pass is served from the cache
    await store.addTurns(chat(8, 40, 300));
    await cairn.embedPending({ namespace: NS });
    store.db.prepare("UPDATE turns SET text = 'rewritten museum guitar' WHERE message_id = 'm5'").run();
    await compare();
  });
});
