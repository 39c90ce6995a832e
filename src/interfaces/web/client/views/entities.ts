// The entities (/entities?ns=&entity=): the PARA graph (entities linked when the same memories
// name them), laid out by d3-force and drawn as SVG by Preact, with the same entities as a list
// for keyboards and screen readers; and one entity's page (?entity=) with what Cairn knows of it
// and its facts over time, superseded values included, under the life/ page consolidation wrote.
import type { VNode } from 'preact';
import { useMemo } from 'preact/hooks';
import { forceCenter, forceCollide, forceLink, forceManyBody, forceSimulation, type SimulationLinkDatum, type SimulationNodeDatum } from 'd3-force';
import { ApiError, apiGet, nsPath } from '../api.js';
import { ErrorBox, Loading, Time } from '../components.js';
import { html } from '../html.js';
import { chosenNamespace, useNamespaces } from '../namespaces.js';
import { href } from '../router.js';
import { useLoad } from '../use-load.js';
import type { EntityDetail, EntityGraph, Fact, GraphNode, RenderedLayer } from '../browse-types.js';
import type { ViewProps } from './index.js';

const W = 640;
const H = 420;
type Placed = GraphNode & SimulationNodeDatum;

const radius = (n: GraphNode) => 6 + Math.min(14, Math.sqrt(n.mentions) * 3);

/** Positions after the simulation settles: computed once per graph, no animation to wait for. */
function layout(graph: EntityGraph): { nodes: Placed[]; links: Array<{ source: Placed; target: Placed; memories: number }> } {
  const nodes: Placed[] = graph.nodes.map((n) => ({ ...n }));
  const links: Array<SimulationLinkDatum<Placed> & { memories: number }> = graph.edges.map((e) => ({ source: e.source, target: e.target, memories: e.memories }));
  const sim = forceSimulation(nodes)
    .force('link', forceLink<Placed, SimulationLinkDatum<Placed>>(links).id((d) => d.id).distance(90))
    .force('charge', forceManyBody().strength(-220))
    .force('center', forceCenter(W / 2, H / 2))
    .force('collide', forceCollide<Placed>().radius((d) => radius(d) + 18))
    .stop();
  sim.tick(300);
  const clamp = (v: number, max: number) => Math.max(24, Math.min(max - 24, v));
  for (const n of nodes) {
    n.x = clamp(n.x ?? W / 2, W);
    n.y = clamp(n.y ?? H / 2, H);
  }
  return { nodes, links: links as Array<{ source: Placed; target: Placed; memories: number }> };
}

function Graph({ graph, ns }: { graph: EntityGraph; ns: string }): VNode {
  const { nodes, links } = useMemo(() => layout(graph), [graph]);
  return html`<figure class="graph">
    <svg viewBox="0 0 ${W} ${H}" role="group" aria-labelledby="graph-caption">
      ${links.map((l) => html`<line class="edge" x1=${l.source.x} y1=${l.source.y} x2=${l.target.x} y2=${l.target.y} stroke-width=${Math.min(6, 1 + l.memories)} />`)}
      ${nodes.map(
        (n) => html`<a href=${href('/entities', { ns, entity: n.id })} class=${`node para-${n.para}${n.promoted ? '' : ' candidate'}`} aria-label=${`${n.name} (${n.type}, ${n.para}, ${n.mentions} mentions)`}>
          <circle cx=${n.x} cy=${n.y} r=${radius(n)} />
          <text x=${n.x} y=${(n.y ?? 0) + radius(n) + 14} text-anchor="middle">${n.name}</text>
        </a>`,
      )}
    </svg>
    <figcaption id="graph-caption">${graph.nodes.length} entities, ${graph.edges.length} links (two entities are linked when memories name both). Colour: PARA kind; dashed: a candidate, not promoted yet.</figcaption>
  </figure>` as VNode;
}

function EntityTable({ graph, ns }: { graph: EntityGraph; ns: string }): VNode {
  return html`<table class="table">
    <caption class="sr-only">Entities, most mentioned first</caption>
    <thead><tr><th scope="col">Entity</th><th scope="col">Type</th><th scope="col">PARA</th><th scope="col">Mentions</th></tr></thead>
    <tbody>
      ${graph.nodes.map((n) => html`<tr><td><a href=${href('/entities', { ns, entity: n.id })}>${n.name}</a>${n.relation ? html` <span class="muted">(${n.relation})</span>` : null}</td><td>${n.type}</td><td>${n.para}${n.promoted ? '' : ' · candidate'}</td><td>${n.mentions}</td></tr>`)}
    </tbody>
  </table>` as VNode;
}

function FactRows({ facts, ns }: { facts: Fact[]; ns: string }): VNode {
  return html`<table class="table facts">
    <caption class="sr-only">Facts over time</caption>
    <thead><tr><th scope="col">Attribute</th><th scope="col">Value</th><th scope="col">Valid</th><th scope="col">Source</th></tr></thead>
    <tbody>
      ${facts.map(
        (f) => html`<tr class=${f.validTo ? 'superseded' : ''}>
          <td>${f.attribute}</td><td>${f.value}${f.validTo ? html` <span class="tag warn">superseded</span>` : null}</td>
          <td><${Time} iso=${f.validFrom} />${f.validTo ? html` – <${Time} iso=${f.validTo} />` : ' – now'}</td>
          <td><a href=${href(`/memory/${encodeURIComponent(f.memoryId)}`, { ns })}>memory</a></td>
        </tr>`,
      )}
    </tbody>
  </table>` as VNode;
}

/** The entity's life/ page as consolidation wrote it (server-rendered, safe HTML); nothing before it exists. */
function LifePage({ ns, id }: { ns: string; id: string }): VNode | null {
  const page = useLoad<RenderedLayer>(`${ns}|${id}`, () => apiGet<RenderedLayer>(nsPath(ns, 'entities', id, 'summary')));
  if (page.error instanceof ApiError && page.error.status === 404) return html`<p class="muted">No summary yet: consolidation writes one once the entity is promoted.</p>` as VNode;
  if (page.error) return html`<${ErrorBox} error=${page.error} />` as VNode;
  if (!page.data) return html`<${Loading} />` as VNode;
  return html`<div class="markdown life" dangerouslySetInnerHTML=${{ __html: page.data.html }}></div>` as VNode;
}

function EntityPage({ ns, id }: { ns: string; id: string }): VNode {
  const detail = useLoad<EntityDetail>(`${ns}|${id}`, () => apiGet<EntityDetail>(nsPath(ns, 'entities', id)));
  const back = html`<p><a href=${href('/entities', { ns })}>← All entities</a></p>`;
  if (detail.error) return html`<section>${back}<${ErrorBox} error=${detail.error} /></section>` as VNode;
  if (!detail.data) return html`<section>${back}<${Loading} /></section>` as VNode;
  const { entity: e, facts, history, memories } = detail.data;
  const overTime = [...facts, ...history].sort((a, b) => (a.validFrom < b.validFrom ? -1 : a.validFrom > b.validFrom ? 1 : 0));
  return html`<article class="entity" aria-labelledby="entity-title">
    ${back}
    <h1 id="entity-title">${e.name}</h1>
    <p class="summary">
      A ${e.type}${e.relation ? ` (${e.relation})` : ''}, filed under ${e.para}${e.promoted ? '' : ' as a candidate'}: mentioned ${e.stats.mentions} times in ${e.stats.memories} memories,
      from <${Time} iso=${e.stats.firstSeen} /> to <${Time} iso=${e.stats.lastSeen} />.
      ${e.aliases.length > 1 ? html` Also known as ${e.aliases.filter((a) => a !== e.name).join(', ')}.` : null}
    </p>
    <section aria-labelledby="life-title">
      <h2 id="life-title">Summary</h2>
      <${LifePage} ns=${ns} id=${e.id} />
    </section>
    <section aria-labelledby="facts-title">
      <h2 id="facts-title">Facts over time</h2>
      ${overTime.length ? html`<${FactRows} facts=${overTime} ns=${ns} />` : html`<p class="muted">No facts yet.</p>`}
    </section>
    <section aria-labelledby="mem-title">
      <h2 id="mem-title">Recent memories</h2>
      ${memories.length
        ? html`<ul>${memories.map((m) => html`<li><a href=${href(`/memory/${encodeURIComponent(m.id)}`, { ns })}>${m.text}</a> <span class="muted">· <${Time} iso=${m.eventTime ?? m.createdAt} /></span></li>`)}</ul>`
        : html`<p class="muted">None.</p>`}
    </section>
  </article>` as VNode;
}

export function EntitiesView({ params }: ViewProps): VNode {
  const { namespaces } = useNamespaces();
  const ns = chosenNamespace(params, namespaces);
  const entity = params.get('entity');
  const graph = useLoad<EntityGraph>(ns && !entity ? ns : null, () => apiGet<EntityGraph>(nsPath(ns!, 'graph')));
  if (ns && entity) return html`<${EntityPage} ns=${ns} id=${entity} />` as VNode;
  const title = html`<h1>Entities</h1>`;
  if (graph.error) return html`<section>${title}<${ErrorBox} error=${graph.error} /></section>` as VNode;
  if (!graph.data || !ns) return html`<section>${title}<${Loading} /></section>` as VNode;
  if (graph.data.nodes.length === 0) return html`<section>${title}<p class="muted">No entities yet: they are learned from memories as they are stored.</p></section>` as VNode;
  return html`<section class="entities">
    ${title}
    <${Graph} graph=${graph.data} ns=${ns} />
    ${graph.data.truncated ? html`<p class="muted">The most mentioned entities only.</p>` : null}
    <${EntityTable} graph=${graph.data} ns=${ns} />
  </section>` as VNode;
}
