// The timeline (/timeline?ns=&from=&to=&item=): one row per logical day, a strip from the morning
// to the next morning with the night window shaded (the night belongs to the day it started, as
// the server placed it), the day's and the night's turns and memories listed under it. A memory
// opens its page; a turn opens here, below its row (?item=t_…). The range lives in the URL; a turn
// linked without one (a memory's provenance) is looked up first and opened on the day it belongs to.
import type { VNode } from 'preact';
import { useEffect } from 'preact/hooks';
import { apiGet, nsPath } from '../api.js';
import { ErrorBox, Loading } from '../components.js';
import { html } from '../html.js';
import { chosenNamespace, useNamespaces } from '../namespaces.js';
import { href, navigate } from '../router.js';
import { useLoad } from '../use-load.js';
import type { Timeline, TimelineItem, TurnView } from '../browse-types.js';
import type { ViewProps } from './index.js';

const STRIP_WIDTH = 1000;
type Day = Timeline['days'][number];

const dayLabel = (day: string) => new Date(`${day}T12:00:00Z`).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

function itemHref(item: Pick<TimelineItem, 'kind' | 'id'>, ns: string, params: URLSearchParams): string {
  if (item.kind === 'memory') return href(`/memory/${encodeURIComponent(item.id)}`, { ns });
  return href('/timeline', { ...Object.fromEntries(params.entries()), ns, item: item.id });
}

/** The day from its morning to the next, the night shaded, a tick per record. */
function Strip({ day, focus }: { day: Day; focus: string | null }): VNode {
  const start = Date.parse(day.windows.day.start);
  const span = Date.parse(day.windows.night.end) - start;
  const x = (iso: string) => Math.max(0, Math.min(STRIP_WIDTH, ((Date.parse(iso) - start) / span) * STRIP_WIDTH));
  const nightX = x(day.windows.night.start);
  const label = `${dayLabel(day.day)}: ${day.items.length - day.counts.night} records in the day, ${day.counts.night} in the night`;
  return html`<svg class="strip" viewBox="0 0 ${STRIP_WIDTH} 28" preserveAspectRatio="none" role="img" aria-label=${label}>
    <rect class="strip-day" x="0" y="0" width=${nightX} height="28" />
    <rect class="strip-night" x=${nightX} y="0" width=${STRIP_WIDTH - nightX} height="28" />
    ${day.items.map((i) => html`<rect class=${`tick ${i.kind}${i.id === focus ? ' focus' : ''}`} x=${x(i.time) - 2} y=${i.kind === 'memory' ? 2 : 14} width="4" height="12" />`)}
  </svg>` as VNode;
}

function Items({ items, ns, params, focus }: { items: TimelineItem[]; ns: string; params: URLSearchParams; focus: string | null }): VNode {
  // A turn that became a memory listed here is shown once, as the memory, with a link to the turn.
  const shown = new Set(items.filter((i) => i.kind === 'memory').map((i) => i.id));
  const rows = items.filter((i) => !(i.kind === 'turn' && i.related.length > 0 && i.related.every((m) => shown.has(m))));
  if (rows.length === 0) return html`<p class="muted">Nothing.</p>` as VNode;
  return html`<ol class="items">
    ${rows.map(
      (i) => html`<li key=${i.id} class=${`item ${i.kind}${i.id === focus || i.related.includes(focus ?? '') ? ' focus' : ''}`} data-id=${i.id} data-kind=${i.kind}>
        <time datetime=${i.time}>${i.localTime}</time>
        <span class="tag">${i.kind === 'memory' ? `memory${i.importance !== null ? ` · ${i.importance}` : ''}` : i.role ?? 'turn'}</span>
        <a href=${itemHref(i, ns, params)}>${i.text}</a>
        ${i.current ? null : html` <span class="tag warn">superseded</span>`}
        ${i.kind === 'memory'
          ? i.related.map((t) => html` <a class="from-turn" data-turn=${t} href=${itemHref({ kind: 'turn', id: t }, ns, params)} aria-label=${`the turn this memory came from (${i.localTime})`}>turn</a>`)
          : null}
      </li>`,
    )}
  </ol>` as VNode;
}

function TurnPanel({ ns, id }: { ns: string; id: string }): VNode {
  const turn = useLoad<TurnView>(`${ns}/${id}`, () => apiGet<TurnView>(nsPath(ns, 'turns', id)));
  useEffect(() => {
    if (turn.data) document.getElementById('turn-title')?.focus();
  }, [turn.data]);
  if (turn.error) return html`<${ErrorBox} error=${turn.error} />` as VNode;
  if (!turn.data) return html`<${Loading} />` as VNode;
  const t = turn.data;
  return html`<section class="turn-panel" aria-labelledby="turn-title">
    <h3 id="turn-title" tabindex="-1">Turn by ${t.speaker ?? t.role}</h3>
    <p class="memory-text">${t.text}</p>
    <dl class="fields">
      <dt>Time</dt><dd><time datetime=${t.timestamp}>${new Date(t.timestamp).toLocaleString()}</time>${t.placed ? ` (${t.placed.part} of ${t.placed.day})` : ''}</dd>
      <dt>Session</dt><dd><code>${t.sessionId}</code></dd>
      ${t.line !== null ? html`<dt>Transcript line</dt><dd>${t.line}</dd>` : null}
      <dt>Memories</dt><dd>${t.memories.length ? t.memories.map((m) => html`<a href=${href(`/memory/${encodeURIComponent(m)}`, { ns })}><code>${m}</code></a> `) : html`<span class="muted">none (below the judge's threshold)</span>`}</dd>
    </dl>
  </section>` as VNode;
}

function RangeForm({ t, ns }: { t: Timeline; ns: string }): VNode {
  const go = (range: { from: string; to: string }) => navigate('/timeline', { ns, ...range });
  const submit = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    go({ from: String(form.get('from')), to: String(form.get('to')) });
  };
  return html`<form class="range" onSubmit=${submit}>
    <button type="button" onClick=${() => go(t.previous)}>← Earlier</button>
    <label>From <input type="date" name="from" value=${t.from} required /></label>
    <label>To <input type="date" name="to" value=${t.to} required /></label>
    <button type="submit">Show</button>
    <button type="button" onClick=${() => go(t.next)}>Later →</button>
  </form>` as VNode;
}

export function TimelineView({ params }: ViewProps): VNode {
  const { namespaces } = useNamespaces();
  const ns = chosenNamespace(params, namespaces);
  const from = params.get('from') ?? undefined;
  const to = params.get('to') ?? undefined;
  const focus = params.get('item');
  const unplaced = ns && focus?.startsWith('t_') && !from && !to ? focus : null;
  const placing = useLoad<TurnView>(unplaced ? `${ns}/${unplaced}` : null, () => apiGet<TurnView>(nsPath(ns!, 'turns', unplaced!)));
  const day = placing.data?.placed?.day;
  useEffect(() => {
    if (unplaced && day) navigate('/timeline', { ns: ns!, from: day, to: day, item: unplaced }, { replace: true });
  }, [unplaced, day]);
  // Until the turn's day is known there is no range to load; a turn that cannot be placed falls back to the default range.
  const waiting = unplaced !== null && !placing.error && (!placing.data || !!day);
  const timeline = useLoad<Timeline>(ns && !waiting ? `${ns}|${from}|${to}` : null, () => apiGet<Timeline>(nsPath(ns!, 'timeline'), { from, to }));
  useEffect(() => {
    if (focus && timeline.data) document.querySelector(`[data-id="${CSS.escape(focus)}"], [data-turn="${CSS.escape(focus)}"]`)?.scrollIntoView({ block: 'center' });
  }, [focus, timeline.data]);

  const title = html`<h1>Timeline</h1>`;
  if (timeline.error) return html`<section>${title}<${ErrorBox} error=${timeline.error} /></section>` as VNode;
  if (!timeline.data || !ns) return html`<section>${title}<${Loading} /></section>` as VNode;
  const t = timeline.data;
  const { dayStart, nightStart } = t.bounds;
  return html`<section class="timeline">
    ${title}
    <p class="muted">Days run ${dayStart}–${nightStart}; the night (${nightStart}–${dayStart}, shaded) belongs to the day it started. Times in ${t.timezone}.</p>
    <${RangeForm} t=${t} ns=${ns} />
    ${t.truncated ? html`<p class="notice" role="status">More records than shown: the oldest of the range are left out. Pick fewer days.</p>` : null}
    ${t.days.map(
      (d) => html`<section class="day" key=${d.day} aria-labelledby=${`day-${d.day}`} data-day=${d.day}>
        <h2 id=${`day-${d.day}`}>${dayLabel(d.day)} <span class="muted">· ${d.counts.memories} memories, ${d.counts.turns} turns</span></h2>
        <${Strip} day=${d} focus=${focus} />
        <div class="parts">
          <div class="part">
            <h3>Day <span class="muted">${dayStart}–${nightStart}</span></h3>
            <${Items} items=${d.items.filter((i) => i.part === 'day')} ns=${ns} params=${params} focus=${focus} />
          </div>
          <div class="part night" data-part="night">
            <h3>Night <span class="muted">${nightStart}–${dayStart}</span></h3>
            <${Items} items=${d.items.filter((i) => i.part === 'night')} ns=${ns} params=${params} focus=${focus} />
          </div>
        </div>
        ${focus && focus.startsWith('t_') && d.items.some((i) => i.id === focus) ? html`<${TurnPanel} ns=${ns} id=${focus} />` : null}
      </section>`,
    )}
    ${focus && focus.startsWith('t_') && !t.days.some((d) => d.items.some((i) => i.id === focus)) ? html`<${TurnPanel} ns=${ns} id=${focus} />` : null}
  </section>` as VNode;
}
