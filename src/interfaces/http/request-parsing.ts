// Reading a request: path parameters, query strings and JSON bodies, each checked by its zod
// schema; whatever fails becomes a 400 (or 415) naming what was wrong. Shared by every route file.
import type { Context } from 'hono';
import type { z } from 'zod';
import { HttpError, validationError } from './errors.js';

/** A 200 reply with this body. */
export const ok = (body: unknown) => ({ status: 200 as const, body });

export function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

export function parseParam<S extends z.ZodType>(schema: S, value: string | undefined, what: string, code: 'INVALID_INPUT' | 'INVALID_NAMESPACE'): z.output<S> {
  const res = schema.safeParse(value);
  if (res.success) return res.data;
  const shown = value === undefined ? 'nothing' : JSON.stringify(truncate(value, 80));
  throw new HttpError(400, code, `Invalid ${what} ${shown}: ${res.error.issues[0]?.message ?? 'invalid'}`);
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const res = schema.safeParse(value);
  if (!res.success) throw validationError(what, res.error);
  return res.data;
}

/** The query string as an object: list parameters may repeat (joined by commas), others may not. */
export function queryObject(c: Context, schema: z.ZodObject): Record<string, string> {
  const out: Record<string, string> = {};
  const lists = new Set(['category', 'kind']);
  for (const [key, values] of Object.entries(c.req.queries())) {
    if (values.length > 1 && !lists.has(key) && key in schema.shape) {
      throw new HttpError(400, 'INVALID_INPUT', `Query parameter "${truncate(key, 40)}" is given more than once`);
    }
    out[key] = values.join(',');
  }
  return out;
}

/** Reads a JSON body: must be application/json (415) and parse (400). Size is already limited. */
export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type.trim())) {
    throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with "Content-Type: application/json"');
  }
  const text = await c.req.text();
  if (text.trim() === '') throw new HttpError(400, 'MALFORMED_JSON', 'Request body is empty: expected a JSON object');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new HttpError(400, 'MALFORMED_JSON', `Request body is not valid JSON: ${truncate((err as Error).message, 200)}`);
  }
}

export function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}
