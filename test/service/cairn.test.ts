// The Cairn facade end to end over a real SQLite home, with a deterministic fake embedder (fast)
// and, in two cases at the bottom, the real default embedder (use-lite).
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import type { SearchResult } from '../../src/search/hybrid.js';
import { HashEmbedder, collect, daysAgo, otherEmbedder, readableOf, rejectsCode, sink, tempDir } from '../helpers/store-fixtures.js';

const ids = (results: SearchResult[]) => results.map((r) => r.id);

async function exportText(cairn: Cairn, namespace?: string): Promise<string> {
  const out = sink();
  await cairn.exportJsonl(out.stream, namespace);
  return out.done();
}

describe('Cairn facade (fake embedder)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let embedder: HashEmbedder;
  let cairn: Cairn;
  const closers: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    tmp = tempDir();
    embedder = new HashEmbedder();
    cairn = await Cairn.open({ home: tmp.dir, embedder });
  });
  afterEach(async () => {
    await cairn.close();
    while (closers.length) await closers.pop()!();
    tmp.cleanup();
  });

  /** Another Cairn on its own home (or the same one), closed after the test. */
  async function openOther(options: { home?: string; embedder?: HashEmbedder } = {}): Promise<Cairn> {
    let home = options.home;
    if (!home) {
      const t = tempDir();
      closers.push(async () => t.cleanup());
      home = t.dir;
    }
    const c = await Cairn.open({ home, embedder: options.embedder ?? new HashEmbedder() });
    closers.push(() => c.close());
    return c;
  }

  it('opens a home: database inside it, default namespace, active model', async () => {
    assert.ok(existsSync(join(tmp.dir, 'cairn.db')));
    assert.equal(cairn.defaultNamespace, 'default');
    assert.equal(cairn.modelId, 'test-hash@1');
    assert.equal(cairn.paths.root, tmp.dir);
  });

  it('warmUp loads the model ahead of the first search (and does nothing harmful twice or without one)', async () => {
    const model = new HashEmbedder();
    const warm = await openOther({ embedder: model });
    assert.equal(model.initCount, 0, 'opening loads no model');
    await warm.warmUp();
    await warm.warmUp();
    assert.ok(model.initCount >= 1);
    const none = tempDir();
    const bare = await Cairn.open({ home: none.dir, embedder: null });
    await bare.warmUp();
    await bare.close();
    none.cleanup();
  });

  it('remember → search finds it, with provenance, snippet and kind', async () => {
    const stored = await cairn.remember({
      text: 'We decided to deploy the billing service on Fridays',
      category: 'decision',
      importance: 8,
      provenance: [{ source: 'cli', sessionId: 'sess-1', messageId: 'msg-7' }],
    });
    assert.equal(stored.duplicate, false);
    assert.equal(stored.embedded, true);
    assert.equal(stored.warning, undefined);
    await cairn.remember({ text: 'The cafeteria serves soup on Mondays' });
    const res = await cairn.search('what did we decide about deploying billing?');
    assert.equal(res.namespace, 'default');
    assert.equal(res.mode, 'hybrid');
    assert.equal(res.degraded, undefined);
    assert.equal(res.results[0]!.id, stored.memory.id);
    const top = res.results[0]!;
    assert.equal(top.kind, 'memory');
    assert.equal(top.namespace, 'default');
    assert.equal(top.text, 'We decided to deploy the billing service on Fridays');
    assert.equal(top.snippet, top.text);
    assert.equal(top.category, 'decision');
    assert.equal(top.importance, 8);
    assert.equal(top.current, true);
    assert.deepEqual(top.provenance, [{ source: 'cli', sessionId: 'sess-1', messageId: 'msg-7' }]);
    assert.deepEqual(await cairn.get(stored.memory.id), stored.memory);
  });

  it('remember without provenance records the API as its source; text is trimmed and control characters stripped', async () => {
    const { memory } = await cairn.remember({ text: '  tabs\tand\u0007 bells  ' });
    assert.equal(memory.text, 'tabs\tand bells');
    assert.deepEqual(memory.provenance, [{ source: 'api' }]);
  });

  it('a duplicate remember raises mentions and is found once', async () => {
    const first = await cairn.remember({ text: 'Ana likes green tea', tags: ['drinks'] });
    const again = await cairn.remember({ text: 'ana likes GREEN tea!', tags: ['ana'] });
    assert.equal(again.duplicate, true);
    assert.equal(again.memory.id, first.memory.id);
    assert.equal(again.memory.mentions, 2);
    assert.deepEqual(again.memory.tags, ['drinks', 'ana']);
    assert.equal((await cairn.list()).length, 1);
    const res = await cairn.search('green tea');
    assert.deepEqual(ids(res.results), [first.memory.id]);
    const status = await cairn.status();
    assert.equal(status.namespaces[0]!.vectors, 1);
    assert.equal(status.totals.memories, 1);
  });

  it('supersede and history through the facade; search shows what is current unless asked', async () => {
    const a = (await cairn.remember({ text: 'The staging database lives on host alpha', category: 'fact', importance: 6 })).memory;
    const { previous, current } = await cairn.supersede(a.id, { text: 'The staging database lives on host omega' });
    assert.equal(previous.supersededBy, current.id);
    assert.equal(current.supersedes, a.id);
    assert.equal(current.category, 'fact');
    assert.equal(current.importance, 6);
    assert.notEqual((await cairn.get(a.id)).validTo, null);
    for (const id of [a.id, current.id]) {
      assert.deepEqual((await cairn.history(id)).map((m) => m.text), [
        'The staging database lives on host alpha',
        'The staging database lives on host omega',
      ]);
    }
    const now = await cairn.search('staging database host');
    assert.deepEqual(ids(now.results), [current.id]);
    const all = await cairn.search('staging database host', { includeSuperseded: true });
    assert.deepEqual(ids(all.results).sort(), [a.id, current.id].sort());
    const old = all.results.find((r) => r.id === a.id)!;
    assert.equal(old.current, false);
    assert.equal(old.validTo, previous.validTo);
    await rejectsCode(cairn.supersede(a.id, { text: 'host gamma' }), 'CONFLICT');
    await rejectsCode(cairn.history('m_unknown0000'), 'NOT_FOUND');
    await rejectsCode(cairn.get('m_unknown0000'), 'NOT_FOUND');
    await rejectsCode(cairn.get(a.id, 'other'), 'NOT_FOUND');
    assert.deepEqual((await cairn.list()).map((m) => m.id), [current.id]);
    assert.equal((await cairn.list({ includeSuperseded: true })).length, 2);
  });

  it('the superseding memory is embedded and found by the vector side', async () => {
    const a = (await cairn.remember({ text: 'I drive a red car' })).memory;
    const { current } = await cairn.supersede(a.id, { text: 'I drive a blue car' });
    const res = await cairn.search('automobile', { mode: 'vector' });
    assert.deepEqual(ids(res.results), [current.id]);
  });

  it('search filters: since/until (ISO and relative), categories, kinds, minImportance', async () => {
    const old = (await cairn.remember({ text: 'pelican sighting at the lake', category: 'fact', importance: 3, eventTime: '30d' })).memory;
    const recent = (await cairn.remember({ text: 'pelican nest found', category: 'discovery', importance: 8 })).memory;
    const mid = (await cairn.remember({ text: 'pelican census planned', category: 'plan', importance: 5, eventTime: daysAgo(10) })).memory;
    const src = await cairn.store.addSource('default', 'jsonl', '/chat.jsonl');
    const [turn] = (
      await cairn.store.addTurns([
        { namespace: 'default', sourceId: src.id, sessionId: 's', messageId: '1', role: 'user', text: 'any pelican news?', timestamp: daysAgo(2), line: 3 },
      ])
    ).inserted;
    await cairn.embedPending();
    const q = async (opts: Parameters<Cairn['search']>[1]) => ids((await cairn.search('pelican', opts)).results).sort();
    const sorted = (...xs: string[]) => xs.sort();
    assert.deepEqual(await q({}), sorted(old.id, recent.id, mid.id, turn!.id));
    assert.deepEqual(await q({ since: '7d' }), sorted(recent.id, turn!.id));
    assert.deepEqual(await q({ since: '2w' }), sorted(recent.id, mid.id, turn!.id));
    assert.deepEqual(await q({ until: daysAgo(5) }), sorted(old.id, mid.id));
    assert.deepEqual(await q({ since: daysAgo(40).slice(0, 10), until: daysAgo(20) }), [old.id]);
    assert.deepEqual(await q({ categories: ['fact', 'plan'] }), sorted(old.id, mid.id));
    assert.deepEqual(await q({ kinds: ['turn'] }), [turn!.id]);
    assert.deepEqual(await q({ kinds: ['memory'], minImportance: 5 }), sorted(recent.id, mid.id));
    assert.deepEqual(await q({ since: '7d', kinds: ['memory'], mode: 'bm25' }), [recent.id]);
    assert.deepEqual(await q({ since: '7d', kinds: ['memory'], mode: 'vector' }), [recent.id]);
    const turnHit = (await cairn.search('pelican', { kinds: ['turn'] })).results[0]!;
    assert.equal(turnHit.importance, null);
    assert.deepEqual(turnHit.provenance, [
      { source: 'jsonl', path: '/chat.jsonl', sessionId: 's', messageId: '1', line: 3, role: 'user', timestamp: turnHit.time },
    ]);
  });

  it('modes: bm25 matches words, vector matches meaning, hybrid uses both', async () => {
    const car = (await cairn.remember({ text: 'I bought a new car last week' })).memory;
    const lunch = (await cairn.remember({ text: 'Lunch was pasta with the team' })).memory;
    const bm25 = await cairn.search('automobile', { mode: 'bm25' });
    assert.equal(bm25.mode, 'bm25');
    assert.deepEqual(bm25.results, [], 'no shared word: BM25 finds nothing');
    const vector = await cairn.search('automobile', { mode: 'vector' });
    assert.equal(vector.mode, 'vector');
    assert.equal(vector.results[0]!.id, car.id);
    assert.ok(!ids(vector.results).includes(lunch.id), 'the least similar candidate scores 0 and is dropped');
    assert.equal(vector.results[0]!.parts.bm25, 0);
    const hybrid = await cairn.search('automobile', { mode: 'hybrid' });
    assert.equal(hybrid.mode, 'hybrid');
    assert.equal(hybrid.results[0]!.id, car.id);
    // A word query in bm25 mode has no vector parts at all.
    const words = await cairn.search('pasta', { mode: 'bm25' });
    assert.deepEqual(ids(words.results), [lunch.id]);
    assert.equal(words.results[0]!.parts.cosine, null);
    assert.equal(words.results[0]!.parts.vector, 0);
    assert.equal(words.results[0]!.parts.bm25, 1);
  });

  // Known bug (src/search/hybrid.ts, owned by the search part): vector scores are min-max
  // normalised over the candidates, so the least similar candidate always scores 0 and is dropped
  // by the `score > 0` filter — in vector mode a clearly relevant second memory disappears.
  it('vector mode keeps every relevant memory, not only the best one', async () => {
    const red = (await cairn.remember({ text: 'I drive a red car to work' })).memory;
    const blue = (await cairn.remember({ text: 'my car is blue' })).memory;
    const res = await cairn.search('car', { mode: 'vector' });
    assert.deepEqual(ids(res.results).sort(), [red.id, blue.id].sort());
  });

  it('explain: every score part is present and finite', async () => {
    await cairn.remember({ text: 'The release train leaves every second Tuesday', importance: 7 });
    await cairn.remember({ text: 'Trains are late on Tuesdays' });
    const res = await cairn.search('release train tuesday');
    assert.equal(res.results.length, 2);
    for (const r of res.results) {
      const p = r.parts;
      for (const key of ['bm25', 'vector', 'relevance', 'importance', 'recency'] as const) {
        assert.equal(typeof p[key], 'number', key);
        assert.ok(Number.isFinite(p[key]), `${key} = ${p[key]}`);
      }
      assert.ok(p.cosine !== null && Number.isFinite(p.cosine) && p.cosine >= -1.0001 && p.cosine <= 1.0001);
      assert.ok(['hot', 'warm', 'cold'].includes(p.tier));
      assert.ok(Math.abs(r.score - p.relevance * p.importance * p.recency) < 1e-9, 'score = relevance × importance × recency');
      assert.ok(p.bm25 >= 0 && p.bm25 <= 1 && p.vector >= 0 && p.vector <= 1);
    }
    assert.ok(res.results[0]!.score >= res.results[1]!.score);
  });

  it('ranking: importance 9 outranks importance 2 at equal text relevance', async () => {
    // The same words in another order are a near-duplicate, which the knowledge pass would fold:
    // this home keeps both to compare their ranking.
    await cairn.close();
    cairn = await Cairn.open({ home: tmp.dir, embedder, config: { knowledge: { nearDuplicates: false } } });
    const low = (await cairn.remember({ text: 'postgres tuning notes for the queue', importance: 2 })).memory;
    const high = (await cairn.remember({ text: 'the queue notes for postgres tuning', importance: 9 })).memory;
    for (const mode of ['hybrid', 'bm25', 'vector'] as const) {
      const res = await cairn.search('postgres queue tuning', { mode });
      assert.deepEqual(ids(res.results).slice(0, 2), [high.id, low.id], mode);
      const [h, l] = res.results;
      assert.ok(Math.abs(h!.parts.relevance - l!.parts.relevance) < 1e-9, `${mode}: equal relevance`);
      assert.ok(Math.abs(h!.parts.importance - 1.2) < 1e-9, `${mode}: importance factor ${h!.parts.importance}`);
      assert.ok(Math.abs(l!.parts.importance - 0.85) < 1e-9);
    }
  });

  it('recency: ×1.2 under 7 days, warm in between, nothing for old — and old relevant memories are still found first', async () => {
    const fresh = (await cairn.remember({ text: 'heron report fresh' })).memory;
    const warm = (await cairn.remember({ text: 'heron report warm', eventTime: '20d' })).memory;
    const cold = (await cairn.remember({ text: 'heron report cold', eventTime: '400d' })).memory;
    const res = await cairn.search('heron report', { mode: 'bm25' });
    const byId = new Map(res.results.map((r) => [r.id, r]));
    assert.equal(byId.get(fresh.id)!.parts.recency, 1.2);
    assert.equal(byId.get(fresh.id)!.parts.tier, 'hot');
    assert.equal(byId.get(warm.id)!.parts.tier, 'warm');
    assert.ok(byId.get(warm.id)!.parts.recency > 1 && byId.get(warm.id)!.parts.recency < 1.2);
    assert.equal(byId.get(cold.id)!.parts.recency, 1);
    assert.equal(byId.get(cold.id)!.parts.tier, 'cold');
    assert.equal(res.results[0]!.id, fresh.id, 'equal relevance: the fresh one wins');

    const answer = (await cairn.remember({ text: 'kubernetes cluster migration to the new region finished', eventTime: '2y' })).memory;
    const noise = (await cairn.remember({ text: 'a cluster of grapes on the kitchen table' })).memory;
    for (const mode of ['hybrid', 'bm25'] as const) {
      const found = await cairn.search('kubernetes cluster migration', { mode });
      assert.equal(found.results[0]!.id, answer.id, `${mode}: recency must not bury relevance`);
      assert.ok(ids(found.results).includes(noise.id));
      assert.equal(found.results[0]!.parts.recency, 1);
    }
  });

  it('namespaces: search, get, list and history never cross', async () => {
    const work = (await cairn.remember({ text: 'quarterly budget is approved', namespace: 'work' })).memory;
    const home = (await cairn.remember({ text: 'quarterly budget for groceries', namespace: 'home' })).memory;
    assert.deepEqual(ids((await cairn.search('quarterly budget', { namespace: 'work' })).results), [work.id]);
    assert.deepEqual(ids((await cairn.search('quarterly budget', { namespace: 'home' })).results), [home.id]);
    assert.deepEqual((await cairn.search('quarterly budget')).results, []);
    await rejectsCode(cairn.get(work.id, 'home'), 'NOT_FOUND');
    await rejectsCode(cairn.history(work.id, 'home'), 'NOT_FOUND');
    await rejectsCode(cairn.supersede(work.id, { text: 'hijacked', namespace: 'home' }), 'NOT_FOUND');
    assert.deepEqual((await cairn.list({ namespace: 'work' })).map((m) => m.id), [work.id]);
    // A facade opened with another default namespace sees its own.
    const scoped = await Cairn.open({ home: tmp.dir, embedder: new HashEmbedder(), namespace: 'home' });
    closers.push(() => scoped.close());
    assert.equal(scoped.defaultNamespace, 'home');
    assert.deepEqual(ids((await scoped.search('quarterly budget')).results), [home.id]);
  });

  it('model switch: stale index is reported, search degrades to BM25, reembed makes it fresh and drops old vectors', async () => {
    const a = (await cairn.remember({ text: 'The router password rotates monthly' })).memory;
    await cairn.remember({ text: 'Backups run at midnight' });
    await cairn.close();

    const second = otherEmbedder();
    cairn = await Cairn.open({ home: tmp.dir, embedder: second });
    assert.equal(cairn.modelId, 'test-hash-b@2');
    const stale = await cairn.status();
    assert.equal(stale.ok, true, 'a stale index is a warning, not a failure');
    assert.equal(stale.index.fresh, false);
    assert.equal(stale.index.pending, 2);
    assert.deepEqual(stale.index.otherModels, [{ model: 'test-hash@1', dimensions: 64, vectors: 2 }]);
    assert.ok(stale.warnings.some((w) => /reembed/.test(w) && /test-hash@1/.test(w)), stale.warnings.join(' | '));

    const degraded = await cairn.search('router password');
    assert.equal(degraded.mode, 'bm25');
    assert.match(degraded.degraded ?? '', /test-hash-b@2/);
    assert.deepEqual(ids(degraded.results), [a.id]);
    assert.equal(degraded.results[0]!.parts.cosine, null, 'old-model vectors are never mixed in');

    const done = await cairn.reembed();
    assert.equal(done.done, 2);
    assert.equal(done.dropped, 2, 'the old vectors (no passage rows: index.passages is none by default)');
    const fresh = await cairn.status();
    assert.equal(fresh.index.fresh, true);
    assert.deepEqual(fresh.index.otherModels, []);
    assert.deepEqual(fresh.warnings, []);
    assert.deepEqual(await cairn.store.vectorModels(), [
      { model: 'test-hash-b@2', dimensions: 32, vectors: 2 },
    ]);
    const hybrid = await cairn.search('router password');
    assert.equal(hybrid.mode, 'hybrid');
    assert.equal(hybrid.degraded, undefined);
    assert.equal(hybrid.results[0]!.id, a.id);
    assert.ok(hybrid.results[0]!.parts.cosine !== null);
  });

  it('a facade with no embedder searches BM25 only and says why', async () => {
    const { memory } = await cairn.remember({ text: 'The printer is on floor three' });
    const plain = await Cairn.open({ home: tmp.dir, embedder: null });
    closers.push(() => plain.close());
    const stored = await plain.remember({ text: 'The scanner is on floor two' });
    assert.equal(stored.embedded, false);
    const res = await plain.search('printer floor');
    assert.equal(res.mode, 'bm25');
    assert.match(res.degraded ?? '', /no embedder/);
    assert.equal(res.results[0]!.id, memory.id);
    assert.ok((await plain.status()).warnings.some((w) => /BM25 only/.test(w)));
    await rejectsCode(plain.reembed(), 'EMBEDDER');
  });

  it('export → import into another home is lossless, superseded history included', async () => {
    const a = (await cairn.remember({ text: 'Sprint length is two weeks', category: 'decision', importance: 7, tags: ['process'], entities: ['Sprint'] })).memory;
    await cairn.remember({ text: 'sprint length is two weeks.' });
    const b = (await cairn.supersede(a.id, { text: 'Sprint length is three weeks', eventTime: '2026-01-05' })).current;
    await cairn.remember({ text: 'Retro on Thursdays', provenance: [{ source: 'claude-code', sessionId: 'abc', line: 4 }] });
    const text = await exportText(cairn);
    const lines = text.trim().split('\n');
    assert.equal(lines.length, 3);
    assert.deepEqual(lines.map((l) => JSON.parse(l).id as string).slice(0, 2), [a.id, b.id]);

    const other = await openOther();
    const report = await other.importJsonl(readableOf(text));
    assert.deepEqual({ ...report, errors: report.errors.length }, { lines: 3, imported: 3, existing: 0, merged: 0, errors: 0, embedded: 3 });
    assert.equal(await exportText(other), text, 'byte-identical export after the round trip');
    assert.deepEqual(await collect(other.store.exportMemories('default')), await collect(cairn.store.exportMemories('default')));
    assert.deepEqual((await other.history(a.id)).map((m) => m.id), [a.id, b.id]);
    assert.deepEqual(ids((await other.search('sprint length')).results), [b.id]);
    assert.equal((await other.status()).index.fresh, true);

    const again = await other.importJsonl(readableOf(text));
    assert.deepEqual({ imported: again.imported, existing: again.existing, merged: again.merged }, { imported: 0, existing: 3, merged: 0 });
    assert.equal(await exportText(other), text, 'importing twice doubles nothing');
  });

  it('import into another namespace remaps ids, keeps supersede links, and leaves the source untouched', async () => {
    const a = (await cairn.remember({ text: 'Coffee machine is broken' })).memory;
    const b = (await cairn.supersede(a.id, { text: 'Coffee machine is fixed' })).current;
    const c = (await cairn.remember({ text: 'Water cooler is on floor two' })).memory;
    const text = await exportText(cairn);

    const report = await cairn.importJsonl(readableOf(text), { namespace: 'copy' });
    assert.equal(report.imported, 3);
    assert.deepEqual(report.errors, []);
    assert.equal(await exportText(cairn), text, 'the source namespace is unchanged');
    const copied = await collect(cairn.store.exportMemories('copy'));
    assert.equal(copied.length, 3);
    const original = new Set([a.id, b.id, c.id]);
    for (const m of copied) {
      assert.ok(!original.has(m.id), `id ${m.id} was not remapped`);
      assert.equal(m.namespace, 'copy');
    }
    const [ca, cb, cc] = copied;
    assert.deepEqual([ca!.text, cb!.text, cc!.text], ['Coffee machine is broken', 'Coffee machine is fixed', 'Water cooler is on floor two']);
    assert.equal(ca!.supersededBy, cb!.id);
    assert.equal(cb!.supersedes, ca!.id);
    assert.equal(ca!.validTo, (await cairn.get(a.id)).validTo);
    assert.notEqual(ca!.validTo, null);
    assert.deepEqual((await cairn.history(ca!.id, 'copy')).map((m) => m.text), ['Coffee machine is broken', 'Coffee machine is fixed']);
    assert.deepEqual(ids((await cairn.search('coffee machine', { namespace: 'copy' })).results), [cb!.id]);
    assert.deepEqual(ids((await cairn.search('coffee machine')).results), [b.id]);
  });

  it('importing the same file into another namespace twice doubles nothing', async () => {
    const a = (await cairn.remember({ text: 'Parking is in lot B' })).memory;
    await cairn.supersede(a.id, { text: 'Parking is in lot C' });
    const text = await exportText(cairn);
    await cairn.importJsonl(readableOf(text), { namespace: 'copy' });
    const once = await collect(cairn.store.exportMemories('copy'));
    const second = await cairn.importJsonl(readableOf(text), { namespace: 'copy' });
    assert.deepEqual({ imported: second.imported, existing: second.existing, merged: second.merged }, { imported: 0, existing: 2, merged: 0 });
    assert.deepEqual(await collect(cairn.store.exportMemories('copy')), once);
    // Naming the file's own namespace explicitly is the same as naming none.
    const same = await cairn.importJsonl(readableOf(text), { namespace: 'default' });
    assert.deepEqual({ imported: same.imported, existing: same.existing, merged: same.merged }, { imported: 0, existing: 2, merged: 0 });
    assert.equal(await exportText(cairn), text);
    // A third namespace gets ids of its own.
    await cairn.importJsonl(readableOf(text), { namespace: 'third' });
    const third = await collect(cairn.store.exportMemories('third'));
    assert.equal(third.length, 2);
    for (const m of third) assert.ok(!once.some((o) => o.id === m.id));
  });

  it('status counts per namespace and totals', async () => {
    const a = (await cairn.remember({ text: 'one fact' })).memory;
    await cairn.remember({ text: 'two fact' });
    await cairn.supersede(a.id, { text: 'one fact, revised' });
    await cairn.remember({ text: 'work fact', namespace: 'work' });
    await cairn.store.addTurns([{ namespace: 'work', sessionId: 's', messageId: '1', role: 'user', text: 'hello there', timestamp: daysAgo(1) }]);
    const status = await cairn.status();
    assert.equal(status.ok, true);
    assert.equal(status.home, tmp.dir);
    assert.deepEqual(status.embedder, { provider: 'use-lite', model: 'test-hash@1' });
    assert.deepEqual(
      status.namespaces.map((n) => ({ ...n })),
      [
        { namespace: 'default', memories: 3, currentMemories: 2, superseded: 1, turns: 0, documents: 0, vectors: 3, missingVectors: 0 },
        { namespace: 'work', memories: 1, currentMemories: 1, superseded: 0, turns: 1, documents: 0, vectors: 1, missingVectors: 1 },
      ],
    );
    assert.deepEqual(status.totals, { memories: 4, turns: 1, documents: 0, vectors: 4 });
    assert.equal(status.index.pending, 1);
    assert.equal(status.index.fresh, false);
    await cairn.embedPending();
    const after = await cairn.status();
    assert.equal(after.index.fresh, true);
    assert.equal(after.index.pending, 0);
    assert.equal(after.database.backend, 'sqlite');
    assert.deepEqual(after.problems, []);
  });

  it('close releases the embedder', async () => {
    await cairn.remember({ text: 'closing time' });
    await cairn.close();
    assert.equal(embedder.closed, true);
    cairn = await Cairn.open({ home: tmp.dir, embedder: new HashEmbedder() });
    assert.equal((await cairn.list()).length, 1);
  });
});

describe('Cairn facade (real default embedder, use-lite)', () => {
  it('semantic search end to end: a paraphrase finds the memory with no shared keyword', async () => {
    const tmp = tempDir();
    const cairn = await Cairn.open({ home: tmp.dir });
    try {
      assert.equal(cairn.modelId, 'use-lite@1');
      const rate = await cairn.remember({ text: 'The API applies rate limiting to clients that send too many requests' });
      assert.equal(rate.embedded, true);
      await cairn.remember({ text: 'Banana bread needs three ripe bananas' });
      await cairn.remember({ text: 'The team offsite is in Lisbon this spring' });
      const res = await cairn.search('throttling callers who flood the endpoint', { mode: 'vector' });
      assert.equal(res.mode, 'vector');
      assert.equal(res.results[0]!.id, rate.memory.id);
      const status = await cairn.status();
      assert.equal(status.index.fresh, true);
      assert.deepEqual(await cairn.store.vectorModels(), [
        { model: 'use-lite@1', dimensions: 512, vectors: 3 },
      ]);
    } finally {
      await cairn.close();
      tmp.cleanup();
    }
  });

  it('a long memory found by meaning shows its closest passage as the snippet, not its opening', async () => {
    const tmp = tempDir();
    // A weak match by meaning alone (below search.minConfidence): kept to see its snippet. Passage
    // windows are opt-in (index.passages, none by default): without them the end of a long text is
    // beyond the model's reach, and this memory is not found by meaning at all.
    const cairn = await Cairn.open({ home: tmp.dir, config: { search: { minConfidence: 0 }, index: { passages: 'windows' } } });
    try {
      const long = [
        'The kitchen renovation took most of the spring and the contractor kept changing the schedule.',
        'We picked oak cabinets, a grey stone counter and a deep sink after weeks of arguing about tiles.',
        'The dog hated the noise, so he spent afternoons at the neighbours and came back covered in mud.',
        'By June the floor was finished, the painters had left and the whole house smelled of varnish.',
        'At work the API now applies rate limiting to clients that send too many requests.',
      ].join(' ');
      const stored = (await cairn.remember({ text: long })).memory;
      await cairn.remember({ text: 'Banana bread needs three ripe bananas' });
      // No word of the query is in the text (nor starts one: "flood" would match "floor").
      const res = await cairn.search('throttling callers who hammer the endpoint');
      const hit = res.results.find((r) => r.id === stored.id)!;
      assert.ok(hit, 'the long memory is found');
      assert.match(hit.snippet, /rate limiting/);
      assert.ok(!hit.snippet.includes('kitchen'), hit.snippet);
    } finally {
      await cairn.close();
      tmp.cleanup();
    }
  });

  it('hybrid search with the real model ranks the keyword and meaning match first', async () => {
    const tmp = tempDir();
    const cairn = await Cairn.open({ home: tmp.dir });
    try {
      const deploy = (await cairn.remember({ text: 'We decided to deploy the payments service every Friday afternoon' })).memory;
      await cairn.remember({ text: 'Payments to contractors are sent on the first of the month' });
      await cairn.remember({ text: 'The cat sleeps on the windowsill' });
      const res = await cairn.search('when do we ship the payment service?');
      assert.equal(res.mode, 'hybrid');
      assert.equal(res.results[0]!.id, deploy.id);
      assert.ok(res.results[0]!.parts.cosine! > 0.2, `cosine ${res.results[0]!.parts.cosine}`);
    } finally {
      await cairn.close();
      tmp.cleanup();
    }
  });
});
