// Installs Cairn's hooks in a Claude Code settings file (`~/.claude/settings.json`) and removes
// them again. The file belongs to the user and to Claude Code: every other key and every other
// hook (other tools' hooks on the same events included) is kept as it was; a backup is made
// before any change; the write is atomic (temp file + rename, through a symlink to its target);
// installing twice changes nothing; a file that is not a JSON object is refused untouched.
//
// The shape Claude Code reads:
//   {"hooks": {"Stop": [{"matcher"?: "...", "hooks": [{"type": "command", "command": "...", "timeout"?: s}]}]}}
// Our entries are told apart by their command (see isCairnHookCommand), never by position.
import { copyFileSync, constants, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CairnError, ERROR_CODES } from '../../core/errors.js';

/** The events Cairn hooks: capture before compaction, after each response and at the end; context at the start. */
export const CAIRN_HOOK_EVENTS = ['SessionStart', 'PreCompact', 'Stop', 'SessionEnd'] as const;
export type CairnHookEvent = (typeof CAIRN_HOOK_EVENTS)[number];

/** The subcommand every Cairn hook runs; with the CLI's path it marks our entries. */
export const HOOK_SUBCOMMAND = 'hook claude-code';

/**
 * Seconds Claude Code gives each hook. SessionEnd hooks otherwise share a 1.5 s budget, which a
 * Node start plus a database open can exceed on a slow disk; the others default to 60 s. The hook
 * itself stops well before (see the handler's deadline).
 */
export const HOOK_TIMEOUT_SECONDS = 30;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface HookCommandOptions {
  /** Absolute path of the node binary that runs the CLI. */
  node: string;
  /** Absolute path of the CLI's entry point: dist/bin/cairn.js (earlier versions: dist/interfaces/cli/main.js). */
  cli: string;
  /** Data directory, when not the default ~/.cairn. */
  home?: string;
  /** A fixed namespace for every project (otherwise one per project). */
  namespace?: string;
}

/** The default settings file: $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json. */
export function defaultSettingsPath(): string {
  return resolve(process.env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude'), 'settings.json');
}

/** Quotes a word for the POSIX shell Claude Code runs hook commands with (only when needed). */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command line of our hooks: absolute node and CLI, so it works without PATH set-up. */
export function hookCommand(options: HookCommandOptions): string {
  const words = [options.node, options.cli];
  if (options.home !== undefined) words.push('--home', options.home);
  if (options.namespace !== undefined) words.push('-n', options.namespace);
  return [...words.map(shellQuote), HOOK_SUBCOMMAND].join(' ');
}

/**
 * Whether a hook command is one of ours: it runs Cairn's CLI (its bin/cairn.js, the main.js hooks
 * of earlier versions ran, or a `cairn` binary) with the `hook claude-code` subcommand. Both are
 * required, because another tool's command may well end in "hook claude-code" too.
 */
export function isCairnHookCommand(command: unknown): boolean {
  if (typeof command !== 'string') return false;
  const cmd = command.replace(/\\/g, '/');
  if (!/(^|\s)hook\s+claude-code(\s|$)/.test(cmd)) return false;
  return /(interfaces\/cli\/main|\/bin\/cairn)\.js['"]?(\s|$)/.test(cmd) || /(^|[\s/'"])cairn['"]?\s/.test(cmd);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ourHookEntry(command: string): JsonObject {
  return { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
}

function isOurHook(hook: unknown): boolean {
  return isObject(hook) && isCairnHookCommand(hook.command);
}

export interface SettingsFile {
  path: string;
  /** Where writes go: the symlink's target when `path` is one. */
  target: string;
  exists: boolean;
  /** The bytes as read ('' when missing), to detect a concurrent change before replacing them. */
  text: string;
  settings: JsonObject;
  /** Indentation to write with, as found in the file (two spaces by default). */
  indent: string | number;
}

/** Reads and checks a settings file; refuses (INVALID_INPUT) anything that is not a JSON object. */
export function readSettings(path: string): SettingsFile {
  const abs = resolve(path);
  let target = abs;
  let text = '';
  let exists = false;
  try {
    target = realpathSync(abs);
    exists = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw fileError(abs, err);
  }
  if (exists) {
    if (!statSync(target).isFile()) throw new CairnError(ERROR_CODES.INVALID_INPUT, `${abs} is not a file`);
    try {
      text = readFileSync(target, 'utf8');
    } catch (err) {
      throw fileError(abs, err);
    }
  }
  const body = text.replace(/^\uFEFF/, '');
  let settings: JsonObject = {};
  if (body.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (err) {
      throw new CairnError(ERROR_CODES.INVALID_INPUT, `${abs} is not valid JSON (${(err as Error).message}); fix it or pass another file with --settings. Nothing was changed.`);
    }
    if (!isObject(parsed)) {
      throw new CairnError(ERROR_CODES.INVALID_INPUT, `${abs} must hold a JSON object, found ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : typeof parsed}. Nothing was changed.`);
    }
    settings = parsed;
  }
  checkHooksShape(abs, settings);
  return { path: abs, target, exists, text, settings, indent: detectIndent(body) };
}

function fileError(path: string, err: unknown): CairnError {
  return new CairnError(ERROR_CODES.INVALID_INPUT, `Cannot read ${path}: ${(err as Error).message}`);
}

/** `hooks` must be an object of arrays for us to edit it safely. */
function checkHooksShape(path: string, settings: JsonObject): void {
  if (!('hooks' in settings)) return;
  const hooks = settings.hooks;
  if (!isObject(hooks)) throw new CairnError(ERROR_CODES.INVALID_INPUT, `${path}: "hooks" must be an object. Nothing was changed.`);
  for (const event of CAIRN_HOOK_EVENTS) {
    if (event in hooks && !Array.isArray(hooks[event])) {
      throw new CairnError(ERROR_CODES.INVALID_INPUT, `${path}: "hooks.${event}" must be an array. Nothing was changed.`);
    }
  }
}

function detectIndent(text: string): string | number {
  const m = /^\{\s*?\n([ \t]+)\S/.exec(text);
  return m ? m[1]! : 2;
}

/**
 * Removes our hooks from every matcher group of one event's array. Groups left with no hooks by
 * this removal are dropped (groups that were already empty stay). Returns the new array.
 */
function withoutOurs(groups: Json[]): Json[] {
  const out: Json[] = [];
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks) || !group.hooks.some(isOurHook)) {
      out.push(group);
      continue;
    }
    const kept = group.hooks.filter((h) => !isOurHook(h));
    if (kept.length > 0) out.push({ ...group, hooks: kept });
  }
  return out;
}

/** Counts our hooks in one event's array. */
function oursIn(groups: Json[] | undefined): string[] {
  const commands: string[] = [];
  for (const group of groups ?? []) {
    if (!isObject(group) || !Array.isArray(group.hooks)) continue;
    for (const h of group.hooks) if (isOurHook(h)) commands.push(String((h as JsonObject).command));
  }
  return commands;
}

/** The settings with our hooks present exactly once per event, each with `command`. */
export function withCairnHooks(settings: JsonObject, command: string): JsonObject {
  const hooks: JsonObject = isObject(settings.hooks) ? { ...settings.hooks } : {};
  const wanted: JsonObject = { hooks: [ourHookEntry(command)] };
  for (const event of CAIRN_HOOK_EVENTS) {
    const groups = Array.isArray(hooks[event]) ? (hooks[event] as Json[]) : [];
    const ours = groups.filter((g) => isObject(g) && Array.isArray(g.hooks) && g.hooks.some(isOurHook));
    // Already right (one group of ours, exactly as we would write it): leave it where it is.
    if (ours.length === 1 && isDeepStrictEqual(ours[0], wanted)) continue;
    hooks[event] = [...withoutOurs(groups), wanted];
  }
  return { ...settings, hooks };
}

/**
 * The settings without our hooks. Event arrays and the `hooks` object left empty by the removal
 * are dropped (install creates them when missing); ones that were already empty stay.
 */
export function withoutCairnHooks(settings: JsonObject): JsonObject {
  if (!isObject(settings.hooks)) return settings;
  const hooks: JsonObject = {};
  let removed = false;
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups) || oursIn(groups).length === 0) {
      hooks[event] = groups;
      continue;
    }
    removed = true;
    const kept = withoutOurs(groups);
    if (kept.length > 0) hooks[event] = kept;
  }
  if (!removed) return settings;
  const out = { ...settings };
  if (Object.keys(hooks).length > 0) out.hooks = hooks;
  else delete out.hooks;
  return out;
}

export interface HooksStatus {
  path: string;
  exists: boolean;
  /** Every event has our hook. */
  installed: boolean;
  /** Our commands per event (empty: not there). */
  events: Record<CairnHookEvent, string[]>;
  /** Events whose hook is missing, doubled, or runs another command than `expected`. */
  stale: CairnHookEvent[];
}

export function hooksStatus(path: string, expected?: string): HooksStatus {
  const file = readSettings(path);
  const hooks = isObject(file.settings.hooks) ? file.settings.hooks : {};
  const events = {} as Record<CairnHookEvent, string[]>;
  const stale: CairnHookEvent[] = [];
  for (const event of CAIRN_HOOK_EVENTS) {
    const groups = hooks[event];
    events[event] = oursIn(Array.isArray(groups) ? groups : undefined);
    if (events[event].length !== 1 || (expected !== undefined && events[event][0] !== expected)) stale.push(event);
  }
  const installed = CAIRN_HOOK_EVENTS.every((e) => events[e].length > 0);
  return { path: file.path, exists: file.exists, installed, events, stale };
}

export interface ChangeResult {
  path: string;
  changed: boolean;
  /** The copy made before the change (absent when the file did not exist or nothing changed). */
  backup?: string;
  /** True when the file did not exist and was created. */
  created?: boolean;
}

/** Adds (or updates) our hooks. Writes nothing when they are already there as they should be. */
export function installHooks(path: string, command: string): ChangeResult {
  const file = readSettings(path);
  const next = withCairnHooks(file.settings, command);
  if (file.exists && isDeepStrictEqual(next, file.settings)) return { path: file.path, changed: false };
  return { ...replace(file, next), created: !file.exists };
}

/** Removes our hooks (only ours). Writes nothing when there are none. */
export function uninstallHooks(path: string): ChangeResult {
  const file = readSettings(path);
  if (!file.exists) return { path: file.path, changed: false };
  const next = withoutCairnHooks(file.settings);
  if (isDeepStrictEqual(next, file.settings)) return { path: file.path, changed: false };
  return replace(file, next);
}

/** A timestamp for backup names that sorts and is valid in every file system. */
function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/** Backs the file up, then swaps in the new content atomically. */
function replace(file: SettingsFile, next: JsonObject): ChangeResult {
  const dir = dirname(file.target);
  mkdirSync(dir, { recursive: true });
  let backup: string | undefined;
  if (file.exists) {
    backup = `${file.path}.cairn-backup-${stamp()}`;
    for (let i = 1; ; i++) {
      try {
        copyFileSync(file.target, backup, constants.COPYFILE_EXCL);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || i > 100) throw err;
        backup = `${file.path}.cairn-backup-${stamp()}-${i}`;
      }
    }
  }
  const tmp = join(dir, `.${basename(file.target)}.cairn-tmp-${process.pid}-${Date.now()}`);
  try {
    const mode = file.exists ? statSync(file.target).mode & 0o777 : 0o644;
    writeFileSync(tmp, JSON.stringify(next, null, file.indent) + '\n', { mode, flag: 'wx' });
    // Claude Code (or the user) may have saved the file meanwhile: never overwrite that.
    const now = existsSync(file.target) ? readFileSync(file.target, 'utf8') : '';
    if (now !== file.text || existsSync(file.target) !== file.exists) {
      throw new CairnError(ERROR_CODES.CONFLICT, `${file.path} changed while Cairn was editing it; nothing was changed, run the command again`);
    }
    renameSync(tmp, file.target);
  } catch (err) {
    rmSync(tmp, { force: true });
    if (backup) rmSync(backup, { force: true });
    throw err;
  }
  return { path: file.path, changed: true, ...(backup ? { backup } : {}) };
}
