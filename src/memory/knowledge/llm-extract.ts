// Entity and fact extraction by the judge's chat model (judge.llm), when `knowledge.llm` is on: one
// structured-output request per chunk of memories, within the judge's daily budget and behind its
// circuit breaker. The offline extractor is the fallback, so nothing here throws for the model's
// sake: a spent budget, an open circuit, an HTTP error, a timeout or an unusable answer leaves the
// chunk's memories without an entry, and the caller extracts those offline.
import type { CairnConfig } from '../../core/config.js';
import { budgetDay, costUsd, type Budget, type Prices } from '../../llm/budget.js';
import type { ChatClient, ChatUsage } from '../../llm/chat.js';
import type { CircuitBreaker } from '../../llm/circuit-breaker.js';
import { llmError, llmFailureKind } from '../../llm/errors.js';
import { createChatClient } from '../../llm/factory.js';
import { jsonSchemaOf, parseJsonOutput } from '../../llm/json-output.js';
import type { TransportOptions } from '../../llm/transport.js';
import type { ExtractionContext } from './contracts.js';
import { KNOWLEDGE_PROMPT_VERSION, KNOWLEDGE_SYSTEM, buildKnowledgePrompt, knowledgeAnswerSchema } from './llm-extract-prompt.js';
import { answerEnvelope, validateKnowledgeAnswer, type KnowledgeExtraction } from './llm-extract-validate.js';

export { KNOWLEDGE_PROMPT_VERSION } from './llm-extract-prompt.js';
export type { KnowledgeExtraction } from './llm-extract-validate.js';

/** Memories per request: enough to share the instructions' cost, few enough that one bad answer costs little. */
export const MAX_MEMORIES_PER_REQUEST = 12;

export interface KnowledgeItem {
  /** The memory's id: the key of its entry in the result. */
  id: string;
  /** The memory's text (it passed the redaction gate on its way in). */
  text: string;
  ctx: ExtractionContext;
}

export interface LlmKnowledgeExtractor {
  /** `llm:<provider>/<model>@knowledge-1`: what facts and mentions it found record as their extractor. */
  readonly extractor: string;
  /**
   * Entities and facts per memory id, for the memories the model extracted; a memory without an
   * entry (or null: none had one) goes to the offline extractor. Rejects only when `signal` aborts.
   */
  extract(namespace: string, items: readonly KnowledgeItem[], signal?: AbortSignal): Promise<Map<string, KnowledgeExtraction> | null>;
}

/** What the extractor shares with the judge (`createLlmRuntime`'s result fits): one budget, one breaker. */
export interface KnowledgeRuntime {
  budget: Budget;
  prices: Prices;
  breaker: CircuitBreaker;
}

export interface LlmKnowledgeExtractorOptions {
  config: CairnConfig;
  /** The judge's runtime (null without judge.llm). */
  runtime: KnowledgeRuntime | null;
  transport?: TransportOptions;
  /** The chat client (default: one made from `config.judge.llm`). */
  client?: ChatClient;
  /** The clock that picks the budget's day (default Date.now). */
  now?: () => number;
}

/** Null when no chat model is configured or `knowledge.llm` is off: the offline extractor is all. */
export function createLlmKnowledgeExtractor(options: LlmKnowledgeExtractorOptions): LlmKnowledgeExtractor | null {
  const llm = options.config.judge.llm;
  if (!llm || !options.config.knowledge.llm || !options.runtime) return null;
  const client = options.client ?? createChatClient(llm, options.transport ?? {});
  return new ChatKnowledgeExtractor(client, options.runtime, options.config.timezone, options.now ?? Date.now);
}

class ChatKnowledgeExtractor implements LlmKnowledgeExtractor {
  readonly extractor: string;

  constructor(
    private readonly client: ChatClient,
    private readonly runtime: KnowledgeRuntime,
    private readonly timeZone: string,
    private readonly now: () => number,
  ) {
    this.extractor = `llm:${client.provider}/${client.model}@${KNOWLEDGE_PROMPT_VERSION}`;
  }

  async extract(namespace: string, items: readonly KnowledgeItem[], signal?: AbortSignal): Promise<Map<string, KnowledgeExtraction> | null> {
    // A blank text has nothing to extract, and an id given twice is one memory.
    const unique = [...new Map(items.filter((i) => i.text.trim()).map((i) => [i.id, i])).values()];
    const found = new Map<string, KnowledgeExtraction>();
    for (let start = 0; start < unique.length; start += MAX_MEMORIES_PER_REQUEST) {
      const chunk = unique.slice(start, start + MAX_MEMORIES_PER_REQUEST);
      const answer = await this.request(namespace, chunk, signal);
      // A refused chunk (budget, open circuit) means the next would be refused too.
      if (answer === 'stop') break;
      for (const [index, extraction] of answer) found.set(chunk[index]!.id, extraction);
    }
    return found.size > 0 || unique.length === 0 ? found : null;
  }

  /** One chunk's extractions by index; empty when the call failed; 'stop' when no call may be made now. */
  private async request(namespace: string, chunk: readonly KnowledgeItem[], signal?: AbortSignal): Promise<Map<number, KnowledgeExtraction> | 'stop'> {
    const { budget, breaker, prices } = this.runtime;
    if (!breaker.canRequest()) return 'stop';
    const prompt = buildKnowledgePrompt(chunk);
    const day = budgetDay(this.now(), this.timeZone);
    const estimate = costUsd({ inputTokens: Math.ceil((prompt.length + KNOWLEDGE_SYSTEM.length) / 4), outputTokens: 0 }, prices);
    if (!(await budget.canSpend(namespace, day, estimate))) return 'stop';

    let usage: ChatUsage | undefined;
    try {
      // One breaker call per request, succeeding only with a usable answer: a model that keeps
      // answering badly opens the circuit like one that keeps failing.
      const extracted = await breaker.run(async () => {
        const res = await this.client.chat({
          messages: [
            { role: 'system', content: KNOWLEDGE_SYSTEM },
            { role: 'user', content: prompt },
          ],
          jsonSchema: jsonSchemaOf('knowledge_extraction', knowledgeAnswerSchema),
          maxTokens: Math.min(4096, 256 + 300 * chunk.length),
          temperature: 0,
          signal,
        });
        usage = res.usage;
        const answer = validateKnowledgeAnswer(parseJsonOutput(res, answerEnvelope).memories, chunk.map((i) => i.text));
        if (answer.size === 0) throw llmError(`${res.provider} (${res.model}) answered for none of the ${chunk.length} memories`, { kind: 'invalid-output', provider: res.provider });
        return answer;
      });
      await budget.record(namespace, day, usage!, costUsd(usage!, prices));
      return extracted;
    } catch (err) {
      if (signal?.aborted) throw err;
      // A refused call (open circuit) sent nothing; any other was a call, billed when it answered.
      if (llmFailureKind(err) === 'circuit-open') return 'stop';
      await budget.recordFailure(namespace, day, usage, usage ? costUsd(usage, prices) : 0);
      return new Map();
    }
  }
}
