// How tool answers look: structured content for programs plus a short text for clients (and
// models) that only read text; failures as isError results that start with the stable error code.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isCairnError } from '../../core/errors.js';
import { gateText } from '../../service/redaction-gate.js';
import type { Memory } from '../../core/types.js';
import type { StateOut } from './schemas.js';

export type Log = (message: string) => void;

export function ok(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** A failure as a tool result: "CODE: message". Never a stack (that goes to the log with CAIRN_DEBUG). */
export function failure(err: unknown, log: Log, tool: string): CallToolResult {
  if (isCairnError(err)) return { isError: true, content: [{ type: 'text', text: `${err.code}: ${err.message}` }] };
  // An unexpected error's message can quote the text it failed on: through the redaction gate.
  const message = gateText(err instanceof Error ? err.message : String(err));
  log(`cairn mcp: ${tool} failed: ${message}${process.env.CAIRN_DEBUG && err instanceof Error ? `\n${gateText(err.stack ?? '')}` : ''}`);
  return { isError: true, content: [{ type: 'text', text: `INTERNAL: ${tool} failed: ${message}` }] };
}

/** "\nRedacted before storing: …" when the gate replaced secrets, else ''. */
export function redactedLine(counts: Readonly<Record<string, number>> | undefined): string {
  const kinds = Object.entries(counts ?? {}).filter(([, n]) => n > 0);
  return kinds.length ? `\nRedacted before storing: ${kinds.map(([k, n]) => `${k} ×${n}`).join(', ')}` : '';
}

/** A memory's public fields as a plain object (structured content is pure JSON). */
export function memoryView(m: Memory): Record<string, unknown> {
  return {
    id: m.id,
    namespace: m.namespace,
    text: m.text,
    category: m.category,
    importance: m.importance,
    tags: m.tags,
    entities: m.entities,
    eventTime: m.eventTime,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    validFrom: m.validFrom,
    validTo: m.validTo,
    supersededBy: m.supersededBy,
    supersedes: m.supersedes,
    mentions: m.mentions,
    provenance: m.provenance,
  };
}

export function memoryLine(m: Memory): string {
  const status = m.validTo ? `, superseded by ${m.supersededBy ?? '?'}` : '';
  return `${m.id} [${m.category}, importance ${m.importance}${status}] ${m.text}`;
}

export function stateText(s: StateOut): string {
  const lines = [`Hot state of ${s.namespace}${s.updatedAt ? ` (updated ${s.updatedAt})` : ' (empty)'}`];
  lines.push(`Objective: ${s.objective ?? '(none)'}`);
  lines.push(`Blockers:${s.blockers.length ? '' : ' (none)'}`, ...s.blockers.map((b) => `- ${b}`));
  lines.push(`Next actions:${s.nextActions.length ? '' : ' (none)'}`, ...s.nextActions.map((a) => `- ${a}`));
  if (s.notes) lines.push(`Notes: ${s.notes}`);
  return lines.join('\n');
}
