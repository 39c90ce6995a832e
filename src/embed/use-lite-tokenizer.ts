// USE lite's SentencePiece (unigram) tokenizer, giving exactly the token ids of the one inside
// @energetic-ai/embeddings. That package can only be imported together with its TF.js bundle
// (~64 ms) and builds a character trie of every piece (~39 ms), both paid by every cold
// `cairn search`; here the vocabulary is one Map and loading it takes a few milliseconds.
// Exact ids matter more than a "better" segmentation: stored vectors must not change, so the
// reference's tie-breaking and unknown-character handling are kept on purpose
// (test/embed/use-lite-tokenizer.test.ts compares both on hostile and random text).
import { CairnError, ERROR_CODES } from '../core/errors.js';

/** Word-boundary marker SentencePiece puts before every word (and at the start of the text). */
const WORD_START = '\u2581';
/** Control symbols at the start of the vocabulary: never produced from text. */
const RESERVED_PIECES = 6;
/** The id of the unknown piece: one character the vocabulary cannot spell. */
const UNKNOWN_ID = 0;

/**
 * Until the trie is built, texts are matched piece by piece against the vocabulary: ~0.3 ms for a
 * 200-character text, against ~30 ms to build the trie, which then matches ~5× faster. It is built
 * for a text longer than this (code points) or once this many texts were encoded: one-shot queries
 * never pay for it, bulk embedding soon has it.
 */
const WITHOUT_TRIE = { longestText: 512, texts: 16 } as const;

/** Edge keys of the trie: parent node × this + the character's code point (< 0x110000). */
const CODE_POINTS = 0x110000;

/** The vocabulary as the package ships it (vocab.json): [piece, score] pairs, in id order. */
export type UseLiteVocabulary = ReadonlyArray<readonly [string, number | null]>;

/** The same vocabulary as two columns, the form the tokenizer uses (and the home's cache keeps). */
export interface CompactVocabulary {
  pieces: readonly string[];
  scores: Float64Array;
}

/** The pairs as columns. The shipped vocabulary scores a few pieces null (":", "://", "▁:)"…): the reference adds them as 0. */
export function compactVocabulary(vocabulary: UseLiteVocabulary): CompactVocabulary {
  if (!Array.isArray(vocabulary)) throw new CairnError(ERROR_CODES.EMBEDDER, 'The use-lite vocabulary is not a list of [text, score] pairs');
  const pieces = new Array<string>(vocabulary.length);
  const scores = new Float64Array(vocabulary.length);
  for (let id = 0; id < vocabulary.length; id++) {
    const entry = vocabulary[id];
    const text = Array.isArray(entry) ? entry[0] : undefined;
    const score = Array.isArray(entry) ? (entry[1] === null ? 0 : entry[1]) : undefined;
    if (typeof text !== 'string' || typeof score !== 'number') {
      throw new CairnError(ERROR_CODES.EMBEDDER, `The use-lite vocabulary's piece ${id} is not a [text, score] pair`);
    }
    pieces[id] = text;
    scores[id] = score;
  }
  return { pieces, scores };
}

export class UseLiteTokenizer {
  /** Each piece's id by its text (a repeated piece keeps its last id, as the reference's trie does). */
  private readonly idOf = new Map<string, number>();
  private readonly scores: Float64Array;
  /** The longest piece, in code points: how far a match can reach from a start. */
  private readonly longest: number;
  /** Backtracking steps back by each piece's string length, as the reference does. */
  private readonly stepBack: Int32Array;
  /**
   * A trie over code points held as one Map from (node, character) to the child node (a Map or
   * object per node took two to four times as long to build), built when WITHOUT_TRIE says: a cold
   * `cairn search` waits for the model thread, and its query is matched against `idOf` sooner
   * than the trie is built.
   */
  private trie: { edges: Map<number, number>; pieceAt: number[] } | null = null;
  /** Texts encoded without the trie. */
  private encoded = 0;

  constructor(vocabulary: UseLiteVocabulary | CompactVocabulary) {
    const compact = Array.isArray(vocabulary) ? compactVocabulary(vocabulary) : (vocabulary as Partial<CompactVocabulary> | null);
    const pieces = compact?.pieces;
    const scores = compact?.scores;
    if (!Array.isArray(pieces) || pieces.length <= RESERVED_PIECES || !(scores instanceof Float64Array) || scores.length !== pieces.length) {
      throw new CairnError(ERROR_CODES.EMBEDDER, `The use-lite vocabulary has ${Array.isArray(pieces) ? pieces.length : 'no'} pieces; expected more than ${RESERVED_PIECES}, each with a score`);
    }
    this.scores = scores;
    this.stepBack = new Int32Array(pieces.length);
    let longest = 1;
    // Plain loops over columns (not a callback destructuring each pair): this runs once per
    // process, unoptimised, on a cold search's model thread.
    for (let id = 0; id < pieces.length; id++) {
      const text = pieces[id];
      if (typeof text !== 'string' || text.length === 0 || !Number.isFinite(scores[id])) {
        throw new CairnError(ERROR_CODES.EMBEDDER, `The use-lite vocabulary's piece ${id} is not a [text, score] pair`);
      }
      this.stepBack[id] = text.length;
      if (id < RESERVED_PIECES) continue;
      this.idOf.set(text, id);
      // Code points are at most two UTF-16 units: the length bounds them without counting.
      if (text.length > longest) longest = text.length;
    }
    this.longest = longest;
  }

  private builtTrie(): { edges: Map<number, number>; pieceAt: number[] } {
    if (this.trie) return this.trie;
    const edges = new Map<number, number>();
    const pieceAt: number[] = [-1];
    for (const [text, id] of this.idOf) {
      let at = 0;
      for (const ch of text) {
        const key = at * CODE_POINTS + ch.codePointAt(0)!;
        let child = edges.get(key);
        if (child === undefined) {
          child = pieceAt.length;
          edges.set(key, child);
          pieceAt.push(-1);
        }
        at = child;
      }
      pieceAt[at] = id;
    }
    return (this.trie = { edges, pieceAt });
  }

  encode(input: string): number[] {
    const normalized = input.normalize('NFKC');
    if (normalized.length === 0) return [];
    const text = WORD_START + normalized.replace(/ /g, WORD_START);
    const symbols: number[] = [];
    /** Where each code point starts in `text` (UTF-16 units), and its end. */
    const offsets: number[] = [];
    for (let i = 0; i < text.length; ) {
      const cp = text.codePointAt(i)!;
      symbols.push(cp);
      offsets.push(i);
      i += cp > 0xffff ? 2 : 1;
    }
    const n = symbols.length;
    offsets.push(text.length);
    // Viterbi over the pieces matching at each start. Arcs into a position arrive in the order of
    // their starts (and, from one start, of their ends), as in the reference; 0 doubles there as
    // "not reached yet", and a later arc with an equal score wins the tie.
    const best = new Float64Array(n + 1);
    const lastPiece = new Int32Array(n + 1);
    const relax = (end: number, score: number, id: number) => {
      if (best[end] === 0 || score >= best[end]!) {
        best[end] = score;
        lastPiece[end] = id;
      }
    };
    const trie = this.trie ?? (n > WITHOUT_TRIE.longestText || ++this.encoded > WITHOUT_TRIE.texts ? this.builtTrie() : null);
    for (let start = 0; start < n; start++) {
      const base = best[start]!;
      let matched = false;
      if (trie) {
        let at = trie.edges.get(symbols[start]!);
        for (let end = start + 1; at !== undefined; end++) {
          const id = trie.pieceAt[at]!;
          if (id >= 0) {
            relax(end, this.scores[id]! + base, id);
            matched = true;
          }
          at = end < n ? trie.edges.get(at * CODE_POINTS + symbols[end]!) : undefined;
        }
      } else {
        for (let end = start + 1, last = Math.min(n, start + this.longest); end <= last; end++) {
          const id = this.idOf.get(text.slice(offsets[start], offsets[end]));
          if (id !== undefined) {
            relax(end, this.scores[id]! + base, id);
            matched = true;
          }
        }
      }
      if (!matched) relax(start + 1, base, UNKNOWN_ID);
    }
    const reversed: number[] = [];
    for (let at = n; at > 0; at -= this.stepBack[lastPiece[at]!]!) {
      const id = lastPiece[at]!;
      // A run of unknown characters becomes one unknown token.
      if (!(id === UNKNOWN_ID && reversed.at(-1) === UNKNOWN_ID)) reversed.push(id);
    }
    return reversed.reverse();
  }
}
