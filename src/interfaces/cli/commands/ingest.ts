// cairn ingest <paths...> [--format openclaw|claude-code|jsonl]: captures what is new in transcript
// files, OpenClaw SQLite stores and transcript folders since their checkpoints; the format is told
// from each file when not given. Malformed lines are skipped and counted by design, so they are a
// warning (exit 0); a missing, unreadable or binary file is an error (non-zero exit).
import type { Command } from 'commander';
import { EXIT_CODES, type ErrorCode } from '../../../core/errors.js';
import { TRANSCRIPT_FORMATS } from '../../../capture/formats/names.js';
import type { IngestProgress, IngestResponse } from '../../../service/ingest.js';
import { printable } from '../format.js';
import { progressBar, type Progress } from '../progress.js';
import { THREADS, globals, print, printJson, withCairn } from '../run.js';

/** Issues printed per file; the rest are summarised (the JSON output has them all). */
const MAX_ISSUES_SHOWN = 20;

const PHASES: Record<IngestProgress['phase'], [label: string, unit: string]> = {
  capture: ['Capturing', 'files'],
  judge: ['Judging', 'turns'],
  embed: ['Embedding', 'entries'],
};

export function registerIngestCommand(program: Command): void {
  program
    .command('ingest')
    .description('Capture new turns from transcript files, OpenClaw SQLite stores or transcript folders (exactly once: resumes from each checkpoint)')
    .argument('<paths...>', 'transcript files, openclaw-agent.sqlite stores, an OpenClaw state directory or a Claude Code projects folder')
    .option('-f, --format <format>', `transcript format: ${TRANSCRIPT_FORMATS.join(', ')} (default: told from each file)`)
    .option('--final', 'the transcripts are complete: also capture turns still held open (a Claude Code response whose parts could still arrive)')
    .option('--json', 'print the result as JSON')
    .action(async (paths: string[], opts: { format?: string; final?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      await withCairn(cmd, async (cairn) => {
        const bars = g.json ? null : phaseBars();
        let res: IngestResponse;
        try {
          res = await cairn.ingest(paths, { format: opts.format, final: Boolean(opts.final), namespace: g.namespace, onProgress: bars?.update });
        } finally {
          bars?.stop();
        }
        if (g.json) printJson(res);
        else printHuman(res);
        const failed = res.files.find((f) => f.error);
        if (failed?.error) process.exitCode = EXIT_CODES[failed.error.code as ErrorCode] ?? EXIT_CODES.INTERNAL;
      }, { embedThreads: THREADS.bulk });
    });
}

/** One bar per phase on a terminal's stderr (none elsewhere), each replaced by the next. */
function phaseBars(): { update: (p: IngestProgress) => void; stop: () => void } {
  let phase: IngestProgress['phase'] | null = null;
  let bar: Progress | null = null;
  return {
    update(p) {
      if (p.phase !== phase) {
        bar?.stop();
        phase = p.phase;
        const [label, unit] = PHASES[p.phase];
        bar = progressBar(label, { unit });
      }
      bar!.update(p.done, p.total);
    },
    stop: () => bar?.stop(),
  };
}

function printHuman(res: IngestResponse): void {
  for (const file of res.files) {
    if (file.error) {
      process.stderr.write(`cairn: ${file.path}: ${printable(file.error.message)}\n`);
      continue;
    }
    const r = file.report!;
    const secrets = Object.values(r.redactions).reduce((a, b) => a + b, 0);
    const read = r.sessions === undefined ? `${r.linesRead} lines` : `${r.linesRead} rows in ${r.sessions} sessions`;
    print(
      `${file.path}: ${read}, ${r.turnsInserted} new turns, ${r.duplicates} duplicates, ${r.skipped} skipped, ` +
        `${r.issues.length} issues, ${secrets} secrets redacted${r.restarted ? ` (restarted from the top: file ${r.restarted})` : ''}`,
    );
    for (const issue of r.issues.slice(0, MAX_ISSUES_SHOWN)) process.stderr.write(`cairn: warning: ${file.path}:${issue.line}: ${printable(issue.reason)}\n`);
    if (r.issues.length > MAX_ISSUES_SHOWN) process.stderr.write(`cairn: warning: ${file.path}: … and ${r.issues.length - MAX_ISSUES_SHOWN} more issues (see --json)\n`);
  }
  const namespaces = [...new Set(res.files.map((f) => f.namespace).filter((n): n is string => Boolean(n)))];
  // Work an earlier run left (killed mid-judging or mid-embedding) is named apart from the new.
  const fresh = res.embedded - res.backlog.embedded;
  const backlog = res.backlog.judged + res.backlog.embedded > 0 ? `; judged ${res.backlog.judged} pending, embedded ${res.backlog.embedded} pending` : '';
  print(`${res.turnsInserted} new turns in namespace ${namespaces.length ? namespaces.join(', ') : res.namespace}${fresh ? `, ${fresh} embedded` : ''}${backlog}`);
  if (res.warning) process.stderr.write(`cairn: warning: ${res.warning}\n`);
}
