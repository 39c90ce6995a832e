// Store conformance, documents (notes and layers). Called from conformance.ts inside every backend's
// suite; talks to the store only through the `Store` interface.
import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { Store, ReplaceDocumentInput } from '../../src/store/store.js';
import { rejectsCode } from '../helpers/store-fixtures.js';
import { indexTerms } from '../helpers/index-terms.js';
import { NS, OTHER, at, vec, turn, type ConformanceContext } from './conformance-fixtures.js';

export function documentConformance(ctx: ConformanceContext): void {
  describe('documents', () => {
    let store: Store;
    beforeEach(() => {
      store = ctx.store();
    });

    const PATH = '/notes/MEMORY.md';
    const chunk = (heading: string, text: string, startLine: number, endLine = startLine) => ({ heading, text, startLine, endLine });
    const doc = (over: Partial<ReplaceDocumentInput> = {}): ReplaceDocumentInput => ({
      namespace: NS,
      sourceId: null,
      path: PATH,
      fileHash: 'hash-1',
      time: at(0),
      chunks: [chunk('Projects > Staging', 'The staging database listens on port 5433', 3, 4), chunk('Projects > Pets', 'Our cat is called Marmalade', 7)],
      ...over,
    });
    /** Texts of the namespace's document entries matching a word, best first. */
    const found = async (namespace: string, word: string) => {
      const hits = await store.keywordSearch(namespace, indexTerms([word]), 20, { kinds: ['document'] });
      return (await store.getEntries(namespace, hits.map((h) => h.seq))).map((e) => e.text);
    };

    it('replaceDocument inserts, then is a no-op for the same hash, then replaces on a new hash', async () => {
      assert.deepEqual(await store.replaceDocument(doc()), { inserted: 2, removed: 0, unchanged: false });
      assert.deepEqual(await store.documentFiles(NS), [{ path: PATH, fileHash: 'hash-1', chunks: 2 }]);
      assert.deepEqual(await store.replaceDocument(doc({ chunks: [chunk('', 'ignored: the hash says nothing changed', 1)] })), {
        inserted: 0,
        removed: 0,
        unchanged: true,
      });
      assert.deepEqual(await found(NS, 'marmalade'), ['Our cat is called Marmalade']);
      assert.deepEqual(await found(NS, 'ignored'), []);

      const changed = await store.replaceDocument(doc({ fileHash: 'hash-2', time: at(5), chunks: [chunk('Pets', 'Our dog is called Biscuit', 2, 3)] }));
      assert.deepEqual(changed, { inserted: 1, removed: 2, unchanged: false });
      assert.deepEqual(await found(NS, 'marmalade'), []);
      assert.deepEqual(await found(NS, 'staging'), []);
      assert.deepEqual(await found(NS, 'biscuit'), ['Our dog is called Biscuit']);
      assert.deepEqual(await store.documentFiles(NS), [{ path: PATH, fileHash: 'hash-2', chunks: 1 }]);
      assert.equal((await store.namespaceStats()).find((s) => s.namespace === NS)!.documents, 1);
    });

    it('getEntries and getDocumentChunk give the chunk text, its path, lines, heading and file time', async () => {
      await store.replaceDocument(doc({ time: at(-24) }));
      const hits = await store.keywordSearch(NS, indexTerms(['staging']), 10);
      const [e] = await store.getEntries(NS, hits.map((h) => h.seq));
      assert.equal(e!.kind, 'document');
      assert.equal(e!.text, 'The staging database listens on port 5433');
      assert.equal(e!.time, at(-24));
      assert.equal(e!.current, true);
      assert.equal(e!.category, null);
      assert.equal(e!.importance, null);
      assert.deepEqual(e!.provenance, [{ source: 'markdown', path: PATH, line: 3, endLine: 4, heading: 'Projects > Staging' }]);
      const c = await store.getDocumentChunk(NS, e!.refId);
      assert.ok(c);
      assert.equal(c.id, e!.refId);
      assert.equal(c.namespace, NS);
      assert.equal(c.sourceId, null);
      assert.equal(c.path, PATH);
      assert.equal(c.chunk, 0);
      assert.equal(c.heading, 'Projects > Staging');
      assert.equal(c.text, 'The staging database listens on port 5433');
      assert.equal(c.startLine, 3);
      assert.equal(c.endLine, 4);
      assert.equal(c.fileHash, 'hash-1');
      assert.equal(c.time, at(-24));
      assert.ok(!Number.isNaN(Date.parse(c.createdAt)));
      assert.equal(await store.getDocumentChunk(OTHER, e!.refId), null);
      assert.equal(await store.getDocumentChunk(NS, 'x_doesnotexist'), null);
      // Headings are searchable too, and the chunk's time is what since/until filter on.
      assert.deepEqual((await found(NS, 'projects')).sort(), ['Our cat is called Marmalade', 'The staging database listens on port 5433']);
      assert.equal((await store.keywordSearch(NS, indexTerms(['staging']), 10, { since: at(0) })).length, 0);
      assert.equal((await store.keywordSearch(NS, indexTerms(['staging']), 10, { kinds: ['memory', 'turn'] })).length, 0);
      assert.equal((await store.entryFor('document', e!.refId))?.seq, e!.seq);
    });

    it('removeDocument drops a file\'s chunks and entries; other files stay', async () => {
      await store.replaceDocument(doc());
      await store.replaceDocument(doc({ path: '/notes/memory/2026-01-10.md', chunks: [chunk('', 'Marmalade visited the vet', 1)] }));
      assert.equal(await store.removeDocument(NS, PATH), 2);
      assert.equal(await store.removeDocument(NS, PATH), 0);
      assert.deepEqual(await found(NS, 'marmalade'), ['Marmalade visited the vet']);
      assert.deepEqual((await store.documentFiles(NS)).map((f) => f.path), ['/notes/memory/2026-01-10.md']);
      assert.equal((await store.namespaceStats()).find((s) => s.namespace === NS)!.documents, 1);
      // Re-adding after removal indexes it again even with the old hash.
      assert.deepEqual(await store.replaceDocument(doc()), { inserted: 2, removed: 0, unchanged: false });
    });

    it('an emptied file loses its chunks; an empty file never indexed is unchanged', async () => {
      assert.deepEqual(await store.replaceDocument(doc({ chunks: [] })), { inserted: 0, removed: 0, unchanged: true });
      await store.replaceDocument(doc());
      assert.deepEqual(await store.replaceDocument(doc({ fileHash: 'empty', chunks: [] })), { inserted: 0, removed: 2, unchanged: false });
      assert.deepEqual(await store.documentFiles(NS), []);
      assert.deepEqual(await store.replaceDocument(doc({ fileHash: 'empty', chunks: [] })), { inserted: 0, removed: 0, unchanged: true });
    });

    it('namespaces are walls: same path in two namespaces, separate chunks', async () => {
      await store.replaceDocument(doc());
      await store.replaceDocument(doc({ namespace: OTHER, fileHash: 'other', chunks: [chunk('', 'Beta has a parrot named Marmalade', 1)] }));
      assert.deepEqual(await found(NS, 'marmalade'), ['Our cat is called Marmalade']);
      assert.deepEqual(await found(OTHER, 'marmalade'), ['Beta has a parrot named Marmalade']);
      const betaSeqs = (await store.keywordSearch(OTHER, indexTerms(['marmalade']), 10)).map((h) => h.seq);
      assert.deepEqual(await store.getEntries(NS, betaSeqs), []);
      assert.equal(await store.removeDocument(OTHER, PATH), 1);
      assert.deepEqual(await found(NS, 'marmalade'), ['Our cat is called Marmalade']);
      assert.deepEqual(await store.documentFiles(OTHER), []);
      assert.deepEqual(await store.documentFiles('gamma'), []);
    });

    it('documentFiles filters by source; unsourced with null', async () => {
      const a = await store.addSource(NS, 'markdown', '/notes');
      const b = await store.addSource(NS, 'markdown', '/vault');
      await store.replaceDocument(doc({ sourceId: a.id }));
      await store.replaceDocument(doc({ sourceId: b.id, path: '/vault/b.md', fileHash: 'b' }));
      await store.replaceDocument(doc({ sourceId: null, path: '/loose.md', fileHash: 'c' }));
      const paths = async (sourceId?: number | null) => (await store.documentFiles(NS, sourceId)).map((f) => f.path);
      assert.deepEqual(await paths(), ['/loose.md', '/notes/MEMORY.md', '/vault/b.md']);
      assert.deepEqual(await paths(a.id), ['/notes/MEMORY.md']);
      assert.deepEqual(await paths(b.id), ['/vault/b.md']);
      assert.deepEqual(await paths(null), ['/loose.md']);
      assert.deepEqual(await paths(987654), []);
    });

    it('chunks survive removal of their source (unsourced), and a source re-added takes them back', async () => {
      const src = await store.addSource(NS, 'markdown', '/notes');
      await store.replaceDocument(doc({ sourceId: src.id }));
      assert.equal(await store.removeSource(src.id), true);
      assert.deepEqual(await found(NS, 'marmalade'), ['Our cat is called Marmalade']);
      assert.deepEqual((await store.documentFiles(NS, null)).map((f) => f.path), [PATH]);
      const hits = await store.keywordSearch(NS, indexTerms(['marmalade']), 10);
      const [e] = await store.getEntries(NS, hits.map((h) => h.seq));
      assert.equal((await store.getDocumentChunk(NS, e!.refId))!.sourceId, null);
      const again = await store.addSource(NS, 'markdown', '/notes');
      assert.deepEqual(await store.replaceDocument(doc({ sourceId: again.id })), { inserted: 0, removed: 0, unchanged: true });
      assert.deepEqual((await store.documentFiles(NS, again.id)).map((f) => f.path), [PATH]);
      assert.equal((await store.getDocumentChunk(NS, e!.refId))!.sourceId, again.id);
    });

    it('vectors of replaced or removed chunks are gone; new chunks need vectors', async () => {
      await store.replaceDocument(doc());
      const first = await store.entriesMissingVector('m', 10, NS);
      assert.deepEqual(first.map((x) => x.text), ['Projects > Staging\nThe staging database listens on port 5433', 'Projects > Pets\nOur cat is called Marmalade']);
      await store.putVectors('m', first.map((x, i) => ({ seq: x.seq, vector: vec(i, 1) })));
      assert.equal((await store.vectorsAfter(NS, 'm', 0, 10)).length, 2);
      await store.replaceDocument(doc({ fileHash: 'hash-2', chunks: [chunk('', 'Only one chunk now', 1)] }));
      assert.deepEqual(await store.vectorsAfter(NS, 'm', 0, 10), []);
      assert.equal((await store.getVectors('m', first.map((x) => x.seq))).size, 0);
      assert.deepEqual((await store.entriesMissingVector('m', 10, NS)).map((x) => x.text), ['Only one chunk now']);
      const [only] = await store.entriesMissingVector('m', 10, NS);
      await store.putVectors('m', [{ seq: only!.seq, vector: vec(1, 1) }]);
      assert.equal(await store.removeDocument(NS, PATH), 1);
      assert.deepEqual(await store.vectorsAfter(NS, 'm', 0, 10), []);
      assert.deepEqual(await store.vectorModels(), []);
    });

    it('bad chunk lines are INVALID_INPUT and store nothing', async () => {
      await rejectsCode(store.replaceDocument(doc({ chunks: [chunk('', 'x', 0)] })), 'INVALID_INPUT');
      await rejectsCode(store.replaceDocument(doc({ chunks: [chunk('', 'x', 5, 4)] })), 'INVALID_INPUT');
      assert.deepEqual(await store.documentFiles(NS), []);
    });
  });

}
