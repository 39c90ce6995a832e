// The plugin's settings (plugins.entries.cairn.config in openclaw.json). OpenClaw validates them
// against openclaw.plugin.json's schema first; this reads them once more so a value that slipped
// through (or an older OpenClaw that does not validate) falls back to the default, never crashes,
// and says so once in OpenClaw's log.
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

/** Receives one message per ignored setting (OpenClaw's plugin logger in register). */
export type SettingsWarn = (message: string) => void;

/** The value's kind as a user would name it: null and arrays apart from objects, numbers with their value. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return `number ${Number.isFinite(value) ? value : String(value)}`;
  if (typeof value === 'string') return value.trim() === '' ? 'empty string' : `string of ${value.length} chars`;
  return typeof value;
}

/** A key quoted for a log line: JSON-escaped (no control characters reach the log) and bounded. */
function keyName(key: string): string {
  const quoted = JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key);
  return `plugins.entries.cairn.config[${quoted}]`;
}

function ignored(warn: SettingsWarn, key: string, value: unknown, allowed: string, fallback: unknown): void {
  warn(`cairn: ignoring ${keyName(key)}: got ${describe(value)}, allowed ${allowed}; using ${JSON.stringify(fallback)}`);
}

function int(c: Record<string, unknown>, key: keyof typeof LIMITS, warn: SettingsWarn): number {
  const value = c[key];
  const [min, max] = LIMITS[key];
  if (value === undefined) return DEFAULTS[key];
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  ignored(warn, key, value, `an integer from ${min} to ${max}`, DEFAULTS[key]);
  return DEFAULTS[key];
}

function bool(c: Record<string, unknown>, key: 'autoRecall' | 'autoCapture', warn: SettingsWarn): boolean {
  const value = c[key];
  if (value === undefined) return DEFAULTS[key];
  if (typeof value === 'boolean') return value;
  ignored(warn, key, value, 'true or false', DEFAULTS[key]);
  return DEFAULTS[key];
}

/** Where Cairn keeps its data, as the cairn CLI resolves it: the setting, CAIRN_HOME, then ~/.cairn. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.CAIRN_HOME ? env.CAIRN_HOME : join(homedir(), '.cairn'));
}

const KNOWN = new Set(['home', ...Object.keys(DEFAULTS)]);

/**
 * The settings, each invalid or unknown one replaced by its default (the agent must keep working)
 * and reported once through `warn`, naming the key, the kind of value found and what is allowed.
 */
export function readSettings(raw: unknown, env: NodeJS.ProcessEnv = process.env, warn: SettingsWarn = () => undefined): PluginSettings {
  let c: Record<string, unknown> = {};
  if (raw !== undefined && raw !== null && typeof raw === 'object' && !Array.isArray(raw)) c = raw as Record<string, unknown>;
  else if (raw !== undefined && raw !== null) warn(`cairn: ignoring plugins.entries.cairn.config: got ${describe(raw)}, allowed an object; using the defaults`);
  for (const key of Object.keys(c)) if (!KNOWN.has(key)) warn(`cairn: ignoring unknown setting ${keyName(key)} (${describe(c[key])}); known: ${[...KNOWN].join(', ')}`);
  let home = defaultHome(env);
  if (typeof c.home === 'string' && c.home.trim() !== '') home = resolve(c.home.replace(/^~(?=$|[/\\])/, homedir()));
  else if (c.home !== undefined) ignored(warn, 'home', c.home, 'a non-empty path string', home);
  return {
    home,
    resultChars: int(c, 'resultChars', warn),
    maxResults: int(c, 'maxResults', warn),
    autoRecall: bool(c, 'autoRecall', warn),
    recallTokens: int(c, 'recallTokens', warn),
    autoCapture: bool(c, 'autoCapture', warn),
    timeoutMs: int(c, 'timeoutMs', warn),
    recallTimeoutMs: int(c, 'recallTimeoutMs', warn),
  };
}
