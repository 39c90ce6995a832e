// Stage 8: grouping hits of a session into one result, context around a hit, never a turn twice.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assemble as pick, focusText, foldSpan, pickedTurnIds, withContextTurns, type AssemblyOptions } from '../../../src/search/pipeline/assembly.js';
import { passagesOf } from '../../../src/embed/passages.js';
import type { ScoredEntry } from '../../../src/search/pipeline/types.js';
import type { IndexEntry, NeighbourTurns } from '../../../src/store/store.js';
import type { Turn } from '../../../src/core/types.js';
import { beside, entry, row, turn } from '../../helpers/search-entries.js';

const hit = (e: IndexEntry, score: number): ScoredEntry => ({ e, score, parts: {} as ScoredEntry['parts'] });
const inSession = (seq: number, session: string, time = `2026-01-01T10:0${seq}:00.000Z`) =>
  entry(seq, { time, provenance: [{ sessionId: session, messageId: `m${seq}`, role: 'user', speaker: 'Ana', turnIds: [`t_${seq}`] }] });
const options = (over: Partial<AssemblyOptions> = {}): AssemblyOptions => ({
  limit: 10, terms: ['entry'], language: 'en', withContext: true, focusOf: () => undefined, groupHits: 3, foldPages: 1, foldDepth: 0, contextTurns: 1, contextChars: 200, ...over,
});
const anchorsFor = (entries: IndexEntry[]) => new Map(entries.map((e) => [e.seq, e.refId]));
/** Both steps, as search runs them: pick, then show the picked turns from the whole turns the store holds (`stored`). */
function assemble(kept: ScoredEntry[], anchors: Map<number, string>, n: ReadonlyMap<string, NeighbourTurns>, o: AssemblyOptions, stored: readonly Turn[] = []) {
  const a = pick(kept, anchors, n, o);
  const wanted = new Set(pickedTurnIds(a));
  return withContextTurns(a, new Map(stored.filter((t) => wanted.has(t.id)).map((t) => [t.id, t])), o.contextChars);
}

describe('assembly stage', () => {
  it('folds a session\'s further hits into its best result, up to groupHits, as marked context', () => {
    const es = [inSession(2, 'a'), inSession(1, 'a'), inSession(3, 'b'), inSession(4, 'a'), inSession(5, 'a')];
    const results = assemble(es.map((e, i) => hit(e, 1 - i / 10)), anchorsFor(es), new Map(), options());
    // The session's fourth hit is past groupHits: it starts a result of its own.
    assert.deepEqual(results.map((r) => r.id), ['t_2', 't_3', 't_5']);
    assert.deepEqual(results[0]!.context.map((c) => [c.offset, c.match, c.messageId]), [[-1, true, 'm1'], [1, true, 'm4']]);
    assert.deepEqual(results[0]!.provenance.map((p) => p.messageId), ['m2', 'm1', 'm4']);
    // Ungrouped, every hit is its own result, up to the limit.
    assert.deepEqual(assemble(es.map((e) => hit(e, 0.5)), anchorsFor(es), new Map(), options({ groupHits: 1, limit: 2 })).map((r) => r.id), ['t_2', 't_1']);
  });

  it('shows the turns around a hit once: a hit already shown as context is skipped', () => {
    const es = [inSession(1, 'a'), inSession(2, 'a')];
    const reply = turn('t_2', { text: 'the reply' });
    const n = new Map([['t_1', row('t_1', [], [beside(reply, 2)])]]);
    const results = assemble(es.map((e) => hit(e, 1)), anchorsFor(es), n, options({ groupHits: 1 }), [reply]);
    assert.equal(results.length, 1);
    assert.deepEqual(results[0]!.context.map((c) => [c.offset, c.match, c.text]), [[1, false, 'the reply']]);
    assert.equal(results[0]!.provenance.at(-1)!.context, true);
    // Vector mode shows no context: the reply is a result of its own.
    assert.equal(assemble(es.map((e) => hit(e, 1)), anchorsFor(es), n, options({ groupHits: 1, withContext: false })).length, 2);
  });

  it('context: only conversation is picked, the whole turn is read for what is shown, a turn gone since is left out', () => {
    const es = [inSession(5, 'a'), inSession(9, 'a')];
    const q = turn('t_3', { text: 'the question', timestamp: '2026-01-01T10:03:00.000Z', speaker: 'Bo' });
    const tool = turn('t_4', { role: 'tool', text: '→ tool exec npm test', timestamp: '2026-01-01T10:04:00.000Z' });
    const reply = turn('t_6', { text: 'a   reply\nover  lines', timestamp: '2026-01-01T10:06:00.000Z' });
    const gone = turn('t_7', { timestamp: '2026-01-01T10:07:00.000Z' });
    const n = new Map([['t_5', row('t_5', [beside(q, 3), beside(tool, 4)], [beside(reply, 6), beside(gone, 7)])]]);
    const a = pick(es.map((e, i) => hit(e, 1 - i / 10)), anchorsFor(es), n, options({ contextTurns: 2 }));
    assert.deepEqual(pickedTurnIds(a), ['t_3', 't_6', 't_7']);
    const [r] = withContextTurns(a, new Map([q, reply].map((t) => [t.id, t])), 200);
    // In time order: the question, the hit's own reply, then the folded hit.
    assert.deepEqual(r!.context.map((c) => [c.offset, c.match, c.speaker, c.text]), [[-1, false, 'Bo', 'the question'], [1, false, 'Ana', 'a reply over lines'], [1, true, 'Ana', 'entry 9']]);
    assert.deepEqual(r!.provenance.map((p) => [p.messageId, p.context ?? false]), [['m5', false], ['msg_t_3', true], ['msg_t_6', true], ['m9', false]]);
  });

  it('past the limit a session still absorbs its hits, as it would in a longer list', () => {
    const es = [inSession(1, 'a'), inSession(2, 'b'), inSession(3, 'b'), inSession(4, 'a')];
    const results = assemble(es.map((e, i) => hit(e, 1 - i / 10)), anchorsFor(es), new Map(), options({ limit: 1, foldPages: 2 }));
    assert.deepEqual(results.map((r) => r.id), ['t_1']);
    assert.deepEqual(results[0]!.context.map((c) => c.messageId), ['m4']);
    assert.equal(foldSpan({ groupHits: 3, foldPages: 2, foldDepth: 5 }, 1), 5);
    assert.equal(foldSpan({ groupHits: 1, foldPages: 2, foldDepth: 5 }, 4), 4);
  });

  it('a memory or document without a turn is its own result; nothing in, nothing out', () => {
    const doc = entry(1, { kind: 'document', refId: 'x_1', provenance: [] });
    assert.deepEqual(assemble([hit(doc, 1)], new Map(), new Map(), options()).map((r) => [r.id, r.context.length]), [['x_1', 0]]);
    assert.deepEqual(assemble([], new Map(), new Map(), options()), []);
  });

  it('the focus passage is the one the cosine stage chose', () => {
    const text = 'First sentence here about nothing much at all. '.repeat(12) + 'The closing part about the sister in Lisbon.';
    const e = entry(1, { text });
    for (const policy of ['windows', 'sentences'] as const) {
      const passages = passagesOf(text, policy);
      assert.ok(passages.length > 1);
      assert.equal(focusText(e, new Map([[1, passages.length - 1]]), policy), passages.at(-1));
      assert.equal(focusText(e, new Map(), policy), undefined);
    }
  });

  it('a long message shows its part that matches the query, bounded; the full text stays in the result', () => {
    const text = `${'We talked about the garden and the fence for a long while. '.repeat(30)}The staging database listens on port 6543 now. ${'More about the garden. '.repeat(20)}`;
    const [r] = assemble([hit(entry(1, { text }), 1)], new Map(), new Map(), options({ terms: ['stage', 'staging', 'port', '6543'] }));
    assert.ok(r!.snippet.length <= 300, `${r!.snippet.length} characters`);
    assert.match(r!.snippet, /port 6543/);
    assert.equal(r!.text, text);
    // Found by meaning alone (no query word in it), it shows the passage closest to the query.
    const passages = passagesOf(text, 'windows');
    const [byMeaning] = assemble([hit(entry(1, { text }), 1)], new Map(), new Map(), options({ terms: ['zebra'], focusOf: () => passages.at(-1) }));
    assert.ok(byMeaning!.snippet.length <= 300);
    assert.ok(!byMeaning!.snippet.startsWith('We talked'), byMeaning!.snippet);
  });
});
