// Structured output on both ends: the JSON schema sent to the provider, instructions for providers
// that cannot enforce one, and validation of the model's text, which is never trusted as-is.
import { z } from 'zod';
import { excerpt } from '../core/http.js';
import type { ChatMessage, ChatRequest, ChatResponse } from './chat.js';
import { llmError } from './errors.js';

/** The request's `jsonSchema` for a zod schema. */
export function jsonSchemaOf(name: string, schema: z.ZodType): NonNullable<ChatRequest['jsonSchema']> {
  return { name, schema: z.toJSONSchema(schema) as Record<string, unknown> };
}

/** The schema as providers take it: `$schema` is metadata some strict validators reject. */
export function wireSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

/** Tells the model the shape in words, for providers whose JSON mode does not take a schema. */
export function schemaInstruction(jsonSchema: NonNullable<ChatRequest['jsonSchema']>): string {
  return `Answer with one JSON object only (no prose, no code fences) that matches this JSON schema:\n${JSON.stringify(wireSchema(jsonSchema.schema))}`;
}

/** Adds `instruction` to the system prompt, creating one when the conversation has none. */
export function withSystemInstruction(messages: readonly ChatMessage[], instruction: string): ChatMessage[] {
  const i = messages.findIndex((m) => m.role === 'system');
  if (i === -1) return [{ role: 'system', content: instruction }, ...messages];
  return messages.map((m, j) => (j === i ? { ...m, content: `${m.content}\n\n${instruction}` } : m));
}

/** The JSON value in a model's text, tolerating code fences and a line of prose around it. */
function extractJson(text: string): unknown {
  const unfenced = text.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  try {
    return JSON.parse(unfenced);
  } catch (first) {
    const start = unfenced.search(/[{[]/);
    const end = Math.max(unfenced.lastIndexOf('}'), unfenced.lastIndexOf(']'));
    if (start === -1 || end <= start) throw first;
    return JSON.parse(unfenced.slice(start, end + 1));
  }
}

/** Parses and validates the model's answer; throws CairnError(LLM, kind 'invalid-output'). */
export function parseJsonOutput<T>(res: Pick<ChatResponse, 'text' | 'provider' | 'model'>, schema: z.ZodType<T>): T {
  const who = `${res.provider} (${res.model})`;
  let value: unknown;
  try {
    value = extractJson(res.text);
  } catch (err) {
    throw llmError(`${who} answered with text that is not JSON: ${excerpt(res.text)}`, { kind: 'invalid-output', provider: res.provider }, err);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
      .join('; ');
    throw llmError(`${who} answered with JSON of the wrong shape: ${issues}; text: ${excerpt(res.text)}`, { kind: 'invalid-output', provider: res.provider });
  }
  return parsed.data;
}
