// Coverage of the offline fact shapes on sentences written as people write notes and chat: lead-ins
// ("Reminder:", "FYI", "btw"), relations before a name, ports without the word "port", versions of
// lower-case tools, work and preference changes, conversation style. Each sentence has its exact
// facts; the sentences that must give nothing guard precision.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { extractFacts } from '../../src/memory/knowledge/facts/extract.js';
import type { ExtractedFact } from '../../src/memory/knowledge/contracts.js';
import { LIVING, PEOPLE_NOTHING, PREFERENCES, RELATIONS, WORK } from './facts-coverage-people.js';
import { HOSTS, LEAD_INS, PORTS, THINGS_NOTHING, VERSIONS, type Case } from './facts-coverage-things.js';

const CTX = { time: '2026-03-01T10:00:00.000Z', userNames: ['Sam'] };

export function describeFact(f: ExtractedFact): string {
  return `${f.subject} | ${f.attribute} | ${f.value}${f.replaces ? ` (replaces ${f.replaces})` : ''}${f.validFrom ? ` @${f.validFrom.slice(0, 10)}` : ''}`;
}

const GROUPS: Readonly<Record<string, readonly Case[]>> = {
  'lead-ins': LEAD_INS,
  ports: PORTS,
  hosts: HOSTS,
  versions: VERSIONS,
  'relations before a name': RELATIONS,
  'where someone lives': LIVING,
  'work and roles': WORK,
  preferences: PREFERENCES,
  'things that state nothing': THINGS_NOTHING,
  'people that state nothing': PEOPLE_NOTHING,
};

for (const [group, cases] of Object.entries(GROUPS)) {
  describe(`fact coverage: ${group}`, () => {
    for (const [text, expected] of cases) {
      it(JSON.stringify(text), () => assert.deepEqual(extractFacts(text, CTX).map(describeFact), expected));
    }
  });
}

describe('fact coverage: conversation style', () => {
  it('the same statement in lower case, without a final period, gives the same fact', () => {
    let checked = 0;
    for (const [text, expected] of [...PORTS, ...VERSIONS, ...LIVING, ...WORK, ...PREFERENCES]) {
      // Names keep their capitals in chat too: only sentences whose capitals are at the start of a non-name are lowered.
      const first = text.split(' ')[0]!.replace(/'s$/u, '');
      if (expected.length === 0 || /[A-Z]/u.test(text.slice(first.length)) || expected.some((e) => e.startsWith(first) && first !== 'I')) continue;
      const chat = text.charAt(0).toLowerCase() + text.slice(1).replace(/[.!]+$/u, '');
      const lower = (xs: readonly string[]): string[] => xs.map((x) => x.toLowerCase());
      assert.deepEqual(lower(extractFacts(chat, CTX).map(describeFact)), lower(expected), chat);
      checked++;
    }
    assert.ok(checked >= 20, `only ${checked} sentences checked`);
  });

  it('a sentence that states nothing still states nothing after a lead-in', () => {
    for (const [text] of [...THINGS_NOTHING, ...PEOPLE_NOTHING]) {
      for (const lead of ['FYI ', 'Reminder: ', 'btw ', 'Note: ']) assert.deepEqual(extractFacts(lead + text, CTX), [], lead + text);
    }
  });
});
