// The model's answer is never trusted: every memory entry, entity and fact is checked on its own and
// dropped when invalid (unknown type, confidence outside 0–1, empty or overlong strings, a name or
// value the memory does not contain), so one bad item never costs the others and nothing the model
// invented becomes knowledge.
import { z } from 'zod';
import { ENTITY_TYPES } from '../../core/types.js';
import type { EntityMention, ExtractedFact } from './contracts.js';

/** Most entities and facts kept per memory (a chatty model's extra items are cut). */
export const MAX_ENTITIES_PER_MEMORY = 16;
export const MAX_FACTS_PER_MEMORY = 16;
/** Longest name, subject, attribute, value and relation kept; longer ones are dropped, not cut (a cut name is a wrong name). */
export const MAX_NAME_CHARS = 120;
export const MAX_ATTRIBUTE_CHARS = 60;
export const MAX_VALUE_CHARS = 300;
const MAX_RELATION_CHARS = 40;

export interface KnowledgeExtraction {
  entities: EntityMention[];
  facts: ExtractedFact[];
}

// Control characters and bidirectional overrides: they would break a line of life/index.md or
// disguise a name. Other format characters (zero-width joiners) belong to some scripts and stay.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

/** One line, no control characters, trimmed; null when nothing is left or it is longer than `max`. */
function cleanString(raw: string, max: number): string | null {
  if (raw.length > max * 4) return null;
  const s = raw.replace(UNSAFE_CHARS, ' ').replace(/\s+/g, ' ').trim();
  return s.length === 0 || s.length > max ? null : s;
}

/**
 * The form in which a name must occur in its memory: NFKC, case-folded, typographic quotes and
 * dashes as ASCII (a model writes "O'Brien" for "O’Brien"), whitespace collapsed.
 */
function groundForm(s: string): string {
  return s
    .normalize('NFKC')
    .toLocaleLowerCase('und')
    .replace(/[\u2018\u2019\u02BC\u2032]/g, "'")
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ');
}

const confidence = z.number().min(0).max(1);
/** Providers that cannot enforce the schema get "Person" or "organisation" now and then: same type. */
const entityType = z
  .string()
  .transform((t) => t.trim().toLowerCase().replace(/^organisation$/, 'organization'))
  .pipe(z.enum(ENTITY_TYPES));
const entityShape = z.object({ name: z.string(), type: entityType, relation: z.string().nullish(), confidence });
const factShape = z.object({ subject: z.string(), attribute: z.string(), value: z.string(), validFrom: z.string().nullish(), confidence });
const memoryShape = z.object({ index: z.number().int().min(0), entities: z.array(z.unknown()).default([]), facts: z.array(z.unknown()).default([]) });
/** The answer's outer shape; anything less is an unusable answer (the offline extractor takes the batch). */
export const answerEnvelope = z.object({ memories: z.array(z.unknown()) });

function validRelation(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const s = cleanString(raw, MAX_RELATION_CHARS)?.toLowerCase();
  return s && /^[\p{L}][\p{L}\p{M}' -]*$/u.test(s) ? s : undefined;
}

/** A date the text says the fact became true, as ISO; undefined when missing or not a real date. */
function validDate(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const s = raw.trim();
  if (s.length > 40 || !/^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(s)) return undefined;
  const ms = Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s);
  if (!Number.isFinite(ms)) return undefined;
  const iso = new Date(ms).toISOString();
  // Date.parse rolls 2026-02-31 over to March: a date that does not survive the round trip is not one.
  return iso.slice(0, 10) === s.slice(0, 10) ? iso : undefined;
}

function entitiesOf(raw: readonly unknown[], text: string): EntityMention[] {
  const byKey = new Map<string, EntityMention>();
  for (const item of raw) {
    const parsed = entityShape.safeParse(item);
    if (!parsed.success) continue;
    const name = cleanString(parsed.data.name, MAX_NAME_CHARS);
    if (!name || !text.includes(groundForm(name))) continue;
    const mention: EntityMention = { name, type: parsed.data.type, confidence: parsed.data.confidence };
    const relation = validRelation(parsed.data.relation);
    if (relation) mention.relation = relation;
    const key = `${parsed.data.type}\u0000${groundForm(name)}`;
    const seen = byKey.get(key);
    if (!seen || seen.confidence < mention.confidence) byKey.set(key, seen?.relation && !mention.relation ? { ...mention, relation: seen.relation } : mention);
  }
  return [...byKey.values()].slice(0, MAX_ENTITIES_PER_MEMORY);
}

function factsOf(raw: readonly unknown[], text: string): ExtractedFact[] {
  const byKey = new Map<string, ExtractedFact>();
  for (const item of raw) {
    const parsed = factShape.safeParse(item);
    if (!parsed.success) continue;
    const subject = cleanString(parsed.data.subject, MAX_NAME_CHARS);
    const attribute = cleanString(parsed.data.attribute, MAX_ATTRIBUTE_CHARS)?.toLowerCase();
    const value = cleanString(parsed.data.value, MAX_VALUE_CHARS);
    if (!subject || !attribute || !value) continue;
    if (!/^[\p{L}\p{N}][\p{L}\p{M}\p{N}' _-]*$/u.test(attribute)) continue;
    // The value must be one the memory states (the subject may be "user" or the person's name).
    if (!text.includes(groundForm(value))) continue;
    const fact: ExtractedFact = { subject, attribute, value, confidence: parsed.data.confidence };
    const validFrom = validDate(parsed.data.validFrom);
    if (validFrom) fact.validFrom = validFrom;
    const key = [subject, attribute, value].map(groundForm).join('\u0000');
    const seen = byKey.get(key);
    if (!seen || seen.confidence < fact.confidence) byKey.set(key, fact);
  }
  return [...byKey.values()].slice(0, MAX_FACTS_PER_MEMORY);
}

/**
 * The valid extraction of each memory the answer covers, by its index in the request. A memory the
 * answer skips, repeats (the first entry counts) or numbers out of range gets no entry.
 */
export function validateKnowledgeAnswer(memories: readonly unknown[], texts: readonly string[]): Map<number, KnowledgeExtraction> {
  const out = new Map<number, KnowledgeExtraction>();
  const grounded = texts.map(groundForm);
  for (const raw of memories) {
    const parsed = memoryShape.safeParse(raw);
    if (!parsed.success) continue;
    const { index } = parsed.data;
    if (index >= texts.length || out.has(index)) continue;
    out.set(index, { entities: entitiesOf(parsed.data.entities, grounded[index]!), facts: factsOf(parsed.data.facts, grounded[index]!) });
  }
  return out;
}
