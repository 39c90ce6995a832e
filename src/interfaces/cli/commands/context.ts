// cairn context: the token-budgeted session-start brief (Markdown), as an agent would receive it.
import type { Command } from 'commander';
import { CONTEXT_BUDGET_RANGE, CONTEXT_DEFAULT_BUDGET } from '../../../service/context-budget.js';
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
    .action(async (opts, cmd: Command) => {
      await withCairn(
        cmd,
        async (cairn) => {
          const brief = await cairn.context({ query: opts.query, budgetTokens: opts.budgetTokens });
          if (globals(cmd).json) return printJson(brief);
          process.stdout.write(brief.text);
        },
        { embedThreads: THREADS.query },
      );
    });
}
