// `cairn hook claude-code`: what Claude Code runs for the hooks `cairn hooks install` adds. It
// reads the JSON Claude Code sends on stdin (session_id, transcript_path, cwd, hook_event_name and
// per-event fields) and
//   PreCompact, Stop, SessionEnd → captures what is new in the transcript through the facade's
//     ingest (the same checkpoints as the daemon, so every line is captured exactly once;
//     SessionEnd also flushes the response held open for parts that could still arrive), then,
//     when no daemon runs to do it, embeds the namespace's pending entries in a bounded slice;
//   SessionStart → prints the namespace's context brief as `additionalContext`.
// The caller (the CLI) turns every failure into one line on stderr and exit code 0: a memory
// hook must never block or break the user's session.
import { readdirSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { CairnError, ERROR_CODES, type ErrorCode } from '../../core/errors.js';
import { lockHolder } from '../../core/lock.js';
import { claudeProjectFolder, claudeProjectNamespace } from '../../capture/sources/discover.js';
import { unitForPath } from '../../capture/sources/units.js';
import type { Cairn } from '../../service/cairn.js';
import type { IngestResponse } from '../../service/ingest.js';
import { missingVectors } from '../../service/indexer.js';
import { watchedSources } from '../../service/sources.js';

/** Events whose transcript is captured; SessionEnd marks it complete. */
export const CAPTURE_EVENTS = ['PreCompact', 'Stop', 'SessionEnd'] as const;
/** Hook JSON is a few hundred bytes; anything near this is not from Claude Code. */
export const MAX_HOOK_INPUT_BYTES = 1024 * 1024;
/** Default size of the SessionStart brief. Claude Code shows longer context (~10,000 characters) only as a preview. */
export const DEFAULT_BRIEF_TOKENS = 2000;
/**
 * Entries a capture hook embeds at most (a second or two with the bundled model, well inside the
 * hook's deadline); a larger backlog is worked down by the next hooks.
 */
export const HOOK_EMBED_LIMIT = 256;
/**
 * Stop runs after every response: it loads the model only once this many entries wait, so most
 * responses cost a capture alone. PreCompact and SessionEnd embed whatever waits.
 */
export const STOP_EMBED_MIN = 64;

const text = (max: number) => z.string().max(max).nullish();

/** The fields we use; anything else Claude Code sends (permission_mode, source, reason…) is allowed and ignored. */
export const hookInputSchema = z.looseObject({
  hook_event_name: z.string().min(1).max(100),
  session_id: text(1000),
  transcript_path: text(4096),
  cwd: text(4096),
});

export type HookInput = z.infer<typeof hookInputSchema>;

/** Parses and validates the hook JSON (INVALID_INPUT with a short reason otherwise). */
export function parseHookInput(raw: string): HookInput {
  const body = raw.replace(/^\uFEFF/, '').trim();
  if (body === '') throw new CairnError(ERROR_CODES.INVALID_INPUT, 'no hook JSON on stdin');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new CairnError(ERROR_CODES.INVALID_INPUT, `stdin is not JSON (starts with ${JSON.stringify(body.slice(0, 40))})`);
  }
  const parsed = hookInputSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : 'input';
    throw new CairnError(ERROR_CODES.INVALID_INPUT, `invalid hook JSON: ${where}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Reads stdin to its end, up to `maxBytes` (more is refused without reading on). A stdin left
 * open is read for `timeoutMs` at most, then what arrived is used.
 */
export function readHookInput(stream: Readable & { isTTY?: boolean }, options: { maxBytes?: number; timeoutMs?: number } = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? MAX_HOOK_INPUT_BYTES;
  const timeoutMs = options.timeoutMs ?? 3000;
  if (stream.isTTY) return Promise.reject(new CairnError(ERROR_CODES.INVALID_INPUT, 'expects the hook JSON Claude Code sends on stdin (it is run by Claude Code, not by hand)'));
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err: Error | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.pause();
      // Stop reading a pipe that is still open, so the process can exit.
      if (err || !stream.readableEnded) stream.destroy();
      if (err) reject(err);
      else resolvePromise(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > maxBytes) return finish(new CairnError(ERROR_CODES.INVALID_INPUT, `hook JSON larger than ${maxBytes} bytes; ignored`));
      chunks.push(buf);
    };
    const onEnd = () => finish(null);
    const onError = (err: Error) => finish(new CairnError(ERROR_CODES.INVALID_INPUT, `cannot read stdin: ${err.message}`));
    const timer = setTimeout(() => finish(null), timeoutMs);
    timer.unref();
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

/**
 * The project namespace of a session, as `cairn sources add claude-code` names it: from the
 * transcript's project folder (`~/.claude/projects/-home-ana-proj/<session>.jsonl` → `proj`),
 * else from the cwd encoded the same way. The folder wins because Claude Code names it after the
 * directory the session started in, while `cwd` follows a `cd`. Null when neither gives one.
 */
export function projectNamespace(input: Pick<HookInput, 'transcript_path' | 'cwd'>): string | null {
  if (input.transcript_path) {
    const folder = basename(dirname(resolve(input.transcript_path)));
    // An encoded absolute path: "-home-ana-proj" (POSIX) or "C--Users-ana-proj" (Windows).
    if (/^-|^[A-Za-z]--/.test(folder)) {
      const ns = claudeProjectNamespace(folder);
      if (ns) return ns;
    }
  }
  if (input.cwd && isAbsolute(input.cwd)) return claudeProjectNamespace(claudeProjectFolder(resolve(input.cwd)));
  return null;
}

/**
 * The namespace the session's turns go to: the one given (-n), else the namespace of a watched
 * source that already captures the transcript (so hook and daemon share one checkpoint), else the
 * project's. Undefined: the facade's default namespace.
 */
export async function sessionNamespace(cairn: Cairn, input: HookInput, given?: string): Promise<string | undefined> {
  if (given !== undefined) return given;
  if (input.transcript_path) {
    const path = resolve(input.transcript_path);
    for (const source of await watchedSources(cairn.store)) {
      const unit = unitForPath(source, path);
      if (unit?.type === 'file' && unit.format === 'claude-code') return unit.namespace;
    }
  }
  return projectNamespace(input) ?? undefined;
}

/** Sub-agent transcripts of a session: `<project>/<session>/subagents/*.jsonl`. */
function subagentTranscripts(transcript: string): string[] {
  const dir = join(dirname(transcript), basename(transcript, '.jsonl'), 'subagents');
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
      .map((e) => join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}

export interface HookOptions {
  /** The global -n: every session's turns go there. */
  namespace?: string;
  /** Where a session no source claims goes (default: the facade's default namespace). */
  fallbackNamespace?: string;
  budgetTokens?: number;
  /**
   * After capture, `auto` embeds up to HOOK_EMBED_LIMIT pending entries of the namespace unless a
   * daemon runs (it embeds them) or a Stop finds fewer than STOP_EMBED_MIN; `all` embeds
   * everything pending now (default `auto`).
   */
  embed?: 'auto' | 'all';
}

export interface HookOutcome {
  event: string;
  namespace?: string;
  /** What to print on stdout for Claude Code (SessionStart's context). */
  stdout?: string;
  /** One line describing what was done (stderr with --verbose). */
  summary: string;
  /** A problem that did not stop the hook (a sub-agent file, a stage after capture). */
  warning?: string;
}

/** Runs one hook event against an open facade. Throws on failure; the caller reports it. */
export async function runHook(cairn: Cairn, input: HookInput, options: HookOptions = {}): Promise<HookOutcome> {
  const event = input.hook_event_name;
  if ((CAPTURE_EVENTS as readonly string[]).includes(event)) return capture(cairn, input, options);
  if (event === 'SessionStart') return sessionStart(cairn, input, options);
  return { event, summary: `event ${event} is not one Cairn handles; nothing done` };
}

async function capture(cairn: Cairn, input: HookInput, options: HookOptions): Promise<HookOutcome> {
  const event = input.hook_event_name;
  if (!input.transcript_path) throw new CairnError(ERROR_CODES.INVALID_INPUT, `${event} without a transcript_path; nothing captured`);
  const transcript = resolve(input.transcript_path);
  if (!transcript.endsWith('.jsonl')) throw new CairnError(ERROR_CODES.INVALID_INPUT, `transcript_path ${JSON.stringify(input.transcript_path.slice(0, 200))} is not a .jsonl transcript; nothing captured`);
  const namespace = await sessionNamespace(cairn, input, options.namespace);
  const final = event === 'SessionEnd';
  // Vectors come after every transcript is captured, as one bounded step (see embedBacklog).
  const main = await cairn.ingest([transcript], { format: 'claude-code', final, namespace, embed: false });
  const failed = main.files.find((f) => f.error);
  if (failed?.error) throw new CairnError(failed.error.code as ErrorCode, `${transcript}: ${failed.error.message}`);
  const warnings: string[] = main.warning ? [main.warning] : [];
  let inserted = main.turnsInserted;
  // Sub-agents write their own transcripts beside the session's; a bad one never fails the hook.
  const subagents = subagentTranscripts(transcript);
  if (subagents.length > 0) {
    try {
      const sub: IngestResponse = await cairn.ingest(subagents, { format: 'claude-code', final, namespace, embed: false });
      inserted += sub.turnsInserted;
      for (const f of sub.files) if (f.error) warnings.push(`${f.path}: ${f.error.message}`);
      if (sub.warning) warnings.push(sub.warning);
    } catch (err) {
      warnings.push(`sub-agent transcripts not captured: ${(err as Error).message}`);
    }
  }
  const ns = main.files[0]?.namespace ?? main.namespace;
  let vectors = '';
  try {
    const done = await embedBacklog(cairn, ns, event, options.embed ?? 'auto');
    if (done) vectors = `; embedded ${done.embedded}${done.left > 0 ? ` (${done.left} still without vectors)` : ''}`;
  } catch (err) {
    // The turns are captured and found by keyword; a later hook, the daemon or reembed embeds them.
    warnings.push(`captured, but not embedded: ${(err as Error).message}`);
  }
  return {
    event,
    namespace: ns,
    summary: `${event}: ${inserted} new turns from ${basename(transcript)}${subagents.length ? ` and ${subagents.length} sub-agent transcripts` : ''} in namespace ${ns}${final ? ' (final)' : ''}${vectors}`,
    ...(warnings.length ? { warning: warnings.join('; ') } : {}),
  };
}

/**
 * Embeds the namespace's pending entries (this capture's and any earlier hook's) in one bounded
 * step, so a user with hooks and no daemon gets vectors too. Null when nothing was embedded or due.
 */
async function embedBacklog(cairn: Cairn, namespace: string, event: string, mode: 'auto' | 'all'): Promise<{ embedded: number; left: number } | null> {
  const model = cairn.modelId;
  if (model === null || !cairn.config.capture.embed) return null;
  // A running daemon embeds every namespace's backlog at its next rescan, without this wait.
  if (mode === 'auto' && lockHolder(cairn.paths.daemonLock)) return null;
  const waiting = (await missingVectors(cairn.store, model, cairn.config.index.passages)).get(namespace) ?? 0;
  if (waiting === 0 || (mode === 'auto' && event === 'Stop' && waiting < STOP_EMBED_MIN)) return null;
  const progress = await cairn.embedPending({ namespace, ...(mode === 'auto' ? { limit: HOOK_EMBED_LIMIT } : {}) });
  return { embedded: progress.done, left: Math.max(0, waiting - progress.done) };
}

async function sessionStart(cairn: Cairn, input: HookInput, options: HookOptions): Promise<HookOutcome> {
  const namespace = (await sessionNamespace(cairn, input, options.namespace)) ?? options.fallbackNamespace ?? cairn.defaultNamespace;
  const brief = await cairn.context({ namespace, budgetTokens: options.budgetTokens ?? DEFAULT_BRIEF_TOKENS });
  const context = brief.text.trim();
  const summary = `SessionStart: ${context ? `${brief.usedTokens} tokens of context` : 'no context'} from namespace ${namespace}`;
  if (!context) return { event: 'SessionStart', namespace, summary };
  // The JSON form rather than plain stdout: Claude Code adds additionalContext to the session
  // as is, with no risk of the text being taken for JSON output.
  const stdout = JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } }) + '\n';
  return { event: 'SessionStart', namespace, stdout, summary };
}
