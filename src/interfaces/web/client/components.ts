// Small pieces the views share: an error box, a loading line, times and provenance.
import type { VNode } from 'preact';
import { ApiError } from './api.js';
import { html } from './html.js';
import { href } from './router.js';
import type { Provenance } from './types.js';

export function ErrorBox({ error }: { error: unknown }): VNode {
  const status = error instanceof ApiError ? error.status : 0;
  const title = status === 403 ? 'Not allowed' : status === 404 ? 'Not found' : 'Something went wrong';
  const message = error instanceof Error ? error.message : String(error);
  return html`<div class="error" role="alert"><strong>${title}${status ? ` (${status})` : ''}</strong><p>${message}</p></div>` as VNode;
}

export function Loading(): VNode {
  return html`<p class="muted" role="status">Loading…</p>` as VNode;
}

/** A local, readable time; the ISO value stays in the <time> element. */
export function Time({ iso }: { iso: string | null | undefined }): VNode | null {
  if (!iso) return null;
  const d = new Date(iso);
  const text = Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return html`<time datetime=${iso}>${text}</time>` as VNode;
}

/**
 * Where a record came from: file and line, session, source, time; with `ns`, each turn it was made
 * from is a link to that turn in context on the timeline (which finds the turn's day itself).
 */
export function ProvenanceLine({ p, ns }: { p: Provenance; ns?: string }): VNode {
  const where = p.path ? `${p.path}${p.line !== undefined ? `:${p.line}${p.endLine !== undefined && p.endLine !== p.line ? `–${p.endLine}` : ''}` : ''}` : null;
  return html`<span class="prov">
    ${p.source ? html`<span class="tag">${p.source}</span>` : null}
    ${where ? html` <code>${where}</code>` : null}
    ${p.heading ? html` <span>${p.heading}</span>` : null}
    ${p.sessionId ? html` <span>session <code>${p.sessionId}</code></span>` : null}
    ${p.speaker || p.role ? html` <span>${p.speaker ?? p.role}</span>` : null}
    ${p.timestamp ? html` <${Time} iso=${p.timestamp} />` : null}
    ${ns ? (p.turnIds ?? []).map((t) => html` <a class="turn-link" href=${href('/timeline', { ns, item: t })}>the turn in context</a>`) : null}
  </span>` as VNode;
}
