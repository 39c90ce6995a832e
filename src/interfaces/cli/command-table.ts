// Which module registers which top-level `cairn` command. A run imports only the module of the
// command it runs: every module drags in its own part of Cairn (zod schemas, text analysis, the
// secret scanners, the HTTP server…), and importing all of them was most of a cold `cairn --version`
// and a good part of a cold `cairn search` (bench/cold-start.ts). Help and unknown commands load
// every module, so `cairn --help` lists them all and commander's "did you mean" still works.
import type { Command } from 'commander';
import { commandWord } from './command-line.js';

export { commandWord };

type Register = (program: Command) => void;

export interface CommandModule {
  /** The top-level commands the module registers, in the order it registers them. */
  names: readonly string[];
  load: () => Promise<Register>;
}

/** In the order `cairn --help` lists the commands. test/cli/command-table.test.ts checks the names. */
export const COMMAND_MODULES: readonly CommandModule[] = [
  { names: ['init', 'status', 'export', 'import', 'reembed'], load: async () => (await import('./commands/admin.js')).registerAdminCommands },
  { names: ['store', 'get', 'history', 'supersede', 'list'], load: async () => (await import('./commands/memory.js')).registerMemoryCommands },
  { names: ['search'], load: async () => (await import('./commands/search.js')).registerSearchCommand },
  { names: ['entity', 'facts'], load: async () => (await import('./commands/entity.js')).registerEntityCommands },
  { names: ['ingest'], load: async () => (await import('./commands/ingest.js')).registerIngestCommand },
  { names: ['sources'], load: async () => (await import('./commands/sources.js')).registerSourcesCommands },
  { names: ['judge', 'feedback'], load: async () => (await import('./commands/judge.js')).registerJudgeCommands },
  { names: ['watch'], load: async () => (await import('./commands/watch.js')).registerWatchCommand },
  { names: ['state'], load: async () => (await import('./commands/state.js')).registerStateCommands },
  { names: ['context'], load: async () => (await import('./commands/context.js')).registerContextCommand },
  { names: ['tokens'], load: async () => (await import('./commands/tokens.js')).registerTokensCommands },
  { names: ['purge'], load: async () => (await import('./commands/purge.js')).registerPurgeCommands },
  { names: ['consolidate'], load: async () => (await import('./commands/consolidate.js')).registerConsolidateCommand },
  { names: ['backup'], load: async () => (await import('./commands/backup.js')).registerBackupCommands },
  { names: ['migrate'], load: async () => (await import('./commands/migrate.js')).registerMigrateCommand },
  { names: ['serve'], load: async () => (await import('./commands/serve.js')).registerServeCommand },
  { names: ['hooks', 'hook'], load: async () => (await import('./commands/hooks.js')).registerHooksCommands },
  { names: ['mcp'], load: async () => (await import('./commands/mcp.js')).registerMcpCommand },
];

/**
 * The modules a command line needs: its command's module; none for a bare `--version`; all of
 * them for help, no command or a word that names no command.
 */
export function modulesFor(args: readonly string[]): readonly CommandModule[] {
  const word = commandWord(args);
  if (word === null) {
    const versionOnly = (args.includes('-V') || args.includes('--version')) && !args.includes('-h') && !args.includes('--help');
    return versionOnly ? [] : COMMAND_MODULES;
  }
  const own = COMMAND_MODULES.find((m) => m.names.includes(word));
  return own ? [own] : COMMAND_MODULES;
}
