// Asking by region for what was said by place: "which state did I visit?" finds "the beach in
// Tampa"; "European countries" finds "Lisbon". Through the real ingest path and the service's
// search, with the bundled gazetteer; config index.places switches it off (and clears old keys).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { CairnError } from '../../src/core/errors.js';
import { tempDir } from '../helpers/store-fixtures.js';

const CHAT = [
  'Last weekend I took my turtles to the beach in Tampa, they loved the sand.',
  'My sister moved to Lisbon for a job at a design studio.',
  'The quarterly report is due on Friday and the team is behind.',
  'I bought a new state of the art espresso machine.',
  'We should rewrite the parser before the release.',
];

describe('search by what place names imply', () => {
  const tmp = tempDir();
  const open: Cairn[] = [];
  const file = join(tmp.dir, 'chat.jsonl');
  writeFileSync(
    file,
    CHAT.map((content, i) => JSON.stringify({ role: 'user', content, session: 's1', id: `m${i + 1}`, timestamp: new Date(Date.UTC(2026, 0, 1, 10, i)).toISOString() })).join('\n') + '\n',
  );
  after(async () => {
    for (const c of open) await c.close();
    tmp.cleanup();
  });

  async function home(name: string, places?: boolean): Promise<Cairn> {
    // One hit per result: every turn found is a result of its own (the turns share a session).
    // Only what the keywords find: the turns beside a hit would be ranked too (neighbourHits).
    const config = { embedder: { provider: 'none' as const }, search: { groupHits: 1, neighbourHits: false }, ...(places === undefined ? {} : { index: { places } }) };
    const cairn = await Cairn.open({ home: join(tmp.dir, name), config });
    open.push(cairn);
    return cairn;
  }
  const texts = async (cairn: Cairn, query: string): Promise<string[]> =>
    (await cairn.search(query, { namespace: 'chat', limit: 5, kinds: ['turn'] })).results.map((r) => r.text);

  it('index.places on: the region, the kind of place and the continent find the text that names the place', async () => {
    const cairn = await home('on', true);
    await cairn.ingest([file], { format: 'jsonl', namespace: 'chat', final: true });
    assert.equal((await texts(cairn, 'Florida'))[0], CHAT[0]);
    // "state" is also a word of another text: both are found, where without keys only that one is.
    assert.deepEqual((await texts(cairn, 'which US state did I visit')).sort(), [CHAT[0], CHAT[3]].sort());
    assert.equal((await texts(cairn, 'European country'))[0], CHAT[1]);
    assert.equal((await texts(cairn, 'Portugal'))[0], CHAT[1]);
    // What is shown is the text as it was said, never the keys.
    const [top] = (await cairn.search('Florida', { namespace: 'chat', limit: 1 })).results;
    assert.ok(!top!.text.includes('Florida') && !top!.snippet.includes('Florida'));
  });

  it('memories stored through the service are keyed too', async () => {
    const cairn = await home('memories', true);
    await cairn.remember({ namespace: 'chat', text: 'The offsite will be in Stamford in March.' });
    const { results } = await cairn.search('Connecticut', { namespace: 'chat', limit: 5 });
    assert.equal(results[0]?.text, 'The offsite will be in Stamford in March.');
  });

  it('off by default: no keys; switching it off later clears the keys of a home', async () => {
    const off = await home('off');
    await off.ingest([file], { format: 'jsonl', namespace: 'chat', final: true });
    assert.deepEqual(await texts(off, 'Florida'), []);
    assert.deepEqual(await texts(off, 'which US state did I visit'), [CHAT[3]]);

    const on = await home('switched', true);
    await on.ingest([file], { format: 'jsonl', namespace: 'chat', final: true });
    assert.equal((await texts(on, 'Florida')).length, 1);
    await on.close();
    open.splice(open.indexOf(on), 1);
    const later = await Cairn.open({ home: join(tmp.dir, 'switched'), config: { embedder: { provider: 'none' }, search: { groupHits: 1, neighbourHits: false }, index: { places: false } } });
    open.push(later);
    assert.deepEqual(await texts(later, 'Florida'), []);
    assert.equal((await texts(later, 'Tampa')).length, 1, 'the text itself stays searchable');
  });

  it('a bad index config is a CONFIG error naming the key', async () => {
    for (const index of [{ places: 'yes' }, { places: null }, { cities: true }, 'on', []]) {
      await assert.rejects(
        () => Cairn.open({ home: join(tmp.dir, 'bad'), config: { embedder: { provider: 'none' }, index } as never }),
        (err: unknown) => err instanceof CairnError && err.code === 'CONFIG' && /index/.test(err.message),
        JSON.stringify(index),
      );
    }
  });
});
