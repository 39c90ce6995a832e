// entity_get: what memory knows about one person, project, place or tool — its names, counts,
// PARA kind, the facts that hold now, their history, and the memories that name it.
import type { Fact } from '../../core/types.js';
import { memoryLine, memoryView, ok } from './results.js';
import { toolSchemas } from './schemas.js';
import type { ToolContext } from './server.js';

function factText(f: Fact): string {
  const span = f.validTo ? `${f.validFrom.slice(0, 10)} → ${f.validTo.slice(0, 10)}` : `since ${f.validFrom.slice(0, 10)}`;
  return `${f.subjectName} · ${f.attribute}: ${f.value} (${span}, ${f.memoryId})`;
}

export function registerKnowledgeTools({ server, cairn, ns, maxTextChars, run }: ToolContext): void {
  const S = toolSchemas(maxTextChars);
  server.registerTool(
    'entity_get',
    {
      title: 'What memory knows about someone or something',
      description:
        'One person, project, place or tool by any name it is known by: its aliases, how often and when it was mentioned, whether it is promoted and its PARA kind, the facts that hold now (with since when), superseded facts (history) and its recent memories (ids for memory_get).',
      inputSchema: S.entity_get.input,
      outputSchema: S.entity_get.output,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      run('entity_get', async () => {
        const d = await cairn.entity(args.entity, { namespace: ns });
        const e = d.entity;
        const lines = [
          `${e.name} (${e.id}) [${e.type}${e.relation ? `, ${e.relation}` : ''}] ${e.promoted ? e.para : 'candidate'} · known as ${e.aliases.join(', ')}`,
          `${e.stats.mentions} mentions in ${e.stats.memories} memories, ${e.stats.firstSeen.slice(0, 10)} to ${e.stats.lastSeen.slice(0, 10)}`,
          `Current facts:${d.facts.length ? '' : ' (none)'}`,
          ...d.facts.map((f) => `- ${factText(f)}`),
          ...(d.history.length ? ['History:', ...d.history.map((f) => `- ${factText(f)}`)] : []),
          `Recent memories:${d.memories.length ? '' : ' (none)'}`,
          ...d.memories.map((m) => `- ${memoryLine(m)}`),
        ];
        return ok({ entity: { ...e }, facts: d.facts.map((f) => ({ ...f })), history: d.history.map((f) => ({ ...f })), memories: d.memories.map(memoryView) }, lines.join('\n'));
      }),
  );
}
