// cairn search
import type { Command } from 'commander';
import { resolveHome } from '../../../core/home.js';
import { CATEGORIES, KINDS, LAYER_HELP } from '../../../core/types.js';
import type { SearchResponse } from '../../../service/cairn.js';
import { askDaemon } from '../../local/client.js';
import { THREADS, globals, intOption, listOption, print, printJson, withCairn } from '../run.js';
import { CairnError } from '../../../core/errors.js';

/** `--layer 1,2 --layer 4`: every layer named, as numbers; anything else is refused before searching. */
function layerOption(value: string, previous: number[] = []): number[] {
  const named = listOption(value);
  if (named.length === 0) throw new CairnError('INVALID_INPUT', `--layer must be ${LAYER_HELP}; got nothing`);
  return previous.concat(
    named.map((v) => {
      if (!/^[1-4]$/.test(v)) throw new CairnError('INVALID_INPUT', `--layer must be ${LAYER_HELP}; got "${v.slice(0, 40)}"`);
      return Number(v);
    }),
  );
}

export function registerSearchCommand(program: Command): void {
  program
    .command('search')
    .description('Hybrid search (BM25 + vectors) in one namespace, ranked by relevance, importance and recency')
    .argument('[query...]', 'what to look for')
    .option('-q, --query <text>', 'the query (instead of the positional words)')
    .option('-l, --limit <n>', 'number of results (1–200)', intOption('limit', 1, 200), 10)
    .option('--since <time>', 'only entries at or after this time (ISO or an age like 7d)')
    .option('--until <time>', 'only entries at or before this time')
    .option('--as-of <time>', 'search as of this moment (ISO or an age like 30d): times in the query and ages count from it, later entries are left out')
    .option('-c, --category <category>', `filter by category (repeatable): ${CATEGORIES.join(', ')}`, listOption)
    .option('-k, --kind <kind>', `filter by kind (repeatable): ${KINDS.join(', ')}`, listOption)
    .option('--layer <n>', `only entries of this layer of the pyramid (repeatable, or a comma list): ${LAYER_HELP}`, layerOption)
    .option('--min-importance <n>', 'only entries with at least this importance', intOption('min-importance', 1, 10))
    .option('--include-superseded', 'also return memories that were superseded')
    .option('-e, --entity <entity>', 'only memories about this entity (id, slug or a name it is known by)')
    .option('--mode <mode>', 'hybrid, bm25 or vector', 'hybrid')
    .option('--strategy <strategy>', 'flat (one ranking of every layer) or layers (digest sections of layers 1–2 first, then the memories and turns they cite)', 'flat')
    .option('--rewrite', 'rewrite the query with the configured chat model first (judge.llm)')
    .option('--no-rewrite', 'do not rewrite the query, whatever search.queryRewrite says')
    .option('--explain', 'show how each score was made')
    .option('--json', 'print results as JSON')
    .option('--no-daemon', 'search in this process even when `cairn watch` or `cairn serve` runs (they answer faster: warm)')
    .action(async (words: string[], opts, cmd: Command) => {
      const query: string = opts.query ?? words.join(' ');
      const options = {
        limit: opts.limit,
        since: opts.since,
        until: opts.until,
        asOf: opts.asOf,
        categories: opts.category,
        kinds: opts.kind,
        layers: opts.layer,
        minImportance: opts.minImportance,
        includeSuperseded: Boolean(opts.includeSuperseded),
        mode: opts.mode,
        strategy: opts.strategy,
        ...(opts.entity !== undefined ? { entity: opts.entity } : {}),
        ...(rewriteGiven(cmd) ? { rewrite: Boolean(opts.rewrite) } : {}),
      };
      const g = globals(cmd);
      if (opts.daemon) {
        const answer = await askDaemon(resolveHome(g.home), 'search', g.namespace, { query, ...options });
        if (answer) return show(answer.result as SearchResponse, cmd, Boolean(opts.explain));
      }
      // BM25 alone never embeds: no model thread for it.
      const embedThreads = opts.mode === 'bm25' ? THREADS.query : THREADS.oneShot;
      await withCairn(cmd, async (cairn) => show(await cairn.search(query, options), cmd, Boolean(opts.explain)), { embedThreads });
    });
}

async function show(res: SearchResponse, cmd: Command, explain: boolean): Promise<void> {
  if (globals(cmd).json) return printJson(res);
  // Text output only: the formatter brings the snippet and text analysis modules with it.
  const { formatResult } = await import('../format.js');
  if (res.degraded) process.stderr.write(`cairn: note: ${res.degraded}\n`);
  if (res.rewrite?.status === 'skipped') process.stderr.write(`cairn: note: searched without rewriting: ${res.rewrite.reason}\n`);
  else if (res.rewrite && explain) {
    print(`rewritten${res.rewrite.cached ? ' (cached)' : ` in ${res.rewrite.latencyMs} ms`}: ${[...res.rewrite.queries.map((q) => `"${q}"`), ...res.rewrite.keywords].join(', ')}`);
  }
  const asOf = res.asOf ? ` as of ${res.asOf}` : '';
  const weak = res.belowConfidence ? `${res.belowConfidence} weak result${res.belowConfidence === 1 ? '' : 's'} below search.minConfidence left out` : '';
  if (res.noGoodMatch) return print(`No good match for "${res.query}" in namespace ${res.namespace}${asOf}${weak ? ` (${weak})` : ''}.`);
  if (res.results.length === 0) return print(`No results in namespace ${res.namespace}${asOf}.`);
  if (weak && explain) print(`${weak}`);
  if (asOf && explain) print(`searched${asOf}`);
  print(res.results.map((r, i) => formatResult(r, i + 1, explain)).join('\n'));
}

/** Whether --rewrite or --no-rewrite was on the command line (commander defaults --no-x to true). */
function rewriteGiven(cmd: Command): boolean {
  return cmd.getOptionValueSource('rewrite') === 'cli';
}
