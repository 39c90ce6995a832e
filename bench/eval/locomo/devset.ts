// LoCoMo as a DevSet: its conversations as generic JSONL transcripts (transcripts.ts, unchanged
// from the eval's first days, so kept homes stay valid) and its questions of categories 1–4,
// labelled "1 multi-hop" … "4 single-hop" so reports list them in LoCoMo's order.
import type { DevSet } from '../devset.js';
import { CATEGORY_LABELS, readLocomo } from './dataset.js';
import { namespaceOf, turnContent, writeTranscripts } from './transcripts.js';

/** Where the LoCoMo file lives beside a checkout (it never enters the repository). */
export const DEFAULT_LOCOMO_PATH = '../shared/bench/data/locomo10.json';

const TEMPORAL = 2;

/** The LoCoMo file at `path` as a DevSet; null when there is no file there. */
export function loadLocomo10(path: string = DEFAULT_LOCOMO_PATH): DevSet | null {
  const data = readLocomo(path);
  if (!data) return null;
  const sum = (f: (e: { adversarial: number; noEvidence: number; unknownEvidenceIds: number }) => number) => data.conversations.reduce((n, c) => n + f(c.excluded), 0);
  return {
    name: 'locomo',
    source: path,
    sha256: data.sha256,
    conversations: data.conversations.map((c) => ({
      id: c.id,
      turns: c.turns.map((t) => ({ sessionId: t.sessionId, id: t.diaId, speaker: t.speaker, role: 'user' as const, text: turnContent(t), timestamp: t.timestamp })),
      questions: c.questions.map((q) => ({
        question: q.question,
        category: `${q.category} ${CATEGORY_LABELS[q.category]}`,
        evidence: q.evidence,
        // A temporal answer is a date worked out from the session dates, in no text: the answer-words
        // figure would count it as never shown, so it is not given.
        ...(q.answer && q.category !== TEMPORAL ? { answer: q.answer } : {}),
      })),
    })),
    notes:
      `the whole file leaves out ${sum((e) => e.adversarial)} adversarial questions (category 5) and ${sum((e) => e.noEvidence)} without evidence, ` +
      `and drops ${sum((e) => e.unknownEvidenceIds)} evidence ids naming no turn`,
    writeTranscripts(dir) {
      const paths = writeTranscripts(dir, data.conversations);
      return new Map(data.conversations.map((c) => [c.id, { path: paths.get(namespaceOf(c))!, format: 'jsonl' as const }]));
    },
  };
}
