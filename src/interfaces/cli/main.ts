#!/usr/bin/env node
// The `cairn` command. Parses arguments, calls the service facade, maps errors to exit codes.
import { Command, CommanderError } from 'commander';
import { EXIT_CODES } from '../../core/errors.js';
import { usePrivateUmask } from '../../core/private-files.js';
import { CAIRN_VERSION } from '../../core/version.js';
import { registerAdminCommands } from './commands/admin.js';
import { registerBackupCommands } from './commands/backup.js';
import { registerContextCommand } from './commands/context.js';
import { registerEntityCommands } from './commands/entity.js';
import { registerHooksCommands } from './commands/hooks.js';
import { registerIngestCommand } from './commands/ingest.js';
import { registerJudgeCommands } from './commands/judge.js';
import { registerMemoryCommands } from './commands/memory.js';
import { registerMigrateCommand } from './commands/migrate.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerPurgeCommands } from './commands/purge.js';
import { registerConsolidateCommand } from './commands/consolidate.js';
import { registerSearchCommand } from './commands/search.js';
import { registerServeCommand } from './commands/serve.js';
import { registerSourcesCommands } from './commands/sources.js';
import { registerStateCommands } from './commands/state.js';
import { registerTokensCommands } from './commands/tokens.js';
import { registerWatchCommand } from './commands/watch.js';
import { discardOutputOnceReaderLeaves } from './closed-output.js';
import { reportError } from './run.js';

const VERSION = CAIRN_VERSION;

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('cairn')
    .description('Long-term memory for AI agents: store, search and keep what matters, offline.')
    .version(VERSION)
    .option('--home <dir>', 'data directory (default: $CAIRN_HOME or ~/.cairn)')
    .option('-n, --namespace <ns>', 'namespace (agent id) to work in (default: config defaultNamespace)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  program.configureOutput({ outputError: (str, write) => write(`cairn: ${str.replace(/^error: /, '')}`) });
  registerAdminCommands(program);
  registerMemoryCommands(program);
  registerSearchCommand(program);
  registerEntityCommands(program);
  registerIngestCommand(program);
  registerSourcesCommands(program);
  registerJudgeCommands(program);
  registerWatchCommand(program);
  registerStateCommands(program);
  registerContextCommand(program);
  registerTokensCommands(program);
  registerPurgeCommands(program);
  registerConsolidateCommand(program);
  registerBackupCommands(program);
  registerMigrateCommand(program);
  registerServeCommand(program);
  registerHooksCommands(program);
  registerMcpCommand(program);
  const override = (c: Command): void => {
    c.exitOverride();
    c.commands.forEach(override);
  };
  program.commands.forEach(override);
  return program;
}

async function main(argv: string[]): Promise<number> {
  // Whatever the data directory gets from here on (and what libraries write into it) is private.
  usePrivateUmask();
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return 0;
      // 'commander.help' with a non-zero exit code is help shown because no command was given.
      if (err.code === 'commander.help' && err.exitCode === 0) return 0;
      // Option parsers throw CairnErrors wrapped by commander as invalidArgument.
      return EXIT_CODES.USAGE;
    }
    return reportError(err, argv.includes('--json'));
  }
}

discardOutputOnceReaderLeaves();
main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.exitCode = reportError(err, false);
  },
);
