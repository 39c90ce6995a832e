// Finding the memory a new one repeats in other words: candidates come from the keyword index (the
// new memory's rarest words), the test is the memory part's near-duplicate rule (word overlap, and
// cosine when both have vectors). Only an older memory can be the survivor, so the first wording
// keeps its id (digests and links cite it) and the later one folds into it.
import type { Memory } from '../../core/types.js';
import type { Store } from '../../store/store.js';
import type { NearDupVerdict } from './contracts.js';
import type { KnowledgeRules } from './rules.js';
import { detectLanguage, termOf } from '../../search/text-analysis.js';

/** Candidates tested per memory: the keyword index ranks the likely ones first. */
const CANDIDATES = 8;

export interface NearDupMatch {
  survivor: string;
  verdict: NearDupVerdict;
}

export async function findNearDuplicate(
  store: Store,
  namespace: string,
  rules: KnowledgeRules,
  memory: Memory,
  vectorModel: string | null,
  retired: ReadonlySet<string>,
): Promise<NearDupMatch | null> {
  // A near-duplicate holds the new memory's most specific words: asking for entries with all of the
  // top three (not any) keeps the lookup to a few rows when the words are common in the namespace.
  // The index holds words in their analysed form (search/text-analysis.ts), read in the text's language.
  const language = detectLanguage(memory.text);
  const terms = rules.nearDupQueryTerms(memory.text).slice(0, 3).map((w) => termOf(w, language));
  if (terms.length === 0) return null;
  const own = await store.entryFor('memory', memory.id);
  if (!own) return null;
  const hits = await store.keywordSearch(namespace, terms, CANDIDATES + 1, { kinds: ['memory'], allTerms: true });
  const seqs = hits.map((h) => h.seq).filter((s) => s < own.seq);
  if (seqs.length === 0) return null;
  const entries = new Map((await store.getEntries(namespace, seqs)).map((e) => [e.seq, e]));
  const vectors = vectorModel ? await store.getVectors(vectorModel, [own.seq, ...seqs]) : new Map<number, Float32Array>();
  const self = { id: memory.id, text: memory.text, vector: vectors.get(own.seq) ?? null };
  for (const seq of seqs) {
    const e = entries.get(seq);
    if (!e || e.kind !== 'memory' || !e.current || retired.has(e.refId) || e.refId === memory.id) continue;
    const verdict = rules.nearDuplicate(self, { id: e.refId, text: e.text, vector: vectors.get(seq) ?? null });
    if (verdict.duplicate) return { survivor: e.refId, verdict };
  }
  return null;
}
