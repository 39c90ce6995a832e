// cairn judge [--rejudge] and cairn feedback: the importance judge by hand.
import type { Command } from 'commander';
import { CairnError, ERROR_CODES } from '../../../core/errors.js';
import type { JudgeReport } from '../../../service/judging.js';
import { progressBar } from '../progress.js';
import { THREADS, globals, print, printJson, withCairn } from '../run.js';

function summary(r: JudgeReport): string {
  const by = Object.entries(r.byJudge).map(([k, n]) => `${n} by ${k}`).join(', ');
  return `Judged ${r.judged} turns (${by || 'none'}); ${r.promoted} became or fed memories` +
    (r.llmRequests ? `; ${r.llmRequests} LLM requests, $${r.costUsd.toFixed(4)}` : '') +
    (r.fallbacks ? `; ${r.fallbacks} batches fell back to the heuristic` : '');
}

export function registerJudgeCommands(program: Command): void {
  program
    .command('judge')
    .description('Judge captured turns that have no judgment yet (the daemon does this continuously); --rejudge judges history again')
    .option('--rejudge', 'judge already judged turns again (after a judge or config change)')
    .option('--since <time>', 'with --rejudge: only turns since this time (ISO or an age such as 7d)')
    .option('--fallbacks-only', 'with --rejudge: only turns the heuristic judged because the LLM was unavailable')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { rejudge?: boolean; since?: string; fallbacksOnly?: boolean }, cmd: Command) => {
      if (!opts.rejudge && (opts.since || opts.fallbacksOnly)) throw new CairnError(ERROR_CODES.INVALID_INPUT, '--since and --fallbacks-only go with --rejudge');
      const g = globals(cmd);
      await withCairn(cmd, async (cairn) => {
        const stats = await cairn.judgeStats();
        const scoped = stats.filter((s) => g.namespace === undefined || s.namespace === g.namespace);
        const total = scoped.reduce((n, s) => n + (opts.rejudge ? (opts.fallbacksOnly ? s.needsRejudge : s.judged) : s.pending), 0);
        const bar = progressBar(opts.rejudge ? 'Re-judging' : 'Judging');
        try {
          const onProgress = (done: number) => bar.update(done, Math.max(total, done));
          const res = opts.rejudge
            ? await cairn.rejudge({ namespace: g.namespace, since: opts.since, fallbacksOnly: opts.fallbacksOnly, onProgress })
            : await cairn.judgePending({ namespace: g.namespace, onProgress });
          bar.stop();
          if (g.json) printJson(res);
          else print(summary(res));
        } finally {
          bar.stop();
        }
      }, { embedThreads: THREADS.bulk });
    });

  program
    .command('feedback')
    .description('Label a memory or turn as important or not: it applies now and teaches later judgments')
    .argument('<id>', 'memory id (m_…) or turn id (t_…)')
    .option('--important', 'worth keeping')
    .option('--not-important', 'not worth keeping')
    .option('--json', 'print the result as JSON')
    .action(async (id: string, opts: { important?: boolean; notImportant?: boolean }, cmd: Command) => {
      if (Boolean(opts.important) === Boolean(opts.notImportant)) throw new CairnError(ERROR_CODES.INVALID_INPUT, 'Give exactly one of --important or --not-important');
      const res = await withCairn(cmd, (cairn) => cairn.feedback(id, Boolean(opts.important)));
      if (globals(cmd).json) return printJson(res);
      print(`Noted: ${id} is ${opts.important ? 'important' : 'not important'}` +
        (res.turnId ? `; turn ${res.turnId} now has importance ${res.importance}${res.memoryId ? ` (memory ${res.memoryId})` : ''}` : ''));
    });
}
