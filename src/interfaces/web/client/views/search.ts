// Search: the query box and filters live in the URL (/?ns=&q=&layer=&category=&minImportance=
// &from=&to=&asOf=), so a search can be linked and reloaded. Results show where they came from and
// why they ranked where they did (the explain factors, one bar each).
import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { apiGet, nsPath } from '../api.js';
import { ErrorBox, Loading, ProvenanceLine, Time } from '../components.js';
import { html } from '../html.js';
import { chosenNamespace, useNamespaces } from '../namespaces.js';
import { href, navigate } from '../router.js';
import { CATEGORIES, LAYERS, type ScoreParts, type SearchResponse, type SearchResult } from '../types.js';
import type { ViewProps } from './index.js';

const FILTERS = ['layer', 'category', 'minImportance', 'from', 'to', 'asOf'] as const;
type Field = 'q' | (typeof FILTERS)[number];

/** A date picked in the form (local day) as the ISO instant the API takes. */
function dayStart(day: string): string | undefined {
  const d = new Date(`${day}T00:00:00`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
function dayEnd(day: string): string | undefined {
  const d = new Date(`${day}T23:59:59.999`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function fieldsOf(params: URLSearchParams): Record<Field, string> {
  const out = { q: params.get('q') ?? '' } as Record<Field, string>;
  for (const f of FILTERS) out[f] = params.get(f) ?? '';
  return out;
}

/** The explain factors worth a bar: relevance parts (0–1) and the multipliers (1 = neutral). */
function factors(p: ScoreParts): Array<{ name: string; value: number; max: number; hint: string }> {
  const list = [
    { name: 'keywords (BM25)', value: p.bm25, max: 1, hint: 'normalised over the candidates' },
    { name: 'meaning (vector)', value: p.vector, max: 1, hint: 'normalised over the candidates' },
    { name: 'relevance', value: p.relevance, max: 1, hint: 'fused, with context' },
    { name: 'importance', value: p.importance, max: 2, hint: '1 = neutral' },
    { name: 'recency', value: p.recency, max: 2, hint: `1 = neutral, tier ${p.tier}` },
  ];
  if (p.neighbours > 0) list.push({ name: 'neighbours', value: p.neighbours, max: 1, hint: 'the turns around it' });
  if (p.speaker !== 1) list.push({ name: 'speaker', value: p.speaker, max: 2, hint: '1 = neutral' });
  if (p.when !== 1) list.push({ name: 'time named', value: p.when, max: 2, hint: '1 = neutral' });
  return list;
}

function Explain({ result }: { result: SearchResult }): VNode {
  const id = `explain-${result.id}`;
  return html`<details class="explain">
    <summary>Why this rank (score ${result.score.toFixed(3)}, confidence ${Math.round(result.confidence * 100)}%)</summary>
    <dl>
      ${factors(result.parts).map(
        (f, i) => html`<div class="factor">
          <dt id=${`${id}-${i}`}>${f.name}</dt>
          <dd><meter min="0" max=${f.max} value=${Math.min(f.value, f.max)} aria-labelledby=${`${id}-${i}`}></meter> <span>${f.value.toFixed(2)}</span> <small class="muted">${f.hint}</small></dd>
        </div>`,
      )}
    </dl>
  </details>` as VNode;
}

function Result({ result, ns }: { result: SearchResult; ns: string }): VNode {
  const openable = result.kind === 'memory';
  const title = result.snippet || result.text;
  return html`<li class="result">
    <h3>${openable ? html`<a href=${href(`/memory/${encodeURIComponent(result.id)}`, { ns })}>${title}</a>` : title}</h3>
    <p class="meta">
      <span class="tag">${result.kind}</span>
      ${result.category ? html` <span class="tag">${result.category}</span>` : null}
      ${result.importance !== null ? html` <span>importance ${result.importance}</span>` : null}
      ${!result.current ? html` <span class="tag warn">superseded</span>` : null}
      ${' '}<${Time} iso=${result.time} />
    </p>
    ${result.provenance.slice(0, 2).map((p) => html`<p class="meta"><${ProvenanceLine} p=${p} /></p>`)}
    <${Explain} result=${result} />
  </li>` as VNode;
}

export function SearchView({ params }: ViewProps): VNode {
  const { namespaces, error: nsError } = useNamespaces();
  const ns = chosenNamespace(params, namespaces);
  const key = params.toString();
  const [fields, setFields] = useState(() => fieldsOf(params));
  const [state, setState] = useState<{ loading: boolean; response: SearchResponse | null; error: unknown }>({ loading: false, response: null, error: null });

  useEffect(() => setFields(fieldsOf(params)), [key]);

  useEffect(() => {
    const q = params.get('q');
    if (!ns || !q) {
      setState({ loading: false, response: null, error: null });
      return;
    }
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    const from = params.get('from');
    const to = params.get('to');
    const asOf = params.get('asOf');
    apiGet<SearchResponse>(nsPath(ns, 'search'), {
      q,
      layer: params.get('layer') ?? undefined,
      category: params.get('category') ?? undefined,
      minImportance: params.get('minImportance') ?? undefined,
      since: from ? dayStart(from) : undefined,
      until: to ? dayEnd(to) : undefined,
      asOf: asOf ? dayEnd(asOf) : undefined,
    }).then(
      (response) => live && setState({ loading: false, response, error: null }),
      (error: unknown) => live && setState({ loading: false, response: null, error }),
    );
    return () => {
      live = false;
    };
  }, [key, ns]);

  const set = (f: Field) => (e: Event) => setFields({ ...fields, [f]: (e.currentTarget as HTMLInputElement).value });
  const submit = (e: Event) => {
    e.preventDefault();
    navigate('/', { ns, ...fields });
  };
  const { response } = state;

  return html`<section aria-labelledby="search-title">
    <h1 id="search-title">Search</h1>
    ${nsError ? html`<${ErrorBox} error=${nsError} />` : null}
    <form role="search" class="search" onSubmit=${submit}>
      <div class="query">
        <label for="q">Query</label>
        <input id="q" name="q" type="search" value=${fields.q} onInput=${set('q')} required maxlength="2000" placeholder="What did we decide about…" />
        <button type="submit">Search</button>
      </div>
      <fieldset class="filters">
        <legend>Filters</legend>
        <label>Layer <select name="layer" value=${fields.layer} onChange=${set('layer')}>
          <option value="">any</option>
          ${LAYERS.map((l) => html`<option value=${l.value}>${l.label}</option>`)}
        </select></label>
        <label>Category <select name="category" value=${fields.category} onChange=${set('category')}>
          <option value="">any</option>
          ${CATEGORIES.map((c) => html`<option value=${c}>${c}</option>`)}
        </select></label>
        <label>Importance at least <select name="minImportance" value=${fields.minImportance} onChange=${set('minImportance')}>
          <option value="">any</option>
          ${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => html`<option value=${String(n)}>${n}</option>`)}
        </select></label>
        <label>From <input type="date" name="from" value=${fields.from} onInput=${set('from')} /></label>
        <label>To <input type="date" name="to" value=${fields.to} onInput=${set('to')} /></label>
        <label>As of <input type="date" name="asOf" value=${fields.asOf} onInput=${set('asOf')} /></label>
      </fieldset>
    </form>
    <div aria-live="polite">
      ${state.loading ? html`<${Loading} />` : null}
      ${state.error ? html`<${ErrorBox} error=${state.error} />` : null}
      ${response && response.noGoodMatch ? html`<p class="notice" role="status">No good match: ${response.belowConfidence} result${response.belowConfidence === 1 ? '' : 's'} found, none likely to hold what you asked.</p>` : null}
      ${response && !response.noGoodMatch && response.results.length === 0 ? html`<p class="notice" role="status">Nothing found.</p>` : null}
      ${response?.degraded ? html`<p class="muted">Keyword search only: ${response.degraded}</p>` : null}
      ${response && response.results.length > 0
        ? html`<h2 class="sr-only">Results</h2><ol class="results">${response.results.map((r) => html`<${Result} key=${r.id} result=${r} ns=${ns ?? ''} />`)}</ol>`
        : null}
    </div>
  </section>` as VNode;
}
