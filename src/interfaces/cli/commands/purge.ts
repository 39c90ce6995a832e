// cairn purge --id ID… | --text LITERAL | --secrets [--all-namespaces] [--dry-run]; cairn purge log.
// The one deletion, for secrets and legal removal (see src/service/purge.ts); audited.
import type { Command } from 'commander';
import { CairnError } from '../../../core/errors.js';
import type { PurgeReport } from '../../../service/purge.js';
import type { PurgeRecord } from '../../../store/store.js';
import { globals, intOption, print, printJson, withCairn } from '../run.js';

function collect(value: string, previous: string[] = []): string[] {
  return previous.concat(value);
}

/** `--text -`: the literal from stdin (so it is not in the shell's history), one final newline dropped. */
async function readLiteral(value: string): Promise<string> {
  if (value !== '-') return value;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

function ruleLine(rule: Record<string, unknown>): string {
  if (rule.kind === 'ids') return `records ${(rule.ids as string[]).join(', ')}`;
  if (rule.kind === 'text') return `a literal of ${String(rule.chars)} characters`;
  return 'secrets (current redaction rules)';
}

function counts(record: Record<string, number>): string {
  const parts = Object.entries(record).map(([k, n]) => `${k} ${n}`);
  return parts.length ? parts.join(', ') : 'none';
}

export function formatPurge(r: PurgeReport): string {
  const where = r.namespace === null ? 'every namespace' : `namespace ${r.namespace}`;
  const out = [r.dryRun ? `Dry run (nothing was changed) in ${where}: ${ruleLine(r.rule)}` : `Purged (audit #${r.auditId}) in ${where}: ${ruleLine(r.rule)}`];
  const [remove, rewrite, purged] = r.dryRun ? ['would remove', 'would rewrite', 'would purge'] : ['removed', 'rewrote', 'purged'];
  const kinds = r.removed.reduce<Record<string, number>>((acc, x) => ({ ...acc, [x.kind]: (acc[x.kind] ?? 0) + 1 }), {});
  if (r.removed.length) out.push(`  ${remove} (a turn keeps a tombstone): ${counts(kinds)}`);
  out.push(`  ${rewrite} rows: ${counts(r.rewritten)}`);
  if (Object.keys(r.redactions).length) out.push(`  secrets redacted: ${counts(r.redactions)}`);
  out.push(`  index: ${r.entries.removed} entries removed, ${r.entries.rewritten} rewritten; ${r.vectors} vectors dropped${r.dryRun ? '' : `, ${r.cachedVectors} cached vectors dropped, ${r.reembedded} re-embedded`}`);
  if (r.digests.length) out.push(`  ${remove} digests citing it (written again by the next consolidation): ${r.digests.map((d) => d.path).join(', ')}`);
  out.push(`  ${rewrite} files: ${r.files.length ? r.files.join(', ') : 'none'}`);
  if (r.deletedFiles.length) out.push(`  ${r.dryRun ? 'would delete' : 'deleted'} files: ${r.deletedFiles.join(', ')}`);
  if (r.indexFiles.length) out.push(`  saved indexes removed (rebuilt when searched): ${r.indexFiles.length}`);
  if (r.backups.purged.length) out.push(`  ${purged} backups: ${r.backups.purged.join(', ')}`);
  if (r.userFiles.length) out.push(`  your own files still hold it (Cairn never edits them): ${r.userFiles.join(', ')}`);
  for (const w of r.warnings) out.push(`  warning: ${w}`);
  return out.join('\n');
}

function formatRecord(p: PurgeRecord): string {
  const where = p.namespace === null ? 'every namespace' : `namespace ${p.namespace}`;
  const result = p.result as { removed?: unknown[]; rewritten?: Record<string, number>; files?: unknown[] } | null;
  const done = p.finishedAt
    ? `${result?.removed?.length ?? 0} removed, ${Object.values(result?.rewritten ?? {}).reduce((a, b) => a + b, 0)} rows rewritten, ${result?.files?.length ?? 0} files`
    : 'did not finish: run it again';
  return `#${p.id}  ${p.startedAt}  via ${p.via}  ${where}  ${ruleLine(p.rule)}: ${done}`;
}

export function registerPurgeCommands(program: Command): void {
  const purge = program
    .command('purge')
    .description('Remove a secret or a record for good (legal removal): from every table, index, vector, cache, file Cairn wrote and backup; audited (see "cairn purge log")')
    .option('--id <id>', 'a memory, turn or document chunk id to remove (repeatable); a turn keeps a tombstone so capture never takes it in again', collect)
    .option('--text <literal>', 'replace every occurrence of this literal (case-sensitive, 4+ characters) with [REDACTED:purged]; "-" reads it from stdin')
    .option('--secrets', 'redact all stored history again with the current redaction rules')
    .option('--all-namespaces', 'every namespace (default: -n, else the default namespace)')
    .option('--dry-run', 'show what would change; change nothing')
    .option('--json', 'print the report as JSON')
    .action(async (opts, cmd: Command) => {
      const rules = [opts.id !== undefined, opts.text !== undefined, Boolean(opts.secrets)].filter(Boolean).length;
      if (rules !== 1) throw new CairnError('INVALID_INPUT', 'Give exactly one of --id, --text or --secrets (see cairn purge --help)');
      const g = globals(cmd);
      if (opts.allNamespaces && g.namespace !== undefined) throw new CairnError('INVALID_INPUT', 'Use either -n or --all-namespaces, not both');
      const text = opts.text === undefined ? undefined : await readLiteral(opts.text);
      await withCairn(cmd, async (cairn) => {
        const report = await cairn.purge({
          ...(opts.id ? { ids: opts.id } : {}),
          ...(text !== undefined ? { text } : {}),
          ...(opts.secrets ? { secrets: true } : {}),
          ...(opts.dryRun ? { dryRun: true } : {}),
          ...(opts.allNamespaces ? { allNamespaces: true } : {}),
          via: 'cli',
        });
        if (g.json) printJson(report);
        else print(formatPurge(report));
      });
    });

  purge
    .command('log')
    .description('The purge audit, newest first: what each purge removed and when (never the removed text)')
    .option('-l, --limit <n>', 'how many entries', intOption('limit', 1, 10_000), 50)
    .option('--json', 'print as JSON')
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      await withCairn(cmd, async (cairn) => {
        const list = await cairn.purgeLog({ ...(g.namespace !== undefined ? { namespace: g.namespace } : {}), limit: opts.limit });
        if (g.json) printJson(list);
        else print(list.length ? list.map(formatRecord).join('\n') : 'No purges.');
      });
    });
}
