// What a digest section hit counts for in LoCoMo's evidence recall: the conversation turns whose
// words it shows. A section cites memories and turns by Cairn id; the metric speaks of the
// dataset's turn ids (each turn's messageId, each memory's provenance). Citing is not showing: a
// mood line cites every turn with feeling and shows none, so a cited record counts only when the
// section holds a run of its own words.
import { citedIds } from '../src/search/layer-first.js';
import type { SearchResult } from '../src/search/hybrid.js';
import type { Store } from '../src/store/store.js';
import { tokenize } from '../src/search/query-terms.js';

/** Consecutive words of a record that must stand in the section for it to count as shown. */
export const SHOWN_WORDS = 6;

/** Whether `section` shows `record`: SHOWN_WORDS consecutive words of it (all of a shorter one), compared as search tokenizes. */
export function shows(section: string, record: string): boolean {
  const words = tokenize(record);
  if (words.length === 0) return false;
  const haystack = ` ${tokenize(section).join(' ')} `;
  const n = Math.min(SHOWN_WORDS, words.length);
  for (let i = 0; i + n <= words.length; i++) if (haystack.includes(` ${words.slice(i, i + n).join(' ')} `)) return true;
  return false;
}

/** The dataset turn ids (messageIds) a digest section result covers, with the records it cites read once each. */
export function digestCoverage(store: Store, namespace: string): (r: Pick<SearchResult, 'text' | 'provenance'>) => Promise<string[]> {
  const records = new Map<string, { text: string; messageIds: string[] } | null>();
  const record = async (id: string) => {
    if (records.has(id)) return records.get(id)!;
    let found: { text: string; messageIds: string[] } | null = null;
    if (id.startsWith('t_')) {
      const t = await store.getTurn(namespace, id);
      if (t) found = { text: t.text, messageIds: [t.messageId] };
    } else {
      const m = await store.getMemory(namespace, id);
      if (m) found = { text: m.text, messageIds: m.provenance.flatMap((p) => (p.messageId ? [p.messageId] : [])) };
    }
    records.set(id, found);
    return found;
  };
  return async (r) => {
    const covered = new Set<string>();
    for (const id of citedIds(r)) {
      const rec = await record(id);
      if (rec && shows(r.text, rec.text)) for (const m of rec.messageIds) covered.add(m);
    }
    return [...covered];
  };
}
