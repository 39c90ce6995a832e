// The keyword index's text: entries_fts (migration V14) is a contentless FTS5 table fed by
// triggers with each entry's words in their index form (search/text-analysis.ts: segmented,
// stemmed in the text's language, folded), so FTS5 itself only splits on spaces and folds case.
// Contentless, because the index form is only ever matched, never shown: the text lives once, in
// entries.body. The triggers call this SQL function, registered on every connection Cairn opens.
import type { Database } from 'better-sqlite3';
import { indexText } from '../../search/text-analysis.js';

export const INDEX_TEXT_FUNCTION = 'cairn_index_text';

/** Registers cairn_index_text(text[, 'en']): a text's index form, its language detected unless given ('en' for entry keys). */
export function registerIndexText(db: Database): void {
  db.function(INDEX_TEXT_FUNCTION, { deterministic: true, varargs: true }, (text: unknown, language?: unknown) =>
    typeof text === 'string' && text.length > 0 ? indexText(text, language === 'en' ? 'en' : undefined) : '',
  );
}

/** An FTS5 query of `terms`, each a quoted phrase, joined by OR (AND with `all`): no term is read as query syntax. */
export function ftsQuery(terms: readonly string[], all = false): string {
  // NUL would end the query string inside SQLite ("unterminated string"): drop it.
  return terms.map((t) => `"${t.replace(/\0/g, '').replace(/"/g, '""')}"`).join(all ? ' AND ' : ' OR ');
}
