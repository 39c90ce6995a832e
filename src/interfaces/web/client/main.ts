// The web UI's entry: the header (views, namespace picker, logout) and the routed view.
import type { VNode } from 'preact';
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { sessionKind } from './api.js';
import { html } from './html.js';
import { chosenNamespace, useNamespaces } from './namespaces.js';
import { href, interceptLinks, navigate, useRoute } from './router.js';
import { views } from './views/index.js';

function NamespacePicker({ params }: { params: URLSearchParams }): VNode | null {
  const { namespaces } = useNamespaces();
  if (!namespaces) return null;
  const ns = chosenNamespace(params, namespaces);
  const pick = (e: Event) => {
    const next = Object.fromEntries(params.entries());
    navigate(location.pathname.startsWith('/memory/') ? '/' : location.pathname, { ...next, ns: (e.currentTarget as HTMLSelectElement).value, notice: undefined });
  };
  return html`<label class="ns">Namespace
    <select value=${ns ?? ''} onChange=${pick}>
      ${namespaces.length === 0 ? html`<option value="">none yet</option>` : null}
      ${namespaces.map((n) => html`<option value=${n}>${n}</option>`)}
    </select>
  </label>` as VNode;
}

function App(): VNode {
  const route = useRoute();
  const def = views.find((v) => v.name === route.view);
  const ns = route.params.get('ns') ?? undefined;
  useEffect(() => {
    document.title = def ? `${def.title} · Cairn` : 'Not found · Cairn';
  }, [def]);
  return html`<a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <a class="brand" href=${href('/', { ns })}>Cairn</a>
      <nav aria-label="Views">
        <ul>
          ${views
            .filter((v) => v.inNav !== false)
            .map((v) => html`<li><a href=${href(v.path, { ns })} aria-current=${v.name === route.view ? 'page' : undefined}>${v.title}</a></li>`)}
        </ul>
      </nav>
      <${NamespacePicker} params=${route.params} />
      ${sessionKind() === 'cookie' ? html`<form method="post" action="/logout" class="logout"><button type="submit">Log out</button></form>` : null}
    </header>
    <main id="main" tabindex="-1">
      ${def ? html`<${def.component} key=${route.view + (route.id ?? '')} params=${route.params} id=${route.id} />` : html`<h1>Not found</h1><p>No view at ${location.pathname}. <a href="/">Search</a></p>`}
    </main>` as VNode;
}

const root = document.getElementById('app')!;
root.textContent = '';
interceptLinks(root);
render(html`<${App} />` as VNode, root);
