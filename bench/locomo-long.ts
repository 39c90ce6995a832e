// LoCoMo recast as long messages: every run of six consecutive turns of a session becomes one
// message ("Name: text" per line), as a long assistant answer, a pasted note or a meeting log
// would be. Such a message runs past the 400 characters a passage holds (and mostly past the 128
// tokens the bundled model reads), so this measures what passage vectors add (embed/passages.ts):
// a question's evidence counts as found when the message that holds it is returned.
// Usage: npm run bench:long [-- --data PATH] [-- --out FILE]
import { namespaceOf, turnContent } from './eval/locomo/transcripts.js';
import { runRecast } from './locomo-recast.js';

const RUN = 6;

await runRecast(
  {
    name: 'locomo-long',
    title: 'LoCoMo recast as long messages (six turns each), with and without passage vectors',
    description: (asked) => `${asked.length} questions; a message holds six consecutive turns of a session, so recall counts messages, not turns.`,
    recast: (conv) => {
      const unitOf = new Map<string, string>();
      const lines: object[] = [];
      const sessions = [...new Set(conv.turns.map((t) => t.sessionId))];
      for (const session of sessions) {
        const turns = conv.turns.filter((t) => t.sessionId === session);
        for (let i = 0; i < turns.length; i += RUN) {
          const run = turns.slice(i, i + RUN);
          const id = run[0]!.diaId;
          for (const t of run) unitOf.set(t.diaId, id);
          lines.push({ role: 'user', content: run.map((t) => `${t.speaker}: ${turnContent(t)}`).join('\n'), timestamp: run[0]!.timestamp, id, session });
        }
      }
      const questions = conv.questions.map((q) => ({
        namespace: namespaceOf(conv),
        text: q.question,
        category: q.category,
        evidence: [...new Set(q.evidence.map((e) => unitOf.get(e)).filter((e): e is string => e !== undefined))],
        answer: q.answer,
      }));
      return { lines, questions: questions.filter((q) => q.evidence.length > 0) };
    },
    configs: [
      { name: 'default', config: {} },
      { name: 'before five hits of 110 chars (4 × 150)', config: { search: { groupHits: 4, contextChars: 150 } } },
      { name: 'before neighbour hits (160-char previews)', config: { search: { neighbourHits: false, groupHits: 4, contextChars: 160 } } },
      { name: 'no passages', config: { search: { passageWeight: 0 } } },
      { name: 'adjacent neighbours only', config: { search: { neighbourReach: 1 } } },
      { name: 'coverage words alike', config: { search: { coverageIdf: false } } },
    ],
    groups: [],
  },
  process.argv.slice(2),
);
