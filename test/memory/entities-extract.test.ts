// Offline entity extraction: what a text names, with common capitalised words never taken for
// names, and pasted junk (HTML, control characters, emoji, a wall of symbols) read fast and quietly.
// The real gazetteer (the bundled place names) is loaded once for the file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { extractEntities, MAX_ENTITY_TEXT } from '../../src/memory/knowledge/entities/index.js';
import type { EntityMention } from '../../src/memory/knowledge/contracts.js';

const ctx = { time: '2026-03-02T10:00:00Z' };
const names = (text: string, c: Parameters<typeof extractEntities>[1] = ctx): string[] => extractEntities(text, c).map((m) => m.name);
const find = (text: string, name: string, c: Parameters<typeof extractEntities>[1] = ctx): EntityMention | undefined =>
  extractEntities(text, c).find((m) => m.name === name);

describe('extractEntities: common capitalised words', () => {
  it('never takes greetings, answers, weekdays, months or pronouns for names', () => {
    const text = 'Thanks! Great. Sure. Yes. OK. Monday works. I think so. Hello there. Sunday, March 3rd? Lundi? Gracias. Привет. Maybe. The end.';
    assert.deepEqual(names(text), []);
  });

  it('a name after a greeting or a thanks is still a name', () => {
    assert.deepEqual(names('Hey Mel! Thanks Jon, see you Monday.'), ['Mel', 'Jon']);
  });

  it('a single capitalised word that starts a sentence is a name only with evidence', () => {
    assert.deepEqual(names('Coffee is great. Painting helps me relax. Yoga was fun.'), []);
    assert.deepEqual(names('Melanie went to the park.'), ['Melanie'], 'a verb people are the subject of');
    assert.deepEqual(names("Ana's cat is sick."), ['Ana'], 'a possessive');
    assert.deepEqual(names("Yoga's been great for me."), [], "a contraction is not a possessive");
    assert.deepEqual(names('Rowan is late. I told Rowan to hurry.'), ['Rowan'], 'written capitalised elsewhere');
    assert.deepEqual(names('Rowan is late.', { ...ctx, userNames: ['Rowan Price'] }), ['Rowan'], 'a name the user is known by');
    assert.deepEqual(names('Ana Souza called.'), ['Ana Souza'], 'two capitalised words at a sentence start');
  });
});

describe('extractEntities: people, relations and handles', () => {
  it('the speaker is a person', () => {
    assert.deepEqual(extractEntities('hi', { ...ctx, speaker: 'Caroline' }), [{ name: 'Caroline', type: 'person', confidence: 0.95 }]);
    assert.deepEqual(extractEntities('hi', { ...ctx, speaker: 'assistant' }), [], 'a role is nobody');
  });

  it('relationships name a person or an organisation with the relation word', () => {
    assert.deepEqual(find('I had lunch with my sister Ana today.', 'Ana'), { name: 'Ana', type: 'person', confidence: 0.9, relation: 'sister' });
    assert.equal(find('Ask my manager, Bob, first.', 'Bob')?.relation, 'manager');
    assert.equal(find("My dog's name is Max.", 'Max')?.relation, 'dog');
    assert.deepEqual(find('Our client Acme wants a demo.', 'Acme'), { name: 'Acme', type: 'organization', confidence: 0.9, relation: 'client' });
    assert.equal(find('Ana Souza, my older sister, lives abroad.', 'Ana Souza')?.relation, 'sister');
    assert.equal(find('my boss Bob I think said no', 'Bob')?.relation, 'boss', 'the name stops at a common word');
  });

  it('handles are persons; e-mail addresses are not handles', () => {
    assert.deepEqual(find('ping @ana_souza about it', '@ana_souza'), { name: '@ana_souza', type: 'person', confidence: 0.8 });
    assert.deepEqual(names('mail ana@example.com'), []);
  });
});

describe('extractEntities: code, repositories and paths', () => {
  it('reads repositories, paths, identifiers and tools', () => {
    const text = 'See https://github.com/acme/cairn-db and src/store/sqlite.ts; call applyKnowledge() with max_tokens, import os.path, we moved to postgres.';
    const got = extractEntities(text, ctx).map((m) => [m.name, m.type]);
    assert.deepEqual(got, [
      ['acme/cairn-db', 'project'], ['src/store/sqlite.ts', 'topic'], ['applyKnowledge', 'tool'], ['max_tokens', 'tool'], ['os.path', 'tool'], ['Postgres', 'tool'],
    ]);
  });

  it('keeps prose shapes out: and/or, km/h, e.g., a domain, a fraction, a date', () => {
    assert.deepEqual(names('Use tea and/or coffee, 30 km/h, e.g. example.com, 1/2 cup on 3/14/2026, i.e. now.'), []);
  });

  it('a bare owner/repo counts with a repo word, backticks or a repo-like shape', () => {
    assert.equal(find('clone the repo foo/bar first', 'foo/bar')?.type, 'project');
    assert.equal(find('see `Acme/Api`', 'Acme/Api')?.type, 'project');
    assert.equal(find('bump snap-research/locomo', 'snap-research/locomo')?.type, 'project');
  });

  it('a word that is also a tool counts only with its capital ("go", "rust", "slack")', () => {
    assert.deepEqual(names('we go on a trip; the rust on the gate; some slack in the rope'), []);
    assert.deepEqual(names('I write Go and Rust at work, we chat on Slack.').sort(), ['Go', 'Rust', 'Slack']);
  });
});

describe('extractEntities: organisations, places and projects', () => {
  it('organisations by suffix, prefix and workplace; places from the gazetteer', () => {
    const got = extractEntities('Ana works at Helios and studied at Stanford University, then the Bank of America in New York; she flew to Lisbon.', ctx);
    const byName = Object.fromEntries(got.map((m) => [m.name, m.type]));
    assert.equal(byName['Helios'], 'organization');
    assert.equal(byName['Stanford University'], 'organization');
    assert.equal(byName['Bank of America'], 'organization');
    assert.equal(byName['New York'], 'place');
    assert.equal(byName['Lisbon'], 'place');
  });

  it('projects by "project X", "the X project" and "working on X"', () => {
    const got = extractEntities('The Atlas project slipped; project Phoenix is fine and I am working on Helios. Project management is hard.', ctx);
    assert.deepEqual(got.map((m) => [m.name, m.type]), [['Atlas', 'project'], ['Phoenix', 'project'], ['Helios', 'project']]);
  });
});

describe('extractEntities: names in other scripts', () => {
  it('finds names from relation phrases, honorifics and "叫"', () => {
    const got = extractEntities('我的妹妹小红明天来。我有个朋友叫小明。田中さんと会った。моя сестра Анна приехала. 내 친구 지은이는 좋아요. أختي سارة هنا', ctx);
    assert.deepEqual(got.map((m) => [m.name, m.relation ?? null]), [
      ['小红', 'sister'], ['小明', null], ['田中', null], ['Анна', 'sister'], ['지은', 'friend'], ['سارة', 'sister'],
    ]);
  });

  it('Cyrillic capitalised names read like Latin ones; quoted caseless names are topics', () => {
    assert.deepEqual(names('Вчера я видел Ивана Петрова.'), ['Ивана Петрова']);
    assert.equal(find('我最近在读《三体》。', '三体')?.type, 'topic');
  });

  it('does not find a bare name in Chinese running text (no segmenter)', () => {
    assert.deepEqual(names('小红明天来北京'), []);
  });
});

describe('extractEntities: hostile input', () => {
  const cases: Array<[string, string]> = [
    ['empty', ''],
    ['only punctuation', '!?.,;:'.repeat(2000)],
    ['emoji', '😀🎉👍🏽 '.repeat(1500)],
    ['control characters', '\u0000\u0007\u001b[31m\u202e'.repeat(2000)],
    ['slashes', 'a/'.repeat(5000)],
    ['dots', 'a.'.repeat(5000)],
    ['at signs', '@a'.repeat(5000)],
    ['capitals', 'Aa '.repeat(4000)],
    ['one long word', 'A'.repeat(10_000)],
    ['html', '<script>alert("Ana")</script><div class="x">'.repeat(300)],
  ];
  for (const [label, text] of cases) {
    it(`${label}: no throw, few results`, () => {
      const got = extractEntities(text, ctx);
      assert.ok(Array.isArray(got));
      assert.ok(got.length <= 48);
    });
  }

  it('text is read up to a cap, and names inside HTML tags are not read', () => {
    assert.deepEqual(names(`${'x '.repeat(MAX_ENTITY_TEXT)} Ana Souza called.`), []);
    assert.deepEqual(names('<a href="Ana Souza">link</a> and <b>Rowan Price</b>'), ['Rowan Price']);
  });

  it('a non-string text or speaker is nothing', () => {
    assert.deepEqual(extractEntities(undefined as unknown as string, ctx), []);
    assert.deepEqual(extractEntities('hi', { ...ctx, speaker: 42 as unknown as string }), []);
  });

  it('is deterministic', () => {
    const text = 'My sister Ana met Bob at Acme Corp in Paris about the Atlas project and postgres.';
    assert.deepEqual(extractEntities(text, ctx), extractEntities(text, ctx));
  });
});
