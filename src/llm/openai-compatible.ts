// OpenAI's Chat Completions wire format, which OpenAI, Ollama's /v1, LM Studio, vLLM and OpenRouter
// all speak: POST {baseUrl}/chat/completions.
import { z } from 'zod';
import { joinUrl } from '../core/http.js';
import type { ChatRequest } from './chat.js';
import type { LlmConfig } from '../core/llm-config.js';
import { schemaInstruction, wireSchema, withSystemInstruction } from './json-output.js';
import { estimateTokens, HttpChatClient, type ProviderAnswer } from './http-client.js';
import type { TransportOptions } from './transport.js';

export type OpenAIChatConfig = Extract<LlmConfig, { provider: 'openai' }>;

const completion = z.lazy(() =>
  z.object({
    model: z.string().optional(),
    choices: z
      .array(
        z.object({
          message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
          finish_reason: z.string().nullish(),
        }),
      )
      .min(1),
    usage: z.object({ prompt_tokens: z.number().int().nonnegative(), completion_tokens: z.number().int().nonnegative() }).nullish(),
  }),
);

/** OpenAI's json_schema `name` allows only these characters, up to 64. */
function schemaName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'answer';
}

export class OpenAIChatClient extends HttpChatClient {
  protected readonly label: string;

  constructor(
    protected override readonly config: OpenAIChatConfig,
    options: TransportOptions = {},
  ) {
    super(config, options);
    this.label = `OpenAI-compatible endpoint (${config.model})`;
  }

  protected url(): string {
    return joinUrl(this.config.baseUrl, 'chat/completions');
  }

  protected headers(apiKey: string | undefined): Record<string, string> {
    return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  }

  protected body(req: ChatRequest): unknown {
    const objectMode = req.jsonSchema !== undefined && this.config.jsonMode === 'object';
    // json_object takes no schema (and OpenAI requires the word JSON in the prompt), so the shape goes into the system prompt.
    const messages = objectMode ? withSystemInstruction(req.messages, schemaInstruction(req.jsonSchema!)) : req.messages;
    // OpenAI's own API rejects max_tokens for newer models; the compatible servers may not know the newer name.
    const tokensKey = new URL(this.config.baseUrl).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
    return {
      model: this.config.model,
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      ...(req.maxTokens === undefined ? {} : { [tokensKey]: req.maxTokens }),
      ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
      ...(req.jsonSchema === undefined
        ? {}
        : objectMode
          ? { response_format: { type: 'json_object' } }
          : {
              response_format: {
                type: 'json_schema',
                json_schema: { name: schemaName(req.jsonSchema.name), schema: wireSchema(req.jsonSchema.schema), strict: true },
              },
            }),
    };
  }

  protected read(json: unknown, req: ChatRequest): ProviderAnswer {
    const res = this.shape(completion, json);
    const choice = res.choices[0]!;
    if (choice.message.refusal) throw this.fail('refused', `refused to answer: ${choice.message.refusal}`);
    if (choice.finish_reason === 'content_filter') throw this.fail('refused', 'stopped its answer by content filter');
    const text = this.checked(choice.message.content ?? '', choice.finish_reason === 'length', req);
    const usage = res.usage
      ? { inputTokens: res.usage.prompt_tokens, outputTokens: res.usage.completion_tokens }
      : { inputTokens: estimateTokens(req.messages.map((m) => m.content).join('\n')), outputTokens: estimateTokens(text) };
    return { text, usage, ...(res.model ? { model: res.model } : {}) };
  }
}
