// cairn state get | set: the namespace's hot state (SESSION-STATE.md). `set` writes the store
// first (write-ahead), then rewrites the Markdown file atomically.
import type { Command } from 'commander';
import { CairnError } from '../../../core/errors.js';
import type { HotState, HotStatePatch } from '../../../service/hot-state.js';
import { redactionNote } from '../format.js';
import { globals, print, printJson, withCairn } from '../run.js';

/** Repeatable option that keeps each value whole (blockers and actions may contain commas). */
function collect(value: string, previous: string[] = []): string[] {
  return previous.concat(value);
}

export function formatState(state: HotState): string {
  const out: string[] = [];
  out.push(`Objective: ${state.objective ?? '(none)'}`);
  out.push(`Blockers:${state.blockers.length ? '' : ' (none)'}`);
  for (const b of state.blockers) out.push(`  - ${b}`);
  out.push(`Next actions:${state.nextActions.length ? '' : ' (none)'}`);
  for (const a of state.nextActions) out.push(`  - ${a}`);
  if (state.notes) out.push('Notes:', ...state.notes.split('\n').map((l) => `  ${l}`));
  else out.push('Notes: (none)');
  out.push(state.updatedAt ? `(namespace ${state.namespace}, updated ${state.updatedAt})` : `(namespace ${state.namespace}: no state set yet)`);
  return out.join('\n');
}

export function registerStateCommands(program: Command): void {
  const state = program.command('state').description("The namespace's hot state: objective, blockers, next actions, notes (SESSION-STATE.md)");

  state
    .command('get')
    .description('Show the hot state')
    .option('--json', 'print as JSON')
    .action(async (_opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const s = await cairn.getState();
        if (globals(cmd).json) return printJson({ ...s, file: cairn.stateFilePath() });
        print(formatState(s));
      });
    });

  state
    .command('set')
    .description('Update the hot state: given fields replace the stored ones, others stay (an empty value clears a field)')
    .option('--objective <text>', 'the current objective ("" clears it)')
    .option('--blocker <text>', 'a blocker (repeatable; replaces the list)', collect)
    .option('--next <text>', 'a next action (repeatable; replaces the list)', collect)
    .option('--notes <text>', 'free notes ("" clears them)')
    .option('--clear-blockers', 'remove every blocker')
    .option('--clear-next', 'remove every next action')
    .option('--json', 'print the new state as JSON')
    .action(async (opts, cmd: Command) => {
      if (opts.clearBlockers && opts.blocker) throw new CairnError('INVALID_INPUT', 'Use either --blocker or --clear-blockers, not both');
      if (opts.clearNext && opts.next) throw new CairnError('INVALID_INPUT', 'Use either --next or --clear-next, not both');
      const patch: HotStatePatch = {};
      if (opts.objective !== undefined) patch.objective = opts.objective;
      if (opts.blocker) patch.blockers = opts.blocker;
      if (opts.clearBlockers) patch.blockers = [];
      if (opts.next) patch.nextActions = opts.next;
      if (opts.clearNext) patch.nextActions = [];
      if (opts.notes !== undefined) patch.notes = opts.notes;
      await withCairn(cmd, async (cairn) => {
        const s = await cairn.setState(patch);
        if (s.warning) process.stderr.write(`cairn: warning: ${s.warning}\n`);
        if (globals(cmd).json) return printJson({ ...s, file: cairn.stateFilePath() });
        print(formatState(s));
        const note = redactionNote(s.redactions);
        print(`Saved; ${s.warning ? 'the file was not updated' : `written to ${cairn.stateFilePath()}`}${note ? ` (${note})` : ''}`);
      });
    });
}
