// The rules for writing memories, one implementation for every backend: exact duplicates merge
// into the current memory with the same content key (a re-mention), a supersede retires a current
// memory for a new statement, an import keeps records verbatim unless one is current already, a
// tag edit replaces the tags of a current memory only.
// The pure functions decide; the async ones run them over a store's unit of work (store/memory-unit.ts)
// and retry the whole unit when the database's unique key says another writer got there first.
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { dedupKey } from '../core/text.js';
import type { Memory, NewMemory, Provenance } from '../core/types.js';
import { MemoryKeyConflict, type MemoryFields, type MemoryUnit } from '../store/memory-unit.js';
import type { AddMemoryResult, ImportOutcome, JudgmentInput, SupersedeResult } from '../store/records.js';

/** Provenance entries kept per memory: re-mentions add theirs until this cap (the oldest stay). */
export const MAX_PROVENANCE = 20;

/** Attempts of one unit when writers race for the same content key (each loss means the other committed). */
const KEY_RACE_ATTEMPTS = 5;

/** The stores the rules write through: any backend offering units of work. */
export interface MemoryUnits {
  memoryUnit<T>(fn: (unit: MemoryUnit) => Promise<T>): Promise<T>;
}

/** A new current memory from an input: defaults, tags and entities once each, provenance capped. */
export function newMemoryRecord(input: NewMemory, now: string): Memory {
  return {
    id: newId('m', Date.parse(now)),
    namespace: input.namespace,
    text: input.text,
    category: input.category ?? 'note',
    importance: input.importance ?? 5,
    tags: [...new Set(input.tags ?? [])],
    entities: [...new Set(input.entities ?? [])],
    eventTime: input.eventTime ?? null,
    createdAt: now,
    updatedAt: now,
    validFrom: now,
    validTo: null,
    supersededBy: null,
    supersedes: null,
    mentions: 1,
    provenance: (input.provenance ?? []).slice(0, MAX_PROVENANCE),
  };
}

/** What the same statement said again changes: `count` more mentions, tags added, provenance appended, the higher importance. */
export interface Remention {
  memory: Memory;
  fields: Required<Pick<MemoryFields, 'mentions' | 'updatedAt' | 'tags' | 'provenance' | 'importance'>>;
}

export function remention(existing: Memory, input: Pick<NewMemory, 'tags' | 'provenance' | 'importance'>, now: string, count = 1): Remention {
  const fields = {
    mentions: existing.mentions + count,
    updatedAt: now,
    tags: [...new Set([...existing.tags, ...(input.tags ?? [])])],
    provenance: [...existing.provenance, ...(input.provenance ?? [])].slice(0, MAX_PROVENANCE) as Provenance[],
    importance: Math.max(existing.importance, input.importance ?? 0),
  };
  return { memory: { ...existing, ...fields }, fields };
}

/** Why `old` cannot be superseded by `replacementText` (missing, already history, same statement), or null. */
export function supersedeRefusal(namespace: string, id: string, old: Memory | null, replacementText: string): CairnError | null {
  if (!old) return new CairnError(ERROR_CODES.NOT_FOUND, `No memory ${id} in namespace ${namespace}`);
  if (old.validTo !== null) {
    return new CairnError(ERROR_CODES.CONFLICT, `Memory ${id} was already superseded by ${old.supersededBy}; supersede that one instead`, {
      supersededBy: old.supersededBy,
    });
  }
  if (dedupKey(replacementText) === dedupKey(old.text)) {
    return new CairnError(ERROR_CODES.INVALID_INPUT, `The new text is the same statement as memory ${id}; nothing to supersede`);
  }
  return null;
}

/** Why the tags of `memory` cannot be replaced (missing, or history: a superseded version keeps its own), or null. */
export function retagRefusal(namespace: string, id: string, memory: Memory | null): CairnError | null {
  if (!memory) return new CairnError(ERROR_CODES.NOT_FOUND, `No memory ${id} in namespace ${namespace}`);
  if (memory.validTo !== null) {
    return new CairnError(ERROR_CODES.CONFLICT, `Memory ${id} is superseded${memory.supersededBy ? ` by ${memory.supersededBy}` : ''}: edit the current version's tags`, {
      supersededBy: memory.supersededBy,
    });
  }
  return null;
}

/** Replaces the tags of a current memory (each once, in the order given); its index entry follows through the unit. */
export function retag(store: MemoryUnits, namespace: string, id: string, tags: readonly string[], now: string): Promise<Memory> {
  return inUnit(store, async (unit) => {
    const memory = await unit.memoryById(namespace, id);
    const refusal = retagRefusal(namespace, id, memory);
    if (refusal || !memory) throw refusal;
    const fields = { tags: [...new Set(tags)], updatedAt: now };
    await unit.updateMemory(namespace, id, fields);
    return { ...memory, ...fields };
  });
}

/** The successor a supersede inserts: what the replacement leaves out is inherited from the old memory. */
export function successorRecord(previous: Memory, replacement: NewMemory, now: string): Memory {
  const inherited = {
    ...replacement,
    category: replacement.category ?? previous.category,
    importance: replacement.importance ?? previous.importance,
    tags: replacement.tags ?? previous.tags,
    entities: replacement.entities ?? previous.entities,
  };
  return { ...newMemoryRecord(inherited, now), supersedes: previous.id };
}

/** What retiring a current memory in favour of another writes (the knowledge pass's retirements). */
export interface RetirementWrites {
  retired: MemoryFields;
  survivor: MemoryFields | null;
  /** Turns whose index entries leave the current view with the retired memory (they said the old thing). */
  turnsLeavingCurrent: string[];
}

/** The turn ids a memory was made from (its provenance), ignoring anything that is not a string. */
function sourceTurns(provenance: readonly Provenance[]): string[] {
  return [...new Set(provenance.flatMap((p) => (Array.isArray(p.turnIds) ? p.turnIds.filter((t): t is string => typeof t === 'string') : [])))];
}

/**
 * Retires `old` for `by`, or null when there is nothing to do (the same memory, or `old` is
 * already history). Superseded: its source turns stop being current with it, and the successor
 * links back to it when it links to nothing yet (the history chain). Duplicate: the survivor
 * takes its mentions, provenance, tags and importance (a re-mention).
 */
export function retirement(old: Memory, by: Memory, r: { validTo: string; reason: 'superseded' | 'duplicate' }, now: string): RetirementWrites | null {
  if (old.id === by.id || old.validTo !== null) return null;
  const retired = { validTo: r.validTo, supersededBy: by.id, updatedAt: now };
  if (r.reason === 'superseded') {
    return { retired, survivor: by.supersedes === null ? { supersedes: old.id } : null, turnsLeavingCurrent: sourceTurns(old.provenance) };
  }
  return { retired, survivor: remention(by, old, now, old.mentions).fields, turnsLeavingCurrent: [] };
}

/** Runs `fn` as one unit, again from the start when an insert lost a content-key race. */
export async function inUnit<T>(store: MemoryUnits, fn: (unit: MemoryUnit) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await store.memoryUnit(fn);
    } catch (err) {
      if (!(err instanceof MemoryKeyConflict)) throw err;
      if (attempt >= KEY_RACE_ATTEMPTS) {
        throw new CairnError(ERROR_CODES.CONFLICT, `${err.message}, ${attempt} times in a row; retry the write`, { namespace: err.namespace }, { cause: err });
      }
    }
  }
}

/** Re-mentions the current memory with the input's content key, or inserts a new one (inside a unit). */
export async function rememberIn(unit: MemoryUnit, input: NewMemory, now: string): Promise<AddMemoryResult> {
  await unit.ensureNamespace(input.namespace, now);
  const existing = await unit.currentByKey(input.namespace, dedupKey(input.text));
  if (existing) {
    const again = remention(existing, input, now);
    await unit.updateMemory(existing.namespace, existing.id, again.fields);
    return { memory: again.memory, duplicate: true };
  }
  const memory = newMemoryRecord(input, now);
  await unit.insertMemory(memory);
  return { memory, duplicate: false };
}

/** Adds memories in order in one unit: each merges into a current equal one (this batch's included). */
export function rememberAll(store: MemoryUnits, inputs: readonly NewMemory[], now: string): Promise<AddMemoryResult[]> {
  return inUnit(store, async (unit) => {
    const out: AddMemoryResult[] = [];
    for (const input of inputs) out.push(await rememberIn(unit, input, now));
    return out;
  });
}

export async function remember(store: MemoryUnits, input: NewMemory, now: string): Promise<AddMemoryResult> {
  return inUnit(store, (unit) => rememberIn(unit, input, now));
}

/**
 * Retires current memory `id` for `replacement`: the old one gets validTo and a link to its
 * successor and stays as history. When the replacement is already a current memory, that one is
 * re-mentioned and becomes the successor (no second copy).
 */
export function supersede(store: MemoryUnits, namespace: string, id: string, replacement: NewMemory, now: string): Promise<SupersedeResult> {
  return inUnit(store, async (unit) => {
    const old = await unit.memoryById(namespace, id);
    const refusal = supersedeRefusal(namespace, id, old, replacement.text);
    if (refusal || !old) throw refusal;
    const twin = await unit.currentByKey(namespace, dedupKey(replacement.text));
    let current: Memory;
    if (twin) {
      const again = remention(twin, replacement, now);
      await unit.updateMemory(namespace, twin.id, again.fields);
      current = again.memory;
    } else {
      current = successorRecord(old, replacement, now);
      await unit.insertMemory(current);
    }
    const retired = { validTo: now, supersededBy: current.id, updatedAt: now };
    await unit.updateMemory(namespace, old.id, retired);
    return { previous: { ...old, ...retired }, current };
  });
}

/**
 * Lossless import: a known id is left alone; a current record whose statement is already current
 * here merges into that one (its mentions added); anything else is inserted verbatim.
 */
export function importRecord(store: MemoryUnits, memory: Memory, now: string): Promise<ImportOutcome> {
  return inUnit(store, async (unit): Promise<ImportOutcome> => {
    if (await unit.memoryIdTaken(memory.id)) return 'exists';
    await unit.ensureNamespace(memory.namespace, memory.createdAt);
    if (memory.validTo === null) {
      const existing = await unit.currentByKey(memory.namespace, dedupKey(memory.text));
      if (existing) {
        await unit.updateMemory(existing.namespace, existing.id, remention(existing, memory, now, memory.mentions).fields);
        return 'merged';
      }
    }
    await unit.insertMemory(memory);
    return 'imported';
  });
}

/**
 * Records judgments in one unit. A turn judged again keeps the memory it made, which follows the
 * new importance and category (even below the bar: memories are never deleted); a turn judged
 * for the first time at the bar becomes a memory, merged into an equal current one.
 */
export function applyJudgments(store: MemoryUnits, items: readonly JudgmentInput[], now: string): Promise<Array<{ turnId: string; memoryId: string | null; duplicate: boolean }>> {
  return inUnit(store, async (unit) => {
    const out: Array<{ turnId: string; memoryId: string | null; duplicate: boolean }> = [];
    for (const item of items) {
      const target = await unit.judgmentTarget(item.turnId);
      if (!target) throw new Error(`applyJudgments: no turn ${item.turnId}`);
      let memoryId = target.memoryId;
      let duplicate = false;
      if (memoryId !== null) {
        await unit.updateCurrentMemory(target.namespace, memoryId, { importance: item.importance, category: item.category, updatedAt: now });
      } else if (item.memory) {
        const added = await rememberIn(unit, { ...item.memory, namespace: target.namespace }, now);
        memoryId = added.memory.id;
        duplicate = added.duplicate;
      }
      await unit.putJudgment(target, item, memoryId, now);
      out.push({ turnId: item.turnId, memoryId, duplicate });
    }
    return out;
  });
}
