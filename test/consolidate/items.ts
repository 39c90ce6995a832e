// Window material for the consolidation renderers' tests: items shaped as the store hands them over,
// with the local day and time computed in the home's time zone the way the real pipeline does.
import type { Item } from '../../src/consolidate/contracts.js';
import type { Rendered } from '../../src/consolidate/contracts.js';
import { localDayTime } from '../../src/core/local-time.js';
import { seeded } from '../helpers/prng.js';

export const TZ = 'Europe/Berlin';

export function item(p: Partial<Item> & { id: string; time: string; text: string }, timeZone = TZ): Item {
  const local = localDayTime(p.time, timeZone);
  if (!local) throw new Error(`bad time ${p.time}`);
  return {
    kind: p.id.startsWith('m_') ? 'memory' : 'turn',
    localTime: local.time,
    localDay: local.day,
    importance: p.id.startsWith('m_') ? 6 : null,
    category: null,
    current: true,
    role: 'user',
    speaker: null,
    sessionId: 's1',
    turnIds: [],
    tags: [],
    ...p,
  };
}

/** The same items in a seeded random order. */
export function shuffled<T>(list: readonly T[], seed = 7): T[] {
  const rnd = seeded(seed);
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The routine a day also holds: heartbeats, acknowledgements, agent chatter, tool calls. */
export function chatter(day: string, prefix: string): Item[] {
  const at = (hh: string): string => `${day}T${hh}:00.000Z`;
  return [
    item({ id: `${prefix}_hb1`, time: at('08:00'), text: 'HEARTBEAT_OK', role: 'assistant' }),
    item({ id: `${prefix}_hb2`, time: at('11:00'), text: 'Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. If nothing needs attention, reply HEARTBEAT_OK.', role: 'user' }),
    item({ id: `${prefix}_ok`, time: at('09:31'), text: 'ok thanks', role: 'user' }),
    item({ id: `${prefix}_thumb`, time: at('09:32'), text: '👍', role: 'user' }),
    item({ id: `${prefix}_chat`, time: at('09:33'), text: 'Let me check the file.', role: 'assistant' }),
    item({ id: `${prefix}_tool`, time: at('09:34'), text: '→ tool Read /home/ana/cairn/src/consolidate/realtime-view.ts', role: 'tool' }),
    item({ id: `${prefix}_sys`, time: at('09:35'), text: 'You are a helpful coding agent working in /home/ana/cairn.', role: 'system' }),
  ];
}

/** Every line of a rendered file is a heading, a list item or blank, and the sections are exactly the file. */
export function structureHolds(r: Rendered): string | null {
  for (const line of r.text.split('\n')) {
    if (line !== '' && !/^(?:# |## |- )/.test(line)) return `stray line: ${JSON.stringify(line.slice(0, 80))}`;
  }
  if (!r.text.endsWith('\n') || r.text.endsWith('\n\n')) return 'must end in exactly one newline';
  const rebuilt = r.sections.map((s) => (s.heading === '' ? s.text : `## ${s.heading}\n${s.text}`)).join('\n\n') + '\n';
  if (rebuilt !== r.text) return 'sections do not mirror the file';
  const headings = r.text.split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
  if (JSON.stringify(headings) !== JSON.stringify(r.sections.filter((s) => s.heading !== '').map((s) => s.heading))) return 'headings differ';
  for (const s of r.sections) {
    const cited = [...s.text.matchAll(/`([mt]_[^`\s]+)`/g)].map((m) => m[1]);
    for (const id of cited) if (!s.sources.some((src) => src.id === id)) return `section ${s.heading} cites ${id} without a source`;
  }
  return null;
}
