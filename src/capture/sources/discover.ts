// Where agents keep their transcripts by default, so `cairn sources add openclaw` needs no path.
// Environment overrides follow the agents' own: OPENCLAW_STATE_DIR, CLAUDE_CONFIG_DIR.
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { namespaceFromName } from '../../core/namespace.js';
import type { SourceKind } from './kinds.js';

// Absolute, so a relative override is not stored as a path the daemon would read elsewhere.
export function openclawRoot(): string {
  return resolve(process.env.OPENCLAW_STATE_DIR || join(homedir(), '.openclaw'));
}

export function claudeProjectsRoot(): string {
  const base = process.env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude');
  return resolve(base, 'projects');
}

/** A discovered default location, and the namespace its turns would go to when it is fixed. */
export interface Discovered {
  path: string;
  /** Set when the location itself names a namespace (an OpenClaw workspace of one agent). */
  namespace?: string;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * OpenClaw workspaces: `workspace` belongs to the default agent ("main"), `workspace-<agent>` to
 * that agent. Each is a Markdown source of its agent's namespace.
 */
function openclawWorkspaces(): Discovered[] {
  const root = openclawRoot();
  if (!isDir(root)) return [];
  const found: Discovered[] = [];
  for (const name of readdirSync(root).sort()) {
    const path = join(root, name);
    if (!isDir(path)) continue;
    if (name === 'workspace') found.push({ path, namespace: 'main' });
    else if (name.startsWith('workspace-')) {
      const ns = namespaceFromName(name.slice('workspace-'.length));
      if (ns) found.push({ path, namespace: ns });
    }
  }
  return found;
}

/** Default locations of a kind that exist on this machine (none for plain JSONL). */
export function discover(kind: SourceKind): Discovered[] {
  switch (kind) {
    case 'openclaw':
      return isDir(openclawRoot()) ? [{ path: openclawRoot() }] : [];
    case 'claude-code':
      return isDir(claudeProjectsRoot()) ? [{ path: claudeProjectsRoot() }] : [];
    case 'markdown':
      return openclawWorkspaces();
    case 'jsonl':
      return [];
  }
}

/** Where discovery looked, for the message when nothing was found. */
export function defaultLocations(kind: SourceKind): string[] {
  switch (kind) {
    case 'openclaw':
      return [openclawRoot()];
    case 'claude-code':
      return [claudeProjectsRoot()];
    case 'markdown':
      return [join(openclawRoot(), 'workspace'), join(openclawRoot(), 'workspace-<agent>')];
    case 'jsonl':
      return [];
  }
}

/**
 * The namespace of a Claude Code project folder (`-home-ana-proj`, the cwd with separators as
 * dashes). The user's home prefix is dropped so `/home/ana/proj` becomes `proj`; the rest is kept
 * whole because dashes inside names cannot be told from separators.
 */
export function claudeProjectNamespace(folder: string): string | null {
  // resolve() drops a trailing slash (HOME=/home/ana/), which Claude Code's cwd never has.
  const homePrefix = claudeProjectFolder(resolve(homedir()));
  let name = basename(folder);
  if (name.startsWith(homePrefix + '-') && name.length > homePrefix.length + 1) name = name.slice(homePrefix.length + 1);
  return namespaceFromName(name);
}

/** The project folder name Claude Code uses for a working directory. */
export function claudeProjectFolder(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

