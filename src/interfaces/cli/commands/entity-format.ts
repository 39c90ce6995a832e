// Terminal rendering of entities and facts. Names and values come from conversations: control
// characters are escaped (printable) so a hostile name cannot move the cursor or clear the screen.
import type { Fact } from '../../../core/types.js';
import type { EntityDetail, EntityView } from '../../../service/knowledge.js';
import { formatMemory, printable } from '../format.js';

const day = (iso: string | null): string => (iso ? iso.slice(0, 10) : '?');

export function entityLine(e: EntityView): string {
  const relation = e.relation ? ` · ${printable(e.relation)}` : '';
  const promoted = e.promoted ? e.para : 'candidate';
  return `${printable(e.slug).padEnd(24)} ${printable(e.name)}  [${e.type}${relation}] ${promoted} · ${e.stats.mentions} mention${e.stats.mentions === 1 ? '' : 's'} · last ${day(e.stats.lastSeen)}`;
}

export function factLine(f: Fact): string {
  const span = f.validTo ? `${day(f.validFrom)} → ${day(f.validTo)}${f.supersededBy ? ` (superseded by ${f.supersededBy})` : ''}` : `since ${day(f.validFrom)}`;
  return `${printable(f.subjectName)} · ${printable(f.attribute)}: ${printable(f.value)}  (${span}) \`${f.memoryId}\` ${f.id}`;
}

export function formatEntityDetail(d: EntityDetail): string {
  const e = d.entity;
  const lines = [
    `${printable(e.name)} (${e.id}, ${printable(e.slug)})`,
    `  ${e.type}${e.relation ? `, ${printable(e.relation)}` : ''} · ${e.promoted ? `promoted, filed under ${e.para}` : `candidate (${e.para})`}${e.locked ? ' · name locked' : ''}`,
    `  known as: ${e.aliases.map((a) => printable(a)).join(', ') || '(no aliases)'}`,
    `  ${e.stats.mentions} mention${e.stats.mentions === 1 ? '' : 's'} in ${e.stats.memories} memor${e.stats.memories === 1 ? 'y' : 'ies'} · first ${day(e.stats.firstSeen)} · last ${day(e.stats.lastSeen)} · max importance ${e.stats.maxImportance}`,
    '',
    'Current facts:',
    ...(d.facts.length ? d.facts.map((f) => `  - ${factLine(f)}`) : ['  (none)']),
  ];
  if (d.history.length) lines.push('', 'History:', ...d.history.map((f) => `  - ${factLine(f)}`));
  lines.push('', 'Recent memories:', ...(d.memories.length ? d.memories.map((m) => printable(formatMemory(m)).replace(/^/gm, '  ')) : ['  (none)']));
  return lines.join('\n');
}
