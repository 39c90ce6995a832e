// The life/ renderers on their own: a page's tiers, citations, history chain, the index's groups,
// byte-identical output for equal input, and names that must not escape a line or a folder.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderEntitySummary, renderItemsJson, renderLifeIndex, safeSlugs, SUMMARY_PATH_RE, type LifePage } from '../../src/consolidate/life-render.js';
import type { Fact } from '../../src/core/types.js';
import type { EntityWithStats } from '../../src/store/knowledge-records.js';

const TZ = 'Europe/Berlin';

function ent(name: string, over: Partial<EntityWithStats['entity']> = {}, stats: Partial<EntityWithStats['stats']> = {}): EntityWithStats {
  return {
    entity: { id: 'e_ana', namespace: 'default', name, slug: 'ana-souza', type: 'person', aliases: [name, 'Ana', '@ana'], relation: 'manager', locked: false, createdAt: '2026-10-01T08:00:00.000Z', updatedAt: '2026-11-20T08:00:00.000Z', ...over },
    stats: { mentions: 7, memories: 5, firstSeen: '2026-10-01T08:00:00.000Z', lastSeen: '2026-11-20T23:30:00.000Z', maxImportance: 7, ...stats },
  };
}

function fact(id: string, attribute: string, value: string, validFrom: string, p: Partial<Fact> = {}): Fact {
  return { id, namespace: 'default', subject: 'ana souza', subjectName: 'Ana', entityId: 'e_ana', attribute, value, memoryId: `m_${id}`, validFrom, validTo: null, recordedAt: validFrom, confidence: 0.8, supersededBy: null, mentions: 1, extractor: 'offline@1', provenance: [{ source: 'cli', sessionId: 's1' }], ...p };
}

const facts: Fact[] = [
  fact('f_porto', 'lives in', 'Porto', '2026-01-05T10:00:00.000Z', { validTo: '2026-09-01T10:00:00.000Z', supersededBy: 'f_lisbon' }),
  fact('f_lisbon', 'lives in', 'Lisbon', '2026-09-01T10:00:00.000Z', { mentions: 3 }),
  fact('f_acme', 'works at', 'Acme', '2026-10-01T08:00:00.000Z'),
];

const page = (over: Partial<LifePage> = {}): LifePage => ({
  entity: ent('Ana Souza'), kind: 'areas', reason: 'An ongoing relationship: your manager.', slug: 'ana-souza', facts,
  memories: [
    { id: 'm_f_lisbon', time: '2026-09-01T10:00:00.000Z', text: 'Ana moved to Lisbon.', importance: 6, category: 'fact', current: true },
    { id: 'm_f_porto', time: '2026-01-05T10:00:00.000Z', text: 'Ana lives in Porto.', importance: 5, category: 'fact', current: false },
  ],
  ...over,
});

describe('entity summary.md', () => {
  it('opens with a three-line summary, then current facts, history and mentions, each citing its memory', () => {
    const r = renderEntitySummary(page(), TZ);
    assert.equal(r.path, 'life/areas/ana-souza/summary.md');
    const lines = r.text.split('\n');
    assert.equal(lines[0], '<!-- cairn:generated -->');
    assert.equal(lines[1], '# Ana Souza');
    assert.equal(lines[3], 'Ana Souza is a person, your manager. Also known as @ana, Ana.');
    assert.equal(lines[4], 'Last seen 2026-11-21, first 2026-10-01: 7 mentions in 5 memories. An ongoing relationship: your manager.', 'days are local days');
    assert.equal(lines[5], 'Now: lives in Lisbon; works at Acme.');
    assert.ok(r.text.includes('## Current facts\n\n- lives in: Lisbon (since 2026-09-01) `m_f_lisbon`\n- works at: Acme (since 2026-10-01) `m_f_acme`\n'));
    assert.ok(r.text.includes('## History\n\n- lives in: Porto (2026-01-05 → 2026-09-01, replaced by Lisbon) `m_f_porto`\n'));
    assert.ok(r.text.includes('## Mentioned in\n\n- 2026-09-01 Ana moved to Lisbon. `m_f_lisbon`\n- 2026-01-05 Ana lives in Porto. _(superseded)_ `m_f_porto`\n'));
    const history = r.sections.find((s) => s.heading === 'History')!;
    assert.deepEqual(history.sources.map((s) => s.id), ['m_f_porto']);
    assert.equal(r.sections.find((s) => s.heading === 'Current facts')!.sources.find((s) => s.id === 'm_f_lisbon')!.time, '2026-09-01T10:00:00.000Z');
  });

  it('is byte-identical for equal input in any order', () => {
    const a = renderEntitySummary(page(), TZ);
    const b = renderEntitySummary(page({ facts: [...facts].reverse(), memories: [...page().memories].reverse() }), TZ);
    assert.equal(a.text, b.text);
    assert.equal(renderItemsJson(page()), renderItemsJson(page({ facts: [...facts].reverse() })));
  });

  it('an entity with no facts and no memories still gets a readable page', () => {
    const r = renderEntitySummary(page({ facts: [], memories: [] }), TZ);
    assert.match(r.text, /No facts about it are recorded yet\./);
    assert.match(r.text, /## Current facts\n\n_None yet\._/);
    assert.match(r.text, /_No memory names it now\._/);
  });

  it('hostile names and values stay on their line: no heading, comment or citation injection', () => {
    const evil = 'Eve\n## Injected\n<!-- cairn:person:begin --> `m_fake` ' + 'x'.repeat(10_000);
    const r = renderEntitySummary(page({ entity: ent(evil, { aliases: [evil] }), facts: [fact('f_x', 'role', 'boss\n# Title `m_fake2`', '2026-10-01T08:00:00.000Z', { memoryId: 'm_ok`) rm -rf' })] }), TZ);
    assert.equal(r.text.match(/^## /gm)!.length, 3, 'only the three sections are headings');
    assert.ok(!r.text.includes('<!-- cairn:person:begin -->'));
    assert.ok(!r.text.includes('`m_fake`') && !r.text.includes('`m_fake2`') && !r.text.includes('rm -rf`'));
    assert.ok(r.text.split('\n').every((l) => l.length < 1000), 'long names are cut');
  });

  it('a long history is capped on the page and complete in items.json', () => {
    const many = Array.from({ length: 55 }, (_, i) => fact(`f_${String(i).padStart(2, '0')}`, 'port', String(5000 + i), `2026-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00.000Z`, { validTo: '2026-03-01T00:00:00.000Z' }));
    const r = renderEntitySummary(page({ facts: many }), TZ);
    assert.match(r.text, /- _15 older changes are in items\.json\._/);
    assert.equal(JSON.parse(renderItemsJson(page({ facts: many }))).facts.length, 55);
  });
});

describe('items.json', () => {
  it('every fact with provenance, both times, confidence and successor, in a fixed key order, redacted', () => {
    const json = renderItemsJson(page({ facts: [...facts, fact('f_key', 'token', 'sk-secret', '2026-10-02T00:00:00.000Z')] }), (t) => t.replace(/sk-secret/g, '[REDACTED:key]'));
    const doc = JSON.parse(json);
    assert.deepEqual(Object.keys(doc), ['entity', 'facts']);
    assert.equal(doc.entity.para, 'areas');
    assert.deepEqual(Object.keys(doc.facts[0]), ['id', 'subject', 'subjectName', 'attribute', 'value', 'validFrom', 'validTo', 'recordedAt', 'confidence', 'supersededBy', 'mentions', 'memoryId', 'extractor', 'provenance']);
    const porto = doc.facts.find((f: Fact) => f.id === 'f_porto');
    assert.deepEqual([porto.validTo, porto.supersededBy, porto.memoryId], ['2026-09-01T10:00:00.000Z', 'f_lisbon', 'm_f_porto']);
    assert.ok(!json.includes('sk-secret') && json.includes('[REDACTED:key]'));
    assert.ok(json.endsWith('}\n') && json.includes('\n  "facts": ['), 'pretty-printed');
  });
});

describe('life/index.md', () => {
  it('one line per entity under its PARA heading, with link, type, last seen and mentions', () => {
    const project = page({ entity: ent('Cairn', { id: 'e_cairn', slug: 'cairn', type: 'project', relation: null }, { mentions: 12, lastSeen: '2026-11-25T10:00:00.000Z' }), kind: 'projects', slug: 'cairn' });
    const tool = page({ entity: ent('SQLite', { id: 'e_sqlite', slug: 'sqlite', type: 'tool', relation: null }, { mentions: 1 }), kind: 'resources', slug: 'sqlite' });
    const r = renderLifeIndex('default', [tool, page(), project], TZ);
    assert.equal(
      r.text,
      [
        '<!-- cairn:generated -->', '# Life: default', '', '3 entities with a page; candidates below the promotion bar are left out.', '',
        '## Projects', '', '- [Cairn](projects/cairn/summary.md) · project · last seen 2026-11-25 · 12 mentions', '',
        '## Areas', '', '- [Ana Souza](areas/ana-souza/summary.md) · person (your manager) · last seen 2026-11-21 · 7 mentions', '',
        '## Resources', '', '- [SQLite](resources/sqlite/summary.md) · tool · last seen 2026-11-21 · 1 mention', '',
      ].join('\n'),
    );
    assert.equal(renderLifeIndex('default', [project, page(), tool], TZ).text, r.text, 'input order does not matter');
    assert.match(renderLifeIndex('default', [], TZ).text, /No person, project or subject/);
  });

  it('brackets in a name do not break its link', () => {
    const r = renderLifeIndex('default', [page({ entity: ent('A [b](http://x)') })], TZ);
    assert.ok(r.text.includes('[A \\[b\\](http://x)](areas/ana-souza/summary.md)'));
  });
});

describe('safe slugs', () => {
  it('keeps a good slug, remakes a hostile one, and never lets two entities share a folder', () => {
    const slugs = safeSlugs([
      { id: 'e_1', slug: 'ana-souza', name: 'Ana Souza' },
      { id: 'e_2', slug: '../../etc', name: '../../etc/passwd' },
      { id: 'e_3', slug: 'ana-souza', name: 'Ana Souza' },
      { id: 'e_4', slug: 'Анна Иванова', name: 'Анна Иванова' },
      { id: 'e_5', slug: '', name: '"\'' },
      { id: 'e_6', slug: 'con', name: 'con' },
      { id: 'e_7', slug: 'x'.repeat(10_000), name: 'x'.repeat(10_000) },
    ]);
    assert.equal(slugs.get('e_1'), 'ana-souza');
    assert.equal(new Set(slugs.values()).size, 7);
    for (const [, s] of slugs) {
      assert.match(s, /^[a-z0-9][a-z0-9-]{0,79}$/, s);
      assert.ok(SUMMARY_PATH_RE.test(`life/resources/${s}/summary.md`), s);
    }
    assert.notEqual(slugs.get('e_6'), 'con');
  });
});
