// One digest job: make a file of the pyramid from its material, unless the same material made the
// file already. Order matters for crash safety: the file is written atomically first, then the
// store row (with the material's hash) commits. A kill between the two leaves the new file and the
// old row: the next run sees a different hash, redoes the job and writes the same bytes (extractive)
// or new prose (a model), then commits. A kill before the rename leaves the previous file intact.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { crashPoint } from '../core/crash-points.js';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import type { DigestKind } from '../core/types.js';
import type { Store } from '../store/store.js';
import { writeFileAtomic } from '../service/hot-state.js';
import type { Item, Rendered } from './contracts.js';
import { materialHash } from './material.js';
import type { ProseResult, ProseWriter } from './prose.js';

export type { ProseWriter } from './prose.js';

/** Bumped whenever a renderer's output changes for the same material: every file is then redone. */
export const RENDER_VERSION = 'extractive@1';

export interface DigestJob {
  kind: DigestKind;
  /** Relative to the namespace folder. */
  path: string;
  periodStart: string;
  periodEnd: string;
  /** Everything the file depends on besides the renderer (hashed). */
  inputs: readonly unknown[];
  /** The material, for a prose writer. */
  items: readonly Item[];
  title: string;
  render: () => Rendered | null;
  /** Daily notes and reviews get prose; MEMORY.md and topic pages are navigation and stay extractive. */
  prose: boolean;
}

export interface JobContext {
  store: Store;
  namespace: string;
  /** The namespace folder. */
  dir: string;
  prose: ProseWriter | null;
  /** Redo the job even when its material is unchanged. */
  force?: boolean;
  /**
   * The redaction gate, applied before the file is written (the store applies it again to what it
   * keeps): records are stored redacted, but a model's prose or a person's own text may not be.
   */
  redact: (text: string) => string;
  /** A stop (SIGTERM): a prose request in flight is cancelled with it, not awaited to its timeout. */
  signal?: AbortSignal;
}

export interface WrittenFile {
  path: string;
  kind: DigestKind;
  /** False when the material was unchanged and the file stayed as it was. */
  changed: boolean;
  generator: string;
  fallback?: string;
}

export function readTextOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

const FALLBACK_MARK = '+fallback';
const DENIED = new Set(['EACCES', 'EPERM', 'EROFS']);

/** Writes a layer's file; a folder this user cannot write is READ_ONLY (exit 12), named, not an internal error. */
export function writeLayerFile(file: string, text: string): void {
  try {
    writeFileAtomic(file, text);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (DENIED.has(code)) throw new CairnError(ERROR_CODES.READ_ONLY, `Cannot write ${file}: its folder is read-only for this process (${code})`, undefined, { cause: err });
    throw err;
  }
}

export async function runDigestJob(ctx: JobContext, job: DigestJob): Promise<WrittenFile | null> {
  const file = join(ctx.dir, job.path);
  const inputsHash = materialHash([RENDER_VERSION, job.kind, job.path, job.periodStart, job.periodEnd, ...job.inputs]);
  const stored = await ctx.store.getDigest(ctx.namespace, job.path);
  // A fallback is retried once a model is back: the material is the same, the prose is not.
  const retryProse = Boolean(ctx.prose && job.prose && stored?.generator.endsWith(FALLBACK_MARK));
  if (stored && stored.inputsHash === inputsHash && !ctx.force && !retryProse) {
    // Same material: the file is what the store says it is (put back if it went missing or was
    // overwritten outside the person's own sections, whose text is part of the material).
    if (readTextOrNull(file) !== stored.text) writeLayerFile(file, stored.text);
    return { path: job.path, kind: job.kind, changed: false, generator: stored.generator };
  }
  const rendered = job.render();
  if (!rendered) return null;
  let outcome: ProseResult = { rendered, generator: RENDER_VERSION };
  if (ctx.prose && job.prose) {
    outcome = await ctx.prose.write({ namespace: ctx.namespace, kind: job.kind, title: job.title, rendered, items: job.items, ...(ctx.signal ? { signal: ctx.signal } : {}) });
    if (outcome.fallback) outcome = { ...outcome, generator: `${outcome.generator}${FALLBACK_MARK}` };
  }
  const safe: Rendered = {
    text: ctx.redact(outcome.rendered.text),
    sections: outcome.rendered.sections.map((s) => ({ ...s, heading: ctx.redact(s.heading), text: ctx.redact(s.text) })),
  };
  outcome = { ...outcome, rendered: safe };
  crashPoint('digest-before-file');
  writeLayerFile(file, outcome.rendered.text);
  crashPoint('digest-after-file');
  const put = await ctx.store.putDigest({
    namespace: ctx.namespace,
    kind: job.kind,
    path: job.path,
    periodStart: job.periodStart,
    periodEnd: job.periodEnd,
    text: outcome.rendered.text,
    sections: outcome.rendered.sections,
    inputsHash,
    generator: outcome.generator,
  });
  const written: WrittenFile = { path: job.path, kind: job.kind, changed: put.changed || stored?.text !== outcome.rendered.text, generator: outcome.generator };
  if (outcome.fallback) written.fallback = outcome.fallback;
  // SQLite writes run on this thread: a daemon catching up writes thousands of digests, and a
  // search or MCP request waiting on the socket is let in between two of them (a settled await
  // alone yields to promises, not to I/O).
  await nextTurn();
  return written;
}
