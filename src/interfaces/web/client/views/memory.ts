// One memory (/memory/:id?ns=NS): its text and fields, where it came from (back to the transcript
// line), its history chain, and the corrections an agent could make through the same REST API:
// mark important or not, supersede with a new text, edit tags. The page reloads the memory after
// each action, so what it shows is what is stored.
import type { VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { apiGet, apiSend, nsPath } from '../api.js';
import { ErrorBox, Loading, ProvenanceLine, Time } from '../components.js';
import { html } from '../html.js';
import { chosenNamespace, useNamespaces } from '../namespaces.js';
import { href, navigate } from '../router.js';
import type { Memory } from '../types.js';
import type { ViewProps } from './index.js';

interface Loaded {
  memory: Memory;
  history: Memory[];
}

const memoryHref = (id: string, ns: string) => href(`/memory/${encodeURIComponent(id)}`, { ns });

function History({ memory, history, ns }: Loaded & { ns: string }): VNode | null {
  if (history.length < 2) return null;
  return html`<section aria-labelledby="history-title">
    <h2 id="history-title">History</h2>
    <ol class="history">
      ${history.map(
        (m) => html`<li key=${m.id}>
          ${m.id === memory.id ? html`<strong aria-current="page">${m.text}</strong>` : html`<a href=${memoryHref(m.id, ns)}>${m.text}</a>`}
          <span class="muted"> · from <${Time} iso=${m.validFrom} />${m.validTo ? html` to <${Time} iso=${m.validTo} />` : ' (current)'}</span>
        </li>`,
      )}
    </ol>
  </section>` as VNode;
}

function Actions({ memory, ns, reload }: { memory: Memory; ns: string; reload: (notice: string) => void }): VNode {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [text, setText] = useState('');
  const [tags, setTags] = useState(memory.tags.join(', '));
  useEffect(() => setTags(memory.tags.join(', ')), [memory.id, memory.tags.join(',')]);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const feedback = (important: boolean) =>
    run(async () => {
      await apiSend('POST', nsPath(ns, 'memories', memory.id, 'feedback'), { important });
      reload(important ? 'Marked important.' : 'Marked not important.');
    });
  const supersede = (e: Event) => {
    e.preventDefault();
    run(async () => {
      const res = await apiSend<{ current: Memory }>('POST', nsPath(ns, 'memories', memory.id, 'supersede'), { text, category: memory.category, importance: memory.importance, tags: memory.tags });
      setText('');
      navigate(`/memory/${encodeURIComponent(res.current.id)}`, { ns, notice: 'Superseded: this is the new version.' });
    });
  };
  const saveTags = (e: Event) => {
    e.preventDefault();
    const list = tags.split(',').map((t) => t.trim()).filter(Boolean);
    run(async () => {
      await apiSend('PUT', nsPath(ns, 'memories', memory.id, 'tags'), { tags: list });
      reload('Tags saved.');
    });
  };

  const current = memory.validTo === null;
  return html`<section aria-labelledby="actions-title" class="actions">
    <h2 id="actions-title">Correct it</h2>
    ${error ? html`<${ErrorBox} error=${error} />` : null}
    <div class="buttons">
      <button type="button" disabled=${busy} onClick=${() => feedback(true)}>Important</button>
      <button type="button" disabled=${busy} onClick=${() => feedback(false)}>Not important</button>
    </div>
    <form onSubmit=${saveTags}>
      <label for="tags">Tags (comma-separated)</label>
      <input id="tags" value=${tags} onInput=${(e: Event) => setTags((e.currentTarget as HTMLInputElement).value)} maxlength="2000" />
      <button type="submit" disabled=${busy}>Save tags</button>
    </form>
    ${current
      ? html`<form onSubmit=${supersede}>
          <label for="supersede">Replace with a newer statement</label>
          <textarea id="supersede" rows="3" value=${text} onInput=${(e: Event) => setText((e.currentTarget as HTMLTextAreaElement).value)} required></textarea>
          <button type="submit" disabled=${busy || text.trim() === ''}>Supersede</button>
        </form>`
      : html`<p class="muted">This version was superseded; correct the current one.</p>`}
  </section>` as VNode;
}

export function MemoryView({ params, id }: ViewProps): VNode {
  const { namespaces } = useNamespaces();
  const ns = chosenNamespace(params, namespaces);
  const [state, setState] = useState<{ data: Loaded | null; error: unknown }>({ data: null, error: null });
  const [notice, setNotice] = useState<string | null>(params.get('notice'));
  const [version, setVersion] = useState(0);
  // An action's notice is shown with the reloaded memory, never beside the old one.
  const pendingNotice = useRef<string | null>(null);

  useEffect(() => setNotice(params.get('notice')), [params.toString()]);
  useEffect(() => {
    if (!ns || !id) return;
    let live = true;
    Promise.all([apiGet<Memory>(nsPath(ns, 'memories', id)), apiGet<{ history: Memory[] }>(nsPath(ns, 'memories', id, 'history'))]).then(
      ([memory, h]) => {
        if (!live) return;
        setState({ data: { memory, history: h.history }, error: null });
        if (pendingNotice.current !== null) setNotice(pendingNotice.current);
        pendingNotice.current = null;
      },
      (error: unknown) => live && setState({ data: null, error }),
    );
    return () => {
      live = false;
    };
  }, [ns, id, version]);

  if (state.error) return html`<section><h1>Memory</h1><${ErrorBox} error=${state.error} /></section>` as VNode;
  if (!state.data || !ns) return html`<section><h1>Memory</h1><${Loading} /></section>` as VNode;
  const { memory } = state.data;
  const reload = (message: string) => {
    pendingNotice.current = message;
    setNotice(null);
    setVersion((v) => v + 1);
  };
  return html`<article aria-labelledby="memory-title" class="memory">
    <p><a href=${href('/', { ns })}>← Search</a></p>
    <h1 id="memory-title" class="memory-text">${memory.text}</h1>
    ${notice ? html`<p class="notice" role="status">${notice}</p>` : null}
    <dl class="fields">
      <dt>Category</dt><dd>${memory.category}</dd>
      <dt>Importance</dt><dd data-testid="importance">${memory.importance}</dd>
      <dt>Tags</dt><dd data-testid="tags">${memory.tags.length ? memory.tags.map((t) => html`<span class="tag">${t}</span> `) : html`<span class="muted">none</span>`}</dd>
      <dt>Namespace</dt><dd>${memory.namespace}</dd>
      <dt>Stored</dt><dd><${Time} iso=${memory.createdAt} /></dd>
      ${memory.eventTime ? html`<dt>Happened</dt><dd><${Time} iso=${memory.eventTime} /></dd>` : null}
      <dt>Status</dt><dd>${memory.validTo ? html`superseded${memory.supersededBy ? html` by <a href=${memoryHref(memory.supersededBy, ns)}>the newer version</a>` : null}` : 'current'}</dd>
      ${memory.supersedes ? html`<dt>Replaces</dt><dd><a href=${memoryHref(memory.supersedes, ns)}>the older version</a></dd>` : null}
      <dt>Mentions</dt><dd>${memory.mentions}</dd>
    </dl>
    <section aria-labelledby="prov-title">
      <h2 id="prov-title">Where it came from</h2>
      ${memory.provenance.length ? html`<ul class="provenance">${memory.provenance.map((p) => html`<li><${ProvenanceLine} p=${p} ns=${ns} /></li>`)}</ul>` : html`<p class="muted">No provenance recorded.</p>`}
    </section>
    <${History} ...${state.data} ns=${ns} />
    <${Actions} memory=${memory} ns=${ns} reload=${reload} />
  </article>` as VNode;
}
