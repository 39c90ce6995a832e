// The type a name gets, sentence after sentence: a country or a large city is a place wherever it
// stands unless the sentence makes it a person; a preposition of place makes an unknown name a
// place; an organisation's suffix makes its bare name an organisation in the same text. Across
// memories, resolution by alias key then files every mention of a name under one entity.
// The real gazetteer (the bundled place names) is loaded once for the file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { aliasKey, extractEntities, resolveMentions, type KnownEntity } from '../../src/memory/knowledge/entities/index.js';
import type { EntityType } from '../../src/core/types.js';

const ctx = { time: '2026-03-02T10:00:00Z' };
const typeOf = (text: string, name: string, c: Parameters<typeof extractEntities>[1] = ctx): EntityType | undefined =>
  extractEntities(text, c).find((m) => m.name === name)?.type;

function expectTypes(cases: Array<[string, string, EntityType | undefined]>): void {
  const wrong = cases.filter(([text, name, type]) => typeOf(text, name) !== type).map(([text, name, type]) => `${name} in "${text}": ${typeOf(text, name)} (want ${type})`);
  assert.deepEqual(wrong, []);
}

describe('entity types: places the gazetteer knows', () => {
  it('a country or a large city is a place wherever it stands', () => {
    expectTypes([
      ['Ana Souza booked the flights to Lisbon', 'Lisbon', 'place'],
      ['My sister Ana lives in Lisbon', 'Lisbon', 'place'],
      ['I love Lisbon in the spring.', 'Lisbon', 'place'],
      ['Lisbon was lovely, the trams especially.', 'Lisbon', 'place'],
      ['We are thinking about Seattle for the offsite', 'Seattle', 'place'],
      ['Boston winters are brutal', 'Boston', 'place'],
      ['the conference is Edinburgh again this year', 'Edinburgh', 'place'],
      ['Portugal beat Spain on penalties', 'Portugal', 'place'],
      ['castles in the UK gave me ideas', 'UK', 'place'],
      ['Tokyo never sleeps.', 'Tokyo', 'place'],
      ['She took the night bus from Porto and slept through Coimbra', 'Porto', 'place'],
      ['Mexico City is huge', 'Mexico City', 'place'],
    ]);
  });

  it('a smaller city or region is a place after a word that locates it, a person otherwise', () => {
    expectTypes([
      ['I went to Eugene last week', 'Eugene', 'place'],
      ['We drove through Eugene on the way north', 'Eugene', 'place'],
      ['She grew up in beautiful Savannah', 'Savannah', 'place'],
      ['I called Eugene about the invoice', 'Eugene', 'person'],
      ['I had lunch with Savannah and her kids', 'Savannah', 'person'],
      ['Victoria sent the slides', 'Victoria', 'person'],
    ]);
  });

  it('a person cue makes a place name a person: speaker, greeting, honorific, verbs, relatives', () => {
    expectTypes([
      ['I met Austin yesterday for coffee', 'Austin', 'person'],
      ['Austin said the build is green', 'Austin', 'person'],
      ['Thanks, Sydney! See you Monday.', 'Sydney', 'person'],
      ['Hey Charlotte, are you coming?', 'Charlotte', 'person'],
      ['Thanks Sydney for the help', 'Sydney', 'person'],
      ["Hey, Boston's music scene is awesome", 'Boston', 'place'],
      ['I talked to Austin about it', 'Austin', 'person'],
      ["Austin's mom is a nurse", 'Austin', 'person'],
      ['Dr Florence reviewed the scan', 'Florence', 'person'],
      ['Jordan texted me last night', 'Jordan', 'person'],
      ['my friend Georgia is visiting from Atlanta', 'Georgia', 'person'],
      ['We moved to Austin last year', 'Austin', 'place'],
      ['Georgia is beautiful in May, we went to Georgia twice', 'Georgia', 'place'],
    ]);
    assert.equal(typeOf('Paris is where I wrote this', 'Paris', { ...ctx, speaker: 'Paris' }), 'person', 'the speaker is a person');
    assert.equal(typeOf('We met in Paris', 'Paris', { ...ctx, userNames: ['Paris Kim'] }), 'person', 'a word of the user\'s name');
  });

  it('a person cue against the gazetteer is confident, so the pass keeps the person apart from the city', () => {
    const austin = extractEntities('I met Austin yesterday', ctx).find((m) => m.name === 'Austin');
    assert.ok(austin && austin.type === 'person' && austin.confidence >= 0.8, JSON.stringify(austin));
    const city = extractEntities('We moved to Austin last year', ctx).find((m) => m.name === 'Austin');
    assert.ok(city && city.type === 'place' && city.confidence >= 0.8, JSON.stringify(city));
  });
});

describe('entity types: prepositions before an unknown name', () => {
  it('in, at, near, from and to (after going) make an unknown name a place', () => {
    expectTypes([
      ['We stayed in Woodhaven for a week', 'Woodhaven', 'place'],
      ["I'm from Woodhaven originally", 'Woodhaven', 'place'],
      ['Road trip to Talkeetna next month!', 'Talkeetna', 'place'],
      ['My friend lives near Fox Hollow', 'Fox Hollow', 'place'],
      ['We had coffee at Starbucks', 'Starbucks', 'place'],
      ['booked two flights to Nuuk', 'Nuuk', 'place'],
      ["I've never been to Jasper", 'Jasper', 'place'],
    ]);
  });

  it('a place word in the name, "the city of X", "mount X", or "City, Region"', () => {
    expectTypes([
      ['We hiked the Grand Canyon and the Smoky Mountains', 'Grand Canyon', 'place'],
      ['We hiked the Grand Canyon and the Smoky Mountains', 'Smoky Mountains', 'place'],
      ['Saw the Cliffs of Moher and Lake Tahoe', 'Cliffs of Moher', 'place'],
      ['Saw the Cliffs of Moher and Lake Tahoe', 'Lake Tahoe', 'place'],
      ['a game at Fenway Park on Sunday', 'Fenway Park', 'place'],
      ['Mount Rainier was out this morning', 'Mount Rainier', 'place'],
      ['The city of Nuuk, if you know it.', 'Nuuk', 'place'],
      ['yoga on top of mount Talkeetna', 'Talkeetna', 'place'],
      ['Edinburgh, Scotland would be great', 'Scotland', 'place'],
      ['I moved to Austin, Texas', 'Texas', 'place'],
      ['Ana Souza, Rowan and Carl came', 'Rowan', 'person'],
    ]);
  });

  it('not after a person-directed verb, across a comma, or before a possessive', () => {
    expectTypes([
      ['a gift from Rowan', 'Rowan', 'person'],
      ['she laughed at Rowan', 'Rowan', 'person'],
      ["Understand where you're at, Jon.", 'Jon', 'person'],
      ["We stayed in Rowan's flat", 'Rowan', 'person'],
      ['I am interested in Rowan for the role', 'Rowan', 'person'],
      ['I talked to Rowan', 'Rowan', 'person'],
      ['I visited Rowan in hospital', 'Rowan', 'person'],
    ]);
  });

  it('a job noun needs its preposition to name a workplace ("your job Jon" calls Jon)', () => {
    expectTypes([
      ['Sorry about your job Jon, it will work out', 'Jon', 'person'],
      ['I got a job at Helios', 'Helios', 'organization'],
      ['She joined Helios in May', 'Helios', 'organization'],
    ]);
  });
});

describe('entity types: organisations and tools', () => {
  it('a name the text also writes with an organisation suffix is that organisation alone', () => {
    expectTypes([
      ['Helios Labs hired me. The people at Helios are great.', 'Helios', 'organization'],
      ['Acme Corp signed; I told Ana that Acme pays on time.', 'Acme', 'organization'],
      ['Boston University is near Boston', 'Boston', 'place'],
    ]);
  });

  it('known tools and companies keep their type in any sentence', () => {
    expectTypes([
      ['we moved staging to Postgres', 'Postgres', 'tool'],
      ['Postgres is slow on this box', 'Postgres', 'tool'],
      ['I work in Python mostly', 'Python', 'tool'],
      ['She works at Google in Zurich', 'Google', 'organization'],
      ['She works at Google in Zurich', 'Zurich', 'place'],
    ]);
  });
});

describe('entity types: one name, one entity across memories', () => {
  /** Resolves memories in order against an in-memory namespace, as the pass does through the store. */
  function fileAll(texts: string[]): Map<string, KnownEntity> {
    const byKey = new Map<string, KnownEntity>();
    let next = 0;
    for (const text of texts) {
      const mentions = extractEntities(text, ctx);
      const made = new Map<number, KnownEntity>();
      for (const r of resolveMentions(mentions, (keys) => new Map(keys.flatMap((k) => (byKey.has(k) ? [[k, byKey.get(k)!] as const] : []))))) {
        const entity = r.kind === 'known' ? [...byKey.values()].find((e) => e.id === r.entityId)! : made.get(r.group) ?? { id: `e${next++}`, name: r.name, type: r.type };
        if (r.kind === 'new') made.set(r.group, entity);
        for (const a of r.aliases) if (!byKey.has(a.key)) byKey.set(a.key, entity);
      }
    }
    return byKey;
  }

  it('Lisbon is one place whatever sentence names it first', () => {
    const sentences = [
      'Ana Souza booked the flights to Lisbon',
      'My sister Ana lives in Lisbon',
      'I love Lisbon in the spring.',
      'Lisbon was lovely.',
      'Thanks for the Lisbon tips!',
    ];
    for (const order of [sentences, [...sentences].reverse()]) {
      const lisbon = fileAll(order).get(aliasKey('Lisbon'));
      assert.equal(lisbon?.type, 'place', order[0]);
    }
  });

  it('Austin the friend and Austin the city stay two entities', () => {
    const byKey = new Map<string, KnownEntity>([['austin', { id: 'city', name: 'Austin', type: 'place' }]]);
    const [r] = resolveMentions(extractEntities('I met Austin yesterday', ctx), (keys) => new Map(keys.flatMap((k) => (byKey.has(k) ? [[k, byKey.get(k)!] as const] : []))));
    assert.equal(r?.kind, 'new', 'a confident person is not filed under the city');
  });

  it('every city LoCoMo-style chat names keeps one type in twenty sentence shapes', () => {
    const shapes = [
      'I flew to X last week.', 'X was amazing!', 'We are moving to X in June', 'Have you ever been to X?', 'the food in X is great',
      'I miss X so much', 'X in the winter is cold', 'my cousin lives near X', 'Back from X, tired.', 'X or Madrid for the trip?',
      'We drove from X overnight', 'pictures from X', 'X has the best coffee', 'I heard X is pricey', 'road trip through X',
      'X, here we come!', 'a weekend in X', 'what to see in X', 'we loved X', 'Cheap tickets to X!',
    ];
    const wrong: string[] = [];
    for (const city of ['Boston', 'Seattle', 'Lisbon', 'Edinburgh', 'Chicago', 'Toronto', 'Miami', 'Detroit']) {
      for (const shape of shapes) {
        const text = shape.replace('X', city);
        const type = typeOf(text, city);
        if (type !== undefined && type !== 'place') wrong.push(`${text} → ${type}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
});
