// The URL is the state: the path picks the view (views/index.ts), the query string holds its
// parameters, so a page can be linked and reloaded. navigate() pushes history; links inside the
// app (<a href="/...">) are followed without a reload by the click handler main.ts installs.
import { useEffect, useState } from 'preact/hooks';
import { views, type ViewDef } from './views/index.js';

export interface Route {
  view: string;
  params: URLSearchParams;
  id?: string;
}

const listeners = new Set<() => void>();

/** The view whose path matches, and the `:id` segment when its path has one. */
export function match(pathname: string): { def: ViewDef; id?: string } | null {
  for (const def of views) {
    const pattern = def.path.split('/');
    const parts = pathname.split('/');
    if (pattern.length !== parts.length) continue;
    let id: string | undefined;
    const ok = pattern.every((seg, i) => {
      if (seg === ':id') {
        id = decodeURIComponent(parts[i]!);
        return id !== '';
      }
      return seg === parts[i];
    });
    if (ok) return id === undefined ? { def } : { def, id };
  }
  return null;
}

function current(): Route {
  const m = match(location.pathname);
  const params = new URLSearchParams(location.search);
  if (!m) return { view: 'not-found', params };
  return m.id === undefined ? { view: m.def.name, params } : { view: m.def.name, params, id: m.id };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** A URL of the app: path plus the parameters that have a value. */
export function href(path: string, params?: Record<string, string | undefined>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== '') qs.set(k, v);
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

/** Goes to a URL of the app; `replace` rewrites the current history entry (a redirect) instead of adding one. */
export function navigate(path: string, params?: Record<string, string | undefined>, options: { replace?: boolean } = {}): void {
  const target = href(path, params);
  if (options.replace) history.replaceState(null, '', target);
  else if (target !== location.pathname + location.search) history.pushState(null, '', target);
  for (const l of listeners) l();
  scrollTo(0, 0);
}

/** An SVG attribute is an SVGAnimatedString, an HTML one a plain string. */
const attr = (v: string | SVGAnimatedString | undefined): string => (typeof v === 'string' ? v : (v?.baseVal ?? ''));

/**
 * Follows same-origin links of the app without reloading the page: HTML links and the links
 * inside SVG (the entity graph), whose `href` and `target` are SVGAnimatedStrings and which have
 * no `origin` or `pathname` of their own.
 */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element | null)?.closest?.('a') as (HTMLAnchorElement | SVGAElement | null) | undefined;
    if (!a || attr(a.target) || a.hasAttribute('download')) return;
    const raw = attr(a.href);
    if (!raw) return;
    const url = new URL(raw, location.href);
    if (url.origin !== location.origin || !match(url.pathname)) return;
    e.preventDefault();
    navigate(url.pathname + url.search);
  });
  // Enter on a focused SVG link is not a click in every browser (an HTML link's is): make it one, for the handler above.
  root.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const a = e.target instanceof SVGElement ? e.target.closest('a') : null;
    if (!a) return;
    e.preventDefault();
    a.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
  });
}
