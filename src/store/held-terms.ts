// The shape of Store.termsHeld's answer: one byte per query term for each seq asked about. A
// search asks about ~150 (100k memories) to ~600 (50k chat turns) seqs; each seq's bytes are a
// view into one buffer rather than an array (and an ArrayBuffer) of their own, which, with the
// copies coverage no longer makes of them, took a fifth of what a chat search allocated and so
// of its young-generation collections.

/** For each distinct seq, `terms` zero bytes (1 at a term's index once the index holds it there). */
export function emptyTermsHeld(seqs: readonly number[], terms: number): Map<number, Uint8Array> {
  const bytes = new Uint8Array(seqs.length * terms);
  const out = new Map<number, Uint8Array>();
  for (let j = 0; j < seqs.length; j++) {
    const seq = seqs[j]!;
    if (!out.has(seq)) out.set(seq, bytes.subarray(j * terms, (j + 1) * terms));
  }
  return out;
}
