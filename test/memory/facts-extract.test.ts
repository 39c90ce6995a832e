// Offline fact extraction: every common shape, the statements that must give nothing (questions,
// negations, hypotheticals, reported speech, words that only look like values), and hostile input.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { extractFacts } from '../../src/memory/knowledge/facts/extract.js';
import { attributeKey, subjectKey } from '../../src/memory/knowledge/facts/keys.js';
import type { ExtractedFact, ExtractionContext } from '../../src/memory/knowledge/contracts.js';

const CTX: ExtractionContext = { time: '2026-03-01T10:00:00.000Z', userNames: ['Sam'] };
const facts = (text: string, ctx: ExtractionContext = CTX): ExtractedFact[] => extractFacts(text, ctx);
/** subject | attribute | value of each fact, for compact asserts. */
const triples = (text: string, ctx: ExtractionContext = CTX): string[] => facts(text, ctx).map((f) => `${f.subject} | ${f.attribute} | ${f.value}`);

describe('fact shapes', () => {
  it('where someone lives or moved, in English and the common German/Spanish/French forms', () => {
    assert.deepEqual(triples('I live in Lisbon.'), ['Sam | lives in | Lisbon']);
    assert.deepEqual(triples('We just moved to Porto!'), ['Sam | lives in | Porto']);
    assert.deepEqual(triples('Ana moved to Berlin'), ['Ana | lives in | Berlin']);
    assert.deepEqual(triples('Ana Souza lives in Rio de Janeiro with her kids'), ['Ana Souza | lives in | Rio de Janeiro']);
    assert.deepEqual(triples("I'm based in New York"), ['Sam | lives in | New York']);
    assert.deepEqual(triples('Ich wohne seit 2019 in Berlin'), ['Sam | lives in | Berlin']);
    assert.deepEqual(triples('Wir sind nach Hamburg gezogen'), ['Sam | lives in | Hamburg']);
    assert.deepEqual(triples('Vivo en Madrid'), ['Sam | lives in | Madrid']);
    assert.deepEqual(triples('Me mudé a Sevilla'), ['Sam | lives in | Sevilla']);
    assert.deepEqual(triples("J'habite à Lyon"), ['Sam | lives in | Lyon']);
  });

  it('"moved to" is a move only to a known place; "I live in" needs a name', () => {
    assert.deepEqual(triples('we moved to Postgres'), []);
    assert.deepEqual(triples('we moved to GitHub Actions last week'), []);
    assert.deepEqual(triples('I live in a small flat'), []);
    assert.deepEqual(triples('I live in Lisbon and work at Acme'), ['Sam | lives in | Lisbon']);
  });

  it('where someone works, and the role said with it', () => {
    assert.deepEqual(triples('I work at Acme'), ['Sam | works at | Acme']);
    assert.deepEqual(triples('I joined Globex'), ['Sam | works at | Globex']);
    assert.deepEqual(triples('I started a new job at Initech'), ['Sam | works at | Initech']);
    assert.deepEqual(triples('Ana works for Bank of America as a data analyst'), ['Ana | works at | Bank of America', 'Ana | role | data analyst']);
    assert.deepEqual(triples('Ich arbeite bei Siemens'), ['Sam | works at | Siemens']);
    assert.deepEqual(triples('Trabajo en Telefónica'), ['Sam | works at | Telefónica']);
    assert.deepEqual(triples('Je travaille chez Renault'), ['Sam | works at | Renault']);
    assert.deepEqual(triples('Ana joined the Zoom call'), [], 'a name followed by a common noun is no employer');
    assert.deepEqual(triples('I work at home'), []);
  });

  it('roles, only with a role word', () => {
    assert.deepEqual(triples('Ana is our tech lead'), ['Ana | role | tech lead']);
    assert.deepEqual(triples("I'm a nurse"), ['Sam | role | nurse']);
    assert.deepEqual(triples('I got promoted to staff engineer'), ['Sam | role | staff engineer']);
    assert.deepEqual(triples('I work as a designer'), ['Sam | role | designer']);
    assert.deepEqual(triples("I'm a senior engineer at Acme"), ['Sam | role | senior engineer', 'Sam | works at | Acme']);
    assert.deepEqual(triples('Bruno is the new head of engineering'), ['Bruno | role | head of engineering']);
    assert.deepEqual(triples("I'm a bit tired"), []);
    assert.deepEqual(triples("I'm a big fan of jazz"), []);
    assert.deepEqual(triples('Ana is my sister'), [], 'a relation is the entities part’s, not a role');
  });

  it('preferences: "cortado → flat white" gives the new preference and names the old one', () => {
    assert.deepEqual(triples('I prefer flat white'), ['Sam | prefers | flat white']);
    assert.deepEqual(triples('I prefer tea over coffee'), ['Sam | prefers | tea']);
    const switched = facts('I switched from cortado to flat white');
    assert.equal(switched.length, 1);
    assert.equal(switched[0]!.attribute, 'prefers');
    assert.equal(switched[0]!.value, 'flat white');
    assert.equal(switched[0]!.replaces, 'cortado');
    assert.deepEqual(triples('My favourite coffee is a flat white'), ['Sam | favourite coffee | flat white']);
    assert.deepEqual(triples('My favorite editor is Helix'), ['Sam | favourite editor | Helix']);
    assert.deepEqual(triples('Flat white is my favourite coffee'), ['Sam | favourite coffee | Flat white']);
  });

  it('versions: the subject is the thing', () => {
    assert.deepEqual(triples('we upgraded to Node 20'), ['Node | version | 20']);
    assert.deepEqual(triples('we upgraded Node to 22 yesterday'), ['Node | version | 22']);
    assert.deepEqual(triples("We're running Postgres 16"), ['Postgres | version | 16']);
    assert.deepEqual(triples('Cairn is on version 3.2'), ['Cairn | version | 3.2']);
    assert.deepEqual(triples('we switched from Node 18 to Node 20'), ['Node | version | 20']);
    assert.deepEqual(triples("I'm on page 3"), []);
    assert.deepEqual(triples('running tests 3 times'), []);
    assert.deepEqual(triples('we are on day 3 of the trip'), []);
  });

  it('ports, hosts and paths', () => {
    assert.deepEqual(triples('The staging database runs on port 5433.'), ['The staging database | port | 5433']);
    assert.deepEqual(triples('We moved the staging database to port 6543'), ['the staging database | port | 6543']);
    assert.deepEqual(triples('the staging db port is 5433'), ['the staging db | port | 5433']);
    assert.deepEqual(triples('the port of the cache is 6379'), ['the cache | port | 6379']);
    assert.deepEqual(triples('api host is api.internal'), ['api | host | api.internal']);
    assert.deepEqual(triples('The API is hosted on api-2.eu.example.com'), ['The API | host | api-2.eu.example.com']);
    assert.deepEqual(triples('config lives at /etc/x'), ['config | path | /etc/x']);
    assert.deepEqual(triples('The logs go to ~/.cairn/logs.'), ['The logs | path | ~/.cairn/logs']);
    assert.deepEqual(triples('the server runs on port 99999'), [], 'no port above 65535');
    assert.deepEqual(triples('it runs on port 5433'), [], 'an unresolved "it" is no subject');
    assert.deepEqual(triples('the build is on version 3.2 of config.json'), []);
  });

  it('dates of events, resolved against the memory time', () => {
    const launch = facts('the launch is on March 3');
    assert.deepEqual(launch.map((f) => [f.attribute, f.value]), [['date of launch', '2026-03-03']]);
    assert.equal(launch[0]!.validFrom, undefined, 'the memory time is when it became known, not the event date');
    assert.deepEqual(triples('wedding on 2026-06-12'), ['Sam | date of wedding | 2026-06-12']);
    assert.deepEqual(triples('The launch was moved to March 10'), ['Sam | date of launch | 2026-03-10']);
    assert.deepEqual(triples("Ana's birthday is on May 4"), ['Ana | date of birthday | 2026-05-04']);
    assert.deepEqual(triples('our offsite is next Friday'), ['Sam | date of offsite | 2026-03-06']);
    assert.deepEqual(triples('the office is on 5th Avenue'), [], 'not an event noun');
    assert.deepEqual(triples('the launch is on track'), []);
  });

  it('plans and decisions', () => {
    assert.deepEqual(triples('we plan to migrate the queue'), ['Sam | plans | migrate the queue']);
    assert.deepEqual(triples("next week I'll visit Ana"), ['Sam | plans | visit Ana (2026-03-08)']);
    assert.deepEqual(triples("I'll check"), [], 'a future without a time is no plan');
    assert.deepEqual(triples('we decided to use Postgres for the queue'), ['the queue | decided | Postgres']);
    assert.deepEqual(triples('We chose Vitest as the test runner'), ['the test runner | decided | Vitest']);
    const instead = facts('we decided to use SQLite instead of Postgres');
    assert.deepEqual(instead.map((f) => [f.subject, f.value, f.replaces]), [['Sam', 'SQLite', 'Postgres']]);
  });

  it('validFrom only when the text dates the change, never after the memory time', () => {
    assert.equal(facts('I joined Globex last month')[0]!.validFrom, '2026-02-01T00:00:00.000Z');
    assert.equal(facts("I've lived in Lisbon since 2020")[0]!.validFrom, '2020-01-01T00:00:00.000Z');
    assert.equal(facts('we moved the staging database to port 6543 on February 12')[0]!.validFrom, '2026-02-12T00:00:00.000Z');
    assert.equal(facts('I live in Lisbon')[0]!.validFrom, undefined);
    assert.equal(facts('I work at Acme on Mondays')[0]!.validFrom, undefined, 'a state with a recurring day is not dated');
  });
});

describe('statements that state no fact', () => {
  for (const text of [
    "I don't live in Paris",
    'I no longer work at Acme',
    'Ana never moved to Berlin',
    'Do you live in Paris?',
    'Where does Ana work',
    'does the staging database run on port 5433?',
    'If we moved to Porto, the commute would be long',
    'I might move to Berlin',
    "I'd prefer tea",
    'I want to work at Google',
    'Ana said she moved to Berlin',
    'According to Bruno, the staging database runs on port 5433',
    'I heard the launch is on March 3',
    'I used to live in Porto',
    '"I live in Paris," she wrote',
    'Thanks, Great work on Monday',
    'we will move the staging database to port 6543',
    "Ich wohne nicht in Berlin",
    'No vivo en Madrid',
    "Je n'habite pas à Lyon",
  ]) {
    it(JSON.stringify(text), () => assert.deepEqual(facts(text), []));
  }
});

describe('who "I" is', () => {
  it('the first user name, else the speaker when the role is user, else "user"', () => {
    assert.equal(facts('I live in Lisbon', { time: CTX.time, userNames: ['Sam', 'Samuel'], speaker: 'sam42', role: 'user' })[0]!.subject, 'Sam');
    assert.equal(facts('I live in Lisbon', { time: CTX.time, speaker: 'sam42', role: 'user' })[0]!.subject, 'sam42');
    assert.equal(facts('I live in Lisbon', { time: CTX.time, speaker: 'sam42' })[0]!.subject, 'user');
    assert.equal(facts('I live in Lisbon', { time: CTX.time, userNames: ['  ', '\u0000'] })[0]!.subject, 'user');
  });

  it("the assistant's first person is not the user's; things it states still count", () => {
    const ctx: ExtractionContext = { time: CTX.time, userNames: ['Sam'], speaker: 'claude', role: 'assistant' };
    assert.deepEqual(triples('I live in Lisbon', ctx), []);
    assert.deepEqual(triples("next week I'll visit Ana", ctx), []);
    assert.deepEqual(triples('the staging database runs on port 5433', ctx), ['the staging database | port | 5433']);
    assert.deepEqual(triples('we decided to use Postgres for the queue', ctx), ['the queue | decided | Postgres']);
  });
});

describe('hostile input', () => {
  const hostile = [
    '',
    '   ',
    'x'.repeat(10_000),
    'I live in '.repeat(1_000),
    '1 2 3 4 5 6 7 8 9 0 '.repeat(500),
    '5433'.repeat(2_500),
    '\u0000\u0001\u0007I live\u0000 in\u001b Lisbon\u0000',
    'a '.repeat(5_000) + 'moved to port 1',
    'the launch is on '.repeat(600),
    'we moved the ' + 'big '.repeat(3_000) + 'database to port 6543',
    '\uD800 I live in \uDFFF',
    'I prefer ' + 'flat white, '.repeat(900),
  ];
  for (const text of hostile) {
    it(`${JSON.stringify(text.slice(0, 30))}… (${text.length} chars) never throws and stays small`, () => {
      const out = extractFacts(text, CTX);
      assert.ok(Array.isArray(out));
      assert.ok(out.length <= 50);
      for (const f of out) assert.ok(f.value.length <= 200 && f.subject.length <= 200);
    });
  }

  it('a text of many true statements keeps at most 50 facts', () => {
    const text = Array.from({ length: 120 }, (_, i) => `service${i} runs on port ${1000 + i}.`).join(' ');
    assert.equal(extractFacts(text, CTX).length, 50);
  });

  it('control characters are dropped, not read as words', () => {
    assert.deepEqual(triples('I live\u0007 in Lis\u0000bon'), ['Sam | lives in | Lisbon']);
  });

  it('an unreadable memory time gives no dates, not an error', () => {
    const ctx = { time: 'not a time', userNames: ['Sam'] };
    assert.deepEqual(triples('the launch is on March 3', ctx), []);
    assert.deepEqual(triples('I joined Globex last month', ctx), ['Sam | works at | Globex']);
  });

  it('names in scripts without case are values', () => {
    assert.deepEqual(triples('I live in 東京'), ['Sam | lives in | 東京']);
  });
});

describe('keys', () => {
  it('subjectKey folds case, articles, possessives and common short forms', () => {
    assert.equal(subjectKey('The Staging DB'), 'staging database');
    assert.equal(subjectKey('our staging database'), 'staging database');
    assert.equal(subjectKey("the staging database's"), 'staging database');
    assert.equal(subjectKey('Ｐｏｓｔｇｒｅｓ'), 'postgresql');
    assert.equal(subjectKey('Node.js'), 'node');
    assert.equal(subjectKey('  Ana   Souza '), 'ana souza');
    assert.equal(subjectKey('the'), '');
  });

  it('attributeKey folds spellings and dates of events', () => {
    assert.equal(attributeKey('Favorite Coffee'), 'favourite coffee');
    assert.equal(attributeKey('launch date'), 'date of launch');
    assert.equal(attributeKey('date of the launch'), 'date of launch');
    assert.equal(attributeKey('works for'), 'works at');
    assert.equal(attributeKey('Port number'), 'port');
    assert.equal(attributeKey('lives in'), 'lives in');
  });
});
