// cairn context: the token-budgeted session-start brief (Markdown), as an agent would receive it.
import type { Command } from 'commander';
import { resolveHome } from '../../../core/home.js';
import type { ContextBrief } from '../../../service/context.js';
import { CONTEXT_BUDGET_RANGE, CONTEXT_DEFAULT_BUDGET } from '../../../service/context-budget.js';
import { askDaemon } from '../../local/client.js';
import { THREADS, globals, intOption, printJson, withCairn } from '../run.js';

export function registerContextCommand(program: Command): void {
  program
    .command('context')
    .description('Print the session-start brief: hot state, MEMORY.md, important memories, then what is relevant to --query, within a token budget')
    .option('-q, --query <text>', 'also include memories and turns relevant to this')
    .option(
      '--budget-tokens <n>',
      `token budget (${CONTEXT_BUDGET_RANGE.min}–${CONTEXT_BUDGET_RANGE.max}, default ${CONTEXT_DEFAULT_BUDGET}; counted with o200k_base)`,
      intOption('budget-tokens', CONTEXT_BUDGET_RANGE.min, CONTEXT_BUDGET_RANGE.max),
    )
    .option('--json', 'print the brief with its sections, sources and token count as JSON')
    .option('--no-daemon', 'build the brief in this process even when `cairn watch` or `cairn serve` runs')
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      const show = (brief: ContextBrief) => (g.json ? printJson(brief) : process.stdout.write(brief.text));
      const args = { query: opts.query, budgetTokens: opts.budgetTokens };
      const answer = opts.daemon ? await askDaemon(resolveHome(g.home), 'context', g.namespace, args) : null;
      if (answer) return void show(answer.result as ContextBrief);
      // Only a brief with a query embeds (its search): then the model loads on another thread.
      await withCairn(cmd, async (cairn) => void show(await cairn.context(args)), { embedThreads: opts.query ? THREADS.oneShot : THREADS.query });
    });
}
