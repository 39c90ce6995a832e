// The knowledge pass through the facade over a real SQLite home: a changed fact supersedes the
// memory that stated the old value (in either capture order: valid time decides), search answers
// with the current value while as-of and history still find the old one, near-duplicates fold
// into one memory with both provenances, a change is never a duplicate, entities resolve across
// names, and two processes taking in the same memories never double anything.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { Cairn } from '../../src/service/cairn.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';

const NS = 'work';

describe('knowledge pass', () => {
  let tmp: ReturnType<typeof tempDir>;
  let cairn: Cairn;

  beforeEach(async () => {
    tmp = tempDir();
    cairn = await Cairn.open({ home: tmp.dir, embedder: null, namespace: NS });
  });
  afterEach(async () => {
    await cairn.close();
    tmp.cleanup();
  });

  it('a newer port supersedes the old memory; search, as-of, history and export tell them apart', async () => {
    const old = await cairn.remember({ text: 'The staging database runs on port 5433', eventTime: '2026-03-01T10:00:00Z' });
    const now = await cairn.remember({ text: 'We moved the staging database to port 6543', eventTime: '2026-03-15T10:00:00Z' });
    const before = await cairn.get(old.memory.id);
    assert.equal(before.supersededBy, now.memory.id);
    assert.equal(before.validTo, '2026-03-15T10:00:00.000Z');
    assert.equal((await cairn.get(now.memory.id)).validTo, null);

    const current = await cairn.search('which port does the staging database use', { kinds: ['memory'] });
    assert.match(current.results[0]!.text, /6543/);
    assert.ok(!current.results.some((r) => /5433/.test(r.text)), 'the old port is history, not a current answer');

    const then = await cairn.search('which port does the staging database use', { kinds: ['memory'], asOf: '2026-03-10T00:00:00Z' });
    assert.match(then.results[0]!.text, /5433/);

    const all = await cairn.search('staging database port', { kinds: ['memory'], includeSuperseded: true });
    const oldHit = all.results.find((r) => r.id === old.memory.id);
    assert.equal(oldHit?.supersededBy, now.memory.id);
    assert.ok(all.results.findIndex((r) => r.id === now.memory.id) < all.results.indexOf(oldHit!), 'the current answer ranks above the one it replaced');

    assert.deepEqual((await cairn.history(now.memory.id)).map((m) => m.id), [old.memory.id, now.memory.id]);
    const facts = await cairn.store.listFacts(NS, { subject: 'staging database', attribute: 'port', includeSuperseded: true });
    assert.deepEqual(facts.map((f) => [f.value, f.validTo !== null]), [['5433', true], ['6543', false]]);
  });

  it('a memory that only said the old value again is superseded with it', async () => {
    await cairn.remember({ text: 'The staging database runs on port 5433', eventTime: '2026-03-01T10:00:00Z' });
    const again = await cairn.remember({ text: 'Reminder: the staging database is on port 5433; update the deploy checklist, the runbook and the alerting rules before Friday', eventTime: '2026-03-05T10:00:00Z' });
    const now = await cairn.remember({ text: 'We moved the staging database to port 6543', eventTime: '2026-03-15T10:00:00Z' });
    const stale = await cairn.get(again.memory.id);
    assert.equal(stale.supersededBy, now.memory.id);
    const current = await cairn.search('staging database port', { kinds: ['memory'] });
    assert.deepEqual(current.results.map((r) => r.id), [now.memory.id]);
  });

  it('an older fact captured after a newer one becomes history, not current', async () => {
    const newer = await cairn.remember({ text: 'We moved the staging database to port 6543', eventTime: '2026-03-15T10:00:00Z' });
    const older = await cairn.remember({ text: 'The staging database runs on port 5433', eventTime: '2026-03-01T10:00:00Z' });
    assert.equal((await cairn.get(newer.memory.id)).validTo, null);
    const late = await cairn.get(older.memory.id);
    assert.equal(late.supersededBy, newer.memory.id);
    assert.equal(late.validTo, '2026-03-15T10:00:00.000Z');
    const then = await cairn.search('staging database port', { kinds: ['memory'], asOf: '2026-03-05T00:00:00Z' });
    assert.match(then.results[0]!.text, /5433/);
  });

  it('the same fact stated again is a re-mention of the fact, not a new one', async () => {
    await cairn.remember({ text: 'The staging database runs on port 5433', eventTime: '2026-03-01T10:00:00Z' });
    await cairn.remember({ text: 'The staging database still runs on port 5433 after the upgrade', eventTime: '2026-03-04T10:00:00Z' });
    const facts = await cairn.store.listFacts(NS, { subject: 'staging database', attribute: 'port', includeSuperseded: true });
    assert.equal(facts.length, 1);
    assert.equal(facts[0]!.mentions, 2);
  });

  it('near-duplicates fold into the older memory with both provenances; a change stays apart', async () => {
    const first = await cairn.remember({ text: 'We decided to use Postgres for the store', provenance: [{ source: 'cli', sessionId: 'a' }] });
    const again = await cairn.remember({ text: 'We picked Postgres for the store, we decided', provenance: [{ source: 'cli', sessionId: 'b' }] });
    const survivor = await cairn.get(first.memory.id);
    assert.equal(survivor.mentions, 2);
    assert.deepEqual(survivor.provenance.map((p) => p.sessionId), ['a', 'b']);
    const folded = await cairn.get(again.memory.id);
    assert.equal(folded.supersededBy, first.memory.id);
    assert.equal(folded.text, 'We picked Postgres for the store, we decided', 'nothing is lost');

    const coffee = await cairn.remember({ text: 'I drink a cortado every morning' });
    const change = await cairn.remember({ text: 'I drink a flat white every morning' });
    assert.equal((await cairn.get(coffee.memory.id)).supersededBy, null);
    assert.equal((await cairn.get(change.memory.id)).supersededBy, null);
  });

  it('names resolve to one entity ("Ana", then "Ana Souza", then "@ana"); the memory carries the names', async () => {
    const a = await cairn.remember({ text: 'My sister Ana called about the trip' });
    await cairn.remember({ text: 'Ana Souza booked the flights to Lisbon' });
    await cairn.remember({ text: '@ana sent the hotel confirmation' });
    const list = await cairn.store.listEntities(NS);
    const ana = list.find((e) => e.entity.type === 'person' && e.entity.name.startsWith('Ana'));
    assert.ok(ana);
    assert.equal(ana.entity.name, 'Ana Souza');
    assert.equal(ana.entity.relation, 'sister');
    assert.equal(ana.stats.memories, 3);
    assert.equal(list.filter((e) => e.entity.aliases.some((a) => /^@?ana\b/i.test(a))).length, 1);
    assert.ok((await cairn.get(a.memory.id)).entities.length > 0);
  });

  it('common capitalised words never become entities', async () => {
    await cairn.remember({ text: 'Thanks! Great call on Monday. Sure, OK, Yes.' });
    const names = (await cairn.store.listEntities(NS)).map((e) => e.entity.name);
    for (const w of ['Thanks', 'Great', 'Monday', 'Sure', 'OK', 'Yes']) assert.ok(!names.includes(w), `${w} is not an entity`);
  });

  it('two processes taking in the same memories write each once', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `Ana Souza reviewed pull request ${i} for Cairn`);
    const other = await Cairn.open({ home: tmp.dir, embedder: null, namespace: NS });
    try {
      await cairn.store.addMemories(texts.map((text) => ({ namespace: NS, text })));
      await Promise.all([cairn.learn({ namespace: NS }), other.learn({ namespace: NS })]);
      const ana = (await cairn.store.listEntities(NS)).filter((e) => e.entity.name === 'Ana Souza');
      assert.equal(ana.length, 1);
      assert.equal(ana[0]!.stats.memories, 40);
      assert.equal(await cairn.store.knowledgeCursor(NS), (await cairn.store.memoriesAfter(NS, 0, 1000)).at(-1)!.seq);
    } finally {
      await other.close();
    }
  });

  it('near-duplicates also use vectors when an embedder made them', async () => {
    const home = tempDir();
    const withVectors = await Cairn.open({ home: home.dir, embedder: new HashEmbedder(), namespace: NS });
    try {
      const a = await withVectors.remember({ text: 'We decided to use Postgres for the store' });
      await withVectors.remember({ text: 'We picked Postgres for the store, we decided' });
      assert.equal((await withVectors.get(a.memory.id)).mentions, 2);
    } finally {
      await withVectors.close();
      home.cleanup();
    }
  });
});
