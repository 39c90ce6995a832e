// cairn consolidate [-n NS] [--date D | --week YYYY-Www | --now] [--at TIME] [--force] [--json]:
// writes the layers a person reads (daily/last-night notes, reviews, weekly, topics, MEMORY.md).
import type { Command } from 'commander';
import type { ConsolidateResult } from '../../../service/consolidation.js';
import { globals, print, printJson, withCairn } from '../run.js';
import { progressBar } from '../progress.js';

export function formatConsolidation(r: ConsolidateResult): string {
  const out: string[] = [];
  for (const ns of r.namespaces) {
    const changed = ns.files.filter((f) => f.changed);
    const span = ns.days.length ? `${ns.days.length} day${ns.days.length === 1 ? '' : 's'} (${ns.days[0]}${ns.days.length > 1 ? ` … ${ns.days[ns.days.length - 1]}` : ''})` : 'no new days';
    out.push(`${ns.namespace}: ${span}; ${changed.length} file${changed.length === 1 ? '' : 's'} written, ${ns.files.length - changed.length} unchanged`);
    for (const f of changed) out.push(`  ${f.path}${f.fallback ? `  (extractive: ${f.fallback})` : ''}`);
  }
  if (r.namespaces.length === 0) out.push('Nothing to consolidate: no namespace has any records yet.');
  return out.join('\n');
}

export function registerConsolidateCommand(program: Command): void {
  program
    .command('consolidate')
    .description('Write the layers: daily and last-night notes, daily reviews, weekly distills, topic pages and MEMORY.md, for every day that is due (the daemon does this on schedule)')
    .option('--date <day>', 'only this local day (YYYY-MM-DD): its note, night note and review, its week, MEMORY.md')
    .option('--week <week>', 'only this ISO week (YYYY-Www, e.g. 2026-W48) and MEMORY.md')
    .option('--now', 'only the current day (what the schedule would do now)')
    .option('--at <time>', 'consolidate as of this moment (ISO time or an age like 12h): nothing after it is due')
    .option('--force', 'rewrite files even when their material is unchanged')
    .option('--json', 'print what was written as JSON')
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      await withCairn(cmd, async (cairn) => {
        const bar = opts.json ? null : progressBar('consolidating', { unit: 'days' });
        try {
          const result = await cairn.consolidate({
            ...(g.namespace !== undefined ? { namespace: g.namespace } : {}),
            ...(opts.date !== undefined ? { date: opts.date } : {}),
            ...(opts.week !== undefined ? { week: opts.week } : {}),
            ...(opts.now ? { current: true } : {}),
            ...(opts.at !== undefined ? { at: opts.at } : {}),
            ...(opts.force ? { force: true } : {}),
            onProgress: (_ns, done, total) => bar?.update(done, total),
          });
          bar?.stop();
          if (opts.json) printJson(result);
          else print(formatConsolidation(result));
        } finally {
          bar?.stop();
        }
      });
    });
}
