// LoCoMo as it is, asked with different shapes of result: how many hits of a session one result
// shows and how long their previews are. Evidence recall counts a turn once any preview of it is
// shown, so more and shorter previews raise it at the same tokens; the answer-words column shows
// whether the previews still hold what answers the question.
// Usage: npm run bench:previews [-- --data PATH] [-- --out FILE]
import { namespaceOf, transcriptLines } from './eval/locomo/transcripts.js';
import { runRecast } from './locomo-recast.js';

await runRecast(
  {
    name: 'locomo-previews',
    title: 'LoCoMo by result shape: hits per result and preview length',
    description: (asked) => `${asked.length} questions of categories 1–4, LoCoMo's own transcripts (as \`npm run eval:locomo\` writes them).`,
    recast: (conv) => ({
      lines: transcriptLines(conv),
      questions: conv.questions.map((q) => ({ namespace: namespaceOf(conv), text: q.question, category: q.category, evidence: q.evidence, answer: q.answer })),
    }),
    configs: [
      { name: 'default: 5 hits, 110 chars', config: {} },
      { name: '4 hits, 150 chars', config: { search: { groupHits: 4, contextChars: 150 } } },
      { name: '4 hits, 160 chars', config: { search: { groupHits: 4, contextChars: 160 } } },
      { name: '5 hits, 120 chars', config: { search: { groupHits: 5, contextChars: 120 } } },
      { name: '3 hits, 220 chars', config: { search: { groupHits: 3, contextChars: 220 } } },
      { name: '5 hits, 130 chars', config: { search: { groupHits: 5, contextChars: 130 } } },
      { name: '6 hits, 100 chars', config: { search: { groupHits: 6, contextChars: 100 } } },
      { name: '6 hits, 160 chars', config: { search: { groupHits: 6, contextChars: 160 } } },
    ],
    groups: [],
  },
  process.argv.slice(2),
);
