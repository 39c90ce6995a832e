// The LLM judge: one request per batch of turns (with earlier turns of the session as context),
// a versioned prompt, JSON output validated with zod. An answer of the wrong shape is asked for
// once more; a second bad answer is a failure the caller replaces with the heuristic's judgment.
import { z } from 'zod';
import { CATEGORIES, type Category } from '../core/types.js';
import type { ChatClient, ChatResponse, ChatUsage } from '../llm/chat.js';
import type { CircuitBreaker } from '../llm/circuit-breaker.js';
import { llmError } from '../llm/errors.js';
import { jsonSchemaOf, parseJsonOutput } from '../llm/json-output.js';

/** Bumped with every prompt change, so judgments record which prompt made them. */
export const LLM_PROMPT_VERSION = 'llm-judge-1';

/** What the judge may answer: every category except `note` (reserved for memories people add). */
export const JUDGE_CATEGORIES = CATEGORIES.filter((c) => c !== 'note') as Exclude<Category, 'note'>[];

export interface LlmJudgeItem {
  role: string;
  speaker: string | null;
  /** ISO time of the turn; relative dates in its text are resolved against it. */
  timestamp: string;
  text: string;
}

export interface LlmJudgment {
  importance: number;
  category: Category;
  reason: string;
  /** A self-contained restatement, or null (not asked, or nothing worth restating). */
  statement: string | null;
}

export interface LlmBatchResult {
  judgments: LlmJudgment[];
  usage: ChatUsage;
  /** Requests made (2 when the first answer had to be asked for again). */
  requests: number;
  judge: string;
}

const answerSchema = z.object({
  judgments: z.array(
    z.object({
      index: z.number().int().min(0),
      importance: z.number().int().min(1).max(10),
      category: z.enum(JUDGE_CATEGORIES as [string, ...string[]]),
      reason: z.string().max(400),
      statement: z.string().max(2000).nullable(),
    }),
  ),
});

const SYSTEM = `You judge which turns of a conversation between a person and an AI agent are worth keeping in long-term memory.
For each numbered turn give:
- importance 1-10: 1-2 noise (greetings, "ok", heartbeats), 3-4 low (chatter, routine tool output), 5-6 worth keeping (facts about people, preferences, events, useful results), 7-8 important (decisions, commitments, plans with dates, key facts), 9-10 critical (things that must never be forgotten).
- category: one of ${JUDGE_CATEGORIES.join(', ')}.
- reason: one short line.
- statement: when asked for statements, restate the turn as one self-contained sentence a reader could understand months later without the conversation: name who (use speaker names), what, and resolve relative dates ("yesterday", "last week", "next Friday") to absolute dates using the turn's timestamp. Use null for turns below importance 5.
Judge only the numbered turns; the context turns are there to help you understand them.`;

function lineOf(item: Pick<LlmJudgeItem, 'role' | 'speaker' | 'text'>, maxChars: number): string {
  const who = item.speaker ? `${item.speaker} (${item.role})` : item.role;
  const text = item.text.length > maxChars ? `${item.text.slice(0, maxChars)} …[truncated]` : item.text;
  return `${who}: ${text.replace(/\s+/g, ' ').trim()}`;
}

/** A turn the user labelled: sent as an example of what this user finds worth keeping. */
export interface LabelledExample {
  text: string;
  important: boolean;
}

export function buildPrompt(items: readonly LlmJudgeItem[], context: readonly LlmJudgeItem[], rewrite: boolean, examples: readonly LabelledExample[] = []): string {
  const parts: string[] = [];
  if (examples.length) {
    parts.push('The user labelled these earlier turns; judge similar turns the same way:');
    for (const e of examples) parts.push(`- ${e.important ? 'IMPORTANT' : 'NOT IMPORTANT'}: ${e.text.replace(/\s+/g, ' ').slice(0, 300)}`);
    parts.push('');
  }
  if (context.length) parts.push('Context (earlier turns, do not judge):', ...context.map((c) => `- ${lineOf(c, 400)}`), '');
  parts.push(`Turns to judge (${items.length}):`);
  items.forEach((item, i) => parts.push(`[${i}] ${item.timestamp} ${lineOf(item, 2000)}`));
  parts.push('', rewrite ? 'Give a statement for every turn of importance 5 or more.' : 'Do not write statements: use null.');
  parts.push(`Answer with {"judgments": [...]} holding exactly one entry per turn, indexes 0 to ${items.length - 1}.`);
  return parts.join('\n');
}

export class LlmJudge {
  readonly name: string;

  constructor(private readonly client: ChatClient, private readonly breaker: CircuitBreaker, private readonly options: { rewrite: boolean; maxTokens?: number }) {
    this.name = `llm:${client.provider}/${client.model}@${LLM_PROMPT_VERSION}`;
  }

  canRequest(): boolean {
    return this.breaker.canRequest();
  }

  /** Judges a batch; throws CairnError(LLM) when the provider fails or answers badly twice. */
  async judge(items: readonly LlmJudgeItem[], context: readonly LlmJudgeItem[], examples: readonly LabelledExample[] = [], signal?: AbortSignal): Promise<LlmBatchResult> {
    const usage: ChatUsage = { inputTokens: 0, outputTokens: 0 };
    const request = {
      messages: [
        { role: 'system' as const, content: SYSTEM },
        { role: 'user' as const, content: buildPrompt(items, context, this.options.rewrite, examples) },
      ],
      jsonSchema: jsonSchemaOf('turn_judgments', answerSchema),
      maxTokens: this.options.maxTokens ?? Math.min(4096, 200 + items.length * 160),
      temperature: 0,
      signal,
    };
    // The whole batch (both attempts) is one call of the breaker: it succeeds only with a usable
    // answer, and two unusable answers count as one failure of the provider, like an HTTP error.
    // (Counting each HTTP 200 as a success would reset the failure count every batch, so a model
    // that always answers badly would never open the circuit.)
    try {
      return await this.breaker.run(async () => {
        let lastError: unknown;
        for (let attempt = 1; attempt <= 2; attempt++) {
          const res: ChatResponse = await this.client.chat(request);
          usage.inputTokens += res.usage.inputTokens;
          usage.outputTokens += res.usage.outputTokens;
          try {
            return { judgments: this.validate(res, items.length), usage, requests: attempt, judge: this.name };
          } catch (err) {
            lastError = err;
          }
        }
        throw lastError;
      });
    } catch (err) {
      // Tokens billed for unusable answers still count against the budget.
      throw Object.assign(err as Error, { usage });
    }
  }

  private validate(res: ChatResponse, count: number): LlmJudgment[] {
    const parsed = parseJsonOutput(res, answerSchema);
    const byIndex = new Map<number, LlmJudgment>();
    for (const j of parsed.judgments) {
      if (j.index >= count || byIndex.has(j.index)) continue;
      const statement = this.options.rewrite && j.statement && j.statement.trim() ? j.statement.trim() : null;
      byIndex.set(j.index, { importance: j.importance, category: j.category as Category, reason: j.reason.trim().slice(0, 200) || 'llm', statement });
    }
    if (byIndex.size !== count) {
      throw llmError(`${res.provider} (${res.model}) judged ${byIndex.size} of ${count} turns`, { kind: 'invalid-output', provider: res.provider });
    }
    return Array.from({ length: count }, (_, i) => byIndex.get(i)!);
  }
}
