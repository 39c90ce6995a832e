// cairn backup [list] | create | restore ID: copies of the store under <home>/backups/ (see
// src/consolidate/backup.ts). Restore runs without opening the facade: the database must be
// closed by everyone, this process included.
import type { Command } from 'commander';
import type { BackupInfo } from '../../../consolidate/backup.js';
import type { RestoreReport } from '../../../consolidate/backup-restore.js';
import { globals, print, printJson, withCairn } from '../run.js';
import { formatBytes } from './status-format.js';

function formatBackup(b: BackupInfo): string {
  const what = b.problem ? b.problem : `schema v${b.schemaVersion}, ${b.counts!.memories} memories, ${b.counts!.turns} turns`;
  return `${b.id.padEnd(30)}  ${b.createdAt.replace('.000Z', 'Z')}  ${formatBytes(b.sizeBytes).padStart(10)}  ${b.kind.padEnd(11)}  ${what}`;
}

function formatRestore(r: RestoreReport): string {
  const lines = [`Restored ${r.restored} (schema v${r.schemaVersion}: ${r.counts.memories} memories, ${r.counts.turns} turns).`];
  if (r.previous) lines.push(`The database it replaced is kept as backup ${r.previous.id}: "cairn backup restore ${r.previous.id}" undoes this.`);
  if (r.indexRemoved) lines.push('Saved vector indexes were removed; they are rebuilt from the store at the next search.');
  return lines.join('\n');
}

export function registerBackupCommands(program: Command): void {
  const backup = program.command('backup').description('Backups of the store under <home>/backups/ (create, list, restore)');

  backup
    .command('list', { isDefault: true })
    .description('List backups, newest first: id, time (UTC), size, kind, schema version, counts')
    .option('--json', 'print as JSON')
    .action(async (_opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const list = await cairn.backupList();
        if (globals(cmd).json) return printJson(list);
        print(list.length ? list.map(formatBackup).join('\n') : 'No backups yet. Make one with: cairn backup create');
      });
    });

  backup
    .command('create')
    .description('Back up the store now, online (a manual backup: kept until you delete it)')
    .option('--json', 'print as JSON')
    .action(async (_opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const made = await cairn.backupCreate({ kind: 'manual' });
        if (globals(cmd).json) return printJson(made);
        print(`Backed up to ${made.path}`);
        print(formatBackup(made));
      });
    });

  backup
    .command('restore')
    .description('Replace the database with a backup (verified first; the current one is kept as a backup). Stop "cairn watch" and other Cairn processes first.')
    .argument('<id>', 'backup id, as "cairn backup list" shows it')
    .option('--json', 'print as JSON')
    .action(async (id: string, _opts, cmd: Command) => {
      const { Cairn } = await import('../../../service/cairn.js');
      const report = await Cairn.backupRestore(id, { home: globals(cmd).home });
      if (globals(cmd).json) return printJson(report);
      print(formatRestore(report));
    });
}
