// cairn migrate --to postgres://… | --from postgres://… [--schema NAME]: moves the home's store
// between its SQLite file and a PostgreSQL database (src/store/migrate/), resumable, and prints
// each table's verification. Progress: a bar on a terminal, a line per table otherwise.
import type { Command } from 'commander';
import { CairnError, ERROR_CODES } from '../../../core/errors.js';
import { ensureHomeDir, resolveHome } from '../../../core/home.js';
import type { MigrationProgress, MigrationReport } from '../../../store/migrate/index.js';
import { progressBar } from '../progress.js';
import { globals, intOption, print, printJson } from '../run.js';

interface MigrateOptions {
  to?: string;
  from?: string;
  schema: string;
  batchSize?: number;
}

function progressReporter(): { onProgress: (p: MigrationProgress) => void; stop: () => void } {
  if (process.stderr.isTTY) {
    const bar = progressBar('Migrating', { unit: 'rows' });
    return { onProgress: (p) => bar.update(p.done, p.total), stop: () => bar.stop() };
  }
  let current: MigrationProgress | null = null;
  const line = (p: MigrationProgress) => p.tableTotal > 0 && process.stderr.write(`migrate: ${p.table} ${p.tableDone}/${p.tableTotal} rows (${p.done}/${p.total} in all)\n`);
  return {
    onProgress: (p) => {
      if (current && current.table !== p.table) line(current);
      current = p;
    },
    stop: () => {
      if (current) line(current);
    },
  };
}

export function formatReport(r: MigrationReport, seconds: { wall: number; cpu: number }): string {
  const how = r.mode === 'complete' ? 'already complete, nothing copied' : `${r.mode === 'resumed' ? 'resumed' : 'fresh'}, ${r.rowsCopied} rows in ${r.batches} batches`;
  const lines = [`${r.source} → ${r.target} (${how}; ${seconds.wall.toFixed(1)} s, CPU ${seconds.cpu.toFixed(1)} s)`, '', `${'table'.padEnd(20)} ${'rows'.padStart(9)}  checksum`];
  for (const t of r.tables) {
    const rows = t.sourceRows === t.targetRows ? String(t.sourceRows) : `${t.sourceRows}≠${t.targetRows}`;
    lines.push(`${t.table.padEnd(20)} ${rows.padStart(9)}  ${t.match ? `match ${t.targetSha256.slice(0, 12)}` : 'DIFFERS'}`);
  }
  const differ = r.tables.filter((t) => !t.match).length;
  lines.push('', differ === 0 ? `All ${r.tables.length} tables match (row counts and SHA-256 of every row).` : `${differ} of ${r.tables.length} tables differ.`);
  return lines.join('\n');
}

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('Move the home\'s store to PostgreSQL (--to) or from PostgreSQL into the home (--from), losslessly; run again to resume. Stop "cairn watch" and other writers first.')
    .option('--to <url>', 'copy the home\'s SQLite store into this PostgreSQL database (postgres://user:password@host:port/database)')
    .option('--from <url>', 'copy the store in this PostgreSQL database into the home\'s SQLite file (which must be empty)')
    .option('--schema <name>', 'PostgreSQL schema holding Cairn\'s tables', 'public')
    .option('--batch-size <n>', 'rows per transaction on the target (default 500)', intOption('batch-size', 1, 100_000))
    .option('--json', 'print the report as JSON')
    .action(async (opts: MigrateOptions, cmd: Command) => {
      if (Boolean(opts.to) === Boolean(opts.from)) throw new CairnError(ERROR_CODES.INVALID_INPUT, 'Give exactly one of --to postgres://… (SQLite → PostgreSQL) or --from postgres://… (PostgreSQL → SQLite)');
      const paths = resolveHome(globals(cmd).home);
      const { migrateFromPostgres, migrateToPostgres } = await import('../../../store/migrate/index.js');
      const progress = progressReporter();
      const started = Date.now();
      const cpu = process.cpuUsage();
      let report: MigrationReport;
      try {
        const common = { sqlitePath: paths.database, schema: opts.schema, batchSize: opts.batchSize, onProgress: progress.onProgress };
        if (opts.to) report = await migrateToPostgres({ ...common, url: opts.to });
        else {
          ensureHomeDir(paths);
          report = await migrateFromPostgres({ ...common, url: opts.from! });
        }
      } finally {
        progress.stop();
      }
      const used = process.cpuUsage(cpu);
      const seconds = { wall: (Date.now() - started) / 1000, cpu: (used.user + used.system) / 1e6 };
      if (globals(cmd).json) printJson({ ...report, seconds });
      else {
        print(formatReport(report, seconds));
        if (report.ok && opts.to) print(`The SQLite file is left as it was. To use the PostgreSQL store, set "store": {"backend": "postgres", "url": …, "schema": "${opts.schema}"} in ${paths.config} (or CAIRN_DATABASE_URL).`);
        if (report.ok && opts.from) print(`The home's SQLite file holds the store now; it is used while store.backend is "sqlite" (the default) and CAIRN_DATABASE_URL is unset.`);
      }
      if (!report.ok) {
        throw new CairnError(ERROR_CODES.STORE, `The copy differs from its source in ${report.tables.filter((t) => !t.match).map((t) => t.table).join(', ')} (was the source written to meanwhile?). The target keeps its migration marker; empty it and migrate again.`);
      }
    });
}
