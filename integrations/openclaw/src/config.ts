// The plugin's settings (plugins.entries.cairn.config in openclaw.json). OpenClaw validates them
// against openclaw.plugin.json's schema first; this reads them once more so a value that slipped
// through (or an older OpenClaw that does not validate) falls back to the default, never crashes.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface PluginSettings {
  /** Cairn's data directory, whose cairn.sock the daemon serves. */
  home: string;
  /** Characters one memory_search result may take, as JSON (path, lines, score, snippet, source, citation). */
  resultChars: number;
  /** Results memory_search returns when the agent does not say. */
  maxResults: number;
  /** Inject Cairn's session brief before each prompt is built. */
  autoRecall: boolean;
  /** Token budget of that brief. */
  recallTokens: number;
  /** Ask the daemon to capture every transcript now at agent_end and before compaction. */
  autoCapture: boolean;
  /** How long a tool call waits for Cairn before answering "memory unavailable". */
  timeoutMs: number;
  /** The same for auto-recall, which delays the prompt: kept short. */
  recallTimeoutMs: number;
}

export const DEFAULTS = {
  resultChars: 360,
  maxResults: 6,
  autoRecall: true,
  recallTokens: 600,
  autoCapture: true,
  timeoutMs: 15_000,
  recallTimeoutMs: 3_000,
} as const;

export const LIMITS = {
  resultChars: [160, 4000],
  maxResults: [1, 50],
  recallTokens: [50, 8000],
  timeoutMs: [100, 120_000],
  recallTimeoutMs: [100, 30_000],
} as const;

function int(value: unknown, [min, max]: readonly [number, number], fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}

function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

/** Where Cairn keeps its data, as the cairn CLI resolves it: the setting, CAIRN_HOME, then ~/.cairn. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.CAIRN_HOME ? env.CAIRN_HOME : join(homedir(), '.cairn'));
}

export function readSettings(raw: Record<string, unknown> | undefined, env: NodeJS.ProcessEnv = process.env): PluginSettings {
  const c = raw ?? {};
  return {
    home: typeof c.home === 'string' && c.home.trim() !== '' ? resolve(c.home.replace(/^~(?=$|[/\\])/, homedir())) : defaultHome(env),
    resultChars: int(c.resultChars, LIMITS.resultChars, DEFAULTS.resultChars),
    maxResults: int(c.maxResults, LIMITS.maxResults, DEFAULTS.maxResults),
    autoRecall: bool(c.autoRecall, DEFAULTS.autoRecall),
    recallTokens: int(c.recallTokens, LIMITS.recallTokens, DEFAULTS.recallTokens),
    autoCapture: bool(c.autoCapture, DEFAULTS.autoCapture),
    timeoutMs: int(c.timeoutMs, LIMITS.timeoutMs, DEFAULTS.timeoutMs),
    recallTimeoutMs: int(c.recallTimeoutMs, LIMITS.recallTimeoutMs, DEFAULTS.recallTimeoutMs),
  };
}
