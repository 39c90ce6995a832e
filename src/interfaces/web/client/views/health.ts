// Health (/health?ns=&days=&to=): is capture working? The namespace's sources with their figures,
// the daemon, the judge (LLM or the offline fallback, its breaker, today's spend against the
// budget), alerts, activity per day and importance as small SVG bar charts (each with its figures
// in a table), and the mood and kinds of activity the daily reviews recorded.
import type { VNode } from 'preact';
import { apiGet, nsPath } from '../api.js';
import { ErrorBox, Loading, Time } from '../components.js';
import { html } from '../html.js';
import { chosenNamespace, useNamespaces } from '../namespaces.js';
import { href, navigate } from '../router.js';
import { useLoad } from '../use-load.js';
import type { NamespaceHealth } from '../browse-types.js';
import type { ViewProps } from './index.js';

interface Series {
  label: string;
  values: Array<{ key: string; label: string; value: number }>;
}

const duration = (s: number) => (s < 90 ? `${Math.round(s)} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`);
const usd = (v: number) => `$${v.toFixed(2)}`;

/** Vertical bars, one group per key, one bar per series; the figures are also given as a table. */
function Bars({ id, caption, keys, series }: { id: string; caption: string; keys: Array<{ key: string; label: string }>; series: Series[] }): VNode {
  const max = Math.max(1, ...series.flatMap((s) => s.values.map((v) => v.value)));
  const width = 600;
  const height = 140;
  const group = width / Math.max(1, keys.length);
  const bar = Math.max(2, (group - 4) / series.length - 1);
  return html`<figure class="chart" aria-labelledby=${`${id}-cap`}>
    <figcaption id=${`${id}-cap`}>${caption}</figcaption>
    <svg viewBox="0 0 ${width} ${height + 18}" role="img" aria-label=${`${caption}: bar chart, figures in the table below`}>
      ${keys.map((k, i) =>
        series.map((s, j) => {
          const v = s.values.find((x) => x.key === k.key)?.value ?? 0;
          const h = (v / max) * height;
          return html`<rect class=${`bar s${j}`} x=${i * group + 2 + j * (bar + 1)} y=${height - h} width=${bar} height=${h}><title>${`${k.label}: ${v} ${s.label}`}</title></rect>`;
        }),
      )}
      ${keys.map((k, i) => (keys.length <= 16 || i % Math.ceil(keys.length / 16) === 0 ? html`<text class="axis" x=${i * group + group / 2} y=${height + 14} text-anchor="middle">${k.label}</text>` : null))}
    </svg>
    <details>
      <summary>Figures</summary>
      <table class="table">
        <thead><tr><th scope="col"></th>${series.map((s) => html`<th scope="col">${s.label}</th>`)}</tr></thead>
        <tbody>${keys.map((k) => html`<tr><th scope="row">${k.key}</th>${series.map((s) => html`<td>${s.values.find((x) => x.key === k.key)?.value ?? 0}</td>`)}</tr>`)}</tbody>
      </table>
    </details>
  </figure>` as VNode;
}

function Sources({ h }: { h: NamespaceHealth }): VNode {
  if (h.sources.length === 0) return html`<p class="muted">No capture source writes to this namespace (add one with <code>cairn sources add</code>).</p>` as VNode;
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Capture sources (scrolls sideways)"><table class="table sources">
    <caption class="sr-only">Capture sources</caption>
    <thead><tr><th scope="col">Source</th><th scope="col">Turns</th><th scope="col">Lag</th><th scope="col">Malformed lines</th><th scope="col">Secrets redacted</th><th scope="col">Errors</th><th scope="col">Last capture</th></tr></thead>
    <tbody>
      ${h.sources.map(
        (s) => html`<tr data-source=${s.id}>
          <th scope="row"><span class="tag">${s.kind}</span> <code>${s.path}</code>${s.missing ? html` <span class="tag warn">missing</span>` : null}${s.watched ? null : html` <span class="tag">not watched</span>`}</th>
          <td data-figure="turns">${s.turns}</td>
          <td data-figure="lag">${s.lagSeconds > 0 ? duration(s.lagSeconds) : 'caught up'}</td>
          <td data-figure="malformed">${s.malformed}</td>
          <td data-figure="redactions" title=${Object.entries(s.redactionsByKind).map(([k, n]) => `${k}: ${n}`).join(', ')}>${s.redactions}</td>
          <td data-figure="errors">${s.errors}${s.firstErrors.length ? html`<ul class="muted">${s.firstErrors.map((e) => html`<li>${e}</li>`)}</ul>` : null}</td>
          <td>${s.lastCaptureAt ? html`<${Time} iso=${s.lastCaptureAt} />` : 'never'}</td>
        </tr>`,
      )}
    </tbody>
  </table></div>` as VNode;
}

function Services({ h }: { h: NamespaceHealth }): VNode {
  const d = h.daemon;
  const j = h.judge;
  return html`<dl class="fields">
    <dt>Daemon</dt>
    <dd data-testid="daemon">${d.running ? html`running (pid ${d.pid}${d.lastScanAt ? html`, last scan <${Time} iso=${d.lastScanAt} />` : null}${d.queued ? `, ${d.queued} queued` : ''})` : html`<span class="tag warn">not running</span> start it with <code>cairn watch</code>`}</dd>
    <dt>Judge</dt>
    <dd data-testid="judge">${j.mode === 'llm' ? `LLM ${j.llm!.provider}/${j.llm!.model}` : j.llm ? html`<span class="tag warn">fallback</span> heuristic (LLM ${j.llm.provider}/${j.llm.model} failing)` : 'heuristic (offline)'} · threshold ${j.threshold} · ${j.judged} judged, ${j.pending} waiting</dd>
    ${j.breaker ? html`<dt>Breaker</dt><dd>${j.breaker.state}, ${j.breaker.consecutiveFailures} consecutive failures</dd>` : null}
    <dt>Spend today</dt>
    <dd>${j.today.budgetUsd !== null ? `${usd(j.today.costUsd)} of ${usd(j.today.budgetUsd)}` : `${usd(j.today.costUsd)} (no LLM configured)`} · ${j.today.calls} calls, ${j.today.failures} failures, ${j.today.fallbacks} fallbacks</dd>
    <dt>Stored</dt>
    <dd>${h.counts.currentMemories} current memories (${h.counts.memories - h.counts.currentMemories} superseded), ${h.counts.turns} turns, ${h.counts.documents} document chunks</dd>
  </dl>` as VNode;
}

function Reviews({ h, ns }: { h: NamespaceHealth; ns: string }): VNode {
  if (h.reviews.length === 0) return html`<p class="muted">No daily reviews in these days.</p>` as VNode;
  return html`<ol class="reviews">
    ${h.reviews.map(
      (r) => html`<li data-day=${r.day}>
        <a href=${href('/layers', { ns, path: r.path })}>${r.day}</a>
        ${r.lean ? html` <span class=${`tag mood-${r.lean}`}>${r.lean}</span>` : html` <span class="muted">no mood recorded</span>`}
        ${r.mood ? html` <span class="muted">${r.mood}</span>` : null}
        <div>${r.activities.map((a) => html`<span class="tag">${a.name} ${a.lines}</span> `)}</div>
      </li>`,
    )}
  </ol>` as VNode;
}

export function HealthView({ params }: ViewProps): VNode {
  const { namespaces } = useNamespaces();
  const ns = chosenNamespace(params, namespaces);
  const days = params.get('days') ?? undefined;
  const to = params.get('to') ?? undefined;
  const health = useLoad<NamespaceHealth>(ns ? `${ns}|${days}|${to}` : null, () => apiGet<NamespaceHealth>(nsPath(ns!, 'health'), { days, to }));
  const title = html`<h1>Health</h1>`;
  if (health.error) return html`<section>${title}<${ErrorBox} error=${health.error} /></section>` as VNode;
  if (!health.data || !ns) return html`<section>${title}<${Loading} /></section>` as VNode;
  const h = health.data;
  const submit = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    navigate('/health', { ns, days: String(form.get('days')), to: String(form.get('to')) || undefined });
  };
  const dayKeys = h.activity.map((a) => ({ key: a.day, label: a.day.slice(5) }));
  return html`<section class="health">
    ${title}
    <section aria-labelledby="sources-title"><h2 id="sources-title">Capture sources</h2><${Sources} h=${h} /></section>
    <section aria-labelledby="services-title"><h2 id="services-title">Daemon and judge</h2><${Services} h=${h} /></section>
    ${h.alerts.length ? html`<section aria-labelledby="alerts-title"><h2 id="alerts-title">Alerts</h2><ul>${h.alerts.map((a) => html`<li class="error">${a.message} <span class="muted">since <${Time} iso=${a.since} /></span></li>`)}</ul></section>` : null}
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <form class="range" onSubmit=${submit}>
        <label>Days <select name="days" value=${String(h.activity.length)}>${[7, 14, 30, 90].map((n) => html`<option value=${n}>${n}</option>`)}</select></label>
        <label>Up to <input type="date" name="to" value=${h.to} /></label>
        <button type="submit">Show</button>
      </form>
      <${Bars} id="activity" caption=${`Turns and memories per day, ${h.from} to ${h.to}`} keys=${dayKeys}
        series=${[
          { label: 'turns', values: h.activity.map((a) => ({ key: a.day, label: a.day, value: a.turns })) },
          { label: 'memories', values: h.activity.map((a) => ({ key: a.day, label: a.day, value: a.memories })) },
        ]} />
      <${Bars} id="importance" caption="Current memories of these days by importance (1–10)" keys=${h.importance.map((b) => ({ key: String(b.importance), label: String(b.importance) }))}
        series=${[{ label: 'memories', values: h.importance.map((b) => ({ key: String(b.importance), label: String(b.importance), value: b.memories })) }]} />
    </section>
    <section aria-labelledby="reviews-title"><h2 id="reviews-title">Mood and activity of the daily reviews</h2><${Reviews} h=${h} ns=${ns} /></section>
  </section>` as VNode;
}
