// A person's entity fixes through the facade, on entities the real knowledge pass extracted: they
// survive the pass taking every memory in again (knowledge reset, then learn), and a new memory
// naming a fixed name lands on the entity the person chose.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Cairn } from '../../src/service/cairn.js';
import { tempDir } from '../helpers/store-fixtures.js';

const TEXTS = [
  'Ana Souza moved to Lisbon last week.',
  'Yesterday Ana reviewed the Cairn project plan with Bob.',
  'Bob Stone and Ana Souza shipped the Cairn release.',
  'My manager Bob approved the budget.',
  'Yesterday Nana booked the venue in Lisbon.',
];

describe('entity fixes survive regeneration (facade, real knowledge pass)', () => {
  const tmp = tempDir('cairn-knowledge-edits-');
  let cairn: Cairn;
  before(async () => {
    cairn = await Cairn.open({ home: tmp.dir, embedder: null, config: { embedder: { provider: 'none' } } });
    for (const text of TEXTS) await cairn.remember({ text });
  });
  after(async () => {
    await cairn?.close();
    tmp.cleanup();
  });

  const names = async () => Object.fromEntries((await cairn.entities()).map((e) => [e.name, e.stats.memories]));

  it('merge, rename and split, then a reset and the pass again: every fix holds', async () => {
    const before = await names();
    assert.equal(before['Ana'], undefined, `"Ana" alone is Ana Souza: ${JSON.stringify(before)}`);
    assert.ok(before['Nana'] !== undefined && before['Ana Souza'] !== undefined, `a nickname is its own entity until merged: ${JSON.stringify(before)}`);
    assert.ok((await cairn.entity('Bob Stone')).entity.aliases.includes('Bob'), 'extraction took "Bob" as Bob Stone');

    await cairn.mergeEntity('Nana', 'Ana Souza');
    await cairn.renameEntity('cairn', 'Cairn memory');
    const split = await cairn.splitEntity('Bob Stone', { aliases: ['Bob'], name: 'Bob (manager)' });
    assert.equal(split.moved.length, 2, 'the two memories that name only "Bob"');
    const fixed = await names();
    assert.equal(fixed['Ana Souza'], 4);
    assert.equal(fixed['Nana'], undefined);
    assert.equal(fixed['Cairn memory'], 2);
    assert.equal(fixed['Bob (manager)'], 2);
    assert.equal(fixed['Bob Stone'], 1);

    await cairn.store.resetKnowledge('default');
    await cairn.learn({ namespace: 'default' });
    assert.deepEqual(await names(), fixed, 'the pass, taking every memory in again, lands where the person put things');
    const [m] = await cairn.list({ limit: 1 });
    assert.ok(m, 'memories are still there');

    await cairn.remember({ text: 'We planned the next Cairn milestone with Nana and Bob.' });
    const after = await names();
    assert.equal(after['Ana Souza'], 5, 'a new "Nana" is Ana Souza');
    assert.equal(after['Bob (manager)'], 3, 'a new "Bob" is the manager');
    assert.equal(after['Cairn memory'], 3, 'and the renamed project keeps its name');
  });
});
