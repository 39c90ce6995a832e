// Store conformance, keyword search and index entries. Called from conformance.ts inside every backend's
// suite; talks to the store only through the `Store` interface.
import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/store.js';
import { analyse } from '../../src/search/text-analysis.js';
import { indexTerms } from '../helpers/index-terms.js';
import { NS, OTHER, at, turn, type ConformanceContext } from './conformance-fixtures.js';

export function keywordSearchConformance(ctx: ConformanceContext): void {
  const { add, seqOf } = ctx;
  describe('keyword search and entries', () => {
    let store: Store;
    beforeEach(() => {
      store = ctx.store();
    });

    it('finds by stemmed word ("decided" ~ "decide"), best first, within the limit', async () => {
      const a = (await add('We decided to use PostgreSQL for the queue')).memory;
      const b = (await add('Decisions are hard; we decide later')).memory;
      await add('Nothing related here');
      for (const term of ['decide', 'decided', 'deciding', 'DECIDED']) {
        const hits = await store.keywordSearch(NS, indexTerms([term.toLowerCase()]), 10);
        const entries = await store.getEntries(NS, hits.map((h) => h.seq));
        assert.deepEqual(entries.map((e) => e.refId).sort(), [a.id, b.id].sort(), `term ${term}`);
      }
      const hits = await store.keywordSearch(NS, indexTerms(['postgresql', 'queue', 'decided']), 10);
      assert.ok(hits.length === 2);
      for (const h of hits) assert.ok(Number.isFinite(h.score) && h.score > 0, `score ${h.score}`);
      assert.ok(hits[0]!.score >= hits[1]!.score, 'higher score first');
      assert.equal((await store.getEntries(NS, [hits[0]!.seq]))[0]!.refId, a.id, 'the entry matching more terms ranks first');
      // What the index holds: the text, and a memory's tags and entities with it.
      const tagged = (await add('Queue retries are capped', { tags: ['ops'], entities: ['RabbitMQ'] })).memory;
      const [taggedEntry] = await store.getEntries(NS, [await seqOf(NS, tagged.id, ['retries'])]);
      assert.equal(taggedEntry!.indexedChars, 'Queue retries are capped\nops\nRabbitMQ'.length);
      assert.equal((await store.keywordSearch(NS, indexTerms(['decided']), 1)).length, 1);
      assert.deepEqual(await store.keywordSearch(NS, indexTerms([]), 10), []);
    });

    it('tags and entities are searchable', async () => {
      const { memory } = await add('Weekly sync notes', { tags: ['kanban'], entities: ['Zanzibar'] });
      for (const term of ['kanban', 'zanzibar']) {
        const hits = await store.keywordSearch(NS, indexTerms([term]), 10);
        assert.deepEqual((await store.getEntries(NS, hits.map((h) => h.seq))).map((e) => e.refId), [memory.id]);
      }
    });

    it('namespace wall: keyword search and getEntries never cross namespaces', async () => {
      await add('alpha knows about quokkas');
      const other = await store.addMemory({ namespace: OTHER, text: 'beta knows about quokkas too' });
      await store.addTurns([turn({ messageId: 'q', namespace: OTHER, text: 'quokkas in a turn' })]);
      const alphaHits = await store.keywordSearch(NS, indexTerms(['quokkas']), 10);
      assert.equal(alphaHits.length, 1);
      const betaHits = await store.keywordSearch(OTHER, indexTerms(['quokkas']), 10);
      assert.equal(betaHits.length, 2);
      assert.deepEqual(await store.getEntries(NS, betaHits.map((h) => h.seq)), [], 'beta seqs are invisible from alpha');
      const betaEntries = await store.getEntries(OTHER, [...alphaHits, ...betaHits].map((h) => h.seq));
      assert.equal(betaEntries.length, 2);
      assert.ok(betaEntries.every((e) => e.namespace === OTHER));
      assert.ok(betaEntries.some((e) => e.refId === other.memory.id));
      assert.deepEqual(await store.keywordSearch('gamma', indexTerms(['quokkas']), 10), []);
    });

    it('filters: kinds, categories, minImportance, since/until, superseded excluded by default', async () => {
      const dec = (await add('otter decision', { category: 'decision', importance: 9, eventTime: at(-48) })).memory;
      const fact = (await add('otter fact', { category: 'fact', importance: 3 }, at(0))).memory;
      const old = (await add('otter plan old', { category: 'plan', importance: 6 }, at(1))).memory;
      const neu = (await store.supersedeMemory(NS, old.id, { namespace: NS, text: 'otter plan new' }, { now: at(2) })).current;
      const [t] = (await store.addTurns([turn({ messageId: 'o1', text: 'otter turn', timestamp: at(24) })])).inserted;
      const ids = async (filter: object) => {
        const hits = await store.keywordSearch(NS, indexTerms(['otter']), 50, filter);
        return (await store.getEntries(NS, hits.map((h) => h.seq))).map((e) => e.refId).sort();
      };
      const sorted = (...xs: string[]) => xs.sort();
      assert.deepEqual(await ids({}), sorted(dec.id, fact.id, neu.id, t!.id));
      assert.deepEqual(await ids({ includeSuperseded: true }), sorted(dec.id, fact.id, old.id, neu.id, t!.id));
      assert.deepEqual(await ids({ kinds: ['turn'] }), [t!.id]);
      assert.deepEqual(await ids({ kinds: ['memory'] }), sorted(dec.id, fact.id, neu.id));
      assert.deepEqual(await ids({ kinds: ['document'] }), []);
      assert.deepEqual(await ids({ categories: ['decision', 'plan'] }), sorted(dec.id, neu.id));
      assert.deepEqual(await ids({ categories: ['plan'], includeSuperseded: true }), sorted(old.id, neu.id));
      assert.deepEqual(await ids({ minImportance: 6 }), sorted(dec.id, neu.id), 'turns have no importance: excluded by minImportance');
      assert.deepEqual(await ids({ since: at(0) }), sorted(fact.id, neu.id, t!.id));
      assert.deepEqual(await ids({ since: at(2), until: at(2) }), [neu.id]);
      assert.deepEqual(await ids({ until: at(0) }), sorted(dec.id, fact.id), 'event time counts, not creation time');
      assert.deepEqual(await ids({ since: at(24), kinds: ['turn', 'memory'] }), [t!.id]);
    });

    it('hostile query terms never throw and never act as query syntax', async () => {
      await add('plain words: alpha beta gamma, or near the end');
      await add('Le café est fermé à Zürich');
      await add('Deploy went 🚀 smoothly');
      const hostile = [
        '"', '""', "'", '*', 'OR', 'AND', 'NOT', 'NEAR(', 'NEAR', ')', '(', '-', '-alpha', '^', ':', 'body:alpha',
        '{alpha}', 'alpha*', '\\', '%', '_', ';', '--', "'; DROP TABLE memories; --", '\u0000', 'ß', '日本語',
        '🚀', '👩‍👩‍👧', 'x'.repeat(5000), ' ', '',
      ];
      for (const term of hostile) {
        const hits = await store.keywordSearch(NS, indexTerms([term]), 10);
        assert.ok(Array.isArray(hits), `term ${JSON.stringify(term.slice(0, 20))}`);
        for (const h of hits) assert.ok(Number.isFinite(h.score));
      }
      const all = await store.keywordSearch(NS, hostile, 10);
      assert.ok(Array.isArray(all));
      // Syntax words are plain words: "OR"/"NEAR" match only texts containing them.
      assert.equal((await store.keywordSearch(NS, indexTerms(['or']), 10)).length, 1);
      assert.equal((await store.keywordSearch(NS, indexTerms(['near']), 10)).length, 1);
      assert.equal((await store.keywordSearch(NS, indexTerms(['alpha*']), 10)).length, 1, 'alpha* is the word alpha, not a prefix query');
      assert.equal((await store.keywordSearch(NS, indexTerms(['alp*']), 10)).length, 0, 'no prefix expansion');
      assert.equal((await store.keywordSearch(NS, indexTerms(['-alpha']), 10)).length, 1, 'a leading minus does not negate');
      // Unicode words are found.
      assert.equal((await store.keywordSearch(NS, indexTerms(['café']), 10)).length, 1);
      assert.equal((await store.keywordSearch(NS, indexTerms(['zürich']), 10)).length, 1);
      // The store is intact after all of it.
      assert.equal((await store.listMemories({ namespace: NS })).length, 3);
    });

    it('termsHeld: which terms each entry holds, exactly as a keyword search of each term alone finds it', async () => {
      const tagged = (await add('We decided to move the staging database', { tags: ['ops'], entities: ['Zanzibar'] })).memory;
      await add('Le café est fermé à Zürich');
      await add('数据库 迁移 完成');
      await add('Deploy went 🚀 smoothly; the database is fine');
      await store.addTurns([turn({ messageId: 'h1', text: 'sure, sounds good', indexText: 'Ana: sure, sounds good (about the flamingo budget)' })]);
      const seqs = await store.filterEntries(NS, {}, 100);
      assert.equal(seqs.length, 5);
      const flamingo = (await store.keywordSearch(NS, indexTerms(['flamingo']), 10))[0]!.seq;
      const terms = [
        ...indexTerms(['decided', 'database', 'ops', 'zanzibar', 'café', 'zürich', 'flamingo', 'sure', 'absentword', 'database']),
        ...analyse('数据库 迁移'), '🚀', '"', 'or', '', 'NEAR(', '\u0000', 'x'.repeat(5000),
      ];
      const held = await store.termsHeld(NS, terms, seqs);
      assert.deepEqual([...held.keys()].sort((a, b) => a - b), [...seqs].sort((a, b) => a - b), 'every seq asked is answered');
      for (const [i, term] of terms.entries()) {
        const found = new Set((await store.keywordSearch(NS, [term], 100)).map((h) => h.seq));
        for (const seq of seqs) assert.equal(held.get(seq)![i], found.has(seq) ? 1 : 0, `term ${JSON.stringify(term)}, entry ${seq}`);
      }
      const taggedSeq = await seqOf(NS, tagged.id, ['staging']);
      assert.deepEqual([...held.get(taggedSeq)!.slice(0, 4)], [1, 1, 1, 1], "a memory holds its text's words, its tags and its entities");
      assert.equal(held.get(flamingo)![terms.indexOf(indexTerms(['flamingo'])[0]!)], 1, 'a turn holds what it was indexed as');
      assert.ok([...held.values()].some((f) => f[10] === 1), 'a Chinese term is held by its entry');
      assert.deepEqual(await store.termsHeld(NS, terms, []), new Map());
      assert.deepEqual([...(await store.termsHeld(NS, [], seqs)).values()].map((f) => f.length), seqs.map(() => 0));
      // A seq asked twice is answered once, as when asked once; each answer its own bytes.
      const twice = await store.termsHeld(NS, indexTerms(['database', 'flamingo']), [flamingo, taggedSeq, flamingo]);
      assert.deepEqual([...twice.keys()], [flamingo, taggedSeq]);
      assert.deepEqual([...twice.get(flamingo)!], [0, 1]);
      assert.deepEqual([...twice.get(taggedSeq)!], [1, 0]);
      twice.get(taggedSeq)![1] = 1;
      assert.deepEqual([...twice.get(flamingo)!], [0, 1], "writing one seq's answer leaves another's as it was");
      // A write after the first answer: the new entry is held, the old ones unchanged.
      await add('another database note');
      const later = await store.keywordSearch(NS, indexTerms(['another']), 10);
      const again = await store.termsHeld(NS, indexTerms(['database']), [...seqs, later[0]!.seq]);
      assert.equal(again.get(later[0]!.seq)![0], 1);
      assert.equal(again.get(taggedSeq)![0], 1);
    });

    it('getEntries: memory and turn metadata, turn provenance from its source', async () => {
      const src = await store.addSource(NS, 'claude-code', '/logs/session.jsonl');
      const mem = (await add('walrus memory', { category: 'fact', importance: 7, provenance: [{ source: 'cli', messageId: 'x1' }] }, at(0))).memory;
      const [t] = (
        await store.addTurns([turn({ messageId: 'w1', sessionId: 'sess-9', sourceId: src.id, line: 42, speaker: 'Ana', role: 'user', text: 'walrus turn', timestamp: at(3) })])
      ).inserted;
      const [noSrc] = (await store.addTurns([turn({ messageId: 'w2', text: 'walrus turn without source', timestamp: at(4) })])).inserted;
      const hits = await store.keywordSearch(NS, indexTerms(['walrus']), 10);
      const entries = await store.getEntries(NS, hits.map((h) => h.seq));
      const byRef = new Map(entries.map((e) => [e.refId, e]));
      const m = byRef.get(mem.id)!;
      assert.equal(m.kind, 'memory');
      assert.equal(m.namespace, NS);
      assert.equal(m.text, 'walrus memory');
      assert.equal(m.time, at(0));
      assert.equal(m.createdAt, at(0));
      assert.equal(m.category, 'fact');
      assert.equal(m.importance, 7);
      assert.equal(m.current, true);
      assert.equal(m.validTo, null);
      assert.deepEqual(m.provenance, [{ source: 'cli', messageId: 'x1' }]);
      const e = byRef.get(t!.id)!;
      assert.equal(e.kind, 'turn');
      assert.equal(e.text, 'walrus turn');
      assert.equal(e.time, at(3));
      assert.equal(e.category, null);
      assert.equal(e.importance, null);
      assert.equal(e.current, true);
      assert.deepEqual(e.provenance, [
        { source: 'claude-code', path: '/logs/session.jsonl', sessionId: 'sess-9', messageId: 'w1', line: 42, role: 'user', speaker: 'Ana', timestamp: at(3) },
      ]);
      const n = byRef.get(noSrc!.id)!;
      assert.deepEqual(n.provenance, [{ sessionId: 's1', messageId: 'w2', role: 'user', timestamp: at(4) }]);
      assert.deepEqual(await store.getEntries(NS, []), []);
      assert.deepEqual(await store.getEntries(NS, [987654321]), []);
    });

    it('a turn indexes indexText but shows its text', async () => {
      const [t] = (await store.addTurns([turn({ messageId: 'i1', text: 'sure, sounds good', indexText: 'Ana: sure, sounds good (about the flamingo budget)' })])).inserted;
      const hits = await store.keywordSearch(NS, indexTerms(['flamingo']), 10);
      const [e] = await store.getEntries(NS, hits.map((h) => h.seq));
      assert.equal(e!.refId, t!.id);
      assert.equal(e!.text, 'sure, sounds good');
    });

    it('getEntries of a superseded memory says so', async () => {
      const a = (await add('heron v1')).memory;
      const { current } = await store.supersedeMemory(NS, a.id, { namespace: NS, text: 'heron v2' }, { now: at(9) });
      const seq = await seqOf(NS, a.id, ['heron']);
      const [e] = await store.getEntries(NS, [seq]);
      assert.equal(e!.current, false);
      assert.equal(e!.validTo, at(9));
      const [c] = await store.getEntries(NS, [await seqOf(NS, current.id, ['heron'])]);
      assert.equal(c!.current, true);
    });

    it('filterEntries: newest first by time, filters, limit, namespace wall', async () => {
      const a = (await add('one', { category: 'fact', importance: 2 }, at(0))).memory;
      const b = (await add('two', { category: 'decision', importance: 8 }, at(2))).memory;
      const c = (await add('three', { category: 'fact', importance: 9, eventTime: at(-10) }, at(3))).memory;
      const [t] = (await store.addTurns([turn({ messageId: 'f1', text: 'four', timestamp: at(1) })])).inserted;
      await store.addMemory({ namespace: OTHER, text: 'other ns' }, { now: at(5) });
      const refs = async (filter: object, limit = 50) => {
        const seqs = await store.filterEntries(NS, filter, limit);
        const entries = await store.getEntries(NS, seqs);
        const byseq = new Map(entries.map((e) => [e.seq, e.refId]));
        assert.equal(entries.length, seqs.length, 'every seq belongs to the namespace');
        return seqs.map((s) => byseq.get(s));
      };
      assert.deepEqual(await refs({}), [b.id, t!.id, a.id, c.id]);
      assert.deepEqual(await refs({}, 2), [b.id, t!.id]);
      assert.deepEqual(await refs({ kinds: ['memory'], categories: ['fact'] }), [a.id, c.id]);
      assert.deepEqual(await refs({ minImportance: 8 }), [b.id, c.id]);
      assert.deepEqual(await refs({ since: at(0), until: at(1) }), [t!.id, a.id]);
      await store.supersedeMemory(NS, b.id, { namespace: NS, text: 'two, revised' }, { now: at(6) });
      const now = await refs({ kinds: ['memory'] });
      assert.ok(!now.includes(b.id));
      assert.ok((await refs({ kinds: ['memory'], includeSuperseded: true })).includes(b.id));
      assert.deepEqual(await store.filterEntries('gamma', {}, 10), []);
    });
  });

}
