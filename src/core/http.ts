// HTTP pieces shared by the network embedders and the LLM chat clients: both talk JSON to services
// that may be slow, rate-limited or wrong, and both must report that in one clear sentence.

/** Parses Retry-After (delta seconds or an HTTP date) into ms; undefined when absent or unusable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

const EXCERPT_CHARS = 300;

/** One line of at most `chars` characters, so a body can be quoted in an error message. */
export function excerpt(text: string, chars = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > chars ? `${flat.slice(0, chars)}…` : flat || '(empty body)';
}

/** Describes a fetch rejection: refused connection, DNS failure, reset, … */
export function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message || cause?.code || (err instanceof Error ? err.message : String(err));
}

/** True for the rejection of a fetch whose signal fired (timeout or abort). */
export function isAbortLike(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
}

/** Joins a base URL and a path without doubling or losing the slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** True when the URL's host is this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Reads a response body as UTF-8, stopping after `maxBytes`: a misbehaving server must not be
 * able to make us buffer an unbounded body. `overflow` says the body was longer than the cap.
 */
export async function readTextCapped(response: Response, maxBytes: number): Promise<{ text: string; overflow: boolean }> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    return { text: '', overflow: true };
  }
  if (!response.body) return { text: '', overflow: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return { text: Buffer.concat(chunks).toString('utf8'), overflow: true };
    }
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), overflow: false };
}
