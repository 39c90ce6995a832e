// Store conformance, digests (issue 24): the consolidated files, their section entries, the change
// feed consolidation reads, and its state. Called from conformance.ts inside every backend's suite;
// talks to the store only through the `Store` interface.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DigestSection, NewDigest } from '../../src/core/types.js';
import { PURGED_MARKER, type Store } from '../../src/store/store.js';
import { rejectsCode } from '../helpers/store-fixtures.js';
import { indexTerms } from '../helpers/index-terms.js';

const NS = 'alpha';
const OTHER = 'beta';
const DAY = '2026-01-10T06:00:00.000Z';
const NEXT = '2026-01-11T06:00:00.000Z';

const section = (heading: string, text: string, ids: string[] = []): DigestSection => ({
  heading,
  text,
  sources: ids.map((id) => ({ kind: id.startsWith('t_') ? 'turn' : 'memory', id, time: DAY })),
});

function daily(over: Partial<NewDigest> = {}): NewDigest {
  const sections = over.sections ?? [
    section('Decisions', '- 09:10 We chose the pelican rollout `m_aaaa`', ['m_aaaa']),
    section('Problems', '- 11:00 The walrus build broke `t_bbbb`', ['t_bbbb']),
  ];
  return {
    namespace: NS, kind: 'daily', path: 'daily/2026-01-10.md', periodStart: DAY, periodEnd: '2026-01-10T21:00:00.000Z',
    text: `# 2026-01-10\n${sections.map((s) => `## ${s.heading}\n${s.text}\n`).join('')}`,
    sections, inputsHash: 'h1', generator: 'extractive@1', ...over,
  };
}

const vec = (...v: number[]) => Float32Array.from(v);

async function digestEntries(store: Store, id: string, count: number) {
  const out = [];
  for (let i = 0; i < count; i++) out.push(await store.entryFor('digest', `${id}#${i}`));
  return out;
}

export function digestConformance(current: () => Store): void {
  describe('digests', () => {
    it('putDigest stores a digest under a stable id with the layer of its kind; the same text and inputs write nothing', async () => {
      const store = current();
      const first = await store.putDigest(daily(), { now: '2026-01-10T22:00:00.000Z' });
      assert.equal(first.changed, true);
      const d = first.digest;
      assert.match(d.id, /^g_[0-9a-f]{32}$/);
      assert.deepEqual([d.namespace, d.kind, d.layer, d.path, d.periodStart, d.inputsHash, d.generator], [NS, 'daily', 3, 'daily/2026-01-10.md', DAY, 'h1', 'extractive@1']);
      assert.deepEqual([d.createdAt, d.updatedAt], ['2026-01-10T22:00:00.000Z', '2026-01-10T22:00:00.000Z']);
      assert.deepEqual(d.sections, daily().sections);
      assert.deepEqual(await store.getDigest(NS, d.path), d);
      assert.ok((await store.namespaceIds()).includes(NS), 'the namespace is created with it');

      const same = await store.putDigest({ ...daily(), generator: 'other@2' }, { now: '2026-01-11T00:00:00.000Z' });
      assert.equal(same.changed, false);
      assert.deepEqual(same.digest, d, 'nothing was written');

      const again = await store.putDigest({ ...daily(), inputsHash: 'h2' }, { now: '2026-01-11T00:00:00.000Z' });
      assert.equal(again.changed, true);
      assert.equal(again.digest.id, d.id, 'the id is a function of namespace and path');
      assert.deepEqual([again.digest.createdAt, again.digest.updatedAt], ['2026-01-10T22:00:00.000Z', '2026-01-11T00:00:00.000Z']);
      const elsewhere = (await store.putDigest(daily({ namespace: OTHER }))).digest;
      assert.notEqual(elsewhere.id, d.id);
      assert.equal(await store.getDigest(NS, 'daily/2026-01-11.md'), null);
      assert.equal((await store.putDigest(daily({ kind: 'memory', path: 'MEMORY.md' }))).digest.layer, 1);
      assert.equal((await store.putDigest(daily({ kind: 'weekly', path: 'weekly/2026-W02.md' }))).digest.layer, 2);
    });

    it('each non-empty section is a digest entry found by keyword search, timed at the period start, with no category or importance', async () => {
      const store = current();
      const d = (await store.putDigest(daily({ sections: [section('Decisions', 'pelican rollout chosen'), section('', ''), section('Problems', 'walrus build broke')] }))).digest;
      const [a, empty, b] = await digestEntries(store, d.id, 3);
      assert.ok(a && b);
      assert.equal(empty, null, 'an empty section is not indexed');
      assert.equal(a.text, 'Decisions\npelican rollout chosen');
      const hits = await store.keywordSearch(NS, indexTerms(['walrus']), 10);
      assert.deepEqual(hits.map((h) => h.seq), [b.seq]);
      const [entry] = await store.getEntries(NS, [b.seq]);
      assert.deepEqual([entry!.kind, entry!.refId, entry!.time, entry!.category, entry!.importance, entry!.current], ['digest', `${d.id}#2`, DAY, null, null, true]);
      assert.deepEqual(await store.keywordSearch(OTHER, indexTerms(['walrus']), 10), [], 'namespaces are walls');
      assert.deepEqual((await store.filterEntries(NS, { kinds: ['digest'] }, 10)).sort(), [a.seq, b.seq].sort());
    });

    it('a regenerated digest keeps the entry (and vectors) of every unchanged section, moved or not, and drops the rest', async () => {
      const store = current();
      const keep = section('Decisions', 'pelican rollout chosen');
      const move = section('Results', 'otter latency halved');
      const gone = section('Problems', 'walrus build broke');
      const d = (await store.putDigest(daily({ sections: [keep, move, gone] }))).digest;
      const [k, m, g] = await digestEntries(store, d.id, 3);
      await store.putVectors('model-a', [k!, m!, g!].map((e, i) => ({ seq: e.seq, vector: vec(1, i) })));
      await store.putDigest(daily({ sections: [keep, section('Plans', 'heron migration next'), move], inputsHash: 'h2', periodStart: '2026-01-10T05:00:00.000Z' }));
      const [k2, plans, m2] = await digestEntries(store, d.id, 3);
      assert.equal(k2!.seq, k!.seq);
      assert.equal(m2!.seq, m!.seq, 'a section that moved keeps its entry');
      assert.equal(plans!.text, 'Plans\nheron migration next');
      assert.equal(await store.entryFor('digest', `${d.id}#3`), null);
      assert.deepEqual(await store.keywordSearch(NS, indexTerms(['walrus']), 10), [], 'the removed section is no longer found');
      assert.deepEqual([...(await store.getVectors('model-a', [k!.seq, m!.seq, g!.seq])).keys()].sort(), [k!.seq, m!.seq].sort());
      assert.deepEqual((await store.entriesMissingVector('model-a', 10, NS)).map((e) => e.seq), [plans!.seq]);
      const [entry] = await store.getEntries(NS, [m!.seq]);
      assert.equal(entry!.time, '2026-01-10T05:00:00.000Z', 'kept entries follow the new period');
      assert.equal(entry!.refId, `${d.id}#2`);
      // Two sections swapping places: no UNIQUE collision, both keep their entries.
      await store.putDigest(daily({ sections: [keep, move, section('Plans', 'heron migration next')], inputsHash: 'h3' }));
      const [k3, m3, p3] = await digestEntries(store, d.id, 3);
      assert.deepEqual([k3!.seq, m3!.seq, p3!.seq], [k!.seq, m!.seq, plans!.seq]);
    });

    it('deleteDigest forgets one digest with its section entries and sources, in its namespace only', async () => {
      const store = current();
      const mem = (await store.addMemory({ namespace: NS, text: 'the pelican rollout was chosen' })).memory;
      const d = (await store.putDigest(daily({ sections: [section('Decisions', `- pelican rollout \`${mem.id}\``, [mem.id]), section('Chat', 'heron sightings')] }))).digest;
      await store.putDigest({ ...daily(), namespace: OTHER });
      const kept = (await store.putDigest(daily({ path: 'daily/2026-01-11.md', periodStart: NEXT, periodEnd: '2026-01-11T21:00:00.000Z' }))).digest;
      assert.equal(await store.deleteDigest(NS, d.path), true);
      assert.equal(await store.getDigest(NS, d.path), null);
      assert.deepEqual(await digestEntries(store, d.id, 2), [null, null], 'its entries are gone');
      assert.deepEqual(await store.keywordSearch(NS, indexTerms(['heron']), 10), [], 'search no longer finds it');
      assert.deepEqual((await store.listDigests(NS)).map((x) => x.path), [kept.path]);
      assert.ok(await store.getDigest(OTHER, d.path), 'namespaces are walls');
      assert.equal(await store.deleteDigest(NS, d.path), false, 'nothing left to delete');
      assert.equal(await store.deleteDigest(NS, '../nowhere.md'), false);
      assert.deepEqual((await store.purgeRecords(NS, [mem.id], { dryRun: true })).digests, [], 'its sources are gone: a purge no longer names it');
    });

    it('listDigests filters by kind and by period overlap, in path order, per namespace', async () => {
      const store = current();
      await store.putDigest(daily({ path: 'daily/2026-01-11.md', periodStart: NEXT, periodEnd: '2026-01-11T21:00:00.000Z' }));
      await store.putDigest(daily());
      await store.putDigest(daily({ kind: 'night', path: 'daily/2026-01-10-last-night.md', periodStart: '2026-01-10T21:00:00.000Z', periodEnd: NEXT }));
      await store.putDigest(daily({ kind: 'weekly', path: 'weekly/2026-W02.md', periodStart: '2026-01-04T23:00:00.000Z', periodEnd: '2026-01-11T23:00:00.000Z' }));
      await store.putDigest(daily({ namespace: OTHER }));
      const paths = async (filter?: Parameters<Store['listDigests']>[1]) => (await store.listDigests(NS, filter)).map((d) => d.path);
      assert.deepEqual(await paths(), ['daily/2026-01-10-last-night.md', 'daily/2026-01-10.md', 'daily/2026-01-11.md', 'weekly/2026-W02.md']);
      assert.deepEqual(await paths({ kinds: ['daily', 'night'] }), ['daily/2026-01-10-last-night.md', 'daily/2026-01-10.md', 'daily/2026-01-11.md']);
      assert.deepEqual(await paths({ kinds: [] }), []);
      // [21:00, NEXT) touches the night only; the period end is exclusive, the start inclusive.
      assert.deepEqual(await paths({ kinds: ['daily', 'night'], since: '2026-01-10T21:00:00.000Z', until: NEXT }), ['daily/2026-01-10-last-night.md']);
      assert.deepEqual(await paths({ since: '2026-01-11T23:00:00.000Z' }), []);
      assert.deepEqual(await paths({ until: '2026-01-05T00:00:00.000Z' }), ['weekly/2026-W02.md']);
      assert.deepEqual(await store.listDigests('nobody'), []);
    });

    it('refuses hostile or malformed digests and stores nothing', async () => {
      const store = current();
      for (const path of ['', '../escape.md', 'daily/../../x.md', '/etc/passwd', 'daily\\x.md', 'C:/x.md', 'a//b.md', './x.md', 'x\0.md', 'x'.repeat(600)]) {
        await rejectsCode(store.putDigest(daily({ path })), 'INVALID_INPUT');
      }
      await rejectsCode(store.putDigest(daily({ kind: 'monthly' as never })), 'INVALID_INPUT', /kind/);
      await rejectsCode(store.putDigest(daily({ periodStart: 'yesterday' })), 'INVALID_INPUT', /period/);
      await rejectsCode(store.putDigest(daily({ periodStart: '2026-01-10T06:00:00+01:00' })), 'INVALID_INPUT', /UTC ISO/);
      await rejectsCode(store.putDigest(daily({ periodEnd: '2026-01-09T00:00:00.000Z' })), 'INVALID_INPUT', /before/);
      await rejectsCode(store.putDigest(daily({ inputsHash: '' })), 'INVALID_INPUT');
      await rejectsCode(store.putDigest(daily({ sections: [{ heading: 'x', text: 'y' } as DigestSection] })), 'INVALID_INPUT');
      await rejectsCode(store.putDigest(daily({ sections: [{ heading: 'x', text: 'y', sources: [{ kind: 'digest', id: 'g_x', time: DAY }] } as never] })), 'INVALID_INPUT');
      assert.deepEqual(await store.listDigests(NS), []);
      assert.deepEqual(await store.namespaceIds(), []);
    });

    it('entryChangesAfter pages the index entries of a namespace in seq order, digests excluded', async () => {
      const store = current();
      const mem = (await store.addMemory({ namespace: NS, text: 'kingfisher fact', eventTime: '2026-01-09T10:00:00.000Z' })).memory;
      await store.putDigest(daily());
      await store.addTurns([{ namespace: NS, sessionId: 's', messageId: '1', role: 'user', text: 'late turn', timestamp: '2026-01-08T23:30:00.000Z' }]);
      await store.addMemory({ namespace: OTHER, text: 'other namespace' });
      await store.replaceDocument({ namespace: NS, sourceId: null, path: '/n.md', fileHash: 'f', time: '2026-01-07T00:00:00.000Z', chunks: [{ heading: 'H', text: 'doc', startLine: 1, endLine: 1 }] });
      const all = await store.entryChangesAfter(NS, 0, 100);
      assert.deepEqual(all.map((c) => [c.kind, c.time]), [['memory', mem.eventTime], ['turn', '2026-01-08T23:30:00.000Z'], ['document', '2026-01-07T00:00:00.000Z']]);
      assert.ok(all[0]!.seq < all[1]!.seq && all[1]!.seq < all[2]!.seq);
      const page = await store.entryChangesAfter(NS, all[0]!.seq, 1);
      assert.deepEqual(page, [all[1]]);
      assert.deepEqual(await store.entryChangesAfter(NS, all[2]!.seq, 10), []);
      assert.deepEqual(await store.entryChangesAfter('nobody', 0, 10), []);
    });

    it('consolidation state: null until put, then replaced whole; arrays refused', async () => {
      const store = current();
      assert.equal(await store.getConsolidationState(NS), null);
      await store.putConsolidationState(NS, { lastSeq: 5, done: { 'daily/2026-01-10.md': 'h1' } });
      assert.deepEqual(await store.getConsolidationState(NS), { lastSeq: 5, done: { 'daily/2026-01-10.md': 'h1' } });
      await store.putConsolidationState(NS, { lastSeq: 9 });
      assert.deepEqual(await store.getConsolidationState(NS), { lastSeq: 9 });
      assert.equal(await store.getConsolidationState(OTHER), null);
      await rejectsCode(store.putConsolidationState(NS, [] as never), 'INVALID_INPUT');
      assert.deepEqual(await store.getConsolidationState(NS), { lastSeq: 9 });
    });
    it('purging a memory or a turn removes the digests citing it (rows, entries, vectors) and reports their paths; a dry run only counts', async () => {
      const store = current();
      const mem = (await store.addMemory({ namespace: NS, text: 'the vault opens at nine' })).memory;
      const { inserted } = await store.addTurns([{ namespace: NS, sessionId: 's', messageId: '1', role: 'user', text: 'vault talk', timestamp: DAY }]);
      const turn = inserted[0]!;
      const cites = (await store.putDigest(daily({ sections: [section('Decisions', `- vault opens at nine \`${mem.id}\``, [mem.id]), section('Chat', 'heron sightings')] }))).digest;
      const review = (await store.putDigest(daily({ kind: 'review', path: 'reviews/2026-01-10.md', sections: [section('Lessons', `- vault talk \`${turn.id}\``, [turn.id])] }))).digest;
      const clean = (await store.putDigest(daily({ kind: 'weekly', path: 'weekly/2026-W02.md', sections: [section('Moved', 'kestrel project shipped', ['m_other'])] }))).digest;
      const [e0] = await digestEntries(store, cites.id, 1);
      await store.putVectors('model-a', [{ seq: e0!.seq, vector: vec(1, 0) }]);

      const dry = await store.purgeRecords(NS, [mem.id], { dryRun: true });
      assert.deepEqual(dry.digests, [{ id: cites.id, namespace: NS, kind: 'daily', path: 'daily/2026-01-10.md' }]);
      assert.ok(await store.getDigest(NS, cites.path), 'a dry run changes nothing');
      const res = await store.purgeRecords(NS, [mem.id]);
      assert.deepEqual(res.digests, dry.digests);
      assert.deepEqual([res.entriesRemoved, res.vectors], [3, 1], 'the memory\'s entry and both section entries; the section\'s vector');
      assert.ok(res.formerTexts.includes(`Decisions\n- vault opens at nine \`${mem.id}\``));
      assert.equal(await store.getDigest(NS, cites.path), null);
      assert.deepEqual(await digestEntries(store, cites.id, 2), [null, null]);
      assert.deepEqual(await store.keywordSearch(NS, indexTerms(['heron']), 10), [], 'every section of the digest goes');
      assert.ok(await store.getDigest(NS, clean.path), 'a digest citing other records stays');

      const byTurn = await store.purgeRecords(NS, [turn.id]);
      assert.deepEqual(byTurn.digests.map((d) => d.path), [review.path]);
      assert.deepEqual((await store.listDigests(NS)).map((d) => d.path), [clean.path]);
      // Written again after the purge (the next consolidation), it is stored anew.
      assert.equal((await store.putDigest(daily({ sections: [section('Chat', 'heron sightings')] }))).changed, true);
    });

    it('rewriteTexts rewrites digest texts and sections and their entries, not the cited ids', async () => {
      const store = current();
      const secret = 'hunter2-osprey-gate';
      const rule = { rewrite: (t: string) => t.split(secret).join(PURGED_MARKER), mustContain: secret };
      const d = (await store.putDigest(daily({ text: `# Day\n## Gate ${secret}\n- code ${secret}\n`, sections: [section(`Gate ${secret}`, `- code ${secret} \`m_aaaa\``, ['m_aaaa']), section('Other', 'plain words')] }))).digest;
      const [e0, e1] = await digestEntries(store, d.id, 2);
      await store.putVectors('model-a', [{ seq: e0!.seq, vector: vec(1, 0) }, { seq: e1!.seq, vector: vec(0, 1) }]);
      const dry = await store.rewriteTexts(NS, rule, { dryRun: true });
      assert.equal((await store.getDigest(NS, d.path))!.text.includes(secret), true, 'a dry run changes nothing');
      const res = await store.rewriteTexts(NS, rule);
      assert.deepEqual(res.rewritten, { digests: 1 });
      assert.deepEqual(dry.rewritten, res.rewritten);
      assert.deepEqual([res.entriesRewritten, res.vectors, res.digests], [1, 1, []]);
      const after = (await store.getDigest(NS, d.path))!;
      assert.equal(after.text, `# Day\n## Gate ${PURGED_MARKER}\n- code ${PURGED_MARKER}\n`);
      assert.deepEqual(after.sections[0], { heading: `Gate ${PURGED_MARKER}`, text: `- code ${PURGED_MARKER} \`m_aaaa\``, sources: [{ kind: 'memory', id: 'm_aaaa', time: DAY }] });
      assert.deepEqual(await store.keywordSearch(NS, indexTerms(['hunter2']), 10), []);
      const [entry] = await store.getEntries(NS, [e0!.seq]);
      assert.equal(entry!.text, `Gate ${PURGED_MARKER}\n- code ${PURGED_MARKER} \`m_aaaa\``);
      assert.deepEqual((await store.entriesMissingVector('model-a', 10, NS)).map((e) => e.seq), [e0!.seq], 'the unchanged section keeps its vector');
    });

    it('renameNamespace moves digests (their ids follow the new name) and the consolidation state', async () => {
      const store = current();
      const mem = (await store.addMemory({ namespace: NS, text: 'walrus facts' })).memory;
      const cited = () => daily({ sections: [section('Decisions', 'pelican rollout chosen'), section('Problems', `walrus build broke \`${mem.id}\``, [mem.id])] });
      const old = (await store.putDigest(cited())).digest;
      await store.putConsolidationState(NS, { lastSeq: 3 });
      assert.equal(await store.renameNamespace(NS, 'gamma'), true);
      assert.equal(await store.getDigest(NS, old.path), null);
      assert.equal(await store.getConsolidationState(NS), null);
      assert.deepEqual(await store.getConsolidationState('gamma'), { lastSeq: 3 });
      const moved = (await store.getDigest('gamma', old.path))!;
      assert.notEqual(moved.id, old.id);
      assert.equal((await store.putDigest({ ...cited(), namespace: 'gamma' })).changed, false, 'the same digest, found under its new name');
      const [a, b] = await digestEntries(store, moved.id, 2);
      assert.ok(a && b && a.namespace === 'gamma');
      assert.deepEqual((await store.keywordSearch('gamma', indexTerms(['walrus']), 10)).map((h) => h.seq).sort(), [b.seq, (await store.entryFor('memory', mem.id))!.seq].sort());
      // The old name is free again: the same path there gets the old id without a clash.
      assert.equal((await store.putDigest(daily())).digest.id, old.id);
      // The moved digest's sources followed its id: purging what it cites still removes it.
      assert.deepEqual((await store.purgeRecords('gamma', [mem.id])).digests.map((d) => [d.namespace, d.id]), [['gamma', moved.id]]);
    });
  });
}
