// Human-readable rendering of memories and search results for the terminal.
import type { Memory, Provenance } from '../../core/types.js';
import type { SearchResult } from '../../search/hybrid.js';
import { contextLine } from '../../search/neighbours.js';

export function provenanceLine(all: Provenance[]): string {
  // Context turns are listed with the result itself; the line names where the hit came from.
  const p = all.filter((x) => !x.context);
  if (p.length === 0) return 'source: unknown';
  const first = p[0]!;
  const parts = [`source: ${first.source ?? 'unknown'}${first.system ? ` from ${first.system}` : ''}`];
  if (first.path) parts.push(first.path + (first.line !== undefined ? `:${first.line}${first.endLine !== undefined && first.endLine !== first.line ? `-${first.endLine}` : ''}` : ''));
  if (first.originalId) parts.push(`id ${first.originalId}`);
  if (first.sessionId) parts.push(`session ${first.sessionId}`);
  if (first.messageId) parts.push(`message ${first.messageId}`);
  if (first.speaker) parts.push(`speaker ${first.speaker}`);
  // A digest section: how many records it cites (`cairn get <id>` opens each; --json lists them).
  if (first.memoryIds) parts.push(`cites ${first.memoryIds.length + (first.turnIds?.length ?? 0)}`);
  if (p.length > 1) parts.push(`+${p.length - 1} more`);
  return parts.join(' · ');
}

/** "2 secrets redacted: openai-key, github-token ×1" style note, or '' when nothing was redacted. */
export function redactionNote(counts: Readonly<Record<string, number>> | undefined): string {
  const kinds = Object.entries(counts ?? {}).filter(([, n]) => n > 0);
  const total = kinds.reduce((a, [, n]) => a + n, 0);
  if (total === 0) return '';
  return `${total} secret${total === 1 ? '' : 's'} redacted: ${kinds.map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(', ')}`;
}

export function formatMemory(m: Memory): string {
  const status = m.validTo ? `superseded ${m.validTo.slice(0, 10)} by ${m.supersededBy}` : 'current';
  return [
    `${m.id}  [${m.category}] importance ${m.importance}  ${status}`,
    `  ${m.text.replace(/\n/g, '\n  ')}`,
    `  created ${m.createdAt}${m.eventTime ? ` · event ${m.eventTime}` : ''} · mentions ${m.mentions}${m.tags.length ? ` · tags ${m.tags.join(', ')}` : ''}`,
    `  ${provenanceLine(m.provenance)}`,
  ].join('\n');
}

export function formatResult(r: SearchResult, rank: number, explain: boolean): string {
  const head = `${rank}. ${r.score.toFixed(3)}  [${r.kind}${r.category ? `/${r.category}` : ''}] ${r.time.slice(0, 10)}  ${r.id}${r.current && !r.validTo ? '' : `  (superseded${r.validTo ? ` ${r.validTo.slice(0, 10)}` : ''}${r.supersededBy ? ` by ${r.supersededBy}` : ''})`}`;
  // The hit first (its passage that matches, not the whole text: `cairn get` shows that); under it
  // the turns just before and after it (↑ ↓), then the other hits of its session (+), oldest first.
  const speaker = r.kind === 'turn' ? r.provenance[0]?.speaker : undefined;
  const around = r.context.filter((c) => !c.match).map((c) => `     ${c.offset < 0 ? '↑' : '↓'} ${contextLine(c)}`);
  const others = r.context.filter((c) => c.match).map((c) => `   + ${contextLine(c)}`);
  const lines = [head, `   ${speaker ? `${speaker}: ` : ''}${r.snippet}`, ...around, ...others, `   ${provenanceLine(r.provenance)}`];
  if (explain) {
    const p = r.parts;
    lines.push(
      `   score = relevance ${p.relevance.toFixed(3)} (bm25 ${p.bm25.toFixed(3)}, vector ${p.vector.toFixed(3)}${p.cosine === null ? '' : `, cosine ${p.cosine.toFixed(3)}`}` +
        `, neighbours ${p.neighbours.toFixed(3)}, speaker ×${p.speaker.toFixed(2)}${p.when === 1 ? '' : `, time ×${p.when.toFixed(2)}`})` +
        ` × importance ${p.importance.toFixed(2)} × recency ${p.recency.toFixed(2)} (${p.tier})`,
    );
    const c = r.signals;
    if (c) lines.push(`   confidence ${r.confidence.toFixed(2)} (${c.cosine === null ? '' : `cosine ${c.cosine.toFixed(3)}, `}query words ${c.cover.toFixed(2)}, with its session ${c.sessionCover.toFixed(2)}${c.speaker ? ', said by the person named' : ''})`);
  }
  return lines.join('\n');
}

/** Text from a file shown on a terminal: control characters escaped, never sent raw. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
