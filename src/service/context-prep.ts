// The sleep protocol's last step: tomorrow's session-start brief, written ahead. `cairn context`
// (and the Claude Code SessionStart hook) without a query answer from it at once while nothing it
// was built from has changed: no new record in the namespace, the same hot state, the same
// MEMORY.md. Otherwise the brief is built as usual. The file is derived data under the home's
// cache folder; a purge removes every prepared brief.
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from '../core/lazy-crypto.js';
import type { HomePaths } from '../core/home.js';
import { PRIVATE_DIR_MODE } from '../core/private-files.js';
import type { Store } from '../store/store.js';
import type { ContextBrief } from './context.js';
import { memoryFilePath, writeFileAtomic } from './hot-state.js';

const PAGE = 5000;

export function preparedBriefsDir(paths: HomePaths): string {
  return join(paths.cacheDir, 'briefs');
}

function briefFile(paths: HomePaths, ns: string, budget: number): string {
  return join(preparedBriefsDir(paths), `${ns}.${budget}.json`);
}

/** The newest index entry seq of the namespace, paging up from `from`. */
async function lastEntrySeq(store: Store, ns: string, from: number): Promise<number> {
  let seq = from;
  for (;;) {
    const page = await store.entryChangesAfter(ns, seq, PAGE);
    if (page.length === 0) return seq;
    seq = page[page.length - 1]!.seq;
    if (page.length < PAGE) return seq;
  }
}

/** What the brief is made from, besides the records (whose newest seq is checked on its own). */
async function inputsKey(store: Store, paths: HomePaths, ns: string): Promise<string> {
  const hot = await store.getHotState(ns);
  let md = 'none';
  try {
    const st = statSync(memoryFilePath(paths, ns));
    md = `${st.size}:${st.mtimeMs}`;
  } catch {
    /* no MEMORY.md */
  }
  return createHash('sha256').update(`${hot?.updatedAt ?? ''}\n${md}`).digest('hex');
}

interface PreparedFile {
  version: 1;
  seq: number;
  key: string;
  brief: ContextBrief;
}

/** Builds the query-less brief now and keeps it for the next session start. */
export async function prepareBrief(store: Store, paths: HomePaths, ns: string, budget: number, build: () => Promise<ContextBrief>, fromSeq = 0): Promise<void> {
  const seq = await lastEntrySeq(store, ns, fromSeq);
  const key = await inputsKey(store, paths, ns);
  const brief = await build();
  mkdirSync(preparedBriefsDir(paths), { recursive: true, mode: PRIVATE_DIR_MODE });
  const file: PreparedFile = { version: 1, seq, key, brief };
  writeFileAtomic(briefFile(paths, ns, budget), JSON.stringify(file));
}

/** The prepared brief when nothing it was built from has changed since, else null. */
export async function preparedBrief(store: Store, paths: HomePaths, ns: string, budget: number): Promise<ContextBrief | null> {
  let file: PreparedFile;
  try {
    file = JSON.parse(readFileSync(briefFile(paths, ns, budget), 'utf8')) as PreparedFile;
  } catch {
    return null;
  }
  if (file?.version !== 1 || typeof file.seq !== 'number' || typeof file.key !== 'string' || typeof file.brief?.text !== 'string') return null;
  if ((await store.entryChangesAfter(ns, file.seq, 1)).length > 0) return null;
  if ((await inputsKey(store, paths, ns)) !== file.key) return null;
  return file.brief;
}

/** Drops every prepared brief (a purge: they may quote what was removed). */
export function dropPreparedBriefs(paths: HomePaths): void {
  rmSync(preparedBriefsDir(paths), { recursive: true, force: true });
}
