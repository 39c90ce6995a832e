// cairn entity list | show | merge | rename | split, and cairn facts
import type { Command } from 'commander';
import { CairnError, ERROR_CODES } from '../../../core/errors.js';
import { ENTITY_TYPES, PARA_KINDS, type EntityType, type ParaKind } from '../../../core/types.js';
import { globals, intOption, print, printJson, withCairn } from '../run.js';
import { entityLine, factLine, formatEntityDetail } from './entity-format.js';
import { printable } from '../format.js';

function oneOf<T extends string>(name: string, allowed: readonly T[]): (value: string) => T {
  return (value: string) => {
    if (!(allowed as readonly string[]).includes(value)) throw new CairnError(ERROR_CODES.INVALID_INPUT, `--${name} must be one of ${allowed.join(', ')}, got "${value.slice(0, 40)}"`);
    return value as T;
  };
}

function collect(value: string, previous: string[] = []): string[] {
  return previous.concat(value);
}

export function registerEntityCommands(program: Command): void {
  const entity = program.command('entity').description('The people, projects, places and tools your memories name: list, show and fix them');

  entity
    .command('list')
    .description('Entities, most mentioned first')
    .option('-t, --type <type>', `only this type: ${ENTITY_TYPES.join(', ')}`, oneOf<EntityType>('type', ENTITY_TYPES))
    .option('--para <kind>', `only this PARA kind: ${PARA_KINDS.join(', ')}`, oneOf<ParaKind>('para', PARA_KINDS))
    .option('--promoted', 'only promoted entities (in the knowledge graph and life/)')
    .option('--candidates', 'only candidates (not promoted yet)')
    .option('-q, --query <prefix>', 'only entities with a name starting with this')
    .option('-l, --limit <n>', 'how many (1–1000)', intOption('limit', 1, 1000), 50)
    .option('--json', 'print as JSON')
    .action(async (opts, cmd: Command) => {
      if (opts.promoted && opts.candidates) throw new CairnError(ERROR_CODES.INVALID_INPUT, 'Give --promoted or --candidates, not both');
      await withCairn(cmd, async (cairn) => {
        const list = await cairn.entities({
          type: opts.type,
          para: opts.para,
          ...(opts.promoted ? { promoted: true } : opts.candidates ? { promoted: false } : {}),
          query: opts.query,
          limit: opts.limit,
        });
        if (globals(cmd).json) return printJson(list);
        print(list.length ? list.map(entityLine).join('\n') : 'No entities yet.');
      });
    });

  entity
    .command('show')
    .description('One entity: its names, counts, PARA kind, current facts, history and recent memories')
    .argument('<entity>', 'id, slug or any name it is known by')
    .option('--json', 'print as JSON')
    .action(async (ref: string, _opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const detail = await cairn.entity(ref);
        if (globals(cmd).json) return printJson(detail);
        print(formatEntityDetail(detail));
      });
    });

  entity
    .command('merge')
    .description('Merge one entity into another: names, mentions and facts move; the fix survives re-extraction')
    .argument('<from>', 'the entity that goes (id, slug or name)')
    .argument('<into>', 'the entity that stays')
    .option('--json', 'print as JSON')
    .action(async (from: string, into: string, _opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const res = await cairn.mergeEntity(from, into);
        if (globals(cmd).json) return printJson(res);
        print(`Merged ${printable(res.removed.name)} (${res.removed.id}) into ${printable(res.entity.entity.name)} (${res.entity.entity.id}): ${res.memories} memor${res.memories === 1 ? 'y' : 'ies'} updated`);
      });
    });

  entity
    .command('rename')
    .description('Give an entity its right name (locked: extraction never changes it again)')
    .argument('<entity>', 'id, slug or name')
    .argument('<name...>', 'the new name')
    .option('--json', 'print as JSON')
    .action(async (ref: string, words: string[], _opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const res = await cairn.renameEntity(ref, words.join(' '));
        if (globals(cmd).json) return printJson(res);
        print(`Renamed ${printable(res.previousName)} to ${printable(res.entity.entity.name)} (${printable(res.entity.entity.slug)})`);
      });
    });

  entity
    .command('split')
    .description('Split names that are another entity off into a new one, with the memories that name them')
    .argument('<entity>', 'id, slug or name of the entity that holds them now')
    .requiredOption('-a, --alias <name>', 'a name to split off (repeatable)', collect)
    .option('--name <name>', 'the new entity\'s name (default: the first alias)')
    .option('-t, --type <type>', `the new entity's type: ${ENTITY_TYPES.join(', ')}`, oneOf<EntityType>('type', ENTITY_TYPES))
    .option('--json', 'print as JSON')
    .action(async (ref: string, opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const res = await cairn.splitEntity(ref, { aliases: opts.alias, name: opts.name, type: opts.type });
        if (globals(cmd).json) return printJson(res);
        print(`Split ${printable(res.entity.entity.name)} (${res.entity.entity.id}) off ${printable(res.source.entity.name)}: ${res.moved.length} memor${res.moved.length === 1 ? 'y' : 'ies'} moved`);
        if (res.kept.length) print(`${res.kept.length} memor${res.kept.length === 1 ? 'y names' : 'ies name'} both and stayed with ${printable(res.source.entity.name)}: ${res.kept.join(', ')}`);
      });
    });

  program
    .command('facts')
    .description('Facts (subject – attribute – value) with their valid time; current ones unless --all')
    .option('-s, --subject <subject>', 'only facts about this subject')
    .option('-a, --attribute <attribute>', 'only this attribute (port, lives in, works at, …)')
    .option('-e, --entity <entity>', 'only facts about this entity (id, slug or name)')
    .option('--all', 'include superseded facts (history)')
    .option('-l, --limit <n>', 'how many (1–10000)', intOption('limit', 1, 10_000), 200)
    .option('--json', 'print as JSON')
    .action(async (opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const facts = await cairn.facts({ subject: opts.subject, attribute: opts.attribute, entity: opts.entity, includeSuperseded: Boolean(opts.all), limit: opts.limit });
        if (globals(cmd).json) return printJson(facts);
        print(facts.length ? facts.map(factLine).join('\n') : 'No facts found.');
      });
    });
}
