// The one interface every chat provider implements, so the judge never knows which wire format
// (OpenAI-compatible, Anthropic, Ollama) is behind it.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** JSON schema (from zod via z.toJSONSchema) for structured output where the provider supports it */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ChatResponse {
  text: string;
  usage: ChatUsage;
  /** The model that answered, as the provider names it (may differ from the configured alias). */
  model: string;
  provider: string;
  /** Wall time of the whole call, retries and their waits included: what the caller waited. */
  latencyMs: number;
}

export interface ChatClient {
  readonly provider: string;
  readonly model: string;
  chat(req: ChatRequest): Promise<ChatResponse>;
}
