// The chat model's config (mounted by the core config at `judge.llm`). Strict like the rest: the
// API key itself never lives here, only the name of the variable that holds it.
import { z } from 'zod';
import { lazily } from './lazily.js';
import { isLoopbackUrl } from './http.js';

export const llmConfigSchema = lazily(() => {
  const httpUrl = z.string().url().refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL');
  const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name such as OPENAI_API_KEY');
  const price = z.number().min(0).max(10_000);

  const common = {
    model: z.string().min(1),
    /** Name of the environment variable that holds the API key. */
    apiKeyEnv: envName.optional(),
    /** Per attempt, covering connect, headers and the whole body. */
    timeoutMs: z.number().int().positive().max(600_000).default(30_000),
    /** Further attempts after the first on 429/5xx/network errors/timeouts. */
    maxRetries: z.number().int().min(0).max(10).default(3),
    /** USD per million tokens; the daily budget is computed from these. */
    pricePerMillionInput: price.optional(),
    pricePerMillionOutput: price.optional(),
  };

  const providers = z.discriminatedUnion('provider', [
    z.strictObject({
      /** Any OpenAI-compatible /chat/completions (OpenAI, Ollama's /v1, LM Studio, vLLM, OpenRouter). */
      provider: z.literal('openai'),
      baseUrl: httpUrl.default('https://api.openai.com/v1'),
      ...common,
      /** 'object' sends response_format json_object, for servers without json_schema support. */
      jsonMode: z.enum(['schema', 'object']).default('schema'),
    }),
    z.strictObject({
      provider: z.literal('anthropic'),
      baseUrl: httpUrl.default('https://api.anthropic.com'),
      ...common,
    }),
    z.strictObject({
      /** Ollama's native /api/chat. */
      provider: z.literal('ollama'),
      baseUrl: httpUrl.default('http://127.0.0.1:11434'),
      ...common,
    }),
  ]);

  return providers
    .superRefine((c, ctx) => {
      // A hosted API without a key fails on the first call; say so at load time instead. A loopback
      // server (LM Studio, vLLM, a proxy) usually needs neither a key nor a price.
      const hosted = c.provider !== 'ollama' && !isLoopbackUrl(c.baseUrl);
      if (!hosted) return;
      if (c.apiKeyEnv === undefined) {
        ctx.addIssue({ code: 'custom', path: ['apiKeyEnv'], message: `required for provider "${c.provider}" at ${c.baseUrl} (name of the variable holding the API key)` });
      }
      // Without prices the daily budget could never trigger, so a paid API must state them.
      for (const key of ['pricePerMillionInput', 'pricePerMillionOutput'] as const) {
        if (c[key] === undefined) {
          ctx.addIssue({ code: 'custom', path: [key], message: `required for provider "${c.provider}" at ${c.baseUrl} (USD per million tokens; 0 if free)` });
        }
      }
    })
    .transform((c) => ({ ...c, pricePerMillionInput: c.pricePerMillionInput ?? 0, pricePerMillionOutput: c.pricePerMillionOutput ?? 0 }));
});

export type LlmConfig = z.output<ReturnType<typeof llmConfigSchema>>;
export type LlmConfigInput = z.input<ReturnType<typeof llmConfigSchema>>;
export type LlmProvider = LlmConfig['provider'];
