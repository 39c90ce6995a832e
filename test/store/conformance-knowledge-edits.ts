// Store conformance, knowledge (issue 25) continued: a person's entity edits, reset, namespace walls
// and rename, purge and rewrite, hostile names. Called from conformance.ts in every backend's suite.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/store.js';
import { rejectsCode } from '../helpers/store-fixtures.js';
import { NOW, NS, OTHER, apply, batch, entity, fact, remember } from './conformance-knowledge.js';

async function memoriesOf(store: Store, ns: string, id: string): Promise<number | undefined> {
  return (await store.getEntity(ns, id))?.stats.memories;
}

export function knowledgeEditConformance(current: () => Store): void {
  describe('knowledge: edits, reset, walls, purge', () => {
    it('merge: mentions and facts move, pinned aliases follow, the merged entity goes; the fix survives the next batch', async () => {
      const store = current();
      const [m1, m2, m3] = await Promise.all(['Ana called', 'Ana Souza wrote', 'ana left'].map((t) => remember(store, t)));
      await apply(store, {
        entities: [entity('e_a', 'Ana'), entity('e_b', 'Ana Souza')],
        aliases: [{ key: 'ana', entityId: 'e_a', display: 'Ana' }, { key: 'ana souza', entityId: 'e_b', display: 'Ana Souza' }],
        mentions: [{ entityId: 'e_a', memoryId: m1!.id }, { entityId: 'e_b', memoryId: m2!.id }, { entityId: 'e_a', memoryId: m3!.id }, { entityId: 'e_b', memoryId: m3!.id }],
        facts: [fact({ id: 'f_1', memoryId: m2!.id, entityId: 'e_b', subject: 'ana souza', attribute: 'role', value: 'lead' })],
      });
      await store.editEntities({ namespace: NS, now: NOW, pinAliases: [{ key: 'souza', entityId: 'e_b', display: 'Souza' }] });
      await store.editEntities({
        namespace: NS, now: NOW,
        pinAliases: [{ key: 'ana souza', entityId: 'e_a', display: 'Ana Souza' }],
        update: [{ id: 'e_a', name: 'Ana Souza', slug: 'ana-souza-2', locked: true }],
        moveMentions: [{ from: 'e_b', to: 'e_a' }], moveFacts: [{ from: 'e_b', to: 'e_a' }], remove: [{ id: 'e_b', mergedInto: 'e_a' }],
        memoryEntities: [{ memoryId: m2!.id, entities: ['Ana Souza'] }],
      });
      const merged = (await store.listEntities(NS)).map((e) => [e.entity.id, e.entity.name, e.stats.memories]);
      assert.deepEqual(merged, [['e_a', 'Ana Souza', 3]]);
      const keys = await store.entitiesByAliasKeys(NS, ['ana souza', 'souza']);
      assert.deepEqual([keys.get('ana souza')!.id, keys.get('souza')!.id], ['e_a', 'e_a'], 'the merged entity\'s pinned alias follows');
      assert.deepEqual((await store.listFacts(NS)).map((f) => f.entityId), ['e_a']);
      assert.deepEqual((await store.getMemory(NS, m2!.id))!.entities, ['Ana Souza']);
      // The pass, reading an old name, cannot undo it: the pinned key keeps its entity, the name stays.
      await apply(store, { aliases: [{ key: 'ana souza', entityId: 'e_a', display: 'ANA SOUZA' }], entityUpdates: [{ id: 'e_a', name: 'Ana S.', slug: 'ana-s' }] });
      assert.deepEqual((await store.getEntity(NS, 'e_a'))!.entity.name, 'Ana Souza');
    });

    it('split: only the named memories\' mentions and facts move to the new entity', async () => {
      const store = current();
      const [m1, m2] = await Promise.all(['Jordan the designer', 'Jordan the country'].map((t) => remember(store, t)));
      await apply(store, {
        entities: [entity('e_j', 'Jordan')],
        mentions: [{ entityId: 'e_j', memoryId: m1!.id }, { entityId: 'e_j', memoryId: m2!.id }],
        facts: [fact({ id: 'f_1', memoryId: m1!.id, entityId: 'e_j' }), fact({ id: 'f_2', memoryId: m2!.id, entityId: 'e_j', attribute: 'capital' })],
      });
      await store.editEntities({
        namespace: NS, now: NOW, create: [entity('e_jc', 'Jordan (country)', { type: 'place' })],
        moveMentions: [{ from: 'e_j', to: 'e_jc', memoryIds: [m2!.id] }], moveFacts: [{ from: 'e_j', to: 'e_jc', memoryIds: [m2!.id] }],
      });
      assert.deepEqual(await store.entityMemoryIds(NS, ['e_jc'], 10), [m2!.id]);
      assert.deepEqual(await store.entityMemoryIds(NS, ['e_j'], 10), [m1!.id]);
      assert.deepEqual((await store.listFacts(NS, { entityId: 'e_jc' })).map((f) => f.id), ['f_2']);
    });

    it('an edit naming an entity the namespace does not have is refused whole', async () => {
      const store = current();
      await apply(store, { entities: [entity('e_a', 'Ana')] });
      await apply(store, { namespace: OTHER, entities: [entity('e_x', 'Xena')] });
      await rejectsCode(store.editEntities({ namespace: NS, now: NOW, update: [{ id: 'e_a', name: 'Changed' }], remove: [{ id: 'e_x', mergedInto: null }] }), 'NOT_FOUND');
      await rejectsCode(store.editEntities({ namespace: NS, now: NOW, pinAliases: [{ key: 'x', entityId: 'e_x', display: 'x' }] }), 'NOT_FOUND');
      assert.equal((await store.getEntity(NS, 'e_a'))!.entity.name, 'Ana', 'the earlier step was rolled back');
      assert.equal((await store.getEntity(OTHER, 'e_x'))!.entity.name, 'Xena');
    });

    it('namespaces are walls: a batch naming another namespace\'s entities, memories or facts changes nothing there', async () => {
      const store = current();
      const mine = await remember(store, 'alpha memory');
      const theirs = (await store.addMemory({ namespace: OTHER, text: 'beta memory' })).memory;
      await apply(store, { entities: [entity('e_a', 'Ana')], facts: [fact({ id: 'f_a', memoryId: mine.id })] });
      await apply(store, {
        namespace: OTHER, entities: [entity('e_b', 'Bea')], entityUpdates: [{ id: 'e_a', name: 'Hijacked', relation: 'x' }],
        aliases: [{ key: 'ana', entityId: 'e_a', display: 'Ana' }], mentions: [{ entityId: 'e_a', memoryId: theirs.id }, { entityId: 'e_b', memoryId: mine.id }],
        memoryEntities: [{ memoryId: mine.id, entities: ['Bea'] }], facts: [fact({ id: 'f_b', memoryId: mine.id })],
        factUpdates: [{ id: 'f_a', validTo: NOW }], retirements: [{ memoryId: mine.id, by: theirs.id, validTo: NOW, reason: 'duplicate' }],
      });
      const a = (await store.getEntity(NS, 'e_a'))!;
      assert.deepEqual([a.entity.name, a.entity.relation, a.stats.memories], ['Ana', null, 0]);
      assert.equal(await memoriesOf(store, OTHER, 'e_b'), 0);
      assert.deepEqual((await store.entitiesByAliasKeys(OTHER, ['ana'])).size, 0);
      const m = (await store.getMemory(NS, mine.id))!;
      assert.deepEqual([m.entities, m.validTo], [[], null]);
      assert.deepEqual((await store.listFacts(NS)).map((f) => [f.id, f.validTo]), [['f_a', null]]);
      assert.deepEqual(await store.listFacts(OTHER, { includeSuperseded: true }), []);
      assert.deepEqual((await store.listEntities(OTHER)).map((e) => e.entity.id), ['e_b']);
      assert.equal(await store.knowledgeCursor(OTHER), 1);
      assert.equal(await store.knowledgeCursor(NS), 1, 'each namespace has its own cursor');
    });

    it('renameNamespace carries entities, aliases, mentions, facts and the cursor', async () => {
      const store = current();
      const m = await remember(store, 'Ana runs staging');
      await apply(store, {
        cursor: 7, entities: [entity('e_a', 'Ana')], aliases: [{ key: 'ana', entityId: 'e_a', display: 'Ana' }],
        mentions: [{ entityId: 'e_a', memoryId: m.id }], facts: [fact({ id: 'f_a', memoryId: m.id, entityId: 'e_a' })],
      });
      assert.equal(await store.renameNamespace(NS, 'gamma'), true);
      assert.deepEqual(await store.listEntities(NS), []);
      assert.equal(await store.knowledgeCursor(NS), 0);
      const [ana] = await store.listEntities('gamma');
      assert.deepEqual([ana!.entity.namespace, ana!.stats.memories], ['gamma', 1]);
      assert.equal((await store.entitiesByAliasKeys('gamma', ['ana'])).get('ana')!.id, 'e_a');
      assert.deepEqual((await store.listFacts('gamma')).map((f) => [f.id, f.namespace]), [['f_a', 'gamma']]);
      assert.deepEqual(await store.entityMemoryIds('gamma', ['e_a'], 10), [m.id]);
      assert.equal(await store.knowledgeCursor('gamma'), 7);
    });

    it('resetKnowledge forgets what the pass derived but keeps pinned aliases, locked names and retired memories', async () => {
      const store = current();
      const [m1, m2] = await Promise.all(['Ana one', 'Ana two'].map((t) => remember(store, t)));
      await apply(store, {
        entities: [entity('e_a', 'Ana'), entity('e_b', 'Bob'), entity('e_c', 'Cy')],
        aliases: [{ key: 'ana', entityId: 'e_a', display: 'Ana' }, { key: 'bob', entityId: 'e_b', display: 'Bob' }],
        mentions: [{ entityId: 'e_a', memoryId: m1!.id }], facts: [fact({ id: 'f_1', memoryId: m1!.id })],
        retirements: [{ memoryId: m1!.id, by: m2!.id, validTo: NOW, reason: 'duplicate' }],
      });
      await store.editEntities({ namespace: NS, now: NOW, pinAliases: [{ key: 'ana', entityId: 'e_a', display: 'Ana' }], update: [{ id: 'e_c', locked: true }] });
      await store.resetKnowledge(NS);
      assert.equal(await store.knowledgeCursor(NS), 0);
      assert.deepEqual((await store.listEntities(NS)).map((e) => [e.entity.id, e.stats.memories]), [['e_a', 0], ['e_c', 0]]);
      assert.deepEqual((await store.getEntity(NS, 'e_a'))!.entity.aliases, ['Ana']);
      assert.deepEqual(await store.listFacts(NS, { includeSuperseded: true }), []);
      assert.equal((await store.getMemory(NS, m1!.id))!.validTo, NOW, 'history stays');
      await store.resetKnowledge('nobody'); // harmless
      const again = await store.applyKnowledge(batch({ expectCursor: 0, cursor: 1 }));
      assert.equal(again.applied, true, 'the pass starts over from 0');
    });

    it('purging a memory drops its mentions and facts, links past its facts, and removes an entity only it named', async () => {
      const store = current();
      const [m1, m2, m3] = await Promise.all(['port 5433', 'port 6543', 'port 7000'].map((t) => remember(store, t)));
      await apply(store, {
        entities: [entity('e_only', 'Secret Sam'), entity('e_both', 'Staging'), entity('e_pin', 'Pinned Pat')],
        mentions: [{ entityId: 'e_only', memoryId: m2!.id }, { entityId: 'e_both', memoryId: m2!.id }, { entityId: 'e_both', memoryId: m1!.id }, { entityId: 'e_pin', memoryId: m2!.id }],
        facts: [
          fact({ id: 'f_1', memoryId: m1!.id, validTo: NOW, supersededBy: 'f_2' }),
          fact({ id: 'f_2', memoryId: m2!.id, value: '6543', validTo: NOW, supersededBy: 'f_3' }),
          fact({ id: 'f_3', memoryId: m3!.id, value: '7000' }),
        ],
      });
      await store.editEntities({ namespace: NS, now: NOW, pinAliases: [{ key: 'pat', entityId: 'e_pin', display: 'Pat' }] });
      const dry = await store.purgeRecords(NS, [m2!.id], { dryRun: true });
      assert.deepEqual(dry.missing, []);
      assert.equal((await store.listFacts(NS, { includeSuperseded: true })).length, 3, 'a dry run changes nothing');
      await store.purgeRecords(NS, [m2!.id]);
      assert.equal(await store.getEntity(NS, 'e_only'), null);
      assert.equal(await memoriesOf(store, NS, 'e_both'), 1);
      assert.equal(await memoriesOf(store, NS, 'e_pin'), 0, 'a pinned entity stays');
      const facts = await store.listFacts(NS, { includeSuperseded: true });
      assert.deepEqual(facts.map((f) => [f.id, f.supersededBy]), [['f_1', 'f_3'], ['f_3', null]]);
    });

    it('rewriteTexts takes a secret out of entity names, slugs, aliases and facts', async () => {
      const store = current();
      const SECRET = 'hunter2';
      const m = await remember(store, 'the vault is Hunter2-free');
      await apply(store, {
        entities: [entity('e_s', `Vault hunter2`, { slug: 'vault-hunter2', relation: `owner of hunter2` })],
        aliases: [
          { key: 'vault hunter2', entityId: 'e_s', display: 'Vault hunter2' }, { key: 'vault', entityId: 'e_s', display: 'Vault' },
          { key: 'safe hunter2', entityId: 'e_s', display: 'Safe hunter2' }, { key: 'safe [X]', entityId: 'e_s', display: 'Safe [X]' },
        ],
        facts: [fact({ id: 'f_s', memoryId: m.id, subject: 'vault hunter2', subjectName: 'Vault hunter2', value: `password hunter2`, provenance: [{ heading: 'hunter2' }] })],
      });
      const rule = { mustContain: SECRET, rewrite: (s: string) => s.replaceAll(SECRET, '[X]') };
      const dry = await store.rewriteTexts(NS, rule, { dryRun: true });
      assert.deepEqual([dry.rewritten.entities, dry.rewritten.entity_aliases, dry.rewritten.facts], [1, 2, 1]);
      assert.equal((await store.getEntity(NS, 'e_s'))!.entity.name, 'Vault hunter2', 'a dry run writes nothing');
      await store.rewriteTexts(NS, rule);
      const e = (await store.getEntity(NS, 'e_s'))!.entity;
      assert.deepEqual([e.name, e.slug, e.relation], ['Vault [X]', 'e_s', 'owner of [X]']);
      assert.deepEqual(e.aliases, ['Vault [X]', 'Vault', 'Safe [X]'], 'an alias whose new key is taken is dropped');
      assert.equal((await store.entitiesByAliasKeys(NS, ['vault [X]'])).get('vault [X]')!.id, 'e_s');
      const [f] = await store.listFacts(NS);
      assert.deepEqual([f!.subject, f!.subjectName, f!.value, f!.provenance], ['vault [X]', 'Vault [X]', 'password [X]', [{ heading: '[X]' }]]);
      const everything = JSON.stringify([await store.listEntities(NS), await store.listFacts(NS, { includeSuperseded: true })]);
      assert.ok(!everything.includes(SECRET));
    });

    it('hostile names and values are kept verbatim: quotes, SQL, 10k characters, non-Latin scripts', async () => {
      const store = current();
      const m = await remember(store, 'hostile names');
      const names = [`O'Brien "the" \\ ; DROP TABLE entities; --`, 'Юлия Петрова', '王小明', 'x'.repeat(10_000), 'مريم'];
      await apply(store, {
        entities: names.map((n, i) => entity(`e_h${i}`, n, { slug: `h-${i}` })),
        aliases: names.map((n, i) => ({ key: n.toLowerCase(), entityId: `e_h${i}`, display: n })),
        mentions: names.map((_, i) => ({ entityId: `e_h${i}`, memoryId: m.id })),
        memoryEntities: [{ memoryId: m.id, entities: names }],
        facts: [fact({ id: 'f_h', memoryId: m.id, subject: names[0]!, value: names[3]! })],
      });
      assert.deepEqual((await store.listEntities(NS)).map((e) => e.entity.name).sort(), [...names].sort());
      const found = await store.entitiesByAliasKeys(NS, names.map((n) => n.toLowerCase()));
      assert.equal(found.size, names.length);
      assert.equal((await store.listEntities(NS, { prefix: 'юлия' }))[0]!.entity.id, 'e_h1');
      assert.equal((await store.listEntities(NS, { prefix: `o'brien "the"` }))[0]!.entity.id, 'e_h0');
      assert.deepEqual((await store.getMemory(NS, m.id))!.entities, names);
      const [f] = await store.listFacts(NS, { subject: names[0] });
      assert.equal(f!.value.length, 10_000);
      assert.equal((await store.listEntities(NS)).length, 5, 'the entities table is still there');
    });
  });
}
