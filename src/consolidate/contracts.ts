// The shapes the consolidation part passes between its pieces: the material a window holds (what
// was captured and remembered in it), and a rendered digest (its Markdown, its sections, what it
// cites). Renderers are pure functions of these: same material, same bytes.
import type { DigestSection, DigestSource } from '../core/types.js';

/** One record of a window: a memory, or a turn (a turn that became a memory is given as the memory). */
export interface Item {
  kind: 'memory' | 'turn';
  id: string;
  /** ISO time (UTC) of what happened: event time, message time or creation time. */
  time: string;
  /** Local clock time `HH:MM` in the home's time zone, and the local calendar day `YYYY-MM-DD`. */
  localTime: string;
  localDay: string;
  text: string;
  /** Judged importance 1–10; null when the turn is not judged yet. */
  importance: number | null;
  category: string | null;
  /** False once superseded (a decision no longer in force). */
  current: boolean;
  /** user / assistant / tool / system … (turns); memories: the role of their first turn, if known. */
  role: string | null;
  speaker: string | null;
  sessionId: string | null;
  /** Turns a memory came from (for citing both and for not listing a turn twice). */
  turnIds: string[];
  tags: string[];
}

/** A rendered digest file before it is stored and written. */
export interface Rendered {
  /** The whole file, ending in one newline. */
  text: string;
  sections: DigestSection[];
}

/** Every source cited by a set of sections (or lines), in order of first citation, no repeats. */
export function citedSources(sections: ReadonlyArray<Pick<DigestSection, 'sources'>>): DigestSource[] {
  const seen = new Set<string>();
  const out: DigestSource[] = [];
  for (const s of sections) {
    for (const src of s.sources) {
      if (seen.has(src.id)) continue;
      seen.add(src.id);
      out.push(src);
    }
  }
  return out;
}

/** How a line cites its records: the full ids in backticks at its end (`cairn get <id>` opens one). */
export function citation(sources: readonly Pick<DigestSource, 'id'>[]): string {
  return sources.map((s) => `\`${s.id}\``).join(' ');
}
