// A question in the first person is about what the user said; one in the second person only is
// about what the agent said. Tested on a user/assistant transcript captured by the real ingest path.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import type { CairnConfigInput } from '../../src/core/config.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { namedSpeakers } from '../../src/search/speakers.js';

describe('the role a query is about', () => {
  const role = (q: string, speakers: string[] = []) => namedSpeakers(q, speakers.map((name) => ({ name, turns: 1 }))).role;

  it('first person: the user; second person only: the assistant; both or neither: nobody', () => {
    assert.equal(role('What did I decide about the staging port?'), 'user');
    assert.equal(role("what's my sister's name"), 'user');
    assert.equal(role('Where did I’m… go'), 'user');
    assert.equal(role('Which database did you recommend?'), 'assistant');
    assert.equal(role('what did we decide about the port'), null);
    assert.equal(role('staging port'), null);
    assert.equal(role(''), null);
  });

  it('a polite request to the agent is not a question about it', () => {
    assert.equal(role('Can you remind me what my sister is called?'), 'user');
    assert.equal(role('could you tell me which book you recommended?'), 'assistant');
    assert.equal(role('show me what you wrote'), 'assistant');
    assert.equal(role('what did you tell me about the port'), 'assistant');
  });

  it('a named speaker wins over pronouns, and role names are never speakers', () => {
    const people = namedSpeakers('What did I tell Bo about chess?', [{ name: 'Bo', turns: 3 }]);
    assert.deepEqual([...people.names], ['Bo']);
    assert.equal(people.role, null);
    assert.equal(role('what did I tell the user', ['user', 'assistant']), 'user');
  });
});

const CHAT: Array<['user' | 'assistant', string]> = [
  ['user', 'Big news: my sister Mia accepted the offer and moved to Lisbon for a job at a design studio.'],
  ['assistant', 'Your sister in Lisbon, lovely! Lisbon will suit your sister.'],
  ['user', 'Which tram line goes to Belem?'],
  ['assistant', 'I suggest tram 15 for Belem; the pastries there are famous.'],
  ['user', 'Thanks, I will take tram 15 next time I visit.'],
  ['assistant', 'Many old cities in Europe, Lisbon among them, have trams, narrow streets and steep hills worth a careful visit on foot.'],
];

describe('first- and second-person questions on a user/assistant transcript', () => {
  const tmp = tempDir();
  const homes: Cairn[] = [];
  let file: string;

  // One hit per result, and nothing but keyword relevance and the speaker factor in the score.
  async function open(search: CairnConfigInput['search'] = {}): Promise<Cairn> {
    const only = { groupHits: 1, neighbourWeight: 0, importanceWeight: 0, ...search };
    const cairn = await Cairn.open({ home: join(tmp.dir, `home-${homes.length}`), config: { embedder: { provider: 'none' }, search: only } });
    homes.push(cairn);
    await cairn.ingest([file], { format: 'jsonl', namespace: 'chat', final: true });
    return cairn;
  }
  const first = async (cairn: Cairn, query: string) => {
    const top = (await cairn.search(query, { namespace: 'chat', limit: 5 })).results[0]!;
    return { role: top.provenance[0]!.role, speaker: top.parts.speaker };
  };

  before(() => {
    file = join(tmp.dir, 'chat.jsonl');
    const lines = CHAT.map(([role, content], i) =>
      JSON.stringify({ role, content, session: 's1', id: `m${i + 1}`, timestamp: new Date(Date.UTC(2026, 0, 1, 10, i)).toISOString() }),
    );
    writeFileSync(file, lines.join('\n') + '\n');
  });
  after(async () => {
    for (const c of homes) await c.close();
    tmp.cleanup();
  });

  it('"my sister in Lisbon": the user said it; the assistant only echoed it, in fewer words', async () => {
    const cairn = await open();
    assert.deepEqual(await first(cairn, 'my sister in Lisbon'), { role: 'user', speaker: 2 });
    // Without the factor the assistant's short echo, which repeats both words, comes first.
    const plain = await open({ speakerBoost: 0 });
    assert.equal((await first(plain, 'my sister in Lisbon')).role, 'assistant');
  });

  it('"which tram line did you suggest": the assistant said it, the user only asked', async () => {
    const cairn = await open();
    assert.deepEqual(await first(cairn, 'Which tram line to Belem did you suggest?'), { role: 'assistant', speaker: 2 });
    const plain = await open({ speakerBoost: 0 });
    assert.equal((await first(plain, 'Which tram line to Belem did you suggest?')).role, 'user');
  });

  it('a query with no person in it prefers no one', async () => {
    const cairn = await open();
    const { results } = await cairn.search('tram 15 Belem', { namespace: 'chat', limit: 5 });
    assert.ok(results.length >= 2);
    for (const r of results) assert.equal(r.parts.speaker, 1);
  });
});
