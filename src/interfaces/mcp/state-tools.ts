// Hot state (state_get, state_set), the session-start brief (context), and the namespace's two
// Markdown files as resources. state_set returns only after the facade has written the state
// (write-ahead), so an agent that crashes right after the call loses nothing.
import { readFile } from 'node:fs/promises';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { isCairnError } from '../../core/errors.js';
import { gateText } from '../../service/redaction-gate.js';
import { ok, redactedLine, stateText } from './results.js';
import { toolSchemas } from './schemas.js';
import type { ToolContext } from './server.js';

export function registerStateTools({ server, cairn, ns, maxTextChars, run }: ToolContext): void {
  const S = toolSchemas(maxTextChars);
  server.registerTool(
    'state_get',
    {
      title: 'Read the hot state',
      description: 'Your current working state: objective, blockers, next actions and notes, as last saved with state_set.',
      inputSchema: S.state_get.input,
      outputSchema: S.state_get.output,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      run('state_get', async () => {
        const state = await cairn.getState(ns);
        return ok({ ...state }, stateText(state));
      }),
  );

  server.registerTool(
    'state_set',
    {
      title: 'Update the hot state',
      description:
        'Save your current working state. Only the fields you give change; a list replaces the whole list ([] clears it), null clears objective or notes. It is on disk (SESSION-STATE.md) before this returns and survives crashes and compactions: update it whenever the objective, a blocker or the next step changes.',
      inputSchema: S.state_set.input,
      outputSchema: S.state_set.output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      run('state_set', async () => {
        const state = await cairn.setState(args, ns);
        return ok({ ...state }, `Saved. ${stateText(state)}${redactedLine(state.redactions)}${state.warning ? `\nWarning: ${state.warning}` : ''}`);
      }),
  );

  server.registerTool(
    'context',
    {
      title: 'Session-start brief',
      description:
        'A token-budgeted Markdown brief: hot state first, then MEMORY.md, then the most important recent memories, then memories relevant to the query. Call it at the start of a session and after a compaction.',
      inputSchema: S.context.input,
      outputSchema: S.context.output,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      run('context', async () => {
        const brief = await cairn.context({ ...args, namespace: ns });
        return ok({ ...brief }, brief.text);
      }),
  );
}

function isMissing(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'ENOENT';
}

/** MEMORY.md and SESSION-STATE.md of the namespace, at cairn://<namespace>/<file>. */
export function registerFileResources({ server, cairn, ns, track, log }: ToolContext): void {
  const resource = (name: string, description: string, pathOf: () => string, missing: string): void => {
    const uri = `cairn://${ns}/${name}`;
    const read = async (): Promise<ReadResourceResult> => {
      let text: string;
      try {
        // MEMORY.md may be edited by hand: shown through the redaction gate, as every file read is.
        text = gateText(await readFile(pathOf(), 'utf8'));
      } catch (err) {
        if (!isMissing(err)) {
          log(`cairn mcp: reading ${uri}: ${err instanceof Error ? err.message : String(err)}`);
          throw new Error(isCairnError(err) ? `${err.code}: ${err.message}` : `could not read ${name}`);
        }
        text = missing;
      }
      return { contents: [{ uri, mimeType: 'text/markdown', text }] };
    };
    server.registerResource(name, uri, { title: `${name} (${ns})`, description, mimeType: 'text/markdown' }, () => track(read()));
  };
  resource(
    'MEMORY.md',
    `Curated long-term notes of namespace ${ns}.`,
    () => cairn.memoryFilePath(ns),
    `# MEMORY.md\n\nNamespace "${ns}" has no MEMORY.md yet. It is an optional Markdown file of curated notes in the namespace's folder; until it exists, use the memory_search and context tools.\n`,
  );
  resource(
    'SESSION-STATE.md',
    `Hot state of namespace ${ns}: objective, blockers, next actions (kept by state_set).`,
    () => cairn.stateFilePath(ns),
    `# SESSION-STATE.md\n\nNo hot state saved yet for namespace "${ns}". Use the state_set tool to record the objective, blockers and next actions.\n`,
  );
}
