// The fact timeline: re-mention, supersede, history for a value learned late (valid time decides,
// never capture order), the later record winning at equal valid time, and attributes that hold
// several values at once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decideFact, isSingleValued, sameValue } from '../../src/memory/knowledge/facts/timeline.js';
import type { Fact } from '../../src/core/types.js';

let seq = 0;
function fact(attribute: string, value: string, validFrom: string, more: Partial<Fact> = {}): Fact {
  seq++;
  return {
    id: `f_${seq}`, namespace: 'default', subject: 'staging database', subjectName: 'the staging database', entityId: null,
    attribute, value, memoryId: `m_${seq}`, validFrom, validTo: null, recordedAt: '2026-03-01T00:00:00.000Z',
    confidence: 0.9, supersededBy: null, mentions: 1, extractor: 'offline@1', provenance: [], ...more,
  };
}
/** Applies a decision the way the store would, so chains of statements can be followed. */
function apply(known: Fact[], attribute: string, value: string, validFrom: string): Fact[] {
  const d = decideFact(known, { value, validFrom });
  if (d.action === 'remention') return known.map((f) => (f.id === d.factId ? { ...f, mentions: f.mentions + 1 } : f));
  const incoming = fact(attribute, value, validFrom);
  if (d.action === 'history') return [...known, { ...incoming, validTo: d.validTo, supersededBy: d.by }];
  const ended = d.action === 'supersede' ? new Set(d.supersedes) : new Set<string>();
  return [...known.map((f) => (ended.has(f.id) ? { ...f, validTo: validFrom, supersededBy: incoming.id } : f)), incoming];
}
const current = (known: Fact[]): string[] => known.filter((f) => f.supersededBy === null).map((f) => f.value);

describe('sameValue', () => {
  it('ignores case, spaces, trailing punctuation, quotes, articles and a port/version label', () => {
    assert.ok(sameValue('port 6543', '6543'));
    assert.ok(sameValue('Lisbon.', '  lisbon '));
    assert.ok(sameValue('a flat white', 'Flat  White!'));
    assert.ok(sameValue('v3.2', 'version 3.2'));
    assert.ok(sameValue('"/etc/x/"', '/etc/x'));
    assert.ok(sameValue('Ｌｉｓｂｏｎ', 'lisbon'), 'NFKC');
  });
  it('different values, and empty ones, are not the same', () => {
    assert.ok(!sameValue('5433', '6543'));
    assert.ok(!sameValue('cortado', 'flat white'));
    assert.ok(!sameValue('3.2', '3.20'));
    assert.ok(!sameValue('', ''));
    assert.ok(!sameValue('...', '!!!'));
  });
});

describe('decideFact, single-valued', () => {
  it('nothing known: add', () => {
    assert.deepEqual(decideFact([], { value: '5433', validFrom: '2026-02-01T00:00:00Z' }), { action: 'add' });
  });

  it('the same value again is a re-mention of the current fact, whatever its time', () => {
    const old = fact('port', '5433', '2026-02-01T00:00:00.000Z');
    assert.deepEqual(decideFact([old], { value: 'port 5433', validFrom: '2026-02-15T00:00:00Z' }), { action: 'remention', factId: old.id });
    assert.deepEqual(decideFact([old], { value: '5433', validFrom: '2026-01-01T00:00:00Z' }), { action: 'remention', factId: old.id });
  });

  it('a newer value supersedes the current one', () => {
    const old = fact('port', '5433', '2026-02-01T00:00:00.000Z');
    assert.deepEqual(decideFact([old], { value: '6543', validFrom: '2026-02-15T00:00:00.000Z' }), { action: 'supersede', supersedes: [old.id] });
  });

  it('an older value captured late goes into history, ended by the next newer fact', () => {
    const now = fact('port', '6543', '2026-02-15T00:00:00.000Z');
    assert.deepEqual(decideFact([now], { value: '5433', validFrom: '2026-02-01T00:00:00.000Z' }), { action: 'history', by: now.id, validTo: now.validFrom });
  });

  it('equal valid time, different value: the later recorded (the incoming) wins', () => {
    const old = fact('port', '5433', '2026-02-01T00:00:00.000Z');
    assert.deepEqual(decideFact([old], { value: '6543', validFrom: '2026-02-01' }), { action: 'supersede', supersedes: [old.id] }, 'a date and its midnight are one instant');
  });

  it('contradictions in both orders end with the same current value and the old one in history', () => {
    const newerFirst = apply(apply([], 'port', '6543', '2026-02-15T00:00:00.000Z'), 'port', '5433', '2026-02-01T00:00:00.000Z');
    const olderFirst = apply(apply([], 'port', '5433', '2026-02-01T00:00:00.000Z'), 'port', '6543', '2026-02-15T00:00:00.000Z');
    for (const known of [newerFirst, olderFirst]) {
      assert.deepEqual(current(known), ['6543']);
      const past = known.find((f) => f.value === '5433')!;
      assert.equal(past.validTo, '2026-02-15T00:00:00.000Z');
      assert.equal(past.supersededBy, known.find((f) => f.value === '6543')!.id);
    }
  });

  it('a value learned late between two known ones is ended by the next newer one, not the current', () => {
    let known = apply([], 'lives in', 'Lisbon', '2020-01-01T00:00:00.000Z');
    known = apply(known, 'lives in', 'Berlin', '2024-01-01T00:00:00.000Z');
    const porto = decideFact(known, { value: 'Porto', validFrom: '2022-06-01T00:00:00.000Z' });
    assert.deepEqual(porto, { action: 'history', by: known.find((f) => f.value === 'Berlin')!.id, validTo: '2024-01-01T00:00:00.000Z' });
  });

  it('an old value stated again at a time it was true is a re-mention of that past fact', () => {
    let known = apply([], 'port', '5433', '2026-02-01T00:00:00.000Z');
    known = apply(known, 'port', '6543', '2026-02-15T00:00:00.000Z');
    const past = known.find((f) => f.value === '5433')!;
    assert.deepEqual(decideFact(known, { value: '5433', validFrom: '2026-02-10T00:00:00.000Z' }), { action: 'remention', factId: past.id });
    assert.deepEqual(decideFact(known, { value: '5433', validFrom: '2026-03-01T00:00:00.000Z' }), { action: 'supersede', supersedes: [known.find((f) => f.value === '6543')!.id] }, 'the old value coming back later is a change');
  });

  it('several current facts (data from before the timeline) are all superseded by a newer value', () => {
    const a = fact('role', 'engineer', '2025-01-01T00:00:00.000Z');
    const b = fact('role', 'tech lead', '2025-06-01T00:00:00.000Z');
    assert.deepEqual(decideFact([a, b], { value: 'staff engineer', validFrom: '2026-01-01T00:00:00.000Z' }), { action: 'supersede', supersedes: [a.id, b.id] });
  });
});

describe('decideFact, several values at once', () => {
  it('which attributes are single-valued', () => {
    for (const a of ['lives in', 'works at', 'role', 'version', 'port', 'host', 'path', 'date of launch', 'favourite coffee', 'Favorite Coffee', 'launch date']) assert.ok(isSingleValued(a), a);
    for (const a of ['prefers', 'plans', 'decided', 'likes', 'owns']) assert.ok(!isSingleValued(a), a);
  });

  it('a different preference is added beside the others; the same one is a re-mention', () => {
    const tea = fact('prefers', 'tea', '2026-01-01T00:00:00.000Z');
    assert.deepEqual(decideFact([tea], { value: 'dark mode', validFrom: '2026-02-01T00:00:00.000Z' }), { action: 'add' });
    assert.deepEqual(decideFact([tea], { value: 'Tea', validFrom: '2026-02-01T00:00:00.000Z' }), { action: 'remention', factId: tea.id });
  });

  it('"switched from cortado to flat white" supersedes only the cortado', () => {
    const cortado = fact('prefers', 'cortado', '2026-01-01T00:00:00.000Z');
    const tea = fact('prefers', 'tea', '2026-01-01T00:00:00.000Z');
    assert.deepEqual(decideFact([cortado, tea], { value: 'flat white', validFrom: '2026-02-01T00:00:00.000Z', replaces: 'a cortado' }), { action: 'supersede', supersedes: [cortado.id] });
    assert.deepEqual(decideFact([tea], { value: 'flat white', validFrom: '2026-02-01T00:00:00.000Z', replaces: 'cortado' }), { action: 'add' }, 'nothing to replace: add');
  });

  it('a replacement older than the value it names does not end it', () => {
    const cortado = fact('prefers', 'cortado', '2026-03-01T00:00:00.000Z');
    assert.deepEqual(decideFact([cortado], { value: 'flat white', validFrom: '2026-02-01T00:00:00.000Z', replaces: 'cortado' }), { action: 'add' });
  });
});

describe('decideFact with unreadable times', () => {
  it('falls back to ordering the text and never throws', () => {
    const old = fact('port', '5433', 'garbage');
    assert.doesNotThrow(() => decideFact([old], { value: '6543', validFrom: 'also garbage' }));
    assert.equal(decideFact([old], { value: '6543', validFrom: 'zzz' }).action, 'supersede');
  });
});
