// The pyramid of a namespace for people: MEMORY.md, weekly distills, daily reviews, daily and
// last-night notes (and topics), and the life/ pages (PARA: its index and one page per promoted
// entity: people, projects, places, tools), listed from the store (the system of record), and one of them
// rendered as HTML that is safe to insert into a page: markdown-it with raw HTML off, images off,
// links kept only when they go somewhere harmless, and every cited `m_…`/`t_…` id made a link that
// opens the memory, or the turn on its day of the timeline.
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { CairnError, ERROR_CODES, invalidInput } from '../../core/errors.js';
import type { CairnConfig } from '../../core/config.js';
import { PARA_KINDS, type Digest, type DigestKind } from '../../core/types.js';
import type { Store } from '../../store/store.js';
import { boundsOf } from '../../consolidate/runner.js';
import { placeInstant } from '../../consolidate/windows.js';

/** The digest kinds the layers view lists, top of the pyramid first. */
export const LAYER_KINDS = ['memory', 'weekly', 'review', 'daily', 'night', 'topic', 'life', 'entity'] as const satisfies readonly DigestKind[];
export type LayerKind = (typeof LAYER_KINDS)[number];
export const LAYERS_DEFAULT_LIMIT = 60;
export const LAYERS_MAX_LIMIT = 1000;

/** The files of the pyramid, by the names digest-paths.ts gives them; nothing else can be asked for. */
export const LAYER_PATH_RE =
  /^(?:MEMORY\.md|daily\/\d{4}-\d{2}-\d{2}(?:-last-night)?\.md|reviews\/\d{4}-\d{2}-\d{2}\.md|weekly\/\d{4}-W\d{2}\.md|topics\/[a-z0-9][a-z0-9-]{0,99}\.md|life\/index\.md|life\/(?:projects|areas|resources|archives)\/[a-z0-9][a-z0-9-]{0,99}\/summary\.md)$/;
const CITED_RE = /^[mt]_[A-Za-z0-9_~-]{1,80}$/;

export interface LayerEntry {
  path: string;
  kind: DigestKind;
  layer: 1 | 2 | 3;
  title: string;
  periodStart: string;
  periodEnd: string;
  updatedAt: string;
  generator: string;
}

export interface RenderedLayer extends LayerEntry {
  /** The Markdown as stored. */
  markdown: string;
  /** Safe to insert as HTML: no raw HTML, no scripts, links only to this UI or http(s). */
  html: string;
  /** Every cited record, in order, with where the UI opens it. */
  citations: Array<{ id: string; kind: 'memory' | 'turn'; href: string }>;
}

function entryOf(d: Digest): LayerEntry {
  const heading = /^#\s+(.+)$/m.exec(d.text)?.[1]?.trim() ?? d.path;
  return { path: d.path, kind: d.kind, layer: d.layer, title: heading.slice(0, 200), periodStart: d.periodStart, periodEnd: d.periodEnd, updatedAt: d.updatedAt, generator: d.generator };
}

/** The namespace's layers, MEMORY.md first, then each kind newest first (life/ pages by path: PARA drawer, then name), at most `limit` of each kind. */
export async function listLayers(store: Store, namespace: string, input: { kind?: LayerKind; limit?: number } = {}): Promise<LayerEntry[]> {
  const kinds = input.kind ? [input.kind] : [...LAYER_KINDS];
  const limit = Math.min(input.limit ?? LAYERS_DEFAULT_LIMIT, LAYERS_MAX_LIMIT);
  const digests = await store.listDigests(namespace, { kinds });
  const out: LayerEntry[] = [];
  for (const kind of kinds) {
    const byPath = (a: Digest, b: Digest) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    const newest = (a: Digest, b: Digest) => (a.periodStart > b.periodStart ? -1 : a.periodStart < b.periodStart ? 1 : byPath(a, b));
    const own = digests.filter((d) => d.kind === kind).sort(kind === 'entity' ? byPath : newest);
    out.push(...own.slice(0, limit).map(entryOf));
  }
  return out;
}

export function checkLayerPath(path: string): string {
  if (typeof path !== 'string' || !LAYER_PATH_RE.test(path)) {
    throw invalidInput(`not a layer file: ${JSON.stringify(String(path).slice(0, 80))} (MEMORY.md, daily/YYYY-MM-DD[-last-night].md, reviews/YYYY-MM-DD.md, weekly/YYYY-Www.md, topics/<slug>.md, life/index.md or life/<para>/<slug>/summary.md)`);
  }
  return path;
}

/** Where the UI opens a cited record: a memory's page, or a turn on its day of the timeline. */
export function citationHref(namespace: string, kind: 'memory' | 'turn', id: string, day: string | null): string {
  const ns = encodeURIComponent(namespace);
  if (kind === 'memory') return `/memory/${encodeURIComponent(id)}?ns=${ns}`;
  return day ? `/timeline?ns=${ns}&from=${day}&to=${day}&item=${encodeURIComponent(id)}` : `/timeline?ns=${ns}&item=${encodeURIComponent(id)}`;
}

/** A link target in a layer file, resolved: a sibling layer file opens in the layers view; http(s) stays; anything else is no link. */
export function safeHref(namespace: string, from: string, href: string): string | null {
  const h = href.trim();
  if (/^https?:\/\/[^\s]+$/i.test(h)) return h;
  if (/^[a-z][a-z0-9+.-]*:/i.test(h) || h.startsWith('//') || h.startsWith('/')) return null;
  const base = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
  const parts: string[] = [];
  for (const seg of (base + h.split(/[?#]/)[0]).split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  const path = parts.join('/');
  return LAYER_PATH_RE.test(path) ? `/layers?ns=${encodeURIComponent(namespace)}&path=${encodeURIComponent(path)}` : null;
}

/** Hides a link_open and its link_close (the text between stays as text). */
function unlink(tokens: Token[], open: number): void {
  tokens[open]!.hidden = true;
  let depth = 0;
  for (let i = open + 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'link_open') depth++;
    if (t.type === 'link_close') {
      if (depth === 0) {
        t.hidden = true;
        return;
      }
      depth--;
    }
  }
}

function renderer(namespace: string, path: string, hrefOf: (id: string) => string): MarkdownIt {
  const md = new MarkdownIt('commonmark', { html: false, linkify: false, typographer: false });
  md.disable(['image', 'html_inline', 'html_block']);
  md.core.ruler.push('cairn_links', (state) => {
    for (const block of state.tokens) {
      const children = block.children ?? [];
      for (let i = 0; i < children.length; i++) {
        const t = children[i]!;
        if (t.type !== 'link_open') continue;
        const href = safeHref(namespace, path, t.attrGet('href') ?? '');
        if (href === null) unlink(children, i);
        else {
          t.attrSet('href', href);
          if (/^https?:/i.test(href)) t.attrSet('rel', 'noopener noreferrer');
        }
      }
    }
  });
  const escape = md.utils.escapeHtml;
  md.renderer.rules.code_inline = (tokens, idx) => {
    const content = tokens[idx]!.content;
    const code = `<code>${escape(content)}</code>`;
    return CITED_RE.test(content) ? `<a class="cite" href="${escape(hrefOf(content))}">${code}</a>` : code;
  };
  return md;
}

/** One layer file rendered for the web UI; NOT_FOUND when the namespace has none at that path. */
export async function renderLayer(store: Store, config: CairnConfig, namespace: string, path: string): Promise<RenderedLayer> {
  const digest = await store.getDigest(namespace, checkLayerPath(path));
  if (!digest) throw new CairnError(ERROR_CODES.NOT_FOUND, `No layer file ${path} in namespace ${namespace}`);
  return renderDigest(config, namespace, digest);
}

/** The life/ page consolidation wrote for an entity (under whichever PARA drawer it was filed), rendered. */
export async function renderEntitySummary(store: Store, config: CairnConfig, namespace: string, slug: string): Promise<RenderedLayer> {
  for (const kind of PARA_KINDS) {
    const digest = await store.getDigest(namespace, `life/${kind}/${slug}/summary.md`);
    if (digest) return renderDigest(config, namespace, digest);
  }
  throw new CairnError(ERROR_CODES.NOT_FOUND, `No life/ page for ${slug} in namespace ${namespace} yet (consolidation writes one for a promoted entity)`);
}

function renderDigest(config: CairnConfig, namespace: string, digest: Digest): RenderedLayer {
  const bounds = boundsOf(config);
  const known = new Map<string, { kind: 'memory' | 'turn'; day: string | null }>();
  for (const section of digest.sections) {
    for (const s of section.sources) known.set(s.id, { kind: s.kind, day: placeInstant(s.time, config.timezone, bounds)?.day ?? null });
  }
  const citations: RenderedLayer['citations'] = [];
  const hrefOf = (id: string): string => {
    const k = known.get(id) ?? { kind: id.startsWith('m_') ? ('memory' as const) : ('turn' as const), day: null };
    const href = citationHref(namespace, k.kind, id, k.day);
    if (!citations.some((c) => c.id === id)) citations.push({ id, kind: k.kind, href });
    return href;
  };
  const html = renderer(namespace, digest.path, hrefOf).render(digest.text);
  return { ...entryOf(digest), markdown: digest.text, html, citations };
}
