// What the three HTTP providers share: the API key lookup, the call with retries, the reading of
// a 2xx body against the provider's shape, and timing. Subclasses supply only the wire format.
import type { z } from 'zod';
import { excerpt } from '../core/http.js';
import type { ChatClient, ChatRequest, ChatResponse, ChatUsage } from './chat.js';
import type { LlmConfig } from '../core/llm-config.js';
import { llmError } from './errors.js';
import { systemTiming } from './retry.js';
import { postJsonWithRetries, type TransportOptions } from './transport.js';

/** What a provider's answer boils down to. */
export interface ProviderAnswer {
  text: string;
  usage: ChatUsage;
  model?: string;
}

/** Rough tokens of a text, for servers that omit usage: the budget must still move. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export abstract class HttpChatClient implements ChatClient {
  readonly provider: LlmConfig['provider'];
  readonly model: string;
  /** Names the provider in messages. */
  protected abstract readonly label: string;

  constructor(
    protected readonly config: LlmConfig,
    protected readonly options: TransportOptions = {},
  ) {
    this.provider = config.provider;
    this.model = config.model;
  }

  protected abstract url(): string;
  protected abstract headers(apiKey: string | undefined): Record<string, string>;
  protected abstract body(req: ChatRequest): unknown;
  /** Reads the parsed 2xx body; throws CairnError(LLM) for an unusable answer. */
  protected abstract read(json: unknown, req: ChatRequest): ProviderAnswer;

  private apiKey(): string | undefined {
    const name = this.config.apiKeyEnv;
    if (name === undefined) return undefined;
    const key = (this.options.env ?? process.env)[name];
    if (!key) {
      throw llmError(`The LLM API key variable ${name} is not set (judge.llm.apiKeyEnv in config); export ${name}=<key>`, {
        kind: 'config',
        provider: this.provider,
        apiKeyEnv: name,
      });
    }
    return key;
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    const timing = this.options.timing ?? systemTiming;
    const started = timing.now();
    const key = this.apiKey();
    const json = await postJsonWithRetries(
      {
        provider: this.label,
        url: this.url(),
        headers: this.headers(key),
        body: this.body(req),
        timeoutMs: this.config.timeoutMs,
        maxRetries: this.config.maxRetries,
        ...(req.signal ? { signal: req.signal } : {}),
        ...(key ? { secrets: [key] } : {}),
        ...(this.config.apiKeyEnv ? { authHint: `check the key in ${this.config.apiKeyEnv}` } : {}),
      },
      this.options,
    );
    const answer = this.read(json, req);
    return {
      text: answer.text,
      usage: answer.usage,
      model: answer.model ?? this.model,
      provider: this.provider,
      latencyMs: Math.max(0, timing.now() - started),
    };
  }

  /** Validates a 2xx body against the provider's documented shape. */
  protected shape<T>(schema: z.ZodType<T>, json: unknown): T {
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
      .join('; ');
    throw this.fail('bad-response', `returned an unexpected response shape: ${issues}; body: ${excerpt(JSON.stringify(json))}`);
  }

  protected fail(kind: 'bad-response' | 'truncated' | 'refused', what: string): Error {
    return llmError(`${this.label} ${what}`, { kind, provider: this.provider });
  }

  /** The answer's text, refusing an empty one and one cut off at maxTokens. */
  protected checked(text: string, truncated: boolean, req: ChatRequest): string {
    if (truncated) {
      const limit = req.maxTokens === undefined ? 'its output limit' : `maxTokens (${req.maxTokens})`;
      throw this.fail('truncated', `stopped at ${limit}; the answer is cut off: ${excerpt(text, 120)}`);
    }
    if (text.trim() === '') throw this.fail('bad-response', 'returned an empty answer');
    return text;
  }
}
