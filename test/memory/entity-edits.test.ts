// A person's entity fixes (memory/knowledge/edits.ts) on a real SQLite store: merge, rename and
// split move what they should, refuse what makes no sense, and stick when the knowledge pass writes
// again or the knowledge is reset.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Fact, Memory } from '../../src/core/types.js';
import { aliasKey } from '../../src/memory/knowledge/entities/aliases.js';
import type { KnowledgeBatch, NewEntityRow } from '../../src/store/store.js';
import { mergeEntities, renameEntity, resolveEntity, splitEntity, uniqueSlug } from '../../src/memory/knowledge/edits.js';
import { rejectsCode } from '../helpers/store-fixtures.js';

const NS = 'alpha';
const OTHER = 'beta';
const NOW = '2026-03-01T00:00:00.000Z';

let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-edits-'));
  store = new SqliteStore(join(dir, 'cairn.db'));
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const key = aliasKey;

function row(id: string, name: string, over: Partial<NewEntityRow> = {}): NewEntityRow {
  return { id, name, slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-') || id, type: 'person', relation: null, ...over };
}

function fact(id: string, memory: Memory, entityId: string, attribute: string, value: string): Fact {
  return {
    id, namespace: memory.namespace, subject: key(entityId), subjectName: entityId, entityId, attribute, value, memoryId: memory.id,
    validFrom: NOW, validTo: null, recordedAt: NOW, confidence: 0.9, supersededBy: null, mentions: 1, extractor: 'offline@1', provenance: [],
  };
}

async function remember(text: string, ns = NS): Promise<Memory> {
  return (await store.addMemory({ namespace: ns, text }, { now: NOW })).memory;
}

/** Entities with their names as aliases, and which memories name which entity (as the pass would write them). */
async function know(ns: string, entities: Array<{ row: NewEntityRow; aliases: string[] }>, mentions: Array<[string, Memory]>, facts: Fact[] = [], over: Partial<KnowledgeBatch> = {}): Promise<void> {
  const cursor = await store.knowledgeCursor(ns);
  const names = new Map(entities.map((e) => [e.row.id, e.row.name]));
  const byMemory = new Map<string, string[]>();
  for (const [entityId, m] of mentions) byMemory.set(m.id, [...(byMemory.get(m.id) ?? []), names.get(entityId) ?? entityId]);
  const res = await store.applyKnowledge({
    namespace: ns, expectCursor: cursor, cursor: cursor + 1, now: NOW,
    entities: entities.map((e) => e.row), entityUpdates: [],
    aliases: entities.flatMap((e) => e.aliases.map((a) => ({ key: key(a), entityId: e.row.id, display: a }))),
    mentions: mentions.map(([entityId, m]) => ({ entityId, memoryId: m.id })),
    memoryEntities: [...byMemory].map(([memoryId, list]) => ({ memoryId, entities: list })),
    facts, factUpdates: [], retirements: [], ...over,
  });
  assert.equal(res.applied, true);
}

describe('entity edits', () => {
  it('merge: names, mentions and facts move to the entity that stays; its memories name it; the fix survives a reset', async () => {
    const [m1, m2, m3] = [await remember('Ana called about the budget'), await remember('Ana Souza sent the contract'), await remember('@ana reviewed it')];
    await know(NS, [{ row: row('e_ana', 'Ana'), aliases: ['Ana', '@ana'] }, { row: row('e_souza', 'Ana Souza'), aliases: ['Ana Souza'] }], [['e_ana', m1!], ['e_souza', m2!], ['e_ana', m3!]], [fact('f_1', m1!, 'e_ana', 'role', 'lead')]);

    const res = await mergeEntities(store, NS, '@ana', 'ana-souza', NOW);
    assert.equal(res.entity.entity.id, 'e_souza');
    assert.deepEqual(res.removed, { id: 'e_ana', name: 'Ana', slug: 'ana' });
    assert.equal(res.memories, 2);
    assert.equal(res.entity.stats.memories, 3);
    assert.equal(await store.getEntity(NS, 'e_ana'), null);
    assert.deepEqual((await store.listFacts(NS)).map((f) => f.entityId), ['e_souza']);
    assert.deepEqual((await store.getMemory(NS, m1!.id))!.entities, ['Ana Souza']);
    assert.deepEqual((await store.getMemory(NS, m3!.id))!.entities, ['Ana Souza']);
    assert.deepEqual((await store.getMemory(NS, m2!.id))!.entities, ['Ana Souza'], 'a memory of the one that stays is untouched');

    // The pass runs again from scratch: the pinned names still lead to the entity that stayed.
    await store.resetKnowledge(NS);
    const keys = await store.entitiesByAliasKeys(NS, ['ana', 'ana souza']);
    assert.equal(keys.get('ana')?.id, 'e_souza');
    assert.equal(keys.get('ana souza')?.id, 'e_souza');
    assert.equal((await resolveEntity(store, NS, 'Ana')).entity.id, 'e_souza');
  });

  it('merge refuses an entity into itself (by any two of its names) and names it does not know', async () => {
    const m = await remember('Ana Souza again');
    await know(NS, [{ row: row('e_a', 'Ana Souza'), aliases: ['Ana Souza', 'Ana'] }], [['e_a', m]]);
    await rejectsCode(mergeEntities(store, NS, 'Ana', 'ana-souza', NOW), 'CONFLICT');
    await rejectsCode(mergeEntities(store, NS, 'Nobody', 'Ana', NOW), 'NOT_FOUND');
    await rejectsCode(mergeEntities(store, NS, 'Ana', '', NOW), 'NOT_FOUND');
    assert.equal((await store.getEntity(NS, 'e_a'))!.stats.memories, 1, 'nothing changed');
  });

  it('namespaces are walls: an entity of another namespace cannot be named, merged or renamed', async () => {
    const mine = await remember('Bea here');
    const theirs = await remember('Xena there', OTHER);
    await know(NS, [{ row: row('e_b', 'Bea'), aliases: ['Bea'] }], [['e_b', mine]]);
    await know(OTHER, [{ row: row('e_x', 'Xena'), aliases: ['Xena'] }], [['e_x', theirs]]);
    await rejectsCode(resolveEntity(store, NS, 'e_x'), 'NOT_FOUND');
    await rejectsCode(resolveEntity(store, NS, 'Xena'), 'NOT_FOUND');
    await rejectsCode(mergeEntities(store, NS, 'e_x', 'Bea', NOW), 'NOT_FOUND');
    await rejectsCode(renameEntity(store, NS, 'xena', 'Hijacked', NOW), 'NOT_FOUND');
    assert.equal((await store.getEntity(OTHER, 'e_x'))!.entity.name, 'Xena');
  });

  it('rename: new name and slug, locked against the pass, pinned; memories carry the new name', async () => {
    const m = await remember('Bob from finance approved it');
    await know(NS, [{ row: row('e_bob', 'Bob'), aliases: ['Bob'] }], [['e_bob', m]]);
    const res = await renameEntity(store, NS, 'bob', '  Robert   Lang ', NOW);
    assert.equal(res.previousName, 'Bob');
    assert.deepEqual([res.entity.entity.name, res.entity.entity.slug, res.entity.entity.locked], ['Robert Lang', 'robert-lang', true]);
    assert.deepEqual((await store.getMemory(NS, m.id))!.entities, ['Robert Lang']);
    assert.equal((await resolveEntity(store, NS, 'Bob')).entity.id, 'e_bob', 'the old name still finds it');

    // The pass learns "a longer name" later: a locked name stays the person's.
    await know(NS, [], [], [], { entityUpdates: [{ id: 'e_bob', name: 'Bob Smith', slug: 'bob-smith' }] });
    assert.equal((await store.getEntity(NS, 'e_bob'))!.entity.name, 'Robert Lang');
    await store.resetKnowledge(NS);
    assert.equal((await store.getEntity(NS, 'e_bob'))!.entity.name, 'Robert Lang');
  });

  it('rename: a slug taken by another entity gets a suffix; a name another entity has is a conflict; an empty name is refused', async () => {
    const [a, b, c] = [await remember('Sam one'), await remember('Sam two'), await remember('Kim')];
    await know(NS, [{ row: row('e_s1', 'Sam', { slug: 'sam' }), aliases: ['Sam'] }, { row: row('e_s2', 'Samuel'), aliases: ['Samuel'] }, { row: row('e_k', 'Kim'), aliases: ['Kim'] }], [['e_s1', a], ['e_s2', b], ['e_k', c]]);
    await rejectsCode(renameEntity(store, NS, 'Samuel', 'SAM', NOW), 'CONFLICT');
    await renameEntity(store, NS, 'Sam', 'Sam Lee', NOW);
    await rejectsCode(renameEntity(store, NS, 'Samuel', 'Sam-Lee!', NOW), 'CONFLICT', /already belongs to Sam Lee/);
    const other = await renameEntity(store, NS, 'Samuel', 'Sam Lee.', NOW).catch(() => null);
    assert.equal(other, null, 'punctuation does not make another name');
    const twin = await renameEntity(store, NS, 'Samuel', 'Sam Lée', NOW);
    assert.equal(twin.entity.entity.slug, 'sam-lee-2', 'another name with the same slug gets the next free one');
    assert.equal(await uniqueSlug(store, NS, 'Sam Lee', 'e_k'), 'sam-lee-3', 'a third asking gets the one after');
    assert.equal(await uniqueSlug(store, NS, 'Sam Lee', 'e_s1'), 'sam-lee', 'an entity keeps its own slug');
    await rejectsCode(renameEntity(store, NS, 'Kim', '   ', NOW), 'INVALID_INPUT');
    await rejectsCode(renameEntity(store, NS, 'Kim', '!!! ...', NOW), 'INVALID_INPUT');
  });

  it('split: the named aliases go to a new entity with the memories (and facts) that name only them', async () => {
    const kim = await remember('Alex Kim shipped the release');
    const park = await remember("Alex Park's new flat is in Lisbon");
    const both = await remember('Alex Kim and Alex Park met for lunch');
    const plain = await remember('Alex said hi');
    await know(
      NS,
      [{ row: row('e_alex', 'Alex'), aliases: ['Alex', 'Alex Kim', 'Alex Park'] }],
      [['e_alex', kim], ['e_alex', park], ['e_alex', both], ['e_alex', plain]],
      [fact('f_k', kim, 'e_alex', 'shipped', 'release'), fact('f_p', park, 'e_alex', 'lives in', 'Lisbon')],
    );
    const res = await splitEntity(store, NS, 'alex', { aliases: ['alex park'], type: 'person' }, NOW);
    assert.equal(res.entity.entity.name, 'Alex Park', 'named as the entity knew the alias');
    assert.equal(res.entity.entity.locked, true);
    assert.deepEqual(res.moved, [park.id]);
    assert.deepEqual(res.kept, [both.id]);
    assert.deepEqual(await store.entityMemoryIds(NS, [res.entity.entity.id], 10), [park.id]);
    assert.deepEqual((await store.listFacts(NS, { entityId: res.entity.entity.id })).map((f) => f.id), ['f_p']);
    assert.deepEqual((await store.listFacts(NS, { entityId: 'e_alex' })).map((f) => f.id), ['f_k']);
    assert.deepEqual((await store.getMemory(NS, park.id))!.entities, ['Alex Park']);
    assert.deepEqual((await store.getMemory(NS, kim.id))!.entities, ['Alex']);
    // After a reset the names are still where the person put them.
    await store.resetKnowledge(NS);
    const keys = await store.entitiesByAliasKeys(NS, ['alex park', 'alex kim', 'alex']);
    assert.equal(keys.get('alex park')?.id, res.entity.entity.id);
    assert.equal(keys.get('alex kim')?.id, 'e_alex');
    assert.equal(keys.get('alex')?.id, 'e_alex');
  });

  it('split: the display name split off gives the source its longest remaining name; a new name is pinned too', async () => {
    const a = await remember('Jordan Lee designed the logo');
    const b = await remember('Jordan, the country, was lovely');
    await know(NS, [{ row: row('e_j', 'Jordan'), aliases: ['Jordan', 'Jordan Lee'] }], [['e_j', a], ['e_j', b]]);
    const res = await splitEntity(store, NS, 'e_j', { aliases: ['Jordan'], name: 'Jordan (country)', type: 'place' }, NOW);
    assert.equal(res.entity.entity.type, 'place');
    assert.equal(res.entity.entity.name, 'Jordan (country)');
    assert.equal(res.source.entity.name, 'Jordan Lee');
    assert.deepEqual(res.moved, [b.id]);
    assert.deepEqual(res.kept, [], '"Jordan" inside "Jordan Lee" is the name that stays');
    assert.equal((await resolveEntity(store, NS, 'jordan (country)')).entity.id, res.entity.entity.id);
    assert.deepEqual((await store.getMemory(NS, a.id))!.entities, ['Jordan Lee']);
  });

  it('split refuses unknown aliases, no aliases, every alias, and a new name that stays on the source', async () => {
    const m = await remember('Chris and Christopher');
    await know(NS, [{ row: row('e_c', 'Chris'), aliases: ['Chris', 'Christopher'] }, { row: row('e_d', 'Dana'), aliases: ['Dana'] }], [['e_c', m]]);
    await rejectsCode(splitEntity(store, NS, 'Chris', { aliases: ['Topher'] }, NOW), 'INVALID_INPUT');
    await rejectsCode(splitEntity(store, NS, 'Chris', { aliases: [] }, NOW), 'INVALID_INPUT');
    await rejectsCode(splitEntity(store, NS, 'Chris', { aliases: ['chris', 'CHRISTOPHER'] }, NOW), 'CONFLICT');
    await rejectsCode(splitEntity(store, NS, 'Chris', { aliases: ['Christopher'], name: 'chris' }, NOW), 'CONFLICT');
    await rejectsCode(splitEntity(store, NS, 'Chris', { aliases: ['Christopher'], name: 'Dana' }, NOW), 'CONFLICT');
    assert.deepEqual((await store.listEntities(NS)).map((e) => e.entity.id).sort(), ['e_c', 'e_d'], 'nothing was created');
  });

  it('split in a script written without spaces, and names that only look like a part of a word', async () => {
    const red = await remember('小红明天来北京');
    const ming = await remember('小明在上海');
    const banana = await remember('Banana bread with Ana');
    const bread = await remember('Banana bread again');
    await know(NS, [{ row: row('e_x', '小红', { slug: 'x' }), aliases: ['小红', '小明'] }, { row: row('e_ana', 'Ana'), aliases: ['Ana', 'Anabel'] }], [['e_x', red], ['e_x', ming], ['e_ana', banana], ['e_ana', bread]]);
    const res = await splitEntity(store, NS, '小红', { aliases: ['小明'] }, NOW);
    assert.deepEqual(res.moved, [ming.id]);
    assert.ok(res.entity.entity.slug.length > 0 && !res.entity.entity.slug.includes('/'));
    const anabel = await splitEntity(store, NS, 'Ana', { aliases: ['Anabel'] }, NOW);
    assert.deepEqual(anabel.moved, [], '"Banana" does not name "Anabel" or "Ana"');
  });

  it('hostile names are data: quotes, SQL, markup and long names go through unharmed', async () => {
    const m = await remember("O'Brien said hi");
    await know(NS, [{ row: row('e_o', "O'Brien"), aliases: ["O'Brien"] }], [['e_o', m]]);
    const hostile = `'); DROP TABLE entities; -- <script>alert(1)</script> ${'x'.repeat(150)}`;
    const res = await renameEntity(store, NS, "o'brien", hostile, NOW);
    assert.equal(res.entity.entity.name, hostile);
    assert.ok(res.entity.entity.slug.length <= 60 && /^[a-z0-9-]+$/.test(res.entity.entity.slug));
    assert.equal((await store.listEntities(NS)).length, 1);
  });
});
