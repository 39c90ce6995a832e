// Which question is asked where. Positives: every question of a split's conversations in its own
// namespace. Negatives, asked where they have no answer: the other set's questions (agent-work
// questions in a LoCoMo conversation and the reverse), questions of another conversation of the
// same set, and off-topic questions written for this bench. Every LoCoMo question is a
// positive; a quarter of them (every fourth) also serve as negatives, so the negatives do not
// outnumber the positives many times over.
import { namespaceOf, type DevConversation } from '../eval/devset.js';
import type { Ask } from './collect.js';

/** Questions no conversation of either set answers: general knowledge, errands, other trades. */
export const OFF_TOPIC: readonly string[] = [
  'What is the boiling point of tungsten?',
  'Who won the football world cup in 1998?',
  'How many moons does Neptune have?',
  'What is the capital of Mongolia?',
  'How do I descale an espresso machine?',
  'Which enzyme breaks down lactose?',
  'What torque should the wheel nuts of a tractor trailer have?',
  'Who wrote the opera Rusalka?',
  'How long should sourdough starter ferment before the first feeding?',
  'What is the airspeed of a swallow carrying a coconut?',
  'When was the Treaty of Westphalia signed?',
  'What is the half-life of carbon-14?',
  'How do I file a VAT return in Belgium?',
  'Which knot is best for mooring a sailboat?',
  'What dose of ibuprofen is safe for a dog?',
  'How are quarterly dividends taxed in Singapore?',
  'What is the melting point of beeswax?',
  'Who painted the ceiling of the Sistine Chapel?',
  'How many players are on a water polo team?',
  'What is the wingspan of an albatross?',
  'Which grape is Barolo made from?',
  'How deep is the Mariana Trench?',
  'What voltage do European wall sockets supply?',
  'How do I repot an orchid without damaging the roots?',
  'What is the speed of sound in seawater?',
  'Which chess opening starts with e4 c5?',
  'How many bones are in the human hand?',
  'What year did the Berlin Wall fall?',
  'How do I calibrate a torque wrench?',
  'What is the chemical formula of gypsum?',
  'Who discovered penicillin?',
  'How far is Mars from the Sun at aphelion?',
  'What is the recommended tyre pressure for a road bike?',
  'Which river flows through Budapest?',
  'How do you conjugate the Finnish verb olla?',
  'What is the gestation period of an elephant?',
  'How many calories are in a tablespoon of olive oil?',
  'Who designed the Eiffel Tower?',
  'What is the tallest mountain in Africa?',
  'How do I remove rust from cast iron?',
];

export interface SplitPlan {
  locomo: readonly DevConversation[];
  agentwork: readonly DevConversation[];
  /** Which off-topic questions this split asks (the fit split and the report split use different ones). */
  offTopic: readonly string[];
}

const own = (set: string, c: DevConversation): Ask[] =>
  c.questions.map((q) => ({ set, home: set, namespace: namespaceOf(c), question: q.question, evidence: q.evidence, kind: 'own' }));

/** Every search of one split. */
export function planSplit(p: SplitPlan): Ask[] {
  const asks: Ask[] = [];
  for (const c of p.locomo) asks.push(...own('locomo', c));
  for (const c of p.agentwork) asks.push(...own('agentwork', c));
  const at = <T>(xs: readonly T[], i: number) => xs[i % xs.length]!;
  // Agent-work questions in a LoCoMo conversation and in another project.
  p.agentwork.forEach((c, ci) =>
    c.questions.forEach((q, qi) => {
      asks.push({ set: 'agentwork', home: 'locomo', namespace: namespaceOf(at(p.locomo, ci + qi)), question: q.question, evidence: [], kind: 'cross-set' });
      if (p.agentwork.length > 1) asks.push({ set: 'agentwork', home: 'agentwork', namespace: namespaceOf(at(p.agentwork, ci + 1 + (qi % (p.agentwork.length - 1)))), question: q.question, evidence: [], kind: 'other conversation' });
    }),
  );
  // Every fourth LoCoMo question in an agent-work project and in another LoCoMo conversation.
  p.locomo.forEach((c, ci) =>
    c.questions.forEach((q, qi) => {
      if (qi % 4 !== 0) return;
      asks.push({ set: 'locomo', home: 'agentwork', namespace: namespaceOf(at(p.agentwork, ci + qi)), question: q.question, evidence: [], kind: 'cross-set' });
      if (p.locomo.length > 1) asks.push({ set: 'locomo', home: 'locomo', namespace: namespaceOf(at(p.locomo, ci + 1 + (qi % (p.locomo.length - 1)))), question: q.question, evidence: [], kind: 'other conversation' });
    }),
  );
  // Off-topic questions in every namespace of the split.
  for (const question of p.offTopic) {
    for (const c of p.locomo) asks.push({ set: 'off-topic', home: 'locomo', namespace: namespaceOf(c), question, evidence: [], kind: 'off-topic' });
    for (const c of p.agentwork) asks.push({ set: 'off-topic', home: 'agentwork', namespace: namespaceOf(c), question, evidence: [], kind: 'off-topic' });
  }
  return asks;
}
