// The client's only way to the server: the same /v1 REST API an agent uses. Sends the session's
// CSRF token on state-changing requests, turns JSON errors into ApiError, and sends the user to
// the login form when the session is gone (401).

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const CSRF_HEADER = 'x-cairn-csrf';

function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
}

/** 'cookie' when logged in with a token, 'open' in token-less loopback mode. */
export function sessionKind(): 'cookie' | 'open' {
  return meta('cairn-session') === 'cookie' ? 'cookie' : 'open';
}

function url(path: string, query?: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

async function handle<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (res.ok) return body as T;
  const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
  if (res.status === 401) {
    location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
  }
  throw new ApiError(res.status, error?.code ?? 'HTTP_ERROR', error?.message ?? `The server answered ${res.status} ${res.statusText}`);
}

export async function apiGet<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T> {
  const res = await fetch(url(path, query), { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  return handle<T>(res);
}

export async function apiSend<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', [CSRF_HEADER]: meta('cairn-csrf') };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  return handle<T>(res);
}

/** A namespace-scoped REST path: `nsPath('work', 'memories', id)` → `/v1/namespaces/work/memories/<id>`. */
export function nsPath(ns: string, ...rest: string[]): string {
  return ['/v1/namespaces', ns, ...rest].map((p, i) => (i === 0 ? p : encodeURIComponent(p))).join('/');
}
