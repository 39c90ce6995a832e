// cairn store | get | history | supersede | list
import type { Command } from 'commander';
import { readAtMost } from '../../../core/bounded-input.js';
import { CairnError, ERROR_CODES } from '../../../core/errors.js';
import { CATEGORIES } from '../../../core/types.js';
import { formatMemory, redactionNote } from '../format.js';
import { THREADS, globals, intOption, listOption, print, printJson, withCairn } from '../run.js';

export function registerMemoryCommands(program: Command): void {
  program
    .command('store')
    .description('Store a memory (an equal current memory is not duplicated: its mention count rises)')
    .argument('[text...]', 'the memory text (or use --text, or - to read stdin)')
    .option('--text <text>', 'the memory text')
    .option('-c, --category <category>', `one of: ${CATEGORIES.join(', ')}`)
    .option('-i, --importance <n>', 'importance 1–10', intOption('importance', 1, 10))
    .option('-t, --tag <tag>', 'a tag (repeatable, or comma-separated)', listOption)
    .option('--event-time <time>', 'when it happened (ISO date/time or an age like 2d)')
    .option('--json', 'print the result as JSON')
    .action(async (words: string[], opts, cmd: Command) => {
      const text: string = opts.text ?? words.join(' ');
      await withCairn(cmd, async (cairn) => {
        const res = await cairn.remember({
          text: text === '-' ? await readStdinText(cairn.config.limits.maxTextChars) : text,
          category: opts.category,
          importance: opts.importance,
          tags: opts.tag,
          eventTime: opts.eventTime,
          provenance: [{ source: 'cli' }],
        });
        if (globals(cmd).json) return printJson(res);
        const note = redactionNote(res.redactions);
        print(`${res.duplicate ? 'Already known (mentions now ' + res.memory.mentions + ')' : 'Stored'}: ${res.memory.id}${note ? ` (${note})` : ''}`);
        if (res.mergedInto) print(`Says what ${res.mergedInto} says: folded into it (the older wording stays the current one)`);
        if (res.supersedes) print(`Supersedes ${res.supersedes} (a newer value of the same fact; the old one stays as history)`);
        if (res.warning) process.stderr.write(`cairn: warning: ${res.warning}\n`);
      }, { embedThreads: THREADS.query });
    });

  program
    .command('get')
    .description('Show one memory by id')
    .argument('<id>', 'memory id')
    .option('--json', 'print as JSON')
    .action(async (id: string, _opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const memory = await cairn.get(id);
        if (globals(cmd).json) printJson(memory);
        else print(formatMemory(memory));
      });
    });

  program
    .command('history')
    .description('Show the supersede chain of a memory, oldest first')
    .argument('<id>', 'memory id (any version)')
    .option('--json', 'print as JSON')
    .action(async (id: string, _opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const chain = await cairn.history(id);
        if (globals(cmd).json) printJson(chain);
        else print(chain.map(formatMemory).join('\n\n'));
      });
    });

  program
    .command('supersede')
    .description('Replace a memory with a newer statement; the old one stays as history')
    .argument('<id>', 'the memory that is no longer true')
    .argument('<text...>', 'the new statement')
    .option('--json', 'print as JSON')
    .action(async (id: string, words: string[], _opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const res = await cairn.supersede(id, { text: words.join(' '), provenance: [{ source: 'cli' }] });
        if (globals(cmd).json) printJson(res);
        else {
          const note = redactionNote(res.redactions);
          print(`Superseded ${res.previous.id} with ${res.current.id}${note ? ` (${note})` : ''}`);
        }
      });
    });

  program
    .command('list')
    .description('List recent memories of the namespace')
    .option('-l, --limit <n>', 'how many', intOption('limit', 1, 10_000), 20)
    .option('--all', 'include superseded memories')
    .option('--json', 'print as JSON')
    .action(async (opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const list = await cairn.list({ limit: opts.limit, includeSuperseded: Boolean(opts.all) });
        if (globals(cmd).json) printJson(list);
        else print(list.length ? list.map(formatMemory).join('\n\n') : 'No memories yet.');
      });
    });
}

/** Room for whitespace and control characters around a text, which storing trims away. */
const STDIN_SLACK_BYTES = 64 * 1024;

/**
 * The text piped to `cairn store -`. Reading stops as soon as stdin holds more than any text within
 * the limit could (3 UTF-8 bytes per character, plus slack): a huge input is refused after a few
 * MB at most, never read whole. The exact character limit is checked when storing.
 */
async function readStdinText(maxTextChars: number): Promise<string> {
  const text = await readAtMost(process.stdin, maxTextChars * 3 + STDIN_SLACK_BYTES);
  if (text === null) {
    throw new CairnError(ERROR_CODES.INVALID_INPUT, `text on stdin is longer than the limit of ${maxTextChars} characters (limits.maxTextChars); stopped reading it there`);
  }
  return text;
}
