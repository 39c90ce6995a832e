// A tiny synthetic LoCoMo file of the real one's shape (the real one never enters the repository),
// with its quirks: a date key with no session, captions, evidence defects, category 5.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const turn = (dia_id: string, speaker: string, text: string, extra: object = {}) => ({ speaker, dia_id, text, ...extra });

/** Two conversations with LoCoMo's quirks: a date key with no session, captions, evidence defects, category 5. */
export const SYNTHETIC = [
  {
    sample_id: 'conv-1',
    conversation: {
      speaker_a: 'Ana',
      speaker_b: 'Ben',
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [
        turn('D1:1', 'Ana', 'I adopted a puppy named Biscuit last week.'),
        turn('D1:2', 'Ben', 'Lovely! Look at mine.', { img_url: ['http://example.invalid/x.jpg'], blip_caption: 'a photo of a golden retriever on a beach', query: 'dog beach' }),
        turn('D1:3', 'Ana', 'Biscuit is a beagle and loves chasing seagulls.'),
      ],
      session_2_date_time: '10:15 am on 3 June, 2023',
      session_2: [
        turn('D2:1', 'Ben', 'I started cello lessons in Vienna yesterday.'),
        turn('D2:2', 'Ana', 'Vienna is a great place for music.'),
      ],
      // A date with no session (as in the real file): ignored.
      session_3_date_time: '9:00 am on 1 July, 2023',
    },
    qa: [
      { question: 'What breed is the puppy Ana adopted?', answer: 'beagle', evidence: ['D1:1; D1:03'], category: 1 },
      { question: 'When did Ben start cello lessons?', answer: 'June 2023', evidence: ['D:2:1'], category: 2 },
      { question: 'Would Ana enjoy a trip to the seaside?', answer: 'likely', evidence: ['D9:99'], category: 3 },
      { question: 'Where does Ben take cello lessons?', answer: 'Vienna', evidence: ['D2:1', 'D30:05'], category: 4 },
      { question: 'What is the name of Ben\'s cat?', adversarial_answer: 'Biscuit', evidence: ['D1:1'], category: 5 },
    ],
    observation: { session_1_observation: { Ana: [['Ana adopted a beagle', 'D1:1']] } },
    session_summary: { session_1_summary: 'SUMMARY-MUST-NOT-BE-INGESTED' },
    event_summary: { events_session_1: { Ana: ['EVENT-MUST-NOT-BE-INGESTED'] } },
  },
  {
    sample_id: 'Conv-2',
    conversation: {
      speaker_a: 'Cleo',
      speaker_b: 'Dev',
      session_1_date_time: '8:05 pm on 20 January, 2022',
      session_1: [turn('D1:1', 'Cleo', 'My marathon is in Lisbon this October.'), turn('D1:2', 'Dev', 'How long have you trained for the marathon?')],
      session_2_date_time: '7:30 am on 2 February, 2022',
      session_2: [turn('D2:1', 'Cleo', 'Eight months of running every morning before work.')],
    },
    qa: [
      { question: 'Where is Cleo running her marathon?', answer: 'Lisbon', evidence: ['D1:1'], category: 4 },
      { question: 'How long has Cleo trained?', answer: 'eight months', evidence: ['D2:1'], category: 1 },
      { question: 'Is Cleo fit?', answer: 'yes', evidence: [], category: 3 },
    ],
  },
];

export function writeData(dir: string, data: unknown = SYNTHETIC, name = 'locomo.json'): string {
  const path = join(dir, name);
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
  return path;
}
