// Registering, listing and removing capture sources, and what each has captured so far. A source
// is a root the daemon watches; removing one stops capture but keeps every turn it produced.
import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { CairnError, ERROR_CODES, invalidInput } from '../core/errors.js';
import { parseNamespace } from '../core/namespace.js';
import type { Source } from '../core/types.js';
import type { Store } from '../store/store.js';
import { emptyStats, mergeStats, readError, readStats, type CaptureError, type CaptureStats } from '../capture/capture-stats.js';
import { defaultLocations, discover } from '../capture/sources/discover.js';
import { defaultNamespaceFrom, parseSourceKind, readSourceOptions, type NamespaceFrom, type SourceKind } from '../capture/sources/kinds.js';
import { isMarkdownPath } from '../capture/sources/units.js';

export interface AddSourceInput {
  kind: SourceKind | string;
  /** Omitted: the kind's default locations that exist on this machine. */
  path?: string;
  /** Every turn to this namespace; omitted: derived per agent/project (openclaw, claude-code) or the default. */
  namespace?: string;
}

export interface SourceStatus {
  id: number;
  kind: string;
  path: string;
  namespace: string;
  namespaceFrom: NamespaceFrom;
  watched: boolean;
  createdAt: string;
  /** Files, sessions or trees with a checkpoint. */
  units: number;
  turns: number;
  stats: CaptureStats;
  /** Units whose last attempt failed, with why. */
  errors: Array<CaptureError & { key: string }>;
  /** Bytes written to captured files but not consumed yet (files only). */
  pendingBytes: number;
  /** Seconds since the source last caught up while bytes wait (0 when caught up). */
  lagSeconds: number;
  /** The root no longer exists. */
  missing: boolean;
}

async function exists(path: string): Promise<'file' | 'dir' | null> {
  try {
    const st = await stat(path);
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

/** Registers sources; several when discovery finds several default locations. */
export async function addSources(store: Store, defaultNamespace: string, input: AddSourceInput): Promise<Source[]> {
  const kind = parseSourceKind(input.kind);
  const fixed = input.namespace === undefined ? undefined : parseNamespace(input.namespace);
  let targets: Array<{ path: string; namespace?: string }>;
  if (input.path !== undefined) {
    if (typeof input.path !== 'string' || input.path.trim() === '' || input.path.includes('\0')) throw invalidInput('Source path must be a non-empty path');
    targets = [{ path: resolve(input.path) }];
  } else {
    targets = discover(kind);
    if (targets.length === 0) {
      const where = defaultLocations(kind);
      throw new CairnError(
        ERROR_CODES.NOT_FOUND,
        where.length ? `No ${kind} data found at the default location (${where.join(', ')}); pass the path: cairn sources add ${kind} PATH` : `A ${kind} source needs a path: cairn sources add ${kind} PATH`,
      );
    }
  }
  const added: Source[] = [];
  for (const target of targets) {
    const type = await exists(target.path);
    if (!type) throw new CairnError(ERROR_CODES.NOT_FOUND, `No such file or folder: ${target.path}`, { path: target.path });
    if (kind === 'markdown' && type === 'file' && !isMarkdownPath(target.path)) throw invalidInput(`Not a Markdown file: ${target.path}`);
    const namespace = fixed ?? (target.namespace ? parseNamespace(target.namespace) : parseNamespace(defaultNamespace));
    const namespaceFrom: NamespaceFrom = fixed !== undefined || target.namespace ? 'fixed' : defaultNamespaceFrom(kind);
    // The machine whose path this is: on a shared store only its daemons capture it (daemon/source-leases.ts).
    const options: Record<string, unknown> = { watch: true, namespaceFrom, host: hostname() };
    await refuseOtherHosts(store, namespace, kind, target.path);
    if (kind === 'markdown') options.layout = type === 'dir' && (await isOpenClawWorkspace(target.path)) ? 'openclaw-workspace' : 'tree';
    added.push(await store.addSource(namespace, kind, target.path, options));
  }
  return added;
}

/**
 * On a shared store, the same path registered from another machine names that machine's files:
 * re-registering it here would move its capture here (and mix two machines' files under one
 * source's checkpoints). CONFLICT, with what to do instead.
 */
async function refuseOtherHosts(store: Store, namespace: string, kind: string, path: string): Promise<void> {
  if (store.backend === 'sqlite') return;
  const existing = (await store.listSources(namespace)).find((s) => s.kind === kind && s.path === path);
  const owner = existing ? readSourceOptions(existing.options).host : undefined;
  if (existing && owner !== undefined && owner !== hostname()) {
    throw new CairnError(
      ERROR_CODES.CONFLICT,
      `Source ${existing.id} (${kind} ${path} in namespace ${namespace}) is registered by host ${owner}, whose daemon captures it; this machine's files there need another namespace (--namespace) or path (or, if that host is gone for good, "cairn sources remove ${existing.id}" first)`,
      { source: existing.id, host: owner },
    );
  }
}

async function isOpenClawWorkspace(dir: string): Promise<boolean> {
  return (await exists(resolve(dir, 'MEMORY.md'))) === 'file' || ((await exists(resolve(dir, 'memory'))) === 'dir' && (await exists(resolve(dir, 'AGENTS.md'))) === 'file');
}

/** The registered sources the daemon watches. */
export async function watchedSources(store: Store): Promise<Source[]> {
  return (await store.listSources()).filter((s) => readSourceOptions(s.options).watch);
}

/** Finds a source by id or by path (several kinds may share a path: then the kind is needed). */
export async function findSource(store: Store, ref: string | number, kind?: string): Promise<Source> {
  const all = await store.listSources();
  const byId = typeof ref === 'number' || /^\d+$/.test(String(ref)) ? all.filter((s) => s.id === Number(ref)) : [];
  const byPath = byId.length ? byId : all.filter((s) => s.path === resolve(String(ref)) && (kind === undefined || s.kind === kind));
  if (byPath.length === 0) throw new CairnError(ERROR_CODES.NOT_FOUND, `No source ${String(ref)}${kind ? ` of kind ${kind}` : ''}; see cairn sources list`);
  if (byPath.length > 1) throw invalidInput(`Several sources match ${String(ref)}: give the id (cairn sources list)`);
  return byPath[0]!;
}

/** Status of every source, or of the watched ones only. */
export async function sourceStatuses(store: Store, options: { watchedOnly?: boolean } = {}): Promise<SourceStatus[]> {
  const sources = options.watchedOnly ? await watchedSources(store) : await store.listSources();
  const turnCounts = await store.sourceTurnCounts();
  const now = Date.now();
  const out: SourceStatus[] = [];
  for (const source of sources) {
    const opts = readSourceOptions(source.options);
    const checkpoints = await store.listCheckpoints(source.id);
    let stats = emptyStats();
    const errors: SourceStatus['errors'] = [];
    let pendingBytes = 0;
    let oldestWait: number | null = null;
    for (const cp of checkpoints) {
      stats = mergeStats(stats, readStats(cp.state));
      const error = readError(cp.state);
      if (error) errors.push({ key: cp.key, ...error });
      const behind = await pendingOf(cp.key, cp.state);
      if (behind > 0) {
        pendingBytes += behind;
        const since = Date.parse(cp.updatedAt);
        oldestWait = oldestWait === null ? since : Math.min(oldestWait, since);
      }
    }
    out.push({
      id: source.id,
      kind: source.kind,
      path: source.path,
      namespace: source.namespace,
      namespaceFrom: opts.namespaceFrom,
      watched: opts.watch,
      createdAt: source.createdAt,
      units: checkpoints.length,
      turns: turnCounts.get(source.id) ?? 0,
      stats,
      errors,
      pendingBytes,
      lagSeconds: oldestWait === null ? 0 : Math.max(0, Math.round((now - oldestWait) / 1000)),
      missing: (await exists(source.path)) === null,
    });
  }
  return out;
}

/** Bytes of a captured file beyond its checkpoint (0 for other units, or a replaced file). */
async function pendingOf(key: string, state: Record<string, unknown>): Promise<number> {
  if (typeof state.offset !== 'number' || typeof state.ino !== 'string') return 0;
  try {
    const st = await stat(key, { bigint: true });
    if (st.ino.toString() !== state.ino) return 0;
    return Math.max(0, Number(st.size) - state.offset);
  } catch {
    return 0;
  }
}
