// The nightly sleep protocol (issue 24): backup → consolidate → content → prep. The daemon runs it
// at the review firing (and when it catches up after being off); other firings only consolidate.
// Steps are independent: a failed backup is reported and the night's notes are still written.
import type { Trigger } from '../consolidate/schedule.js';
import type { ConsolidateResult } from './consolidation.js';

export interface SleepRequest {
  /** 'first-start': a daemon's first catch-up on a home it never consolidated (no backup yet: the first night makes it). */
  trigger: Trigger | 'catch-up' | 'first-start' | 'manual';
  /** The moment the run is for (ISO). */
  at: string;
  /** Stops the run between jobs (a daemon shutting down); what was done stays, the rest is redone. */
  signal?: AbortSignal;
  /** False: the knowledge pass is not run first (a daemon runs it in its own queue). */
  learn?: boolean;
}

export interface SleepReport {
  trigger: SleepRequest['trigger'];
  at: string;
  /** The backup made (its id), or why none was. */
  backup: { id: string } | { skipped: string } | { failed: string };
  consolidation: ConsolidateResult | null;
  /** Namespaces whose session-start brief was written ahead. */
  prepared: string[];
  errors: string[];
  /** Counts for a log line. */
  summary: { files: number; changed: number; fallbacks: number; backup: string; errors: number };
}

export interface SleepSteps {
  /** Makes tonight's backup (and rotates old ones); returns its id, null when one is recent enough, or why the home makes none. */
  backup: (at: string) => Promise<string | null | { skipped: string }>;
  consolidate: (at: string, signal?: AbortSignal) => Promise<ConsolidateResult>;
  prepare: (namespace: string) => Promise<void>;
}

/** Nightly: the review firing, a catch-up (which may stand for missed nights), or by hand. */
export function isNightly(trigger: SleepRequest['trigger']): boolean {
  return trigger === 'review' || trigger === 'catch-up' || trigger === 'manual';
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function runSleep(steps: SleepSteps, req: SleepRequest): Promise<SleepReport> {
  const nightly = isNightly(req.trigger);
  const errors: string[] = [];
  let backup: SleepReport['backup'] = { skipped: 'not a nightly run' };
  if (nightly) {
    try {
      const id = await steps.backup(req.at);
      backup = id === null ? { skipped: 'a recent backup exists' } : typeof id === 'string' ? { id } : id;
    } catch (err) {
      backup = { failed: message(err) };
      errors.push(`backup: ${message(err)}`);
    }
  }
  let consolidation: ConsolidateResult | null = null;
  try {
    consolidation = await steps.consolidate(req.at, req.signal);
  } catch (err) {
    errors.push(`consolidate: ${message(err)}`);
  }
  const prepared: string[] = [];
  if ((nightly || req.trigger === 'first-start') && consolidation && !req.signal?.aborted) {
    for (const ns of consolidation.namespaces) {
      try {
        await steps.prepare(ns.namespace);
        prepared.push(ns.namespace);
      } catch (err) {
        errors.push(`prep ${ns.namespace}: ${message(err)}`);
      }
    }
  }
  const files = consolidation?.namespaces.flatMap((n) => n.files) ?? [];
  const summary = {
    files: files.length,
    changed: files.filter((f) => f.changed).length,
    fallbacks: files.filter((f) => f.fallback).length,
    backup: 'id' in backup ? backup.id : 'skipped' in backup ? `skipped (${backup.skipped})` : `failed (${backup.failed})`,
    errors: errors.length,
  };
  return { trigger: req.trigger, at: req.at, backup, consolidation, prepared, errors, summary };
}
