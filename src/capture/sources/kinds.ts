// What a registered source is: a kind, a root path the daemon watches, and where its turns go.
// Sources are rows in the store; their options are validated here whenever they are read, so a
// hand-edited or older row cannot steer capture somewhere unexpected.
import { z } from 'zod';
import { invalidInput } from '../../core/errors.js';

import { SOURCE_KINDS, type SourceKind } from './kind-names.js';

export { SOURCE_KINDS, type SourceKind } from './kind-names.js';

export function parseSourceKind(name: unknown): SourceKind {
  if (typeof name === 'string' && (SOURCE_KINDS as readonly string[]).includes(name)) return name as SourceKind;
  throw invalidInput(`Unknown source kind "${String(name).slice(0, 40)}": use one of ${SOURCE_KINDS.join(', ')}`);
}

/**
 * `fixed`: every turn goes to the source's namespace. `agent`: an OpenClaw agent's id names its
 * namespace. `project`: a Claude Code project folder names it.
 */
export const NAMESPACE_FROM = ['fixed', 'agent', 'project'] as const;
export type NamespaceFrom = (typeof NAMESPACE_FROM)[number];

export const sourceOptionsSchema = z.object({
  /** Registered with `cairn sources add`: the daemon watches it (one-off ingest sources are not). */
  watch: z.boolean().default(false),
  namespaceFrom: z.enum(NAMESPACE_FROM).default('fixed'),
  /** Markdown only: an OpenClaw workspace (MEMORY.md + memory/) or every .md in a tree. */
  layout: z.enum(['openclaw-workspace', 'tree']).optional(),
  /** The machine that registered it (its paths are that machine's): on a shared store only its daemons capture it. */
  host: z.string().min(1).max(255).optional(),
});

export type SourceOptions = z.infer<typeof sourceOptionsSchema>;

/** The options of a stored source; anything unreadable falls back to a fixed, unwatched source. */
export function readSourceOptions(raw: unknown): SourceOptions {
  const parsed = sourceOptionsSchema.safeParse(raw ?? {});
  return parsed.success ? parsed.data : sourceOptionsSchema.parse({});
}

/** The namespace-from rule a kind uses when the user names no namespace. */
export function defaultNamespaceFrom(kind: SourceKind): NamespaceFrom {
  return kind === 'openclaw' ? 'agent' : kind === 'claude-code' ? 'project' : 'fixed';
}
