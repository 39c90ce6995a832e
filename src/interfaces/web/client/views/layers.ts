// The layers (/layers?ns=&path=): the pyramid of the namespace, MEMORY.md on top, then weekly
// distills, daily reviews, daily and last-night notes and topics, the life/ pages (PARA: the
// index, then one page per promoted entity, grouped by drawer), and the chosen file rendered.
// The server renders the Markdown (markdown-it, raw HTML off, links checked: layers.ts in
// src/service/browse), so its HTML is the one thing inserted as HTML here; every cited memory or
// turn in it is a link the app follows.
import type { VNode } from 'preact';
import { apiGet, nsPath } from '../api.js';
import { ErrorBox, Loading } from '../components.js';
import { html } from '../html.js';
import { chosenNamespace, useNamespaces } from '../namespaces.js';
import { href } from '../router.js';
import { useLoad } from '../use-load.js';
import type { LayerEntry, RenderedLayer } from '../browse-types.js';
import type { ViewProps } from './index.js';

interface Group {
  title: string;
  has: (e: LayerEntry) => boolean;
  open: boolean;
}

/** A life/ page's PARA drawer, from its path (life/<drawer>/<slug>/summary.md). */
const drawer = (e: LayerEntry) => /^life\/([a-z]+)\//.exec(e.path)?.[1];

const GROUPS: Group[] = [
  { kind: 'memory', title: 'MEMORY.md' },
  { kind: 'weekly', title: 'Weekly distills' },
  { kind: 'review', title: 'Daily reviews' },
  { kind: 'daily', title: 'Daily notes' },
  { kind: 'night', title: 'Last-night notes' },
  { kind: 'topic', title: 'Topics' },
  { kind: 'life', title: 'Life (PARA index)' },
].map(({ kind, title }) => ({ title, has: (e: LayerEntry) => e.kind === kind, open: kind !== 'topic' }));
for (const [para, title] of [['projects', 'Life: projects'], ['areas', 'Life: areas'], ['resources', 'Life: resources'], ['archives', 'Life: archives']] as const) {
  GROUPS.push({ title, has: (e) => e.kind === 'entity' && drawer(e) === para, open: false });
}

function label(e: LayerEntry): string {
  const key = /(\d{4}-(?:W\d{2}|\d{2}-\d{2}))/.exec(e.path)?.[1];
  if (e.kind === 'memory') return 'MEMORY.md';
  if (e.kind === 'life') return 'life/index.md';
  return e.kind === 'topic' || e.kind === 'entity' ? e.title : key ?? e.path;
}

function Pyramid({ layers, ns, path }: { layers: LayerEntry[]; ns: string; path: string | null }): VNode {
  return html`<nav class="pyramid" aria-label="Layer files">
    ${GROUPS.map(({ title, has, open }) => {
      const own = layers.filter(has);
      if (own.length === 0) return null;
      return html`<details open=${open || own.some((l) => l.path === path)}>
        <summary>${title} <span class="muted">(${own.length})</span></summary>
        <ul>
          ${own.map((l) => html`<li><a href=${href('/layers', { ns, path: l.path })} aria-current=${l.path === path ? 'page' : undefined}>${label(l)}</a></li>`)}
        </ul>
      </details>`;
    })}
  </nav>` as VNode;
}

function Document({ ns, path }: { ns: string; path: string }): VNode {
  const doc = useLoad<RenderedLayer>(`${ns}|${path}`, () => apiGet<RenderedLayer>(nsPath(ns, 'layers', 'file'), { path }));
  if (doc.error) return html`<${ErrorBox} error=${doc.error} />` as VNode;
  if (!doc.data) return html`<${Loading} />` as VNode;
  const d = doc.data;
  return html`<article class="layer-doc" aria-label=${d.path}>
    <p class="meta"><code>${d.path}</code> · layer ${d.layer} · written by ${d.generator} · updated <time datetime=${d.updatedAt}>${new Date(d.updatedAt).toLocaleString()}</time> · ${d.citations.length} citations</p>
    <div class="markdown" dangerouslySetInnerHTML=${{ __html: d.html }}></div>
  </article>` as VNode;
}

export function LayersView({ params }: ViewProps): VNode {
  const { namespaces } = useNamespaces();
  const ns = chosenNamespace(params, namespaces);
  const list = useLoad<{ layers: LayerEntry[] }>(ns ?? null, () => apiGet<{ layers: LayerEntry[] }>(nsPath(ns!, 'layers')));
  const title = html`<h1>Layers</h1>`;
  if (list.error) return html`<section>${title}<${ErrorBox} error=${list.error} /></section>` as VNode;
  if (!list.data || !ns) return html`<section>${title}<${Loading} /></section>` as VNode;
  const layers = list.data.layers;
  const path = params.get('path') ?? layers[0]?.path ?? null;
  return html`<section class="layers">
    ${title}
    ${layers.length === 0
      ? html`<p class="muted">No layers yet: they are written by consolidation (<code>cairn consolidate</code>, or the daemon's schedule).</p>`
      : html`<div class="layers-grid">
          <${Pyramid} layers=${layers} ns=${ns} path=${path} />
          ${path ? html`<${Document} ns=${ns} path=${path} />` : null}
        </div>`}
  </section>` as VNode;
}
