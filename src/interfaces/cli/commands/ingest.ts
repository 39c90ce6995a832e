// cairn ingest <paths...> --format openclaw|claude-code|jsonl: captures what is new in transcript
// files since their checkpoints. Malformed lines are skipped and counted by design, so they are a
// warning (exit 0); a missing or unreadable file is an error (non-zero exit).
import type { Command } from 'commander';
import { EXIT_CODES, type ErrorCode } from '../../../core/errors.js';
import { TRANSCRIPT_FORMATS } from '../../../capture/formats/names.js';
import type { IngestResponse } from '../../../service/ingest.js';
import { THREADS, globals, print, printJson, withCairn } from '../run.js';

/** Issues printed per file; the rest are summarised (the JSON output has them all). */
const MAX_ISSUES_SHOWN = 20;

export function registerIngestCommand(program: Command): void {
  program
    .command('ingest')
    .description('Capture new turns from transcript files (exactly once: resumes from each file\'s checkpoint)')
    .argument('<paths...>', 'transcript files')
    .requiredOption('-f, --format <format>', `transcript format: ${TRANSCRIPT_FORMATS.join(', ')}`)
    .option('--final', 'the transcripts are complete: also capture turns still held open (a Claude Code response whose parts could still arrive)')
    .option('--json', 'print the result as JSON')
    .action(async (paths: string[], opts: { format: string; final?: boolean }, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const res = await cairn.ingest(paths, { format: opts.format, final: Boolean(opts.final), namespace: globals(cmd).namespace });
        if (globals(cmd).json) printJson(res);
        else printHuman(res);
        const failed = res.files.find((f) => f.error);
        if (failed?.error) process.exitCode = EXIT_CODES[failed.error.code as ErrorCode] ?? EXIT_CODES.INTERNAL;
      }, { embedThreads: THREADS.bulk });
    });
}

function printHuman(res: IngestResponse): void {
  for (const file of res.files) {
    if (file.error) {
      process.stderr.write(`cairn: ${file.path}: ${file.error.message}\n`);
      continue;
    }
    const r = file.report!;
    const secrets = Object.values(r.redactions).reduce((a, b) => a + b, 0);
    print(
      `${file.path}: ${r.linesRead} lines, ${r.turnsInserted} new turns, ${r.duplicates} duplicates, ${r.skipped} skipped, ` +
        `${r.issues.length} issues, ${secrets} secrets redacted${r.restarted ? ` (restarted from the top: file ${r.restarted})` : ''}`,
    );
    for (const issue of r.issues.slice(0, MAX_ISSUES_SHOWN)) process.stderr.write(`cairn: warning: ${file.path}:${issue.line}: ${issue.reason}\n`);
    if (r.issues.length > MAX_ISSUES_SHOWN) process.stderr.write(`cairn: warning: ${file.path}: … and ${r.issues.length - MAX_ISSUES_SHOWN} more issues (see --json)\n`);
  }
  const namespaces = [...new Set(res.files.map((f) => f.namespace).filter((n): n is string => Boolean(n)))];
  // Work an earlier run left (killed mid-judging or mid-embedding) is named apart from the new.
  const fresh = res.embedded - res.backlog.embedded;
  const backlog = res.backlog.judged + res.backlog.embedded > 0 ? `; judged ${res.backlog.judged} pending, embedded ${res.backlog.embedded} pending` : '';
  print(`${res.turnsInserted} new turns in namespace ${namespaces.length ? namespaces.join(', ') : res.namespace}${fresh ? `, ${fresh} embedded` : ''}${backlog}`);
  if (res.warning) process.stderr.write(`cairn: warning: ${res.warning}\n`);
}
