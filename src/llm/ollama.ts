// Ollama's native POST {baseUrl}/api/chat: a local model as a first-class judge, with the JSON
// schema passed as `format` so Ollama constrains decoding to it.
import { z } from 'zod';
import { joinUrl } from '../core/http.js';
import type { ChatRequest } from './chat.js';
import type { LlmConfig } from '../core/llm-config.js';
import { schemaInstruction, wireSchema, withSystemInstruction } from './json-output.js';
import { estimateTokens, HttpChatClient, type ProviderAnswer } from './http-client.js';
import type { TransportOptions } from './transport.js';

export type OllamaChatConfig = Extract<LlmConfig, { provider: 'ollama' }>;

const chatResponse = z.lazy(() =>
  z.object({
    model: z.string().optional(),
    message: z.object({ content: z.string() }),
    done: z.boolean().optional(),
    done_reason: z.string().nullish(),
    // Absent when the prompt was served from Ollama's cache.
    prompt_eval_count: z.number().int().nonnegative().optional(),
    eval_count: z.number().int().nonnegative().optional(),
  }),
);

export class OllamaChatClient extends HttpChatClient {
  protected readonly label: string;

  constructor(config: OllamaChatConfig, options: TransportOptions = {}) {
    super(config, options);
    this.label = `Ollama (${config.model})`;
  }

  protected url(): string {
    return joinUrl(this.config.baseUrl, 'api/chat');
  }

  protected headers(apiKey: string | undefined): Record<string, string> {
    // Plain Ollama needs no key; a hosted or proxied one takes a bearer token.
    return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  }

  protected body(req: ChatRequest): unknown {
    // Ollama's docs advise restating the schema in the prompt: small models follow it better.
    const messages = req.jsonSchema ? withSystemInstruction(req.messages, schemaInstruction(req.jsonSchema)) : req.messages;
    const options = {
      ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
      ...(req.maxTokens === undefined ? {} : { num_predict: req.maxTokens }),
    };
    return {
      model: this.config.model,
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      stream: false,
      ...(req.jsonSchema ? { format: wireSchema(req.jsonSchema.schema) } : {}),
      ...(Object.keys(options).length ? { options } : {}),
    };
  }

  protected read(json: unknown, req: ChatRequest): ProviderAnswer {
    const res = this.shape(chatResponse, json);
    if (res.done === false) throw this.fail('bad-response', 'sent a partial (streaming) answer although stream was false');
    const text = this.checked(res.message.content, res.done_reason === 'length', req);
    return {
      text,
      usage: {
        inputTokens: res.prompt_eval_count ?? 0,
        outputTokens: res.eval_count ?? estimateTokens(text),
      },
      ...(res.model ? { model: res.model } : {}),
    };
  }
}
