// Promotion and PARA filing: the thresholds, the four drawers, the archive rule's decay tiers, and
// that every placement says why in one sentence.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isPromoted, paraKind, paraReason, placePara, PARA_DEFAULTS } from '../../src/memory/knowledge/para.js';
import type { EntityType, Fact } from '../../src/core/types.js';
import type { EntityWithStats } from '../../src/store/knowledge-records.js';

const NOW = '2026-11-26T12:00:00.000Z';
const daysAgo = (n: number): string => new Date(Date.parse(NOW) - n * 86_400_000).toISOString();

function ent(p: { type?: EntityType; relation?: string | null; mentions?: number; memories?: number; first?: number; last?: number; maxImportance?: number; name?: string } = {}): EntityWithStats {
  const name = p.name ?? 'Kestrel';
  return {
    entity: { id: 'e_1', namespace: 'default', name, slug: 'kestrel', type: p.type ?? 'topic', aliases: [name], relation: p.relation ?? null, locked: false, createdAt: daysAgo(p.first ?? 1), updatedAt: daysAgo(p.last ?? 1) },
    stats: { mentions: p.mentions ?? 1, memories: p.memories ?? p.mentions ?? 1, firstSeen: daysAgo(p.first ?? 1), lastSeen: daysAgo(p.last ?? 1), maxImportance: p.maxImportance ?? 5 },
  };
}

function fact(attribute: string, value: string, validTo: string | null = null): Fact {
  return { id: 'f_1', namespace: 'default', subject: 'kestrel', subjectName: 'Kestrel', entityId: 'e_1', attribute, value, memoryId: 'm_1', validFrom: daysAgo(3), validTo, recordedAt: daysAgo(3), confidence: 0.8, supersededBy: null, mentions: 1, extractor: 'offline@1', provenance: [] };
}

const opts = { archiveAfterDays: 90 };

describe('promotion', () => {
  it('three mentions promote; two do not', () => {
    assert.equal(isPromoted(ent({ mentions: 3 }), PARA_DEFAULTS), true);
    assert.equal(isPromoted(ent({ mentions: 2 }), PARA_DEFAULTS), false);
    assert.equal(isPromoted(ent({ mentions: 2 }), { promoteMentions: 2, promoteImportance: 8 }), true, 'the threshold is the setting');
  });

  it('a direct relationship promotes on one mention; a blank relation does not', () => {
    assert.equal(isPromoted(ent({ type: 'person', relation: 'manager' }), PARA_DEFAULTS), true);
    assert.equal(isPromoted(ent({ type: 'person', relation: '  ' }), PARA_DEFAULTS), false);
  });

  it('a significant project (importance ≥ 8) promotes on one mention; another type does not', () => {
    assert.equal(isPromoted(ent({ type: 'project', maxImportance: 8 }), PARA_DEFAULTS), true);
    assert.equal(isPromoted(ent({ type: 'project', maxImportance: 7 }), PARA_DEFAULTS), false);
    assert.equal(isPromoted(ent({ type: 'tool', maxImportance: 10 }), PARA_DEFAULTS), false);
  });
});

describe('PARA', () => {
  it('a project is filed under projects while it is mentioned', () => {
    assert.equal(paraKind(ent({ type: 'project', last: 2 }), [], NOW, opts), 'projects');
    assert.equal(paraKind(ent({ type: 'project', last: 60 }), [], NOW, opts), 'projects', 'cold but not yet past the setting');
  });

  it('archives once the last mention is older than archiveAfterDays, whatever the type or relation', () => {
    for (const e of [ent({ type: 'project', last: 91 }), ent({ type: 'person', relation: 'sister', last: 200 }), ent({ type: 'tool', last: 91 })]) {
      assert.equal(paraKind(e, [], NOW, opts), 'archives');
    }
    assert.equal(paraKind(ent({ type: 'project', last: 89 }), [], NOW, opts), 'projects');
    assert.match(paraReason(ent({ type: 'project', last: 91 }), [], NOW, opts), /^Archived: not mentioned since 2026-08-27, over 90 days ago\.$/);
  });

  it('a short archive setting still never archives a hot or warm entity (the tiers decide)', () => {
    assert.equal(paraKind(ent({ type: 'project', last: 20 }), [], NOW, { archiveAfterDays: 14 }), 'projects', 'warm');
    assert.equal(paraKind(ent({ type: 'project', last: 31 }), [], NOW, { archiveAfterDays: 14 }), 'archives', 'cold');
    assert.equal(placePara(ent({ last: 3 }), [], NOW, opts).tier, 'hot');
    assert.equal(placePara(ent({ last: 8 }), [], NOW, opts).tier, 'warm');
  });

  it('a topic with a current goal fact is a project; a superseded one is not', () => {
    assert.equal(paraKind(ent(), [fact('deadline', 'December 15')], NOW, opts), 'projects');
    assert.match(paraReason(ent(), [fact('date of launch', '2026-12-01')], NOW, opts), /\(date of launch: 2026-12-01\)/);
    assert.equal(paraKind(ent(), [fact('deadline', 'December 15', daysAgo(1))], NOW, opts), 'resources');
    assert.equal(paraKind(ent(), [fact('port', '5433')], NOW, opts), 'resources', 'a port is reference, not a goal');
  });

  it('a topic with recent plan/decision/implementation memories is a project; old work or one memory is not', () => {
    const recent = ['plan', 'implementation', 'fact'];
    assert.equal(paraKind(ent({ last: 5 }), [], NOW, { ...opts, recentCategories: recent }), 'projects');
    assert.match(paraReason(ent({ last: 5 }), [], NOW, { ...opts, recentCategories: recent }), /2 plan, decision or implementation memories/);
    assert.equal(paraKind(ent({ last: 5 }), [], NOW, { ...opts, recentCategories: ['plan'] }), 'resources');
    assert.equal(paraKind(ent({ last: 40 }), [], NOW, { ...opts, recentCategories: recent }), 'resources', 'cold: not active');
  });

  it('a relationship is an area; a tool with one is still a resource', () => {
    assert.equal(paraKind(ent({ type: 'person', relation: 'manager' }), [], NOW, opts), 'areas');
    assert.equal(paraReason(ent({ type: 'person', relation: ' manager ' }), [], NOW, opts), 'An ongoing relationship: your manager.');
    assert.equal(paraKind(ent({ type: 'organization', relation: 'client' }), [], NOW, opts), 'areas');
    assert.equal(paraKind(ent({ type: 'tool', relation: 'editor' }), [], NOW, opts), 'resources');
  });

  it('a subject that recurs across weeks is an area; the same count within days is a resource', () => {
    assert.equal(paraKind(ent({ type: 'person', memories: 5, first: 40, last: 2 }), [], NOW, opts), 'areas');
    assert.equal(paraKind(ent({ type: 'person', memories: 5, first: 10, last: 2 }), [], NOW, opts), 'resources');
    assert.equal(paraKind(ent({ type: 'person', memories: 2, first: 40, last: 2 }), [], NOW, opts), 'resources');
  });

  it('everything else is a resource, and says what kind', () => {
    assert.equal(paraReason(ent({ type: 'tool', last: 0 }), [], NOW, opts), 'Reference: a tool, last mentioned on 2026-11-26.');
    assert.match(paraReason(ent({ type: 'person' }), [], NOW, opts), /^Reference: a contact/);
    assert.match(paraReason(ent({ type: 'place' }), [], NOW, opts), /^Reference: a place/);
  });

  it('broken dates archive instead of throwing', () => {
    const e = ent();
    e.stats.lastSeen = 'not a date';
    assert.equal(paraKind(e, [], NOW, opts), 'archives');
    assert.equal(paraKind(ent(), [], 'garbage', opts), 'archives');
  });

  it('the reason is one sentence and does not change from one day to the next', () => {
    const e = ent({ type: 'project', last: 2 });
    const later = new Date(Date.parse(NOW) + 86_400_000).toISOString();
    assert.equal(paraReason(e, [], NOW, opts), paraReason(e, [], later, opts));
    assert.match(paraReason(e, [], NOW, opts), /^[^\n]+\.$/);
  });
});
