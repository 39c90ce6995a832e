#!/usr/bin/env node
// The `cairn` command. Parses arguments, calls the service facade, maps errors to exit codes.
import { Command, CommanderError } from 'commander';
import { EXIT_CODES } from '../../core/errors.js';
import { usePrivateUmask } from '../../core/private-files.js';
import { CAIRN_VERSION } from '../../core/version.js';
import { COMMAND_MODULES, modulesFor, type CommandModule } from './command-table.js';
import { releaseEarlyModel, startModelEarly } from './early-model.js';
import { discardOutputOnceReaderLeaves } from './closed-output.js';
import { commandWord } from './command-line.js';
import { reportError } from './run.js';

const VERSION = CAIRN_VERSION;

/** The program with the commands of `modules` registered (by default every command). */
export async function buildProgram(modules: readonly CommandModule[] = COMMAND_MODULES): Promise<Command> {
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
  // Imported together, registered in the table's order: `cairn --help` lists them as before.
  const registers = await Promise.all(modules.map((m) => m.load()));
  for (const register of registers) register(program);
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
  // Before commander's program, zod and the service load: the model takes longest.
  startModelEarly(argv.slice(2));
  try {
    const program = await buildProgram(modulesFor(argv.slice(2)));
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
  } finally {
    await releaseEarlyModel();
  }
}

/**
 * Commands that have nothing left to run once main() returns: the facade closed (the database,
 * the model's thread exited), the output written. Ending there, once stdout and stderr are flushed,
 * skips Node's own teardown of the main thread's heap (~10 ms of a cold search here), which an
 * agent waiting on the process would otherwise wait for too.
 */
const ENDS_AT_ONCE = new Set(['search']);

function exitOnceFlushed(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

discardOutputOnceReaderLeaves();
main(process.argv).then(
  (code) => {
    process.exitCode = code;
    if (ENDS_AT_ONCE.has(commandWord(process.argv.slice(2)) ?? '')) exitOnceFlushed(code);
  },
  (err: unknown) => {
    process.exitCode = reportError(err, false);
  },
);
