// The namespaces the caller may see (GET /v1/namespaces filters by the token's grant), and the one
// the URL names (?ns=), defaulting to "default" when present, else the first.
import { useEffect, useState } from 'preact/hooks';
import { apiGet } from './api.js';

let cached: Promise<string[]> | null = null;

export function loadNamespaces(): Promise<string[]> {
  cached ??= apiGet<{ namespaces: string[] }>('/v1/namespaces').then((r) => r.namespaces);
  cached.catch(() => {
    cached = null;
  });
  return cached;
}

export function useNamespaces(): { namespaces: string[] | null; error: Error | null } {
  const [state, setState] = useState<{ namespaces: string[] | null; error: Error | null }>({ namespaces: null, error: null });
  useEffect(() => {
    loadNamespaces().then(
      (namespaces) => setState({ namespaces, error: null }),
      (error: Error) => setState({ namespaces: null, error }),
    );
  }, []);
  return state;
}

/** The namespace a view works in: ?ns= when given, else a sensible default from the list. */
export function chosenNamespace(params: URLSearchParams, namespaces: string[] | null): string | undefined {
  const given = params.get('ns');
  if (given) return given;
  if (!namespaces || namespaces.length === 0) return undefined;
  return namespaces.includes('default') ? 'default' : namespaces[0];
}
