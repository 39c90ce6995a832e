// cairn init | status | export | import | reembed
import { closeSync, createWriteStream, openSync, renameSync, rmSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { Command } from 'commander';
import { CairnError, EXIT_CODES } from '../../../core/errors.js';
import { redactionNote } from '../format.js';
import { progressBar } from '../progress.js';
import { THREADS, globals, print, printJson, withCairn } from '../run.js';
import { formatStatus } from './status-format.js';
import { printable } from '../format.js';
import { IMPORT_FORMATS } from '../../../service/import/format-names.js';

export function registerAdminCommands(program: Command): void {
  program
    .command('init')
    .description('Create the data directory and a default config file')
    .option('--json', 'print as JSON')
    .action(async (_opts, cmd: Command) => {
      const { Cairn } = await import('../../../service/cairn.js');
      const { paths, created } = Cairn.init(globals(cmd).home);
      // Creates and migrates the database (a PostgreSQL one: where the config or CAIRN_DATABASE_URL says).
      const database = await withCairn(cmd, async (cairn) => (cairn.store.backend === 'sqlite' ? paths.database : (await cairn.store.health()).location));
      if (globals(cmd).json) return printJson({ home: paths.root, config: paths.config, database, created });
      print(`${created ? 'Initialised' : 'Already initialised'}: ${paths.root}`);
      print(`  config   ${paths.config}`);
      print(`  database ${database}`);
    });

  program
    .command('status')
    .description('Database health, alerts, counts per namespace and kind, embedder, index freshness (exit 10 when unhealthy or an alert is raised)')
    .option('--check', 'also verify every database page (slow on large stores)')
    .option('--json', 'print as JSON')
    .action(async (opts, cmd: Command) => {
      const report = await withCairn(cmd, (cairn) => cairn.status({ integrity: Boolean(opts.check) }));
      if (globals(cmd).json) printJson(report);
      else print(formatStatus(report));
      if (!report.ok || report.alerts.length > 0) process.exitCode = EXIT_CODES.UNHEALTHY;
    });

  program
    .command('export')
    .description('Export the namespace as JSONL (one memory per line, superseded history included)')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .action(async (opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        if (!opts.output) return void (await cairn.exportJsonl(process.stdout));
        // Claim the name first (never overwrite), write beside it, rename when complete: a failed
        // export leaves no partial file behind.
        closeSync(openOutput(opts.output));
        const tmp = `${opts.output}.tmp-${process.pid}`;
        try {
          const out = createWriteStream(tmp, { flags: 'wx' });
          const count = await cairn.exportJsonl(out);
          out.end();
          await finished(out);
          renameSync(tmp, opts.output);
          process.stderr.write(`Exported ${count} memories to ${opts.output}\n`);
        } catch (err) {
          rmSync(tmp, { force: true });
          rmSync(opts.output, { force: true });
          throw err;
        }
      });
    });

  program
    .command('import')
    .description('Import memories: cairn export JSONL, {"text": …} lines, a mem0 export, or an OpenClaw workspace (bad records are reported with their line numbers; good ones are kept)')
    .argument('<file>', 'a JSONL or JSON file, an OpenClaw workspace folder (MEMORY.md + memory/) or one of its .md files, or - for stdin')
    .option('--into <namespace>', 'import into this namespace (export records get fresh ids); -n does the same')
    .option('-f, --format <format>', `${IMPORT_FORMATS.join(', ')} (default: told from the input)`)
    .option('--json', 'print the report as JSON')
    .action(async (file: string, opts: { into?: string; format?: string }, cmd: Command) => {
      const g = globals(cmd);
      if (opts.into !== undefined && g.namespace !== undefined && opts.into !== g.namespace) {
        throw new CairnError('INVALID_INPUT', `-n ${g.namespace} and --into ${opts.into} name different namespaces; give one`);
      }
      await withCairn(cmd, async (cairn) => {
        const input = file === '-' ? { stream: process.stdin } : { path: file };
        const report = await cairn.importFrom(input, { namespace: opts.into ?? g.namespace, format: opts.format });
        if (g.json) printJson(report);
        else {
          const note = redactionNote(report.redactions);
          print(`Read ${report.lines} lines: ${report.imported} imported, ${report.existing} already present, ${report.merged} merged into equal memories, ${report.errors.length} bad${note ? `; ${note}` : ''}`);
          for (const e of report.errors.slice(0, 50)) {
            const where = [e.path, e.item ? `item ${e.item}` : null, e.line > 0 ? `line ${e.line}` : null].filter(Boolean).join(', ');
            process.stderr.write(`  ${where || 'input'}: ${printable(e.message)}\n`);
          }
          if (report.errors.length > 50) process.stderr.write(`  … and ${report.errors.length - 50} more\n`);
          if (report.warning) process.stderr.write(`cairn: warning: ${report.warning}\n`);
        }
        if (report.errors.length > 0) process.exitCode = EXIT_CODES.INVALID_INPUT;
      }, { embedThreads: THREADS.bulk });
    });

  program
    .command('reembed')
    .description('Rebuild vectors for the configured embedder; drops vectors of other models')
    .option('--force', 'recompute every vector, not only missing ones')
    .option('--json', 'print the result as JSON')
    .action(async (opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const bar = progressBar('Embedding');
        try {
          const res = await cairn.reembed({ force: Boolean(opts.force), onProgress: (p) => bar.update(p.done, p.total) });
          bar.stop();
          if (globals(cmd).json) printJson({ model: cairn.modelId, ...res });
          else print(`Embedded ${res.done} entries with ${cairn.modelId} (${res.cached} from cache); dropped ${res.dropped} vectors of other models`);
        } finally {
          bar.stop();
        }
      }, { embedThreads: THREADS.bulk });
    });
}

/** Opens an export target; never overwrites an existing file. */
function openOutput(path: string): number {
  try {
    return openSync(path, 'wx');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new CairnError('CONFLICT', `${path} already exists; export never overwrites a file`);
    throw new CairnError('INVALID_INPUT', `Cannot write ${path}: ${(err as Error).message}`);
  }
}
