// Layer 4's readable view: `<data>/<namespace>/raw/realtime-YYYY-MM-DD.md`, one file per local
// day, appended as turns arrive. It follows the turn log by sequence number with a watermark
// file, so any process that captures (daemon, `cairn ingest`) brings it up to date, and a crash
// between the store commit and the append only delays lines, never drops them.
import { appendFileSync, chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namespaceDir, type HomePaths } from '../core/home.js';
import type { Namespace } from '../core/namespace.js';
import type { Turn } from '../core/types.js';
import type { Store } from '../store/store.js';
import { localDayTime } from '../core/local-time.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/private-files.js';

const PAGE = 1000;
/** A lock older than this belongs to a process that died mid-append. */
const STALE_LOCK_MS = 60_000;

export function realtimeDir(paths: HomePaths, namespace: Namespace): string {
  return join(namespaceDir(paths, namespace), 'raw');
}

function readWatermark(file: string): number {
  try {
    const seq = (JSON.parse(readFileSync(file, 'utf8')) as { seq?: unknown }).seq;
    return typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0 ? seq : 0;
  } catch {
    return 0;
  }
}

function writeWatermark(file: string, seq: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ seq }) + '\n', { mode: PRIVATE_FILE_MODE });
  renameSync(tmp, file);
}

/** Takes the view's lock, or returns null when another live process holds it. */
function tryLock(file: string): (() => void) | null {
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch {
    try {
      if (Date.now() - statSync(file).mtimeMs < STALE_LOCK_MS) return null;
      unlinkSync(file);
      closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
    } catch {
      return null;
    }
  }
  return () => {
    try {
      unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
}

/** Transcript-supplied fields (speaker, ids) stay on the heading line: line breaks and controls become spaces. */
const oneLine = (s: string): string => s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');

export function renderTurn(turn: Turn, time: string): string {
  const who = oneLine(turn.speaker ? `${turn.role} (${turn.speaker})` : turn.role);
  const source = typeof turn.meta.source === 'string' ? `${turn.meta.source} ` : '';
  const where = oneLine(`${source}${turn.sessionId.slice(0, 12)}#${turn.messageId.slice(0, 24)}${turn.line ? ` L${turn.line}` : ''}`);
  // Quoted, so text that looks like Markdown headings or lists cannot break the page's structure.
  // A lone CR ends a line in Markdown too.
  const body = turn.text.split(/\r\n|\r|\n/).map((l) => (l === '' ? '>' : `> ${l}`)).join('\n');
  return `### ${time} · ${who} · ${where}\n${body}\n\n`;
}

/**
 * Appends turns stored since the last call to the namespace's daily view files. Returns how many
 * were written (0 when another process holds the view: it will write them).
 */
export async function updateRealtimeView(store: Store, paths: HomePaths, namespace: Namespace, timeZone: string): Promise<number> {
  const dir = realtimeDir(paths, namespace);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const lockFile = join(dir, '.realtime.lock');
  const release = tryLock(lockFile);
  if (!release) return 0;
  const markFile = join(dir, '.realtime.json');
  let written = 0;
  try {
    let seq = readWatermark(markFile);
    for (;;) {
      const page = await store.turnsAfter(namespace, seq, PAGE);
      if (page.length === 0) break;
      const byDay = new Map<string, string[]>();
      for (const { turn } of page) {
        const local = localDayTime(turn.timestamp, timeZone) ?? localDayTime(turn.createdAt, timeZone)!;
        const list = byDay.get(local.day) ?? [];
        list.push(renderTurn(turn, local.time));
        byDay.set(local.day, list);
      }
      for (const [day, chunks] of byDay) {
        const file = join(dir, `realtime-${day}.md`);
        const header = existsSync(file) ? '' : `# Raw log · ${namespace} · ${day} (${timeZone})\n\n`;
        appendFileSync(file, header + chunks.join(''), { mode: PRIVATE_FILE_MODE });
      }
      seq = page[page.length - 1]!.seq;
      writeWatermark(markFile, seq);
      written += page.length;
      // Still alive: a long catch-up must not look like a stale lock to another process.
      try {
        const now = new Date();
        utimesSync(lockFile, now, now);
      } catch {
        /* gone: released below all the same */
      }
    }
  } finally {
    release();
  }
  return written;
}

/**
 * Rewrites the namespace's daily view files under the view's lock (a purge: `edit` returns the new
 * text of a file). Waits up to `waitMs` for a process that is appending; returns the files changed,
 * or null when the lock could not be had.
 */
export async function rewriteRealtimeView(paths: HomePaths, namespace: Namespace, edit: (text: string) => string, waitMs = 10_000): Promise<string[] | null> {
  const dir = realtimeDir(paths, namespace);
  if (!existsSync(dir)) return [];
  const lockFile = join(dir, '.realtime.lock');
  let release = tryLock(lockFile);
  for (let waited = 0; !release && waited < waitMs; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    release = tryLock(lockFile);
  }
  if (!release) return null;
  const changed: string[] = [];
  try {
    for (const name of readdirSync(dir)) {
      if (!/^realtime-.*\.md$/.test(name)) continue;
      const file = join(dir, name);
      const text = readFileSync(file, 'utf8');
      const next = edit(text);
      if (next === text) continue;
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, next);
      // The rewritten view keeps the mode the original had (a private file stays private).
      chmodSync(tmp, statSync(file).mode & 0o777);
      renameSync(tmp, file);
      changed.push(file);
    }
  } finally {
    release();
  }
  return changed;
}

/**
 * After the store went back in time (a restore), turns get sequence numbers the view's watermark
 * already passed: the watermark goes back to `maxSeq` (the restored store's newest turn) so those
 * turns are appended. Lines the view holds of turns the restore took away stay (the view is a log).
 */
export function rewindRealtimeView(paths: HomePaths, namespace: Namespace, maxSeq: number): boolean {
  const markFile = join(realtimeDir(paths, namespace), '.realtime.json');
  if (!existsSync(markFile) || readWatermark(markFile) <= maxSeq) return false;
  writeWatermark(markFile, maxSeq);
  return true;
}
