// The memory tools: memory_store, memory_search, memory_get, memory_history, memory_supersede,
// memory_feedback. memory_search and memory_get keep OpenClaw's argument names and result fields,
// so an OpenClaw agent's prompts work unchanged; they ignore arguments only OpenClaw knows, while
// the write tools reject unknown fields (a typo like "importnace" must not pass silently).
import { toOpenClawResults } from '../../service/openclaw-compat.js';
import { memoryLine, memoryView, ok, redactedLine } from './results.js';
import { contextLine } from '../../search/neighbours.js';
import { toolSchemas } from './schemas.js';
import type { ToolContext } from './server.js';

const WRITE = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;
const READ = { readOnlyHint: true, openWorldHint: false } as const;

export function registerMemoryTools({ server, cairn, ns, maxTextChars, run }: ToolContext): void {
  const S = toolSchemas(maxTextChars);
  server.registerTool(
    'memory_store',
    {
      title: 'Store a memory',
      description:
        'Remember something durable: a decision, fact, preference, plan or lesson. An equal memory already stored is not duplicated: its mention count rises and it comes back with duplicate: true.',
      inputSchema: S.memory_store.input,
      outputSchema: S.memory_store.output,
      annotations: { ...WRITE, idempotentHint: true },
    },
    (args) =>
      run('memory_store', async () => {
        const res = await cairn.remember({ ...args, namespace: ns, provenance: [{ source: 'mcp' }] });
        const out = { memory: memoryView(res.memory), duplicate: res.duplicate, embedded: res.embedded, ...(res.warning ? { warning: res.warning } : {}), ...(res.redactions ? { redactions: res.redactions } : {}) };
        const head = res.duplicate ? `Already known (mentions now ${res.memory.mentions})` : 'Stored';
        return ok(out, `${head}: ${memoryLine(res.memory)}${redactedLine(res.redactions)}${res.warning ? `\nWarning: ${res.warning}` : ''}`);
      }),
  );

  server.registerTool(
    'memory_search',
    {
      title: 'Search memory',
      description:
        'Search long-term memory (stored memories, captured conversation turns, indexed notes) by meaning and keywords, ranked by relevance, importance and recency. Each result has an id (for memory_get, memory_history, memory_feedback) and an OpenClaw-style path/startLine/endLine (for memory_get {path, from, lines}).',
      inputSchema: S.memory_search.input,
      outputSchema: S.memory_search.output,
      annotations: READ,
    },
    (args) =>
      run('memory_search', async () => {
        const res = await cairn.search(args.query, {
          namespace: ns,
          ...(args.maxResults !== undefined ? { limit: args.maxResults } : {}),
          ...(args.since !== undefined ? { since: args.since } : {}),
          ...(args.until !== undefined ? { until: args.until } : {}),
          ...(args.asOf !== undefined ? { asOf: args.asOf } : {}),
          ...(args.category !== undefined ? { categories: Array.isArray(args.category) ? args.category : [args.category] } : {}),
          ...(args.rewrite !== undefined ? { rewrite: args.rewrite } : {}),
          ...(args.layer !== undefined ? { layers: Array.isArray(args.layer) ? args.layer : [args.layer] } : {}),
          ...(args.entity !== undefined ? { entity: args.entity } : {}),
        });
        const minScore = args.minScore;
        const kept = minScore === undefined ? res.results : res.results.filter((r) => r.score >= minScore);
        const compat = toOpenClawResults(kept);
        const results = kept.map((r, i) => ({
          id: r.id,
          kind: r.kind,
          text: r.text,
          snippet: r.snippet,
          score: r.score,
          confidence: r.confidence,
          time: r.time,
          createdAt: r.createdAt,
          category: r.category,
          importance: r.importance,
          current: r.current,
          ...(r.validTo ? { validTo: r.validTo } : {}),
          ...(r.supersededBy ? { supersededBy: r.supersededBy } : {}),
          provenance: r.provenance,
          context: r.context,
          path: compat[i]!.path,
          startLine: compat[i]!.startLine,
          endLine: compat[i]!.endLine,
          source: compat[i]!.source,
        }));
        const out = { results, provider: 'cairn' as const, model: cairn.modelId ?? 'none', mode: res.mode, noGoodMatch: res.noGoodMatch, belowConfidence: res.belowConfidence, ...(res.degraded ? { degraded: res.degraded } : {}), ...(res.rewrite ? { rewrite: res.rewrite } : {}) };
        const lines = results.length
          ? results.map(
              (r, i) =>
                `${i + 1}. ${r.score.toFixed(3)} ${r.id} [${r.kind}${r.category ? `/${r.category}` : ''}] ${r.time.slice(0, 10)} ${r.path}#L${r.startLine}-L${r.endLine}${supersededNote(r)}\n` +
                [...r.context.filter((c) => c.offset < 0), null, ...r.context.filter((c) => c.offset > 0)].map((c) => `   ${c ? contextLine(c) : r.snippet}`).join('\n'),
            )
          : [res.noGoodMatch ? `No good match for "${res.query}"${res.belowConfidence ? ` (${res.belowConfidence} weak results below search.minConfidence left out)` : ''}.` : `No results for "${res.query}".`];
        if (res.degraded) lines.push(`(note: ${res.degraded})`);
        return ok(out, lines.join('\n'));
      }),
  );

  server.registerTool(
    'memory_get',
    {
      title: 'Read a memory or a memory file',
      description:
        'Read one memory by id ({id}), or lines of a memory file by path ({path, from?, lines?}, as OpenClaw does; use the path of a memory_search result). Give exactly one of id and path.',
      inputSchema: S.memory_get.input,
      outputSchema: S.memory_get.output,
      annotations: READ,
    },
    (args) =>
      run('memory_get', async () => {
        if (args.id !== undefined && args.id.startsWith('t_')) {
          // A turn id from a search result: its stored (redacted) text.
          const file = await cairn.readFile({ path: `turn:${args.id}` }, ns);
          return ok({ path: file.path, text: file.text, from: file.from, lines: file.lines, totalLines: file.totalLines }, file.text);
        }
        if (args.id !== undefined) {
          const memory = await cairn.get(args.id, ns);
          return ok({ text: memory.text, memory: memoryView(memory) }, memoryLine(memory));
        }
        const file = await cairn.readFile(
          { path: args.path!, ...(args.from !== undefined ? { from: args.from } : {}), ...(args.lines !== undefined ? { lines: args.lines } : {}) },
          ns,
        );
        return ok({ path: file.path, text: file.text, from: file.from, lines: file.lines, totalLines: file.totalLines }, file.text);
      }),
  );

  server.registerTool(
    'memory_history',
    {
      title: 'History of a memory',
      description: 'Every version of a memory, oldest first: what it said before each memory_supersede, and since when.',
      inputSchema: S.memory_history.input,
      outputSchema: S.memory_history.output,
      annotations: READ,
    },
    (args) =>
      run('memory_history', async () => {
        const chain = await cairn.history(args.id, ns);
        return ok({ versions: chain.map(memoryView) }, chain.map((m, i) => `${i + 1}. ${m.validFrom.slice(0, 19)} ${memoryLine(m)}`).join('\n'));
      }),
  );

  server.registerTool(
    'memory_supersede',
    {
      title: 'Correct a memory',
      description: 'Replace an outdated or wrong memory with a corrected one. The old version stays in memory_history but no longer shows in searches.',
      inputSchema: S.memory_supersede.input,
      outputSchema: S.memory_supersede.output,
      annotations: { ...WRITE, idempotentHint: false },
    },
    (args) =>
      run('memory_supersede', async () => {
        const { id, ...replacement } = args;
        const res = await cairn.supersede(id, { ...replacement, namespace: ns, provenance: [{ source: 'mcp' }] });
        const out = { previous: memoryView(res.previous), current: memoryView(res.current), ...(res.warning ? { warning: res.warning } : {}), ...(res.redactions ? { redactions: res.redactions } : {}) };
        return ok(out, `Superseded ${res.previous.id} by ${memoryLine(res.current)}${redactedLine(res.redactions)}${res.warning ? `\nWarning: ${res.warning}` : ''}`);
      }),
  );

  server.registerTool(
    'memory_feedback',
    {
      title: 'Mark a memory important or not',
      description: 'Say whether a memory (m_…) or a captured turn (t_…) matters. It adjusts that item now and teaches Cairn what to keep in future.',
      inputSchema: S.memory_feedback.input,
      outputSchema: S.memory_feedback.output,
      annotations: { ...WRITE, idempotentHint: true },
    },
    (args) =>
      run('memory_feedback', async () => {
        const res = await cairn.feedback(args.id, args.important, ns);
        const out = { feedback: { ...res.feedback }, turnId: res.turnId, importance: res.importance, memoryId: res.memoryId };
        const effect = res.importance !== null ? `; importance now ${res.importance}` : '';
        const made = res.memoryId && res.memoryId !== args.id ? `; memory ${res.memoryId}` : '';
        return ok(out, `Marked ${args.id} ${args.important ? 'important' : 'not important'}${effect}${made}`);
      }),
  );
}

/** ` (superseded 2026-03-15 by m_…)` for a hit that is no longer current, else ''. */
function supersededNote(r: { current: boolean; validTo?: string | null; supersededBy?: string }): string {
  if (r.current && !r.validTo) return '';
  return ` (superseded${r.validTo ? ` ${r.validTo.slice(0, 10)}` : ''}${r.supersededBy ? ` by ${r.supersededBy}` : ''})`;
}
