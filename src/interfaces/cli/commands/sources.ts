// cairn sources add|list|remove: what the daemon watches.
import type { Command } from 'commander';
import { SOURCE_KINDS } from '../../../capture/sources/kind-names.js';
import { formatSource } from './status-format.js';
import { globals, print, printJson, withCairn } from '../run.js';

export function registerSourcesCommands(program: Command): void {
  const sources = program.command('sources').description('Transcript and Markdown sources that `cairn watch` captures');

  sources
    .command('add')
    .description(`Register a source (${SOURCE_KINDS.join(', ')}); without PATH, the kind's default location`)
    .argument('<kind>', SOURCE_KINDS.join('|'))
    .argument('[path]', 'file or folder (default: ~/.openclaw, ~/.claude/projects, OpenClaw workspaces)')
    .option('--json', 'print as JSON')
    .addHelpText('after', '\nWith --namespace every turn goes to that namespace; without it OpenClaw agents and Claude Code\nprojects each get their own, other kinds use the default namespace.')
    .action(async (kind: string, path: string | undefined, _opts, cmd: Command) => {
      const g = globals(cmd);
      const added = await withCairn(cmd, (cairn) => cairn.addSources({ kind, path, namespace: g.namespace }));
      if (g.json) return printJson({ added });
      for (const s of added) {
        const from = (s.options as { namespaceFrom?: string }).namespaceFrom;
        print(`source ${s.id}: ${s.kind} ${s.path} → ${from === 'agent' ? 'one namespace per agent' : from === 'project' ? 'one namespace per project' : `namespace ${s.namespace}`}`);
      }
      print('Run `cairn watch` to capture continuously (or it picks these up within its rescan interval if running).');
    });

  sources
    .command('list')
    .description('Registered sources with what each has captured: turns, lines, malformed lines, redactions, errors, lag')
    .option('--all', 'also list one-off sources made by `cairn ingest`')
    .option('--json', 'print as JSON')
    .action(async (opts: { all?: boolean }, cmd: Command) => {
      const list = await withCairn(cmd, (cairn) => cairn.sourceStatuses({ watchedOnly: !opts.all }));
      if (globals(cmd).json) return printJson({ sources: list });
      if (list.length === 0) return print('No sources. Add one: cairn sources add openclaw|claude-code|jsonl|markdown [PATH]');
      for (const s of list) print(formatSource(s));
    });

  sources
    .command('remove')
    .description('Stop capturing a source (by id or path); the turns it captured stay')
    .argument('<source>', 'source id or path')
    .option('--kind <kind>', 'when several sources share the path')
    .option('--json', 'print as JSON')
    .action(async (ref: string, opts: { kind?: string }, cmd: Command) => {
      const removed = await withCairn(cmd, (cairn) => cairn.removeSource(ref, opts.kind));
      if (globals(cmd).json) return printJson({ removed });
      print(`Removed source ${removed.id} (${removed.kind} ${removed.path}); its turns are kept.`);
    });
}
