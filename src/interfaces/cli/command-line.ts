// Reading a command line before commander parses it: which command it runs and the value of an
// option, and whether it embeds a query. The executable (bundle-loader.ts) and the early model
// thread (early-model.ts) need them before the CLI is loaded, so they live here, importing only
// search/time-words.ts (which imports nothing).
import { mayNameTime } from '../../search/time-words.js';

/** Global options that take a value: the word after them is that value, not the command. */
const VALUE_OPTIONS = new Set(['--home', '-n', '--namespace']);

/**
 * The command word of a command line (argv without node and the script), or null when there is
 * none before "--" (`cairn`, `cairn --version`, `cairn --home x --help`).
 */
export function commandWord(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return null;
    if (VALUE_OPTIONS.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return arg;
  }
  return null;
}

/** The value of an option given as `--name value` or `--name=value` before "--"; the last one wins, as in commander. */
export function optionValue(args: readonly string[], names: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    for (const name of names) {
      if (arg === name) value = args[++i];
      else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
    }
  }
  return value;
}

/** Whether the command line embeds a query in this process: the commands that load the model on a thread (THREADS.oneShot). */
export function embedsQuery(args: readonly string[]): boolean {
  const word = commandWord(args);
  if (args.includes('-h') || args.includes('--help')) return false;
  if (word === 'search') return optionValue(args, ['--mode']) !== 'bm25';
  if (word === 'context') return Boolean(optionValue(args, ['-q', '--query']));
  return false;
}

/** Options of `search` and `context` whose value is not the query (`--mode bm25` names no time). */
const NOT_QUERY_VALUES = new Set([...VALUE_OPTIONS, '-l', '--limit', '--since', '--until', '--as-of', '-c', '--category', '-k', '--kind', '--layer', '--min-importance', '-e', '--entity', '--mode', '--strategy', '--budget-tokens']);

/**
 * Whether the command line asks a query that may name a time (search/time-words.ts): its words
 * after the command word, options and their values left out. It only decides which code the
 * executable's code cache is asked to cover, so a guess that is wrong costs nothing but time.
 */
export function asksAboutTime(args: readonly string[]): boolean {
  const word = commandWord(args);
  if (word !== 'search' && word !== 'context') return false;
  for (let i = args.indexOf(word) + 1; i < args.length; i++) {
    const arg = args[i]!;
    if (NOT_QUERY_VALUES.has(arg)) i++;
    else if (!arg.startsWith('-') && mayNameTime(arg)) return true;
  }
  return false;
}
