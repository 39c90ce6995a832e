// Round 3 of fact coverage, from misses seen through `cairn ingest`: subject keys that must meet
// (and must not), roles named as roles, hosts that move, usual orders and editors, moves and bases.
// Memory time 2026-03-01T10:00Z (a Sunday), the user is Sam; expectations as in facts-coverage-things.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { extractFacts } from '../../src/memory/knowledge/facts/extract.js';
import { subjectKey } from '../../src/memory/knowledge/facts/keys.js';
import type { ExtractedFact } from '../../src/memory/knowledge/contracts.js';
import type { Case } from './facts-coverage-things.js';

const CTX = { time: '2026-03-01T10:00:00.000Z', userNames: ['Sam'] };

function describeFact(f: ExtractedFact): string {
  return `${f.subject} | ${f.attribute} | ${f.value}${f.replaces ? ` (replaces ${f.replaces})` : ''}${f.validFrom ? ` @${f.validFrom.slice(0, 10)}` : ''}`;
}

const ROLES: readonly Case[] = [
  ['I switched to the principal engineer role.', ['Sam | role | principal engineer']],
  ["Role change: from today I'm the site reliability engineer on Heron.", ['Sam | role | site reliability engineer']],
  ['I took over as tech lead', ['Sam | role | tech lead']],
  ['my title is now Staff Engineer', ['Sam | role | Staff Engineer']],
  ['I was promoted to director', ['Sam | role | director']],
  ['I stepped into the engineering manager role last week.', ['Sam | role | engineering manager @2026-02-22']],
  ['I moved into a staff engineer role.', ['Sam | role | staff engineer']],
  ['New role: principal engineer.', ['Sam | role | principal engineer']],
  ['Got promoted to senior engineer today!', ['Sam | role | senior engineer @2026-03-01']],
  ['Ana stepped up as our engineering manager.', ['Ana | role | engineering manager']],
  ["I've been appointed head of platform.", ['Sam | role | head of platform']],
  // "for Heron" is a project more often than an employer: the role only.
  ["I'm now the tech lead for Heron.", ['Sam | role | tech lead']],
  ["Starting today I'm the on-call SRE for Heron.", ['Sam | role | on-call SRE @2026-03-01']],
];

const HOSTS: readonly Case[] = [
  ['The build server moved from harbor-1.x.internal to fjord-2.x.internal last night', ['The build server | host | fjord-2.x.internal (replaces harbor-1.x.internal) @2026-02-28']],
  ['We migrated Jenkins from ci-old.x.internal to ci-7.x.internal on Tuesday.', ['Jenkins | host | ci-7.x.internal (replaces ci-old.x.internal) @2026-02-24']],
  ['The CI runner runs on the host build-3.corp.internal', ['The CI runner | host | build-3.corp.internal']],
  ['The metrics stack now lives on host obs-2.x.internal', ['The metrics stack | host | obs-2.x.internal']],
  ['we migrated the wiki to wiki-new.x.internal', ['the wiki | host | wiki-new.x.internal']],
  ['the wiki was migrated over to wiki-3.x.internal yesterday', ['the wiki | host | wiki-3.x.internal @2026-02-28']],
  ['the build server is now on fjord-2.x.internal', ['the build server | host | fjord-2.x.internal']],
  ['moved grafana onto the box mon-1.x.internal', ['grafana | host | mon-1.x.internal']],
];

const PREFERENCES: readonly Case[] = [
  ['My usual coffee order is a cortado.', ['Sam | favourite coffee order | cortado']],
  ['my coffee order these days is a flat white', ['Sam | favourite coffee order | flat white']],
  ['My usual tea is sencha.', ['Sam | favourite tea | sencha']],
  ["I've gone back to vim", ['Sam | favourite editor | vim']],
  ['I went back to Emacs last week.', ['Sam | favourite editor | Emacs @2026-02-22']],
  ["I'm back on vim.", ['Sam | favourite editor | vim']],
  ['these days my editor is Zed', ['Sam | favourite editor | Zed']],
  ['My editor of choice is Helix.', ['Sam | favourite editor | Helix']],
  ['I use Neovim as my editor now.', ['Sam | favourite editor | Neovim']],
  ["I'm using Zed as my main editor.", ['Sam | favourite editor | Zed']],
  ['I switched from vim to Helix.', ['Sam | favourite editor | Helix (replaces vim)']],
  ['I switched to VS Code.', ['Sam | favourite editor | VS Code']],
  ['I switched from cortado to flat white', ['Sam | prefers | flat white (replaces cortado)']],
];

const LIVING: readonly Case[] = [
  ['I relocated to Porto last month', ['Sam | lives in | Porto @2026-02-01']],
  ["I've relocated to Amsterdam.", ['Sam | lives in | Amsterdam']],
  ["I'm now based in Berlin.", ['Sam | lives in | Berlin']],
  ["I'm based out of Berlin.", ['Sam | lives in | Berlin']],
  ['Now based in Lisbon.', ['Sam | lives in | Lisbon']],
  ['Just relocated to Toronto!', ['Sam | lives in | Toronto']],
];

const NOTHING: readonly Case[] = [
  ["I've gone back to the office.", []],
  ['I went back to Berlin for the weekend.', []],
  ['Did the build server move to fjord-2.x.internal?', []],
  ['If we migrated Jenkins to ci-7.x.internal it would be faster.', []],
  ['Ana said she took over as tech lead.', []],
  ["I didn't switch to the principal engineer role.", []],
  ['I might move into a staff engineer role.', []],
  ['My usual coffee order used to be a cortado.', []],
  ['Now based on the spec, we go ahead.', []],
  ['The build server moved from the basement to fjord-2.x.internal', []],
  ['We named the project Heron.', []],
  ['Took over the standup today.', []],
];

/** "went" is a decision only as "went with". */
const DECISIONS: readonly Case[] = [
  ['We went with Postgres for the queue.', ['the queue | decided | Postgres']],
  ['I went back to Berlin for the weekend.', []],
];

const GROUPS: Readonly<Record<string, readonly Case[]>> = { roles: ROLES, hosts: HOSTS, preferences: PREFERENCES, living: LIVING, decisions: DECISIONS, 'states nothing': NOTHING };

for (const [group, cases] of Object.entries(GROUPS)) {
  describe(`fact coverage 3: ${group}`, () => {
    for (const [text, expected] of cases) {
      it(JSON.stringify(text), () => assert.deepEqual(extractFacts(text, CTX).map(describeFact), expected));
    }
  });
}

describe('fact coverage 3: subject keys', () => {
  const key = (text: string): string => {
    const [f] = extractFacts(text, CTX);
    assert.ok(f, text);
    return subjectKey(f.subject);
  };

  it('"X for/of/on Y", "Y X", a possessive and another word order are one subject', () => {
    const keys = ['The Redis cache for Heron listens on port 4746', 'The Heron Redis cache runs on port 4066', "Heron's redis cache is on port 4067", 'the redis cache of Heron uses port 4068'].map(key);
    assert.deepEqual(new Set(keys), new Set(['heron redis cache']));
    assert.equal(subjectKey('the database for staging'), subjectKey('our staging DB'));
    assert.equal(subjectKey('redis for prod'), subjectKey('prod redis'));
    assert.equal(subjectKey('the API for Heron'), subjectKey('Heron API'));
    assert.equal(subjectKey('the cache on staging'), subjectKey('staging cache'));
  });

  it('different things sharing words stay apart: the head noun decides', () => {
    assert.notEqual(subjectKey('staging database'), subjectKey('staging database replica'));
    assert.notEqual(subjectKey('the replica of the staging database'), subjectKey('staging database'));
    assert.notEqual(subjectKey('database backup'), subjectKey('backup database'));
    assert.notEqual(subjectKey('prod redis'), subjectKey('staging redis'));
    assert.notEqual(key('The Heron cache runs on port 4066'), key('The Heron Redis cache runs on port 4066'));
  });

  it('names keep their order, and degenerate input gives an empty or plain key', () => {
    assert.equal(subjectKey('Bank of America'), 'bank of america');
    assert.equal(subjectKey('Ana Souza'), 'ana souza');
    assert.equal(subjectKey('北京'), '北京');
    assert.equal(subjectKey('the'), '');
    assert.equal(subjectKey(''), '');
    assert.equal(subjectKey('for'), 'for');
    assert.equal(subjectKey(" ' "), '');
    assert.equal(subjectKey('x '.repeat(5000)).split(' ').length, 5000);
  });
});
