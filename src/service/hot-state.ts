// Hot state (seed 003's SESSION-STATE.md): what the agent is doing right now — objective,
// blockers, next actions, notes. Write-ahead: the store row is committed (durable) first; the
// Markdown file is then rewritten atomically (temp file, fsync, rename) as a view of it.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from '../core/lazy-crypto.js';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { invalidInput } from '../core/errors.js';
import { namespaceDir, type HomePaths } from '../core/home.js';
import type { Namespace } from '../core/namespace.js';
import { stripControl } from '../core/text.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/private-files.js';
import type { HotStateRecord, Store } from '../store/store.js';
import { parseInput } from './inputs.js';

export const STATE_FILE = 'SESSION-STATE.md';
export const MEMORY_FILE = 'MEMORY.md';

export const HOT_STATE_LIMITS = { objectiveChars: 500, items: 50, itemChars: 500, notesChars: 4000 } as const;

// Output shapes are type aliases (not interfaces) so they fit where a plain JSON object is expected
// (MCP structured content, Record<string, unknown>).
export type HotState = {
  namespace: string;
  objective: string | null;
  blockers: string[];
  nextActions: string[];
  notes: string | null;
  updatedAt: string | null;
};

export interface HotStatePatch {
  objective?: string | null;
  blockers?: string[];
  nextActions?: string[];
  notes?: string | null;
}

/** setState's answer: the state as stored, a warning when only the Markdown view failed, and the secrets redacted per kind. */
export type SetStateResult = HotState & { warning?: string; redactions?: Record<string, number> };

/** One line: control characters and line breaks become spaces, runs of spaces collapse. */
const oneLine = (v: string): string => stripControl(v.replace(/[\r\n\t]+/g, ' ')).replace(/ {2,}/g, ' ').trim();
/** Multi-line text: control characters go, line breaks stay (normalised to \n). */
const multiLine = (v: string): string => stripControl(v.replace(/\r\n?/g, '\n')).trim();

const nullableText = (max: number, clean: (v: string) => string, label: string) =>
  z
    .string()
    .transform(clean)
    .refine((v) => v.length <= max, `${label} is longer than ${max} characters`)
    .transform((v) => (v === '' ? null : v))
    .nullable();

const itemList = (label: string) =>
  z
    .array(
      z
        .string()
        .transform(oneLine)
        .refine((v) => v.length > 0, `${label} item is empty`)
        .refine((v) => v.length <= HOT_STATE_LIMITS.itemChars, `${label} item is longer than ${HOT_STATE_LIMITS.itemChars} characters`),
    )
    .max(HOT_STATE_LIMITS.items, `at most ${HOT_STATE_LIMITS.items} ${label} items`);

export const hotStatePatchSchema = z
  .strictObject({
    objective: nullableText(HOT_STATE_LIMITS.objectiveChars, oneLine, 'objective').optional(),
    blockers: itemList('blockers').optional(),
    nextActions: itemList('nextActions').optional(),
    notes: nullableText(HOT_STATE_LIMITS.notesChars, multiLine, 'notes').optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), 'the patch is empty: give objective, blockers, nextActions or notes');

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function hotStateFrom(namespace: string, record: HotStateRecord | null): HotState {
  const s = record?.state ?? {};
  return {
    namespace,
    objective: typeof s.objective === 'string' ? s.objective : null,
    blockers: strings(s.blockers),
    nextActions: strings(s.nextActions),
    notes: typeof s.notes === 'string' ? s.notes : null,
    updatedAt: record?.updatedAt ?? null,
  };
}

export function stateFilePath(paths: HomePaths, ns: string): string {
  return join(namespaceDir(paths, ns as Namespace), STATE_FILE);
}

export function memoryFilePath(paths: HomePaths, ns: string): string {
  return join(namespaceDir(paths, ns as Namespace), MEMORY_FILE);
}

/** Where each part of the state lands in SESSION-STATE.md (1-based lines), for sources. */
export interface RenderedState {
  text: string;
  lines: { objective?: number; blockers: number[]; nextActions: number[]; notes?: number };
}

/** The Markdown view of the state; deterministic, so tests and the context brief can cite lines. */
export function renderStateFile(state: HotState): RenderedState {
  const out: string[] = [];
  const lines: RenderedState['lines'] = { blockers: [], nextActions: [] };
  out.push(`# Session state: ${state.namespace}`, '');
  out.push(`<!-- Written by Cairn from its store${state.updatedAt ? ` (updated ${state.updatedAt})` : ''}. Edits here are overwritten: use "cairn state set" or the state_set tool. -->`, '');
  out.push('## Objective', '');
  if (state.objective) {
    out.push(state.objective);
    lines.objective = out.length;
  } else out.push('_none_');
  out.push('', '## Blockers', '');
  if (state.blockers.length === 0) out.push('_none_');
  for (const b of state.blockers) {
    out.push(`- ${b}`);
    lines.blockers.push(out.length);
  }
  out.push('', '## Next actions', '');
  if (state.nextActions.length === 0) out.push('_none_');
  for (const a of state.nextActions) {
    out.push(`- ${a}`);
    lines.nextActions.push(out.length);
  }
  out.push('', '## Notes', '');
  if (state.notes) {
    lines.notes = out.length + 1;
    out.push(...state.notes.split('\n'));
  } else out.push('_none_');
  return { text: out.join('\n') + '\n', lines };
}

/** Writes a file atomically: a temp file beside it, fsync, rename over, fsync the folder. */
export function writeFileAtomic(path: string, text: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const tmp = join(dir, `.${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const fd = openSync(tmp, 'w', PRIVATE_FILE_MODE);
    try {
      const buf = Buffer.from(text, 'utf8');
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  try {
    // The rename itself survives power loss only once the folder is synced (not possible everywhere).
    const dfd = openSync(dir, 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // Windows and some filesystems cannot open or sync a directory; the rename is still atomic.
  }
}

export async function getState(store: Store, ns: string): Promise<HotState> {
  return hotStateFrom(ns, await store.getHotState(ns));
}

export async function setState(store: Store, paths: HomePaths, ns: string, patch: unknown): Promise<SetStateResult> {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw invalidInput('Invalid state: expected an object with objective, blockers, nextActions or notes');
  const data = parseInput(hotStatePatchSchema, patch, 'state');
  // Write-ahead: the row is committed before anything else happens.
  const record = await store.mergeHotState(ns, data);
  const state = hotStateFrom(ns, record);
  try {
    writeFileAtomic(stateFilePath(paths, ns), renderStateFile(state).text);
    return state;
  } catch (err) {
    return { ...state, warning: `state saved, but ${STATE_FILE} was not written: ${(err as Error).message}` };
  }
}
