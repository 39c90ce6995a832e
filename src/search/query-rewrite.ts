// Query rewriting with the configured chat model: a question rarely uses the words of the turn
// that answers it ("what does she do for fun?" vs "I've been painting every weekend"). The model
// proposes how a matching memory might be worded and which words it would contain; search adds the
// words to the BM25 side and the phrasings to the query vector. Optional and never required: any
// failure (timeout, 429, 5xx, malformed JSON, open circuit, spent budget) leaves the plain search.
import { z } from 'zod';
import type { ChatClient, ChatUsage } from '../llm/chat.js';
import type { CircuitBreaker } from '../llm/circuit-breaker.js';
import { jsonSchemaOf, parseJsonOutput } from '../llm/json-output.js';

export const MAX_REWRITE_QUERIES = 3;
export const MAX_REWRITE_KEYWORDS = 12;
const CACHE_SIZE = 256;

/** What the model proposed for one query. */
export interface QueryExpansion {
  /** Other ways a matching memory might be worded. */
  queries: string[];
  /** Words and short phrases a matching memory would likely contain. */
  keywords: string[];
}

/** How a search used (or did not use) rewriting, reported with the results. */
export type RewriteOutcome =
  | ({ status: 'used'; cached: boolean; latencyMs: number } & QueryExpansion)
  | { status: 'skipped'; reason: string };

// Lenient on length (a chatty model's extra items are cut, not rejected), strict on shape.
const answerSchema = z.object({
  queries: z.array(z.string()).max(100),
  keywords: z.array(z.string()).max(100),
});
/** Longest phrasing and keyword kept from the model. */
const MAX_ITEM_CHARS = 200;

const SYSTEM = `You help search a person's long-term memory: their past conversations and notes.
Given a search query, say how stored text that answers it would likely be worded. Answer with JSON:
{"queries": [...], "keywords": [...]}.
- queries: up to ${MAX_REWRITE_QUERIES} short sentences such a memory might contain, worded differently from the query (first or third person).
- keywords: up to ${MAX_REWRITE_KEYWORDS} words or short phrases likely to appear in it: synonyms, related terms, the specific kinds of things the query implies. No stop words.
- Resolve relative dates ("last week", "yesterday") against today's date.
- Do not answer the question and do not invent names, numbers or facts: describe the wording only.`;

/** Trims, drops empty and duplicate entries (case-insensitive) and the query itself, caps the count. */
function clean(items: readonly string[], max: number, query: string): string[] {
  const seen = new Set([query.trim().toLowerCase()]);
  const out: string[] = [];
  for (const raw of items) {
    const item = raw.replace(/\s+/g, ' ').trim().slice(0, MAX_ITEM_CHARS);
    const key = item.toLowerCase();
    if (!item || seen.has(key)) continue;
    seen.add(key);
    out.push(item);
    if (out.length >= max) break;
  }
  return out;
}

export interface RewriterOptions {
  /** Longest wait for the model, retries included; past it the search goes on without. */
  timeoutMs: number;
  /** Accounting and gating around each call (the judge's daily budget); null: none. */
  spend?: {
    canSpend(namespace: string): Promise<boolean>;
    record(namespace: string, usage: ChatUsage | undefined, ok: boolean): Promise<void>;
  };
}

export class QueryRewriter {
  /** Successful expansions by namespace and query, least recently used first. */
  private readonly cache = new Map<string, QueryExpansion>();

  constructor(
    private readonly client: ChatClient,
    private readonly breaker: CircuitBreaker,
    private readonly options: RewriterOptions,
  ) {}

  get name(): string {
    return `${this.client.provider} (${this.client.model})`;
  }

  /** Never throws: whatever goes wrong (the budget ledger included) is a skipped rewrite. */
  async expand(namespace: string, query: string, today: string): Promise<RewriteOutcome> {
    try {
      return await this.tryExpand(namespace, query, today);
    } catch (err) {
      return { status: 'skipped', reason: `query rewrite failed: ${(err as Error).message}` };
    }
  }

  private async tryExpand(namespace: string, query: string, today: string): Promise<RewriteOutcome> {
    const key = `${namespace}\n${today}\n${query}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return { status: 'used', cached: true, latencyMs: 0, ...hit };
    }
    if (!this.breaker.canRequest()) return { status: 'skipped', reason: `${this.name} is cooling down after failures` };
    if (this.options.spend && !(await this.options.spend.canSpend(namespace))) return { status: 'skipped', reason: 'LLM daily budget reached' };
    const started = Date.now();
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    let usage: ChatUsage | undefined;
    try {
      const expansion = await this.breaker.run(async () => {
        const res = await this.client.chat({
          messages: [
            { role: 'system', content: SYSTEM },
            { role: 'user', content: `Today is ${today}.\nQuery: ${query}` },
          ],
          jsonSchema: jsonSchemaOf('query_rewrite', answerSchema),
          maxTokens: 400,
          temperature: 0,
          signal: deadline,
        });
        usage = res.usage;
        const answer = parseJsonOutput(res, answerSchema);
        return { queries: clean(answer.queries, MAX_REWRITE_QUERIES, query), keywords: clean(answer.keywords, MAX_REWRITE_KEYWORDS, query) };
      });
      await this.options.spend?.record(namespace, usage, true);
      this.cache.set(key, expansion);
      if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
      return { status: 'used', cached: false, latencyMs: Date.now() - started, ...expansion };
    } catch (err) {
      await this.options.spend?.record(namespace, usage, false).catch(() => undefined);
      const why = deadline.aborted ? `${this.name} did not answer within ${this.options.timeoutMs} ms` : (err as Error).message;
      return { status: 'skipped', reason: `query rewrite failed: ${why}` };
    }
  }
}
