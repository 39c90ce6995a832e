// Conversation-aware search over turns captured by the real ingest path (BM25 side, no embedder):
// the speaker factor for people a query names, relevance borrowed from neighbouring turns, hits of
// one session grouped into one result, and the context turns shown with a hit (in its provenance,
// marked, never repeated).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import type { CairnConfigInput } from '../../src/core/config.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { rejectsSearchConfig } from '../helpers/search-homes.js';
import { windowCoverage } from '../../src/search/coverage.js';

const termCoverage = (text: string, terms: string[]) => windowCoverage(text, [], terms, 0);

describe('query-word coverage', () => {
  it('is the share of query words a text has, stems matched by prefix, 1 without words', () => {
    assert.equal(termCoverage('Their names are Pepper and Panda', ['names', 'dogs']), 0.5);
    assert.equal(termCoverage('We decided on Postgres', ['decide', 'postgres']), 1);
    assert.equal(termCoverage('nothing here', ['zebra']), 0);
    assert.equal(termCoverage('anything', []), 1);
    assert.equal(termCoverage('', ['a']), 0);
  });

  it('counts a word found only in the turns around a text at the given weight', () => {
    const reply = 'Yes, last Friday!';
    const asked = ['When did you adopt the dog?'];
    assert.equal(windowCoverage(reply, asked, ['adopt', 'dog', 'friday'], 0.5), (1 + 0.5 + 0.5) / 3);
    assert.equal(windowCoverage(reply, asked, ['adopt', 'dog', 'friday'], 0), termCoverage(reply, ['adopt', 'dog', 'friday']));
    // A word the text has itself counts once, however often the neighbours repeat it.
    assert.equal(windowCoverage('the dog', ['dog dog dog'], ['dog'], 0.5), 1);
    assert.equal(windowCoverage('', [], ['dog'], 0.5), 0);
    assert.equal(windowCoverage('anything', ['else'], [], 0.5), 1);
  });
});

const CHAT: Array<[string, string, string]> = [
  // [session, speaker, text]
  ['s1', 'Ana', 'Your new snake is gorgeous, where did you buy the snake?'],
  ['s1', 'Bo', 'I got it a year ago in Paris, at a little shop near the river.'],
  ['s1', 'Ana', 'Paris, wow. I have never been there.'],
  ['s1', 'Bo', 'You should go, the museums are wonderful.'],
  ['s2', 'Ana', 'Bo, your hobbies sound like so much fun!'],
  ['s2', 'Bo', 'My hobbies are chess and climbing.'],
  ['s2', 'Ana', 'Chess is hard. I lose every game.'],
  ['s3', 'Bo', 'Chess club tonight, then climbing.'],
  ['s3', 'Ana', 'Have fun at the club!'],
  ['s4', 'Ana', 'Reading is one of my hobbies, and long walks.'],
  ['s4', 'Bo', 'Reading is nice.'],
];

// One person's thread over their own turns, the other's reply in between: m3 goes on with what m1
// started, and shares only "family" with the query below; m5 is a shorter "family" elsewhere.
const THREAD: Array<[string, string, string]> = [
  ['t1', 'Cy', 'I retook the aptitude test last week and got great results.'],
  ['t1', 'Di', 'Congratulations! What comes next?'],
  ['t1', 'Cy', 'I want to volunteer and serve; my family supports it.'],
  ['t1', 'Di', 'That is brave of you.'],
  ['t2', 'Di', 'My family visited today.'],
];

function transcript(dir: string, chat = CHAT, name = 'chat.jsonl'): string {
  const path = join(dir, name);
  const lines = chat.map(([session, speaker, content], i) =>
    JSON.stringify({ role: 'user', speaker, content, session, id: `m${i + 1}`, timestamp: new Date(Date.UTC(2026, 0, 1 + i, 10)).toISOString() }),
  );
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe('conversation-aware search', () => {
  const tmp = tempDir();
  const homes: Cairn[] = [];
  let file: string;

  async function open(search: CairnConfigInput['search'] = {}, chat = CHAT): Promise<Cairn> {
    const cairn = await Cairn.open({ home: join(tmp.dir, `home-${homes.length}`), config: { embedder: { provider: 'none' }, search } });
    homes.push(cairn);
    const res = await cairn.ingest([chat === CHAT ? file : transcript(tmp.dir, chat, `chat-${homes.length}.jsonl`)], { format: 'jsonl', namespace: 'chat', final: true });
    assert.equal(res.turnsInserted, chat.length);
    return cairn;
  }
  const messageIds = (r: { provenance: Array<{ messageId?: string; context?: boolean }> }, context: boolean) =>
    r.provenance.filter((p) => Boolean(p.context) === context).map((p) => p.messageId);

  before(() => {
    file = transcript(tmp.dir);
  });
  after(async () => {
    for (const c of homes) await c.close();
    tmp.cleanup();
  });

  it('shows the turns around a hit as context, in its provenance and marked as context', async () => {
    const cairn = await open({ contextTurns: 1, groupHits: 1 });
    const { results } = await cairn.search('where did Bo buy the snake', { namespace: 'chat' });
    const top = results[0]!;
    assert.deepEqual(messageIds(top, false), ['m1']);
    // The answer ("in Paris") says neither "buy" nor "snake": it comes as the hit's context.
    assert.deepEqual(messageIds(top, true), ['m2']);
    assert.deepEqual(top.context.map((c) => [c.offset, c.match, c.speaker, c.messageId]), [[1, false, 'Bo', 'm2']]);
    assert.match(top.context[0]!.text, /Paris/);
  });

  it('never shows a turn twice: a hit already shown as context is skipped, context is not repeated', async () => {
    const cairn = await open({ contextTurns: 1, groupHits: 1 });
    const { results } = await cairn.search('Paris', { namespace: 'chat', limit: 10 });
    const shown = results.flatMap((r) => r.provenance.map((p) => p.messageId));
    assert.equal(new Set(shown).size, shown.length, `turns shown twice: ${shown.join(',')}`);
    assert.ok(shown.includes('m2') && shown.includes('m3'));
  });

  it('a person the query names: their own words first, not the turns that address them', async () => {
    const cairn = await open();
    const { results } = await cairn.search("What are Bo's hobbies?", { namespace: 'chat' });
    assert.equal(results[0]!.provenance[0]!.speaker, 'Bo');
    assert.equal(results[0]!.provenance[0]!.messageId, 'm6');
    assert.ok(results[0]!.parts.speaker > 1);
    // Without the factor the name is an ordinary keyword, and Ana's "Bo, your hobbies…" wins.
    const plain = await open({ speakerBoost: 0, neighbourWeight: 0, contextTurns: 0, groupHits: 1, coverageWeight: 0 });
    const r2 = (await plain.search("What are Bo's hobbies?", { namespace: 'chat' })).results;
    assert.deepEqual(messageIds(r2[0]!, false), ['m5']);
    assert.equal(r2[0]!.parts.speaker, 1);
  });

  it('query words in the turn before a reply count towards its coverage (neighbourCoverage)', async () => {
    // m2 ("…in Paris, at a little shop…") answers m1's "where did you buy the snake?".
    const query = 'paris shop snake';
    const own = async (neighbourCoverage: number) => {
      const cairn = await open({ neighbourCoverage, neighbourWeight: 0, groupHits: 1, contextTurns: 0 });
      const hit = (await cairn.search(query, { namespace: 'chat', limit: 10 })).results.find((r) => messageIds(r, false).includes('m2'));
      assert.ok(hit, 'the reply is found by "paris shop"');
      return hit.parts.own;
    };
    const alone = await own(0);
    const read = await own(0.5);
    // Coverage factor 1 − 0.5 + 0.5·share: share 2/3 alone, (2 + 0.5)/3 with "snake" from m1.
    assert.ok(alone > 0);
    assert.ok(Math.abs(read / alone - (0.5 + 0.5 * (2.5 / 3)) / (0.5 + 0.5 * (2 / 3))) < 1e-9, `${read} vs ${alone}`);
    await rejectsSearchConfig([{ neighbourCoverage: -0.1 }, { neighbourCoverage: 1.5 }, { neighbourCoverage: 'half' }]);
  });

  it('a query that is only a name still searches for it', async () => {
    const cairn = await open();
    const { results } = await cairn.search('Bo', { namespace: 'chat' });
    assert.ok(results.length > 0);
    const shown = results.flatMap((r) => r.provenance.map((p) => p.messageId));
    assert.ok(shown.includes('m5'), `the turn that says "Bo" is found: ${shown.join(',')}`);
  });

  it('neighbour relevance lifts a turn whose neighbour matches; contextTurns 0 shows hits alone', async () => {
    const cairn = await open({ contextTurns: 0, groupHits: 1 });
    const { results } = await cairn.search('chess climbing', { namespace: 'chat', limit: 10 });
    for (const r of results) {
      assert.deepEqual(r.context, []);
      assert.ok(r.provenance.every((p) => !p.context));
    }
    const chessless = results.find((r) => messageIds(r, false).includes('m9'));
    assert.ok(chessless === undefined || chessless.parts.neighbours > 0);
  });

  it('a turn borrows relevance from its speaker\'s own turns two away (neighbourReach 2), not at reach 1', async () => {
    const query = 'aptitude test results family';
    const rank = async (neighbourReach: number) => {
      const cairn = await open({ neighbourReach, groupHits: 1, contextTurns: 0 }, THREAD);
      const results = (await cairn.search(query, { namespace: 'chat', limit: 10 })).results;
      const at = (id: string) => results.findIndex((r) => messageIds(r, false).includes(id));
      return { thread: at('m3'), elsewhere: at('m5'), borrowed: results[at('m3')]!.parts.neighbours };
    };
    const wide = await rank(2);
    assert.ok(wide.borrowed > 0, 'm3 hears m1, two turns before it');
    assert.ok(wide.thread < wide.elsewhere, `the thread's "family" first: ${JSON.stringify(wide)}`);
    const near = await rank(1);
    assert.equal(near.borrowed, 0, 'the turns right beside m3 match nothing');
    assert.ok(near.elsewhere < near.thread, `without it the shorter "family" wins: ${JSON.stringify(near)}`);
    await rejectsSearchConfig([{ neighbourReach: 0 }, { neighbourReach: 4 }, { neighbourReach: 1.5 }, { neighbourReach: 'two' }]);
  });

  it('hits of one session form one result, in time order, marked as matches; groupHits 1 keeps them apart', async () => {
    const cairn = await open({ contextTurns: 0 });
    const { results } = await cairn.search('chess', { namespace: 'chat', limit: 10 });
    const s2 = results.find((r) => r.provenance[0]!.sessionId === 's2')!;
    assert.deepEqual(messageIds(s2, false).sort(), ['m6', 'm7']);
    assert.equal(s2.context.length, 1);
    assert.equal(s2.context[0]!.match, true);
    assert.equal(results.filter((r) => r.provenance[0]!.sessionId === 's2').length, 1, 'one result per session');
    assert.ok(results.some((r) => r.provenance[0]!.messageId === 'm8'), 'another session is its own result');
    const apart = await open({ contextTurns: 0, groupHits: 1 });
    const r2 = (await apart.search('chess', { namespace: 'chat', limit: 10 })).results;
    assert.ok(r2.length >= 3);
    for (const r of r2) assert.deepEqual(r.context, []);
    // Two hits in one result: the earlier one is listed first.
    const both = await open({ contextTurns: 1, groupHits: 3 });
    const g = (await both.search('chess hobbies', { namespace: 'chat', limit: 10 })).results.find((r) => r.provenance[0]!.sessionId === 's2')!;
    const times = g.context.map((c) => c.time);
    assert.deepEqual(times, [...times].sort());
  });

  it('a result gathers its session\'s hits from the first foldDepth results\' worth, whatever the limit', async () => {
    const query = 'chess hobbies climbing reading';
    const shape = (r: { provenance: Array<{ messageId?: string }>; context: Array<{ messageId: string }> }) => [r.provenance[0]!.messageId, ...r.context.map((c) => c.messageId)];
    const cairn = await open({ contextTurns: 0 });
    const ten = (await cairn.search(query, { namespace: 'chat', limit: 10 })).results;
    const one = (await cairn.search(query, { namespace: 'chat', limit: 1 })).results;
    assert.equal(one.length, 1);
    assert.deepEqual(shape(one[0]!), shape(ten[0]!), 'limit 1 shows what the first of limit 10 shows');
    assert.ok(ten[0]!.context.length >= 1);
    // Gathering only up to the limit (the old rule) stops at the first hit of another session.
    const atLimit = await open({ contextTurns: 0, foldDepth: 1, foldPages: 1 });
    const first = (await atLimit.search(query, { namespace: 'chat', limit: 1 })).results[0]!;
    assert.equal(first.provenance[0]!.messageId, ten[0]!.provenance[0]!.messageId);
    assert.ok(first.context.length < ten[0]!.context.length, 'fewer of its session\'s hits');
  });

  it('a longer list looks as far past its end as a short one: foldPages × limit when that is past foldDepth', async () => {
    const query = 'chess hobbies climbing reading';
    const shape = (r: { provenance: Array<{ messageId?: string }>; context: Array<{ messageId: string }> }) => [r.provenance[0]!.messageId, ...r.context.map((c) => c.messageId)];
    const full = (await (await open({ contextTurns: 0 })).search(query, { namespace: 'chat', limit: 10 })).results[0]!;
    // With no floor, limit 1 gathers from the hits of foldPages results: one page past its end by default.
    const paged = await open({ contextTurns: 0, foldDepth: 1 });
    const onePaged = (await paged.search(query, { namespace: 'chat', limit: 1 })).results[0]!;
    const flat = await open({ contextTurns: 0, foldDepth: 1, foldPages: 1 });
    const oneFlat = (await flat.search(query, { namespace: 'chat', limit: 1 })).results[0]!;
    assert.equal(onePaged.provenance[0]!.messageId, oneFlat.provenance[0]!.messageId);
    assert.ok(onePaged.context.length > oneFlat.context.length, 'looking a page past the end gathers more of its session');
    const fivePaged = (await paged.search(query, { namespace: 'chat', limit: 5 })).results[0]!;
    assert.deepEqual(shape(fivePaged), shape(full), 'limit 5 looks as far (10 results) as the default floor');
    await rejectsSearchConfig([{ foldPages: 0.5 }, { foldPages: 6 }, { foldPages: 'two' }]);
  });

  it('context turns and previews are clipped to contextChars', async () => {
    const cairn = await open({ contextChars: 40, contextTurns: 1 });
    const { results } = await cairn.search('snake', { namespace: 'chat' });
    for (const r of results) for (const c of r.context) assert.ok(c.text.length <= 40, c.text);
  });

  it('rejects out-of-range settings with a clear error', async () => {
    await rejectsSearchConfig([{ contextTurns: 9 }, { neighbourWeight: -1 }, { speakerBoost: 'lots' }, { contextChars: 1 }, { foldDepth: 0 }, { foldDepth: 500 }, { foldDepth: 2.5 }]);
  });
});
