// `npm run eval -- <set> [path]`: evidence recall on a development set through the real pipeline
// (capture → judge → memory → index, then search through the service facade). A benchmark, not a
// product command: it lives in bench/ and is run from a checkout.
import { resolve } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { CairnError, ERROR_CODES } from '../../src/core/errors.js';
import { intOption, listOption, print, printJson, reportError } from '../../src/interfaces/cli/run.js';
import type { DevSet } from './devset.js';
import { SPLITS, runEval, type Split } from './evaluate.js';
import { loadLocomo10 } from './locomo/devset.js';
import { KS, type K } from './metrics.js';

/**
 * The sets by name. A loader gets the path given on the command line (or none) and returns null
 * when its data is absent (a LoCoMo file is never committed): the run is then skipped. Adding a
 * set is one line here.
 */
export const DEV_SETS: Record<string, (path?: string) => DevSet | null | Promise<DevSet | null>> = {
  locomo: (path) => loadLocomo10(path),
  agentwork: async () => (await import('../agentwork/devset.js')).loadAgentWork(),
};

interface Flags {
  split: Split;
  out?: string;
  compare?: boolean;
  variants?: string[];
  fresh?: boolean;
  conversations?: number;
  config?: string;
  json?: boolean;
  limits?: K[];
  reuse?: boolean;
}

/** `--limits 10` or `5,20`: each one of KS, each once, in ascending order. */
function limitsOption(value: string): K[] {
  const parts = value.split(',').map((p) => p.trim());
  const limits = parts.map((p) => KS.find((k) => String(k) === p));
  if (parts.length === 0 || limits.some((k) => k === undefined)) throw new CairnError(ERROR_CODES.INVALID_INPUT, `--limits takes some of ${KS.join(', ')}, comma-separated (got "${value.slice(0, 60)}")`);
  return [...new Set(limits as K[])].sort((a, b) => a - b);
}

function nonEmpty(flag: string): (value: string) => string {
  return (value) => {
    if (value.trim() === '') throw new CairnError(ERROR_CODES.INVALID_INPUT, `--${flag} must not be empty`);
    return value;
  };
}

/** How the run was started, as a person would retype it. */
function commandLine(args: readonly string[]): string {
  const quoted = args.map((a) => (/^[\w./=:,-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`));
  const base = process.env.npm_lifecycle_event?.startsWith('eval') ? `npm run ${process.env.npm_lifecycle_event} --` : 'node --import tsx bench/eval/main.ts';
  return [base, ...quoted].join(' ');
}

function program(): Command {
  return new Command('eval')
    .description('Evidence recall on a development set, ingested and asked through the real pipeline')
    .argument('<set>', `the set: ${Object.keys(DEV_SETS).join(', ')}`)
    .argument('[path]', "the set's data file, for sets read from one (locomo: default ../shared/bench/data/locomo10.json; absent: skipped, exit 0)")
    .addOption(new Option('--split <split>', 'dev: the first half of the conversations (LoCoMo 0–4), to choose on; report: the second half (5–9)').choices(SPLITS).default('all'))
    .option('--out <file>', 'Markdown results file (default: bench/results/<set>.md, <set>-<split>.md for a split)', nonEmpty('out'))
    .option('--compare', 'run every variant (see bench/eval/variants.ts) and print one ablation table')
    .option('--variants <names>', 'comma-separated variant names; with "default", "plain BM25" runs beside it', listOption)
    .option('--fresh', 'ingest again even when a kept home matches')
    .option('--conversations <n>', 'only the first N conversations of the split', intOption('conversations', 1, 100_000))
    .option('--config <file>', 'also measure this config file (e.g. an LLM judge and query rewriting); alone, instead of the default', nonEmpty('config'))
    .option('--limits <list>', `ask each question only with these limits (some of ${KS.join(', ')}; default all): figures of the others read –`, limitsOption)
    .option('--reuse', "take a variant's answers kept by an earlier run when the code (src/), config, home, limits and conversations are the same")
    .option('--json', 'print the results as JSON')
    .addHelpText('after', '\nIngested homes are kept in .cairn-eval/<set>/ (per-question results in its runs/ folder) and reused\nwhile the data, the non-search config and the pipeline are unchanged.')
    .exitOverride()
    .action(async (name: string, path: string | undefined, opts: Flags) => {
      const load = DEV_SETS[name];
      if (!load) throw new CairnError(ERROR_CODES.INVALID_INPUT, `Unknown set "${name.slice(0, 60)}": use one of ${Object.keys(DEV_SETS).join(', ')}`);
      const set = await load(path === undefined ? undefined : resolve(path));
      if (!set) {
        const skipped = `${name} data not found ${path ? `at ${resolve(path)}` : 'where its loader looks (see --help)'}: skipping the evaluation.`;
        return opts.json ? printJson({ skipped }) : print(skipped);
      }
      const outcome = await runEval({
        set,
        split: opts.split,
        workDir: resolve('.cairn-eval', set.name),
        out: resolve(opts.out ?? `bench/results/${set.name}${opts.split === 'all' ? '' : `-${opts.split}`}.md`),
        variants: opts.variants,
        compare: Boolean(opts.compare),
        fresh: Boolean(opts.fresh),
        conversations: opts.conversations,
        ...(opts.limits ? { limits: opts.limits } : {}),
        reuse: Boolean(opts.reuse),
        ...(opts.config ? { configPath: resolve(opts.config) } : {}),
        command: commandLine(process.argv.slice(2)),
        log: (line) => process.stderr.write(`${set.name}: ${line}\n`),
      });
      if (opts.json) return printJson({ ...outcome.report, out: outcome.out });
      print(outcome.markdown);
      print(`Written to ${outcome.out}`);
    });
}

async function main(argv: string[]): Promise<number> {
  try {
    await program().parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.code === 'commander.helpDisplayed' ? 0 : 2;
    return reportError(err, argv.includes('--json'));
  }
}

process.exitCode = await main(process.argv);
