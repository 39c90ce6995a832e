// cairn eval locomo [PATH]: evidence recall on LoCoMo through the real pipeline (src/eval/locomo).
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CairnError, ERROR_CODES } from '../../../core/errors.js';
import { intOption, listOption, print, printJson } from '../run.js';

interface LocomoFlags {
  out?: string;
  compare?: boolean;
  variants?: string[];
  fresh?: boolean;
  conversations?: number;
  config?: string;
  json?: boolean;
}

function nonEmpty(flag: string): (value: string) => string {
  return (value) => {
    if (value.trim() === '') throw new CairnError(ERROR_CODES.INVALID_INPUT, `--${flag} must not be empty`);
    return value;
  };
}

/** How the run was started, as a person would retype it. */
function commandLine(): string {
  const at = process.argv.indexOf('locomo');
  const args = process.argv.slice(at + 1).map((a) => (/^[\w./=:,-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`));
  const base = process.env.npm_lifecycle_event === 'eval:locomo' ? `npm run eval:locomo${args.length ? ' --' : ''}` : 'cairn eval locomo';
  return [base, ...args].join(' ');
}

export function registerEvalCommands(program: Command): void {
  const evalCmd = program.command('eval').description('Measure recall on public benchmarks through the real pipeline');
  evalCmd
    .command('locomo')
    .description('Evidence recall@5/10/20 on LoCoMo: ingest each conversation as a transcript, ask its questions through search')
    .argument('[path]', 'the LoCoMo JSON file (default: ../shared/bench/data/locomo10.json; absent: skipped, exit 0)')
    .option('--out <file>', 'Markdown results file (default: bench/results/locomo.md)', nonEmpty('out'))
    .option('--compare', 'run several variants (default: all) and print one ablation table')
    .option('--variants <names>', 'comma-separated variant names (see src/eval/locomo/variants.ts)', listOption)
    .option('--fresh', 'ingest again even when a kept home matches')
    .option('--conversations <n>', 'only the first N conversations', intOption('conversations', 1, 100_000))
    .option('--config <file>', 'also measure this config file (e.g. an LLM judge and query rewriting); alone, instead of the default', nonEmpty('config'))
    .option('--json', 'print the results as JSON')
    .addHelpText('after', '\nIngested homes are kept in .cairn-eval/locomo/ (per-question results in its runs/ folder) and reused\nwhile the data, the non-search config and the pipeline are unchanged.')
    .action(async (path: string | undefined, opts: LocomoFlags) => {
      const { DEFAULT_DATA_PATH, DEFAULT_OUT, DEFAULT_WORK_DIR, runLocomoEval } = await import('../../../eval/locomo/evaluate.js');
      const outcome = await runLocomoEval({
        dataPath: resolve(path ?? DEFAULT_DATA_PATH),
        workDir: resolve(DEFAULT_WORK_DIR),
        out: resolve(opts.out ?? DEFAULT_OUT),
        variants: opts.variants,
        compare: Boolean(opts.compare),
        fresh: Boolean(opts.fresh),
        conversations: opts.conversations,
        ...(opts.config ? { configPath: resolve(opts.config) } : {}),
        command: commandLine(),
        log: (line) => process.stderr.write(`locomo: ${line}\n`),
      });
      if ('skipped' in outcome) return opts.json ? printJson({ skipped: outcome.skipped }) : print(outcome.skipped);
      if (opts.json) return printJson({ ...outcome.report, out: outcome.out });
      print(outcome.markdown);
      print(`Written to ${outcome.out}`);
    });
}
