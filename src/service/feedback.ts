// `cairn feedback ID --important|--not-important`: a person's label on a memory or a turn. It is
// kept as an example that shapes later judgments of the namespace (heuristic weights, LLM few-shot
// examples), and it applies at once to the turn it names: an important turn becomes a memory, a
// turn marked unimportant drops below the bar (its memory, if any, stays, with the lower score).
import { CairnError, ERROR_CODES, invalidInput } from '../core/errors.js';
import { RECORD_ID_PATTERN } from '../core/ids.js';
import type { Category } from '../core/types.js';
import type { FeedbackRecord, Store } from '../store/store.js';
import { memoryFromTurn } from '../memory/from-turn.js';

export interface FeedbackResult {
  feedback: FeedbackRecord;
  /** The turn whose judgment changed, with its new importance (null for a memory with no source turn). */
  turnId: string | null;
  importance: number | null;
  memoryId: string | null;
}

/** Importance a label sets: well above the bar, or well below it. */
const IMPORTANT = 8;
const NOT_IMPORTANT = 3;

export async function giveFeedback(store: Store, namespace: string, id: string, important: boolean, maxTextChars: number): Promise<FeedbackResult> {
  if (typeof id !== 'string' || !RECORD_ID_PATTERN.test(id) || !/^[mt]_/.test(id)) throw invalidInput(`Invalid id ${JSON.stringify(String(id).slice(0, 80))}: expected a memory id (m_…) or a turn id (t_…)`);
  let turnId: string | null = null;
  let text: string;
  let category: Category | null = null;
  if (id.startsWith('m_')) {
    const memory = await store.getMemory(namespace, id);
    if (!memory) throw new CairnError(ERROR_CODES.NOT_FOUND, `No memory ${id} in namespace ${namespace}`);
    text = memory.text;
    category = memory.category;
    turnId = memory.provenance.flatMap((p) => p.turnIds ?? [])[0] ?? null;
  } else {
    const turn = await store.getTurn(namespace, id);
    if (!turn) throw new CairnError(ERROR_CODES.NOT_FOUND, `No turn ${id} in namespace ${namespace}`);
    text = turn.text;
    turnId = turn.id;
  }
  const previous = turnId ? await store.getJudgment(turnId) : null;
  category = category ?? previous?.category ?? null;
  const feedback = await store.addFeedback({ namespace, refId: id, text, category, important });
  if (!turnId) {
    // A memory stored by hand (no source turn): the label sets its importance directly.
    const memory = id.startsWith('m_') ? await store.getMemory(namespace, id) : null;
    if (!memory) return { feedback, turnId: null, importance: null, memoryId: null };
    const importance = important ? Math.max(memory.importance, IMPORTANT) : Math.min(memory.importance, NOT_IMPORTANT);
    await store.setMemoryImportance(namespace, id, importance);
    return { feedback, turnId: null, importance, memoryId: id };
  }
  const turn = await store.getTurn(namespace, turnId);
  if (!turn) return { feedback, turnId: null, importance: null, memoryId: null };
  const importance = important ? Math.max(previous?.importance ?? 0, IMPORTANT) : Math.min(previous?.importance ?? 10, NOT_IMPORTANT);
  const cat: Category = category ?? (important ? 'fact' : 'noise');
  const [applied] = await store.applyJudgments([{
    turnId,
    importance,
    category: cat,
    judge: 'feedback',
    reason: important ? 'marked important by the user' : 'marked not important by the user',
    statement: previous?.statement ?? null,
    needsRejudge: false,
    ...(important ? { memory: memoryFromTurn({ turn, importance, category: cat, statement: previous?.statement ?? null }, maxTextChars) } : {}),
  }]);
  return { feedback, turnId, importance, memoryId: applied?.memoryId ?? null };
}
