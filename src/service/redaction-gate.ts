// "Secrets never land" (DESIGN): the one redaction gate of the service layer. Capture already runs
// every turn and Markdown chunk through `redact` (and counts per source); this gate applies the
// same `redact` to everything else that reaches the store through the facade — memories (store,
// supersede, import, judged promotions), hot state, feedback — and to what is read from files
// Cairn did not redact itself (a user's Markdown note, MEMORY.md), to search and context queries
// (they may go to a chat model or an embedding API) and to log lines. It sits below the
// interfaces, so the CLI, MCP, HTTP and library all pass it.
import { redact, type RedactionResult } from '../capture/redact.js';
import type { NewDigest, NewMemory, NewTurn } from '../core/types.js';
import type { FeedbackRecord, JudgmentInput, ReplaceDocumentInput, Store } from '../store/store.js';

/** Secrets replaced, per kind (`openai-key`: 2, …); kinds with none are absent. */
export type RedactionCounts = Record<string, number>;

export function addRedactionCounts(into: RedactionCounts, counts: Readonly<RedactionCounts>): void {
  for (const [kind, n] of Object.entries(counts)) into[kind] = (into[kind] ?? 0) + n;
}

export function totalRedactions(counts: Readonly<RedactionCounts>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/**
 * Short strings recur (roles, sources, session ids, a judge's reasons) and a scan costs tens of
 * microseconds whatever the length, so texts found clean are remembered: redact is pure, the same
 * text always gives the same answer. A text that held a secret is never kept (it is scanned again).
 * Bounded; cleared whole when full.
 */
const MEMO_MAX_CHARS = 200;
const MEMO_MAX_ENTRIES = 2048;
const memo = new Map<string, RedactionResult>();

function redactMemo(text: string): RedactionResult {
  if (text.length > MEMO_MAX_CHARS) return redact(text);
  const known = memo.get(text);
  if (known !== undefined) return known;
  const result = redact(text);
  if (result.text === text) {
    if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
    memo.set(text, result);
  }
  return result;
}

/** A text through the gate: each secret becomes `[REDACTED:<kind>]`, counted into `counts`. */
export function gateText(text: string, counts?: RedactionCounts): string {
  if (text.length === 0) return text;
  const result = redactMemo(text);
  if (counts) addRedactionCounts(counts, result.counts);
  return result.text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Every string inside a JSON-like value (arrays and plain objects, keys kept) through the gate.
 * Returns the value itself when nothing changed, so callers can tell and nothing is copied.
 */
export function gateDeep<T>(value: T, counts?: RedactionCounts): T {
  if (typeof value === 'string') return gateText(value, counts) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const g = gateDeep(v, counts);
      if (g !== v) changed = true;
      return g;
    });
    return (changed ? out : value) as T;
  }
  if (isPlainObject(value)) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const g = gateDeep(v, counts);
      if (g !== v) changed = true;
      out[k] = g;
    }
    return (changed ? out : value) as T;
  }
  return value;
}

function gateNewMemory(input: NewMemory, counts: RedactionCounts): NewMemory {
  if (typeof input !== 'object' || input === null) return input;
  return {
    ...input,
    text: gateText(input.text, counts),
    ...(input.tags ? { tags: gateDeep(input.tags, counts) } : {}),
    ...(input.entities ? { entities: gateDeep(input.entities, counts) } : {}),
    ...(input.provenance ? { provenance: gateDeep(input.provenance, counts) } : {}),
  };
}

function gateNewTurn(turn: NewTurn, counts: RedactionCounts): NewTurn {
  return {
    ...turn,
    text: gateText(turn.text, counts),
    ...(typeof turn.speaker === 'string' ? { speaker: gateText(turn.speaker, counts) } : {}),
    ...(turn.meta ? { meta: gateDeep(turn.meta, counts) } : {}),
    ...(turn.indexText !== undefined ? { indexText: gateText(turn.indexText, counts) } : {}),
  };
}

/**
 * A judgment's own words (reason, restatement, the memory's text and tags) pass the gate. The
 * memory's provenance is the judged turn's (its ids, time, source), read from a stored row that
 * passed the gate already: scanning it again for every judged turn cost a fifth of judging time.
 */
function gateJudgment(item: JudgmentInput, counts: RedactionCounts): JudgmentInput {
  const memory = item.memory;
  return {
    ...item,
    reason: gateText(item.reason, counts),
    statement: item.statement === null ? null : gateText(item.statement, counts),
    ...(memory ? { memory: { ...gateNewMemory({ ...memory, provenance: undefined }, counts), provenance: memory.provenance } } : {}),
  };
}

type Gate = (args: unknown[], counts: RedactionCounts) => unknown[];

/** The Store methods that write text, and how each one's arguments pass the gate. */
const WRITES: Partial<Record<keyof Store, Gate>> = {
  addMemory: ([input, ...rest], c) => [gateNewMemory(input as NewMemory, c), ...rest],
  addMemories: ([inputs, ...rest], c) => [(inputs as NewMemory[]).map((m) => gateNewMemory(m, c)), ...rest],
  supersedeMemory: ([ns, id, replacement, ...rest], c) => [ns, id, gateNewMemory(replacement as NewMemory, c), ...rest],
  setMemoryTags: ([ns, id, tags, ...rest], c) => [ns, id, (tags as string[]).map((t) => gateText(t, c)), ...rest],
  importMemory: ([memory, ...rest], c) => [gateNewMemory(memory as NewMemory, c), ...rest],
  addTurns: ([turns, ...rest], c) => [(turns as NewTurn[]).map((t) => gateNewTurn(t, c)), ...rest],
  replaceDocument: ([input, ...rest], c) => {
    const doc = input as ReplaceDocumentInput;
    return [{ ...doc, chunks: doc.chunks.map((ch) => ({ ...ch, heading: gateText(ch.heading, c), text: gateText(ch.text, c) })) }, ...rest];
  },
  applyJudgments: ([items, ...rest], c) => [(items as JudgmentInput[]).map((i) => gateJudgment(i, c)), ...rest],
  addFeedback: ([feedback, ...rest], c) => {
    const f = feedback as Omit<FeedbackRecord, 'id' | 'createdAt'>;
    return [{ ...f, text: gateText(f.text, c) }, ...rest];
  },
  mergeHotState: ([ns, patch, ...rest], c) => [ns, gateDeep(patch, c), ...rest],
  // A digest is made of gated records, but an LLM writes its prose: the file and each section pass
  // again. The caller writes the file from the digest putDigest returns, so both say the same.
  putDigest: ([input, ...rest], c) => {
    const d = input as NewDigest;
    if (typeof d !== 'object' || d === null || !Array.isArray(d.sections)) return [input, ...rest];
    const sections = d.sections.map((s) => ({ ...s, heading: gateText(s.heading, c), text: gateText(s.text, c) }));
    return [{ ...d, text: gateText(d.text, c), sections }, ...rest];
  },
};

/**
 * The store as the facade hands it out: every method that writes text first passes its text
 * through the gate (counted into `counts`); everything else is the store's own method. A Proxy, so
 * a method added to Store later is served as it is, and a new write path through the facade's store
 * cannot skip the gate.
 */
export function gatedStore(store: Store, counts: RedactionCounts = {}): Store {
  const methods = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      let method = methods.get(key);
      if (method === undefined) {
        const fn = value as (...args: unknown[]) => unknown;
        const gate = WRITES[key as keyof Store];
        method = gate ? (...args: unknown[]) => fn.apply(target, gate(args, counts)) : fn.bind(target);
        methods.set(key, method);
      }
      return method;
    },
  });
}
