// The versioned request the LLM knowledge extractor sends: fixed instructions, then each memory as
// one JSON line holding only its text and its extraction context (time, speaker, role, the names the
// person goes by). Nothing else of the home (other memories, ids, provenance) reaches the model.
import { z } from 'zod';
import { redact } from '../../capture/redact.js';
import { ENTITY_TYPES } from '../../core/types.js';
import type { ExtractionContext } from './contracts.js';

/** Bumped with every change to the instructions or the request's layout (facts record it). */
export const KNOWLEDGE_PROMPT_VERSION = 'knowledge-1';

/** Longest memory text sent; past it the text is cut (the offline extractor still reads it whole). */
export const MAX_PROMPT_TEXT_CHARS = 4000;
/** Names the person goes by, as sent (the first few). */
const MAX_USER_NAMES = 5;
const MAX_NAME_CHARS = 120;

/**
 * The shape the provider is asked for. Validation is not this schema: each memory, entity and fact
 * of the answer is checked on its own (llm-extract-validate.ts), so one bad item never costs the rest.
 */
export const knowledgeAnswerSchema = z.object({
  memories: z.array(
    z.object({
      index: z.number().int().min(0),
      entities: z.array(
        z.object({
          name: z.string(),
          type: z.enum(ENTITY_TYPES),
          relation: z.string().nullable(),
          confidence: z.number().min(0).max(1),
        }),
      ),
      facts: z.array(
        z.object({
          subject: z.string(),
          attribute: z.string(),
          value: z.string(),
          validFrom: z.string().nullable(),
          confidence: z.number().min(0).max(1),
        }),
      ),
    }),
  ),
});

export const KNOWLEDGE_SYSTEM = `You extract knowledge from memories of a person's conversations with AI agents: the entities each memory names and the facts it states.
Entities (people, projects, organizations, places, tools, topics):
- name: exactly as the memory writes it (keep its spelling and script; "@handles", repositories and file paths as written). Only things the memory names: no pronouns, no common words ("Monday", "Thanks", "the team"), no dates or numbers.
- type: one of ${ENTITY_TYPES.join(', ')}.
- relation: the entity's direct relationship with the person when the memory states it ("my sister Ana" gives "sister", "our client Acme" gives "client"), in one or two lower-case words; otherwise null.
Facts (subject - attribute - value):
- subject: who or what the fact is about, as written ("the staging database", "Ana"). For the person themselves use one of their names when given, else "user".
- attribute: short, lower case, singular, no article: "port", "lives in", "works at", "role", "version", "prefers", "plans", "decided", "date of <event>".
- value: as the memory writes it ("6543", "Lisbon", "flat white"), without the subject or attribute.
- validFrom: the date the memory says the fact became true ("since March", "on 2 March", "yesterday"), resolved against the memory's time, as YYYY-MM-DD; otherwise null.
Every item has a confidence from 0 to 1. Extract only what the memory itself says: invent nothing, infer nothing from other memories. A memory with nothing to extract gets empty lists.`;

/** The context fields that are safe and useful to send, with every string redacted and bounded. */
function itemLine(index: number, text: string, ctx: ExtractionContext): string {
  const clean = (s: string, max: number): string => redact(s.replace(/\s+/g, ' ').trim().slice(0, max)).text;
  const body = text.length > MAX_PROMPT_TEXT_CHARS ? `${text.slice(0, MAX_PROMPT_TEXT_CHARS)} …[truncated]` : text;
  const names = (ctx.userNames ?? []).map((n) => clean(n, MAX_NAME_CHARS)).filter(Boolean).slice(0, MAX_USER_NAMES);
  // One JSON object per line: quoting keeps a memory's own text from posing as another item.
  return JSON.stringify({
    index,
    time: clean(ctx.time, 40),
    ...(ctx.speaker ? { speaker: clean(ctx.speaker, MAX_NAME_CHARS) } : {}),
    ...(ctx.role ? { role: clean(ctx.role, 40) } : {}),
    ...(names.length ? { personNames: names } : {}),
    text: redact(body).text,
  });
}

/** The user message: the memories, numbered from 0, one JSON object per line. */
export function buildKnowledgePrompt(items: ReadonlyArray<{ text: string; ctx: ExtractionContext }>): string {
  return [
    `Memories (${items.length}), one JSON object per line. "personNames" are the names of the person whose memory this is; "speaker" said the text.`,
    ...items.map((item, i) => itemLine(i, item.text, item.ctx)),
    '',
    `Answer with {"memories": [...]}: one entry per memory, with its index (0 to ${items.length - 1}), its entities and its facts.`,
  ].join('\n');
}
