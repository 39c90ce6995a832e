// Running totals of one capture unit (a file, or a session of a transcript database), kept inside
// its checkpoint state so they are committed in the same transaction as the turns they count and
// can never disagree with them. `cairn status` sums them per source.
import { isRecord } from './formats/common.js';
import { addCounts } from './to-turn.js';
import type { ParseIssue } from './turn-draft.js';

/** How many recent issues a checkpoint keeps (with their line numbers) for status to show. */
export const RECENT_ISSUES = 5;

export interface CaptureStats {
  /** Complete lines (or database rows) consumed. */
  linesRead: number;
  /** Turns stored (those the store already held, e.g. from a re-read file, are not counted). */
  turns: number;
  /** Records dropped on purpose (noise, empty turns). */
  skipped: number;
  /** Lines that could not be read (invalid JSON, wrong types, oversized): counted, never fatal. */
  malformed: number;
  /** Secrets replaced, per kind. */
  redactions: Record<string, number>;
  /** ISO time of the last commit that consumed something. */
  lastCaptureAt: string | null;
  /** The last few malformed lines, newest last. */
  recentIssues: ParseIssue[];
}

/** Why a capture unit could not be read on its last attempt; cleared by the next success. */
export interface CaptureError {
  at: string;
  code: string;
  message: string;
}

export function emptyStats(): CaptureStats {
  return { linesRead: 0, turns: 0, skipped: 0, malformed: 0, redactions: {}, lastCaptureAt: null, recentIssues: [] };
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);

/** The stats stored in a checkpoint state (any shape; missing or malformed parts read as zero). */
export function readStats(state: unknown): CaptureStats {
  const raw = isRecord(state) && isRecord(state.stats) ? state.stats : {};
  const redactions: Record<string, number> = {};
  if (isRecord(raw.redactions)) for (const [k, v] of Object.entries(raw.redactions)) if (count(v) > 0) redactions[k] = count(v);
  const recentIssues = Array.isArray(raw.recentIssues)
    ? raw.recentIssues.filter((i): i is ParseIssue => isRecord(i) && typeof i.line === 'number' && typeof i.reason === 'string').slice(-RECENT_ISSUES)
    : [];
  return {
    linesRead: count(raw.linesRead),
    turns: count(raw.turns),
    skipped: count(raw.skipped),
    malformed: count(raw.malformed),
    redactions,
    lastCaptureAt: typeof raw.lastCaptureAt === 'string' ? raw.lastCaptureAt : null,
    recentIssues,
  };
}

/** The error stored in a checkpoint state, or null. */
export function readError(state: unknown): CaptureError | null {
  if (!isRecord(state) || !isRecord(state.error)) return null;
  const { at, code, message } = state.error;
  return typeof at === 'string' && typeof code === 'string' && typeof message === 'string' ? { at, code, message } : null;
}

/** `a` plus `b` (a new object); `lastCaptureAt` is the later of the two, issues the newest. */
export function mergeStats(a: CaptureStats, b: CaptureStats): CaptureStats {
  const redactions = { ...a.redactions };
  addCounts(redactions, b.redactions);
  const last = [a.lastCaptureAt, b.lastCaptureAt].filter((t): t is string => t !== null).sort().at(-1) ?? null;
  return {
    linesRead: a.linesRead + b.linesRead,
    turns: a.turns + b.turns,
    skipped: a.skipped + b.skipped,
    malformed: a.malformed + b.malformed,
    redactions,
    lastCaptureAt: last,
    recentIssues: [...a.recentIssues, ...b.recentIssues].slice(-RECENT_ISSUES),
  };
}

/** The stats one commit adds: lines it consumed, turns it offered, and what it skipped and redacted. */
export function batchStats(part: { linesRead: number; turns: number; skipped: number; issues: ParseIssue[]; redactions: Record<string, number> }): CaptureStats {
  return {
    linesRead: part.linesRead,
    turns: part.turns,
    skipped: part.skipped,
    malformed: part.issues.length,
    redactions: part.redactions,
    lastCaptureAt: part.linesRead > 0 ? new Date().toISOString() : null,
    recentIssues: part.issues,
  };
}
