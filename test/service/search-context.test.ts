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
import { candidateIdf, TermFinder, windowCoverage } from '../../src/search/coverage.js';
import { turnsBeside } from '../../src/search/neighbours.js';
import { indexTerms } from '../helpers/index-terms.js';
import type { NeighbourTurn, NeighbourTurns } from '../../src/store/store.js';

const coverage = (text: string, around: string[], terms: string[], aroundWeight: number, weights?: Float64Array) =>
  windowCoverage(new TermFinder(indexTerms(terms)), text, around, aroundWeight, weights);
const termCoverage = (text: string, terms: string[]) => coverage(text, [], terms, 0);
const idfOf = (texts: string[], terms: string[]) => candidateIdf(new TermFinder(indexTerms(terms)), texts);

describe('query-word coverage', () => {
  it('is the share of query words a text has, each word in its index form ("decided" ~ "decide"), 1 without words', () => {
    assert.equal(termCoverage('Their names are Pepper and Panda', ['names', 'dogs']), 0.5);
    assert.equal(termCoverage('We decided on Postgres', ['decide', 'postgres']), 1);
    assert.equal(termCoverage('nothing here', ['zebra']), 0);
    assert.equal(termCoverage('anything', []), 1);
    assert.equal(termCoverage('', ['a']), 0);
  });

  it('counts a word found only in the turns around a text at the given weight', () => {
    const reply = 'Yes, last Friday!';
    const asked = ['When did you adopt the dog?'];
    assert.equal(coverage(reply, asked, ['adopt', 'dog', 'friday'], 0.5), (1 + 0.5 + 0.5) / 3);
    assert.equal(coverage(reply, asked, ['adopt', 'dog', 'friday'], 0), termCoverage(reply, ['adopt', 'dog', 'friday']));
    // A word the text has itself counts once, however often the neighbours repeat it.
    assert.equal(coverage('the dog', ['dog dog dog'], ['dog'], 0.5), 1);
    assert.equal(coverage('', [], ['dog'], 0.5), 0);
    assert.equal(coverage('anything', ['else'], [], 0.5), 1);
  });

  it('weighs each word by its rarity among the candidates; a word none has counts for nothing', () => {
    const idf = idfOf(['a dog barks', 'a cat', 'dog food'], ['dog', 'cat', 'bird']);
    assert.ok(Math.abs(idf[0]! - Math.log(1 + 4 / 3)) < 1e-12);
    assert.ok(Math.abs(idf[1]! - Math.log(3)) < 1e-12);
    assert.equal(idf[2], 0);
    // "cat" is rarer than "dog": the text with it covers more of what sets the query apart.
    const cat = coverage('a cat', [], ['dog', 'cat'], 0, idf.subarray(0, 2));
    const dog = coverage('dog food', [], ['dog', 'cat'], 0, idf.subarray(0, 2));
    assert.ok(Math.abs(cat - Math.log(3) / (Math.log(3) + Math.log(1 + 4 / 3))) < 1e-12);
    assert.ok(cat > 0.5 && dog < 0.5 && Math.abs(cat + dog - 1) < 1e-12);
    // An unseen word neither dilutes nor counts; with no weight left every text covers it all.
    assert.equal(coverage('a cat', [], ['cat', 'bird'], 0, idf.subarray(1)), 1);
    assert.equal(coverage('anything', [], ['bird'], 0, idf.subarray(2)), 1);
    // Empty and hostile input: no candidates, empty texts, huge text.
    assert.deepEqual([...idfOf([], ['dog'])], [0]);
    assert.equal(idfOf(['', ''], []).length, 0);
    assert.ok(idfOf(['dog '.repeat(200_000)], ['dog'])[0]! > 0);
  });
});

describe('turns beside the strongest candidates', () => {
  const turn = (id: string, seq: number | null): NeighbourTurn => ({ id, text: `text of ${id}`, conversational: true, entrySeq: seq, entryBytes: 10 });
  // a (seq 1) and c (seq 3) are candidates; b (2) sits between them, d (4) after c, e (5) two after c.
  const neighbours = new Map<string, NeighbourTurns>([
    ['a', { turnId: 'a', before: [], after: [turn('b', 2), turn('c', 3)] }],
    ['c', { turnId: 'c', before: [turn('a', 1), turn('b', 2)], after: [turn('d', 4), turn('e', 5)] }],
  ]);
  const relevance = new Map([['a', 0.9], ['c', 0.4]]);
  const known = new Set([1, 3]);

  it('takes the non-candidate turns within reach of the top candidates, each with the best relevance beside it', () => {
    const all = turnsBeside(relevance, neighbours, known, 2, 2);
    assert.deepEqual(all.seqs.sort(), [2, 4, 5]);
    assert.deepEqual(Object.fromEntries(all.borrowed), { b: 0.9, d: 0.4, e: 0.4 });
    // Only the strongest lends: with top 1, the turns beside c are left out.
    assert.deepEqual(turnsBeside(relevance, neighbours, known, 1, 2).seqs, [2]);
    // Reach 1: only the turns right beside.
    assert.deepEqual(turnsBeside(relevance, neighbours, known, 2, 1).seqs.sort(), [2, 4]);
  });

  it('nothing to lend: no candidates, no neighbours, a turn without an entry', () => {
    assert.deepEqual(turnsBeside(new Map(), neighbours, known, 10, 2).seqs, []);
    assert.deepEqual(turnsBeside(relevance, new Map(), known, 10, 2).seqs, []);
    const entryless = new Map([['a', { turnId: 'a', before: [], after: [turn('b', null)] }]]);
    assert.deepEqual(turnsBeside(relevance, entryless, known, 10, 2).seqs, []);
    assert.deepEqual(turnsBeside(relevance, neighbours, known, 0, 2).seqs, []);
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
    // Neighbour hits off: the reply would otherwise rank as a hit of its own (the next test).
    const cairn = await open({ contextTurns: 1, groupHits: 1, neighbourHits: false });
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
      const cairn = await open({ neighbourCoverage, coverageIdf: false, neighbourWeight: 0, groupHits: 1, contextTurns: 0 });
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

  it('coverage weighs a query word by its rarity among the candidates (coverageIdf)', async () => {
    // "plans" is in three texts, "future" in four, "guitar" in one: m4 has the word that sets the query apart.
    const chat: Array<[string, string, string]> = [
      ['u1', 'Ed', 'Plans for the future: none yet.'],
      ['u2', 'Ed', 'My future plans are open.'],
      ['u3', 'Ed', 'Future plans? Who knows.'],
      ['u4', 'Ed', 'I bought a guitar.'],
      // The weakest keyword match scales to 0 (min-max): a long text that mentions the future once.
      ['u5', 'Ed', 'We talked about the weather, the food, the long drive home and, briefly, the future of the old town hall.'],
      ['u6', 'Ed', 'The weather is nice.'],
    ];
    const own = async (coverageIdf: boolean, query: string) => {
      const cairn = await open({ coverageIdf, neighbourCoverage: 0, neighbourWeight: 0, groupHits: 1, contextTurns: 0 }, chat);
      const results = (await cairn.search(query, { namespace: 'chat', limit: 10 })).results;
      const of = (id: string) => results.find((r) => messageIds(r, false).includes(id))!.parts.own;
      return { plans: of('m1'), guitar: of('m4') };
    };
    const flat = await own(false, 'plans future guitar');
    const idf = await own(true, 'plans future guitar');
    // Counting words alike, m1 covers 2/3 and m4 1/3. By rarity m4's one word outweighs m1's two
    // common ones, and the keyword scores (the same in both) are scaled accordingly.
    assert.ok(idf.guitar / flat.guitar > 1.02, JSON.stringify({ idf, flat }));
    assert.ok(idf.plans / flat.plans < 0.98, JSON.stringify({ idf, flat }));
    assert.ok(idf.guitar / idf.plans > flat.guitar / flat.plans);
    // A word no text has ("zebra") changes nothing with coverageIdf; counted alike it dilutes every share.
    assert.deepEqual(await own(true, 'plans future guitar zebra'), idf);
    await rejectsSearchConfig([{ coverageIdf: 'yes' }, { coverageIdf: 1 }, { coverageIdf: null }]);
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
      // A turn that matches nothing of the query has a low confidence: kept, to see how far hits reach.
      const cairn = await open({ neighbourReach, groupHits: 1, contextTurns: 0, minConfidence: 0 }, THREAD);
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

  it('a reply that shares no word with the query is ranked through the turn it answers (neighbourHits)', async () => {
    // m2 ("I got it a year ago in Paris…") says neither "buy" nor "snake": no keyword finds it.
    const query = 'where did Bo buy the snake';
    const hits = (results: Array<{ provenance: Array<{ messageId?: string; context?: boolean }> }>) => results.flatMap((r) => messageIds(r, false));
    const on = await open({ contextTurns: 0, groupHits: 1 });
    const found = (await on.search(query, { namespace: 'chat', limit: 10 })).results;
    const reply = found.find((r) => messageIds(r, false).includes('m2'));
    assert.ok(reply, `the reply is a hit: ${hits(found).join(',')}`);
    assert.equal(reply.parts.bm25, 0);
    // Bo's own answer to a question about Bo: borrowed relevance and the speaker factor put it first.
    assert.ok(reply.parts.own === 0 && reply.parts.neighbours > 0, JSON.stringify(reply.parts));
    assert.equal(found[0], reply);
    // Grouped, question and answer are one result.
    const grouped = (await (await open({ contextTurns: 0 })).search(query, { namespace: 'chat', limit: 10 })).results;
    const s1 = grouped.find((r) => r.provenance[0]!.sessionId === 's1')!;
    assert.deepEqual(messageIds(s1, false).slice(0, 2).sort(), ['m1', 'm2']);
    assert.equal(grouped.filter((r) => r.provenance[0]!.sessionId === 's1').length, 1);
    // Off, only what BM25 returned is ranked.
    const off = await open({ contextTurns: 0, groupHits: 1, neighbourHits: false });
    assert.ok(!hits((await off.search(query, { namespace: 'chat', limit: 10 })).results).includes('m2'));
    // A neighbour is held to the search's filters like any hit: m2 is a day after m1.
    const early = (await on.search(query, { namespace: 'chat', limit: 10, until: '2026-01-01T23:00:00Z' })).results;
    assert.ok(hits(early).includes('m1') && !hits(early).includes('m2'), hits(early).join(','));
    assert.deepEqual((await on.search(query, { namespace: 'chat', limit: 10, kinds: ['memory'] })).results.filter((r) => r.kind === 'turn'), []);
    await rejectsSearchConfig([{ neighbourHits: 'yes' }, { neighbourHits: 1 }, { neighbourHits: null }]);
  });

  it('neighbour hits reach as far as neighbourReach: a turn two away only at 2', async () => {
    // "aptitude test" is in m1 alone; m3 (two turns on, Cy's own) matches nothing of it.
    const hits = async (neighbourReach: number) => {
      // A turn that matches nothing of the query has a low confidence: kept, to see how far hits reach.
      const cairn = await open({ neighbourReach, groupHits: 1, contextTurns: 0, minConfidence: 0 }, THREAD);
      return (await cairn.search('aptitude test', { namespace: 'chat', limit: 10 })).results.flatMap((r) => messageIds(r, false));
    };
    const wide = await hits(2);
    assert.ok(wide.includes('m3'), wide.join(','));
    const near = await hits(1);
    assert.ok(near.includes('m1') && !near.includes('m3'), near.join(','));
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
