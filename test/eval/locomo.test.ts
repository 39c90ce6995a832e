// LoCoMo loading and evidence repair, the transcripts the eval writes, and LoCoMo as a DevSet
// (bench/eval/locomo/), on the synthetic file of locomo-fixture.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CairnError } from '../../src/core/errors.js';
import { normaliseEvidence, parseLocomoDate, readLocomo } from '../../bench/eval/locomo/dataset.js';
import { loadLocomo10 } from '../../bench/eval/locomo/devset.js';
import { namespaceOf, transcriptLines } from '../../bench/eval/locomo/transcripts.js';
import { tempHomes } from '../helpers/cli.js';
import { SYNTHETIC, writeData } from './locomo-fixture.js';

const tempDir = tempHomes(undefined);

describe('dataset and transcripts', () => {
  test('evidence strings are split, repaired, and unknown ids dropped', () => {
    const known = new Set(['D1:3', 'D2:1', 'D11:26', 'D30:5']);
    assert.deepEqual(normaliseEvidence(['D1:3; D2:1'], known), { ids: ['D1:3', 'D2:1'], unknown: 0 });
    assert.deepEqual(normaliseEvidence(['D:11:26', 'D30:05'], known), { ids: ['D11:26', 'D30:5'], unknown: 0 });
    assert.deepEqual(normaliseEvidence(['D9:99', 'D', 'D1:3 D1:3'], known), { ids: ['D1:3'], unknown: 2 });
  });

  test('questions: categories 1–4 with evidence; category 5 and evidence-less ones are counted, not asked', () => {
    const data = readLocomo(writeData(tempDir(null)))!;
    const [a, b] = data.conversations;
    assert.deepEqual(
      a!.questions.map((q) => [q.category, q.evidence]),
      [[1, ['D1:1', 'D1:3']], [2, ['D2:1']], [4, ['D2:1']]],
    );
    assert.deepEqual(a!.questions.map((q) => q.answer), ['beagle', 'June 2023', 'Vienna'], 'answers kept as text, never asked with');
    assert.deepEqual(a!.excluded, { adversarial: 1, noEvidence: 1, unknownEvidenceIds: 2 });
    assert.deepEqual(b!.excluded, { adversarial: 0, noEvidence: 1, unknownEvidenceIds: 0 });
    assert.match(data.sha256, /^[0-9a-f]{64}$/);
    assert.equal(readLocomo(join(tempDir(null), 'absent.json')), null);
  });

  test('transcript lines: ids, sessions, a minute apart, speakers, captions; nothing but the conversation', () => {
    const data = readLocomo(writeData(tempDir(null)))!;
    const lines = transcriptLines(data.conversations[0]!);
    assert.deepEqual(lines[0], { role: 'user', content: 'I adopted a puppy named Biscuit last week.', timestamp: '2023-05-08T13:56:00.000Z', id: 'D1:1', session: 'session_1', speaker: 'Ana' });
    assert.deepEqual(lines[1], {
      role: 'user', content: 'Lovely! Look at mine. [shared an image: a photo of a golden retriever on a beach]',
      timestamp: '2023-05-08T13:57:00.000Z', id: 'D1:2', session: 'session_1', speaker: 'Ben',
    });
    assert.deepEqual(lines.map((l) => [l.id, l.session, l.timestamp]).slice(3), [['D2:1', 'session_2', '2023-06-03T10:15:00.000Z'], ['D2:2', 'session_2', '2023-06-03T10:16:00.000Z']]);
    assert.equal(lines.length, 5, 'the date key without a session adds nothing');
    assert.doesNotMatch(JSON.stringify(lines), /MUST-NOT|observation/);
    assert.equal(namespaceOf(data.conversations[1]!), 'conv-2');
  });

  test('session dates as LoCoMo writes them, and as other files in its format may', () => {
    for (const [text, iso] of [
      ['1:56 pm on 8 May, 2023', '2023-05-08T13:56:00.000Z'],
      ['12:09 am on 13 September, 2023', '2023-09-13T00:09:00.000Z'],
      ['12:00 pm on 1 Jan, 2024', '2024-01-01T12:00:00.000Z'],
      ['8 May 2023', '2023-05-08T00:00:00.000Z'],
      ['3rd of May 2023', '2023-05-03T00:00:00.000Z'],
      ['May 8, 2023 at 1:56 PM', '2023-05-08T13:56:00.000Z'],
      ['Sept 3, 2023, 9:05 a.m.', '2023-09-03T09:05:00.000Z'],
      ['2023-05-08', '2023-05-08T00:00:00.000Z'],
      ['2023-05-08 13:56', '2023-05-08T13:56:00.000Z'],
      ['2023-05-08T13:56:00+02:00', '2023-05-08T11:56:00.000Z'],
    ] as const) assert.equal(parseLocomoDate(text), iso, text);
    for (const bad of ['', 'yesterday', '31 February, 2023', '13:75 on 8 May 2023', '0:30 am on 8 May 2023', '8 Mayo 2023', '2023-13-01', 'x'.repeat(100_000), '1:56 pm on 8 May, 2023'.replace('2023', '')]) {
      assert.equal(parseLocomoDate(bad), null, bad.slice(0, 30));
    }
  });

  test('a category written as text and evidence as one string are read', () => {
    const [one] = SYNTHETIC as Array<Record<string, unknown>>;
    const data = readLocomo(writeData(tempDir(null), [{ ...one, qa: [{ question: 'Which dog?', answer: 'beagle', evidence: 'D1:1; D1:2', category: ' 4 ' }, { question: 'x', evidence: ['D1:1'], category: '5' }] }], 'text-fields.json'))!;
    assert.deepEqual(data.conversations[0]!.questions, [{ question: 'Which dog?', category: 4, evidence: ['D1:1', 'D1:2'], answer: 'beagle' }]);
    assert.equal(data.conversations[0]!.excluded.adversarial, 1);
  });

  test('a malformed file is a CairnError naming what is wrong', () => {
    const dir = tempDir(null);
    const broken = (data: unknown) => () => readLocomo(writeData(dir, data, `bad-${Math.random()}.json`));
    const conv = (patch: object) => [{ ...SYNTHETIC[0], ...patch }];
    const cases: Array<[unknown, RegExp]> = [
      ['{"not json', /is not valid JSON/],
      [{ sample_id: 'x' }, /the top level is not a list \(got object\)/],
      [[], /empty list/],
      [conv({ sample_id: 7 }), /conversation 0: sample_id is not a string \(got number\)/],
      [conv({ qa: undefined }), /conversation 0 \(conv-1\): qa is not a list \(got nothing: the field is missing\)/],
      [conv({ conversation: { session_1_date_time: 'yesterday', session_1: [] } }), /conversation\.session_1_date_time is not a date like/],
      [conv({ conversation: { session_1_date_time: '1:56 pm on 8 May, 2023', session_1: [{ speaker: 'Ana', dia_id: 'D1:1' }] } }), /conversation\.session_1\[0\]\.text is not a string \(got nothing: the field is missing\)/],
      [conv({ qa: [{ question: 'q', evidence: ['D1:1'], category: 9 }] }), /qa\[0\]\.category is not a category 1–5/],
      [conv({ qa: [{ question: 'q', evidence: ['D1:1'], category: 'two' }] }), /qa\[0\]\.category is not a category 1–5 \(got "two"\)/],
      [conv({ qa: [{ question: 'q', evidence: 7, category: 1 }] }), /qa\[0\]\.evidence is not a list \(got number\)/],
      [[SYNTHETIC[0], SYNTHETIC[0]], /sample_id "conv-1" appears twice/],
    ];
    for (const [data, message] of cases) assert.throws(broken(data), (err: unknown) => err instanceof CairnError && err.code === 'INVALID_INPUT' && message.test(err.message), String(message));
  });

  test('as a DevSet: turns with their dia_ids, labelled categories, no temporal answer, transcripts by conversation id', () => {
    const dir = tempDir(null);
    const set = loadLocomo10(writeData(dir))!;
    assert.equal(set.name, 'locomo');
    assert.match(set.sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(set.conversations.map((c) => c.id), ['conv-1', 'Conv-2']);
    const [a] = set.conversations;
    assert.deepEqual(a!.turns[1], { sessionId: 'session_1', id: 'D1:2', speaker: 'Ben', role: 'user', text: 'Lovely! Look at mine. [shared an image: a photo of a golden retriever on a beach]', timestamp: '2023-05-08T13:57:00.000Z' });
    assert.deepEqual(a!.questions.map((q) => [q.category, q.answer]), [['1 multi-hop', 'beagle'], ['2 temporal', undefined], ['4 single-hop', 'Vienna']], 'a temporal answer is a date worked out: not given');
    assert.match(set.notes!, /the whole file leaves out 1 adversarial questions \(category 5\) and 2 without evidence, and drops 2 evidence ids naming no turn/);
    const written = set.writeTranscripts(join(dir, 'transcripts'));
    assert.deepEqual([...written.keys()], ['conv-1', 'Conv-2'], 'keyed by conversation id');
    assert.equal(written.get('Conv-2')!.format, 'jsonl');
    assert.match(written.get('Conv-2')!.path, /conv-2\.jsonl$/, 'the file named by the namespace');
    const lines = readFileSync(written.get('conv-1')!.path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines, transcriptLines(readLocomo(writeData(dir))!.conversations[0]!), 'the same transcript as before the move: kept homes stay valid');
    assert.equal(loadLocomo10(join(dir, 'absent.json')), null);
  });
});
