/**
 * The web UI's views: this list drives the router (client/router.ts) and the navigation bar.
 *
 * To add a view:
 * 1. Write `views/<name>.ts` exporting a component `(props: { params: URLSearchParams; id?: string }) => VNode`.
 *    Read all state from `params` (the query string) and change it with `navigate(path, params)`,
 *    so a page can be linked and reloaded. Fetch with `apiGet`/`apiSend` from `../api.js` (the /v1
 *    REST API; `nsPath(ns, ...)` builds namespace paths); render with `html` from `../html.js`
 *    (text is escaped: never use dangerouslySetInnerHTML with stored text).
 * 2. Add an entry below (`path` may end in `/:id`; `inNav: false` keeps it out of the bar).
 * 3. Add the path to WEB_PATHS in src/interfaces/web/index.ts, so the server answers it with the shell.
 */
import type { VNode } from 'preact';
import { MemoryView } from './memory.js';
import { SearchView } from './search.js';
import { TimelineView } from './timeline.js';
import { LayersView } from './layers.js';
import { EntitiesView } from './entities.js';
import { HealthView } from './health.js';

export interface ViewProps {
  params: URLSearchParams;
  id?: string;
}

export interface ViewDef {
  /** Stable name (route.view). */
  name: string;
  /** URL path; `:id` marks the one path parameter. */
  path: string;
  /** Label in the navigation bar and the document title. */
  title: string;
  component: (props: ViewProps) => VNode;
  /** Shown in the navigation bar (default true). */
  inNav?: boolean;
}

export const views: ViewDef[] = [
  { name: 'search', path: '/', title: 'Search', component: SearchView },
  { name: 'memory', path: '/memory/:id', title: 'Memory', component: MemoryView, inNav: false },
  { name: 'timeline', path: '/timeline', title: 'Timeline', component: TimelineView },
  { name: 'layers', path: '/layers', title: 'Layers', component: LayersView },
  { name: 'entities', path: '/entities', title: 'Entities', component: EntitiesView },
  { name: 'health', path: '/health', title: 'Health', component: HealthView },
];
