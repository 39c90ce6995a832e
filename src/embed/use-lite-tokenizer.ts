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

/** Edge keys of the trie: parent node × this + the character's code point (< 0x110000). */
const CODE_POINTS = 0x110000;

export type UseLiteVocabulary = ReadonlyArray<readonly [string, number | null]>;

export class UseLiteTokenizer {
  /**
   * A trie over code points held as one Map from (node, character) to the child node: a few
   * milliseconds to build, where a Map or object per node took two to four times as long.
   */
  private readonly edges = new Map<number, number>();
  /** Per trie node: the piece its path spells (−1: none) and that piece's score. */
  private readonly pieceAt: number[] = [-1];
  private readonly scoreAt: number[] = [0];
  /** Backtracking steps back by each piece's string length, as the reference does. */
  private readonly stepBack: number[];

  constructor(vocabulary: UseLiteVocabulary) {
    if (!Array.isArray(vocabulary) || vocabulary.length <= RESERVED_PIECES) {
      throw new CairnError(ERROR_CODES.EMBEDDER, `The use-lite vocabulary has ${Array.isArray(vocabulary) ? vocabulary.length : 'no'} pieces; expected more than ${RESERVED_PIECES}`);
    }
    this.stepBack = new Array<number>(vocabulary.length);
    vocabulary.forEach((entry, id) => {
      const [text, raw] = Array.isArray(entry) ? entry : [];
      // The shipped vocabulary scores a few pieces null (":", "://", "▁:)"…): the reference adds them as 0.
      const score = raw === null ? 0 : raw;
      if (typeof text !== 'string' || text.length === 0 || typeof score !== 'number' || !Number.isFinite(score)) {
        throw new CairnError(ERROR_CODES.EMBEDDER, `The use-lite vocabulary's piece ${id} is not a [text, score] pair`);
      }
      this.stepBack[id] = text.length;
      if (id < RESERVED_PIECES) return;
      let at = 0;
      for (const ch of text) {
        const key = at * CODE_POINTS + ch.codePointAt(0)!;
        let child = this.edges.get(key);
        if (child === undefined) {
          child = this.pieceAt.length;
          this.edges.set(key, child);
          this.pieceAt.push(-1);
          this.scoreAt.push(0);
        }
        at = child;
      }
      // A repeated piece keeps its last id and score, as the reference's trie does.
      this.pieceAt[at] = id;
      this.scoreAt[at] = score;
    });
  }

  encode(input: string): number[] {
    const normalized = input.normalize('NFKC');
    if (normalized.length === 0) return [];
    const symbols: number[] = [];
    for (const ch of WORD_START + normalized.replace(/ /g, WORD_START)) symbols.push(ch.codePointAt(0)!);
    const n = symbols.length;
    // Viterbi over the pieces matching at each start. Arcs into a position arrive in the order of
    // their starts, as in the reference; 0 doubles there as "not reached yet", and a later arc with
    // an equal score wins the tie.
    const best = new Float64Array(n + 1);
    const lastPiece = new Int32Array(n + 1);
    const relax = (end: number, score: number, id: number) => {
      if (best[end] === 0 || score >= best[end]!) {
        best[end] = score;
        lastPiece[end] = id;
      }
    };
    for (let start = 0; start < n; start++) {
      const base = best[start]!;
      let matched = false;
      let at = this.edges.get(symbols[start]!);
      for (let end = start + 1; at !== undefined; end++) {
        const id = this.pieceAt[at]!;
        if (id >= 0) {
          relax(end, this.scoreAt[at]! + base, id);
          matched = true;
        }
        at = end < n ? this.edges.get(at * CODE_POINTS + symbols[end]!) : undefined;
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
