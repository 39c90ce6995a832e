// cairn hooks install|uninstall|status claude-code: Cairn's hooks in Claude Code's settings file;
// cairn hook claude-code: the handler those hooks run (hook JSON on stdin; always exits 0).
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../../core/private-files.js';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { CairnError, ERROR_CODES, isCairnError } from '../../../core/errors.js';
import { resolveHome } from '../../../core/home.js';
import { parseNamespace } from '../../../core/namespace.js';
import type { HookOutcome } from '../../../integrations/claude-code/hook.js';
import { gateText } from '../../../service/redaction-gate.js';
import { globals, intOption, print, printJson } from '../run.js';

const AGENTS = ['claude-code'] as const;

/**
 * The CLI entry point the hooks run: this build's executable, dist/bin/cairn.js, the package's
 * `bin`, which runs the bundled CLI from the code cache in the home (bundle-loader.ts). A hook runs
 * at every start and stop of an agent's session; the unbundled entry (dist/interfaces/cli/main.js,
 * which hooks ran before, and which `cairn hooks status` now reports as out of date) resolves and
 * compiles ~300 modules each time. A tree without the bundle (run from source) runs main.js. Asked
 * only by the hooks commands (every command loads this module).
 */
function hookEntryPoint(): string {
  const bin = fileURLToPath(new URL('../../../bin/cairn.js', import.meta.url));
  return existsSync(bin) ? bin : fileURLToPath(new URL('../main.js', import.meta.url));
}

/** Stop well inside the timeout Claude Code gives the hook, with a message instead of a kill. */
const HOOK_DEADLINE_MS = 25_000;

function checkAgent(agent: string): void {
  if (!(AGENTS as readonly string[]).includes(agent)) {
    throw new CairnError(ERROR_CODES.INVALID_INPUT, `Unknown agent "${agent.slice(0, 40)}": hooks exist for ${AGENTS.join(', ')}`);
  }
}

async function settingsPath(opts: { settings?: string }): Promise<string> {
  const { defaultSettingsPath } = await import('../../../integrations/claude-code/settings.js');
  if (opts.settings !== undefined && opts.settings.trim() === '') throw new CairnError(ERROR_CODES.INVALID_INPUT, '--settings must be a path');
  return opts.settings !== undefined ? resolve(opts.settings) : defaultSettingsPath();
}

/**
 * The command our hooks run. The data directory is named when it is not the default one (--home
 * or CAIRN_HOME), and the namespace when -n was given, so the hook sees what this command saw.
 */
async function expectedCommand(cmd: Command): Promise<string> {
  const { hookCommand } = await import('../../../integrations/claude-code/settings.js');
  const g = globals(cmd);
  const root = resolveHome(g.home).root;
  const isDefault = root === resolve(join(homedir(), '.cairn'));
  return hookCommand({
    node: process.execPath,
    cli: hookEntryPoint(),
    ...(isDefault ? {} : { home: root }),
    ...(g.namespace !== undefined ? { namespace: parseNamespace(g.namespace) } : {}),
  });
}

export function registerHooksCommands(program: Command): void {
  const hooks = program
    .command('hooks')
    .description("Install Cairn's hooks in an agent (Claude Code): capture every session, start each with its memory");

  hooks
    .command('install')
    .description('Add PreCompact, Stop and SessionEnd hooks (capture the transcript) and SessionStart (print the context brief) to ~/.claude/settings.json; backs it up first; running it again changes nothing')
    .argument('<agent>', AGENTS.join('|'))
    .option('--settings <path>', 'settings file (default: $CLAUDE_CONFIG_DIR/settings.json or ~/.claude/settings.json)')
    .option('--json', 'print as JSON')
    .addHelpText('after', '\nWith -n every project\'s sessions go to that namespace; without it each project gets its own\n(as `cairn sources add claude-code` names them). With --home (or CAIRN_HOME) the hooks use that data directory.')
    .action(async (agent: string, opts: { settings?: string }, cmd: Command) => {
      checkAgent(agent);
      const { installHooks, CAIRN_HOOK_EVENTS } = await import('../../../integrations/claude-code/settings.js');
      const path = await settingsPath(opts);
      const command = await expectedCommand(cmd);
      const res = installHooks(path, command);
      const entry = hookEntryPoint();
      if (/[\\/]_npx[\\/]/.test(entry)) process.stderr.write(`cairn: warning: the hooks run ${entry}, inside npx's cache, which npm may clear; install Cairn (npm install -g) and run this again\n`);
      if (globals(cmd).json) return printJson({ ...res, events: CAIRN_HOOK_EVENTS, command });
      if (!res.changed) return print(`Cairn's hooks are already installed in ${res.path}; nothing changed.`);
      print(`Installed Cairn's hooks (${CAIRN_HOOK_EVENTS.join(', ')}) in ${res.path}${res.created ? ' (created)' : ''}.`);
      if (res.backup) print(`Backup of the previous file: ${res.backup}`);
      print(`Each runs: ${command}`);
      print('New Claude Code sessions pick them up (check with /hooks in Claude Code).');
    });

  hooks
    .command('uninstall')
    .description("Remove Cairn's hooks (only Cairn's: other hooks and settings stay as they are); backs the file up first")
    .argument('<agent>', AGENTS.join('|'))
    .option('--settings <path>', 'settings file (default: $CLAUDE_CONFIG_DIR/settings.json or ~/.claude/settings.json)')
    .option('--json', 'print as JSON')
    .action(async (agent: string, opts: { settings?: string }, cmd: Command) => {
      checkAgent(agent);
      const { uninstallHooks } = await import('../../../integrations/claude-code/settings.js');
      const res = uninstallHooks(await settingsPath(opts));
      if (globals(cmd).json) return printJson(res);
      if (!res.changed) return print(`No Cairn hooks in ${res.path}; nothing changed.`);
      print(`Removed Cairn's hooks from ${res.path}.`);
      if (res.backup) print(`Backup of the previous file: ${res.backup}`);
    });

  hooks
    .command('status')
    .description("Whether Cairn's hooks are installed, and whether they run this installation")
    .argument('<agent>', AGENTS.join('|'))
    .option('--settings <path>', 'settings file (default: $CLAUDE_CONFIG_DIR/settings.json or ~/.claude/settings.json)')
    .option('--json', 'print as JSON')
    .action(async (agent: string, opts: { settings?: string }, cmd: Command) => {
      checkAgent(agent);
      const { hooksStatus, CAIRN_HOOK_EVENTS } = await import('../../../integrations/claude-code/settings.js');
      const command = await expectedCommand(cmd);
      const status = hooksStatus(await settingsPath(opts), command);
      const current = status.installed && status.stale.length === 0;
      if (globals(cmd).json) return printJson({ ...status, current, command });
      if (!status.exists) return print(`Not installed: ${status.path} does not exist. Run: cairn hooks install claude-code`);
      const present = CAIRN_HOOK_EVENTS.filter((e) => status.events[e].length > 0);
      if (present.length === 0) return print(`Not installed in ${status.path}. Run: cairn hooks install claude-code`);
      print(`${status.installed ? 'Installed' : 'Partly installed'} in ${status.path}`);
      for (const e of CAIRN_HOOK_EVENTS) print(`  ${e.padEnd(12)} ${status.events[e].length ? status.events[e].join(' | ') : '(missing)'}`);
      if (!current) print('Run `cairn hooks install claude-code` to bring them up to date with this installation.');
    });

  program
    .command('hook')
    .description('Handle a hook call (run by the agent with its hook JSON on stdin; never fails the session: errors go to stderr, exit 0)')
    .argument('<agent>', AGENTS.join('|'))
    .option('--budget-tokens <n>', 'size of the SessionStart brief', intOption('budget-tokens', 50, 20_000))
    .option('--embed', "embed everything pending in the session's namespace now, even while a daemon runs (by default a capture hook embeds up to 256 pending entries when no daemon does)")
    .option('--verbose', 'print what was done on stderr')
    .option('--no-daemon', 'build the SessionStart brief in this process even when `cairn watch` or `cairn serve` runs')
    .action(async (agent: string, opts: HookCliOptions, cmd: Command) => {
      await handleHook(agent, opts, cmd);
    });
}

interface HookCliOptions {
  budgetTokens?: number;
  embed?: boolean;
  verbose?: boolean;
  /** False with --no-daemon. */
  daemon: boolean;
}

/** Runs the hook; whatever happens, one line on stderr at most and exit code 0. */
async function handleHook(agent: string, opts: HookCliOptions, cmd: Command): Promise<void> {
  const g = globals(cmd);
  let event = 'hook';
  const fail = (err: unknown) => {
    const message = isCairnError(err) ? err.message : `internal error: ${err instanceof Error ? err.message : String(err)}`;
    // Through the redaction gate before it is cut: the message may quote the transcript.
    const line = gateText(`cairn: ${event}: ${message}`).replace(/[\r\n]+/g, ' ').slice(0, 1000);
    process.stderr.write(line + '\n');
    logHookError(g.home, line);
  };
  // Nothing may escape as a non-zero exit, not even an error thrown outside this await chain.
  process.on('uncaughtException', (err) => {
    fail(err);
    process.exit(0);
  });
  process.on('unhandledRejection', (err) => {
    fail(err);
    process.exit(0);
  });
  const deadline = setTimeout(() => {
    fail(new CairnError(ERROR_CODES.INTERNAL, `gave up after ${HOOK_DEADLINE_MS / 1000} s; what was captured so far is kept`));
    process.exit(0);
  }, HOOK_DEADLINE_MS);
  deadline.unref();
  const report = (outcome: HookOutcome) => {
    if (outcome.stdout) process.stdout.write(outcome.stdout);
    if (outcome.warning) fail(new CairnError(ERROR_CODES.INTERNAL, `warning: ${outcome.warning}`));
    if (opts.verbose) process.stderr.write(`cairn: ${outcome.summary}\n`);
  };
  try {
    checkAgent(agent);
    const { readHookInput, parseHookInput, runHook, CAPTURE_EVENTS } = await import('../../../integrations/claude-code/hook.js');
    const input = parseHookInput(await readHookInput(process.stdin));
    event = input.hook_event_name.replace(/[^A-Za-z0-9_-]/g, '?').slice(0, 40);
    if (input.hook_event_name === 'SessionStart' && opts.daemon) {
      // A read: a running daemon answers it warm (the brief's tokenizer alone takes ~120 ms to load).
      const { askDaemon } = await import('../../local/client.js');
      const answer = await askDaemon(resolveHome(g.home), 'session-start', g.namespace, { input, budgetTokens: opts.budgetTokens });
      if (answer) return report(answer.result as HookOutcome);
    }
    const { Cairn } = await import('../../../service/cairn.js');
    // SessionStart's brief needs no model (BM25 when there is no query). Capture hooks have the
    // embedder, which loads only when runHook embeds pending entries (bounded; see HOOK_EMBED_LIMIT).
    const captures = (CAPTURE_EVENTS as readonly string[]).includes(input.hook_event_name);
    // A hook's process ends with the hook: the database is read through a memory map.
    const cairn = await Cairn.open({ home: g.home, namespace: g.namespace, mapDatabase: true, ...(opts.embed || captures ? {} : { embedder: null }) });
    try {
      report(await runHook(cairn, input, { namespace: g.namespace === undefined ? undefined : cairn.namespace(g.namespace), budgetTokens: opts.budgetTokens, embed: opts.embed ? 'all' : 'auto' }));
    } finally {
      await cairn.close();
    }
  } catch (err) {
    fail(err);
  } finally {
    clearTimeout(deadline);
    process.exitCode = 0;
  }
}

/** Best effort: hook errors are also appended to <home>/logs/hooks.log, since Claude Code hides stderr of a hook that exits 0. */
function logHookError(home: string | undefined, line: string): void {
  try {
    const { logDir } = resolveHome(home);
    mkdirSync(logDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    appendFileSync(join(logDir, 'hooks.log'), `${new Date().toISOString()} ${line}\n`, { mode: PRIVATE_FILE_MODE });
  } catch {
    // no usable home: stderr is all there is
  }
}
