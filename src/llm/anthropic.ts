// Anthropic's Messages API: POST {baseUrl}/v1/messages. No JSON mode we can rely on across models,
// so structured output is the schema in the system prompt plus a prefilled "{".
import { z } from 'zod';
import { joinUrl } from '../core/http.js';
import type { ChatMessage, ChatRequest } from './chat.js';
import type { LlmConfig } from '../core/llm-config.js';
import { schemaInstruction, withSystemInstruction } from './json-output.js';
import { HttpChatClient, type ProviderAnswer } from './http-client.js';
import type { TransportOptions } from './transport.js';

export type AnthropicChatConfig = Extract<LlmConfig, { provider: 'anthropic' }>;

export const ANTHROPIC_VERSION = '2023-06-01';
/** The Messages API requires max_tokens; enough for a judged batch. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;
const PREFILL = '{';

const message = z.lazy(() =>
  z.object({
    model: z.string().optional(),
    content: z.array(z.object({ type: z.string(), text: z.string().optional() }).loose()),
    stop_reason: z.string().nullish(),
    usage: z.object({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative() }),
  }),
);

export class AnthropicChatClient extends HttpChatClient {
  protected readonly label: string;

  constructor(config: AnthropicChatConfig, options: TransportOptions = {}) {
    super(config, options);
    this.label = `Anthropic (${config.model})`;
  }

  protected url(): string {
    return joinUrl(this.config.baseUrl, 'v1/messages');
  }

  protected headers(apiKey: string | undefined): Record<string, string> {
    return { 'anthropic-version': ANTHROPIC_VERSION, ...(apiKey ? { 'x-api-key': apiKey } : {}) };
  }

  /** Prefill only when the model speaks next; a trailing assistant turn is already a prefill. */
  private prefills(req: ChatRequest): boolean {
    return req.jsonSchema !== undefined && req.messages.at(-1)?.role !== 'assistant';
  }

  protected body(req: ChatRequest): unknown {
    const all: ChatMessage[] = req.jsonSchema ? withSystemInstruction(req.messages, schemaInstruction(req.jsonSchema)) : req.messages;
    const system = all.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
    const turns = all.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, content: m.content }));
    if (this.prefills(req)) turns.push({ role: 'assistant', content: PREFILL });
    return {
      model: this.config.model,
      max_tokens: req.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      ...(system ? { system } : {}),
      messages: turns,
      ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
    };
  }

  protected read(json: unknown, req: ChatRequest): ProviderAnswer {
    const res = this.shape(message, json);
    if (res.stop_reason === 'refusal') throw this.fail('refused', 'refused to answer');
    const text = res.content
      .filter((b) => b.type === 'text')
      .map((b) => b.text ?? '')
      .join('');
    // The prefilled "{" is ours, not part of the returned text.
    const full = this.prefills(req) ? PREFILL + text : text;
    return {
      text: this.checked(text.trim() === '' ? '' : full, res.stop_reason === 'max_tokens', req),
      usage: { inputTokens: res.usage.input_tokens, outputTokens: res.usage.output_tokens },
      ...(res.model ? { model: res.model } : {}),
    };
  }
}
