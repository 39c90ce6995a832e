// LoCoMo recast as an agent's transcript: the first speaker of each conversation becomes the
// `user`, the second the `assistant`, and no turn keeps a speaker name. A question that names one
// of the two (and not the other) is asked in the first person about the user ("What did I…",
// "my") or in the second person about the assistant ("What did you…", "your"); questions naming
// both or neither are left out. This measures what LoCoMo cannot: LoCoMo asks about people by
// name, while a person asking their own agent says "I" and "you".
// Usage: npm run bench:roles [-- --data PATH] [-- --out FILE]
import { namespaceOf, turnContent } from './eval/locomo/transcripts.js';
import type { LocomoConversation } from './locomo.js';
import { runRecast, type RecastQuestion } from './locomo-recast.js';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The conversation's two speakers, in order of first appearance. */
function speakers(conv: LocomoConversation): [string, string] | null {
  const first = conv.turns[0]?.speaker;
  const second = conv.turns.find((t) => t.speaker !== first)?.speaker;
  return first && second ? [first, second] : null;
}

/** "What is Ana's job?" → "What is my job?"; about the other speaker → "What is your job?". */
function questions(conv: LocomoConversation, [user, assistant]: [string, string]): RecastQuestion[] {
  const out: RecastQuestion[] = [];
  for (const q of conv.questions) {
    const names = (n: string) => new RegExp(`\\b${escape(n)}\\b`).test(q.question);
    if (names(user) === names(assistant)) continue;
    const [name, possessive, subject, about] = names(user) ? [user, 'my', 'I', 'user'] : [assistant, 'your', 'you', 'assistant'];
    const text = q.question.replace(new RegExp(`\\b${escape(name)}['’]s\\b`, 'g'), possessive).replace(new RegExp(`\\b${escape(name)}\\b`, 'g'), subject);
    out.push({ namespace: namespaceOf(conv), text, category: q.category, evidence: q.evidence, answer: q.answer, group: `about the ${about}` });
  }
  return out;
}

await runRecast(
  {
    name: 'locomo-roles',
    title: 'LoCoMo recast as a user/assistant transcript, asked in the first and second person',
    description: (asked) =>
      `${asked.length} questions (${asked.filter((q) => q.group === 'about the user').length} in the first person about the user, the rest in the second person about the assistant). Example: "When did Caroline go to the LGBTQ support group?" → "When did I go to the LGBTQ support group?".`,
    recast: (conv) => {
      const pair = speakers(conv);
      if (!pair) return null;
      const lines = conv.turns.map((t) => ({ role: t.speaker === pair[0] ? 'user' : 'assistant', content: turnContent(t), timestamp: t.timestamp, id: t.diaId, session: t.sessionId }));
      return { lines, questions: questions(conv, pair) };
    },
    configs: [
      { name: 'default', config: {} },
      { name: 'before five hits of 110 chars (4 × 150)', config: { search: { groupHits: 4, contextChars: 150 } } },
      { name: 'before neighbour hits (160-char previews)', config: { search: { neighbourHits: false, groupHits: 4, contextChars: 160 } } },
      { name: 'no speaker factor', config: { search: { speakerBoost: 0 } } },
      { name: 'adjacent neighbours only', config: { search: { neighbourReach: 1 } } },
      { name: 'coverage words alike', config: { search: { coverageIdf: false } } },
    ],
    groups: ['about the user', 'about the assistant'],
  },
  process.argv.slice(2),
);
