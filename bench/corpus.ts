// Deterministic generator of chat-like memories and of queries about them, for the search bench.
//
// Nothing is downloaded: a few hundred hand-written everyday/tech words sit at the top of a Zipf
// distribution and a few thousand pronounceable words synthesised from syllables make the long
// tail. Memories have a topic (a skewed sub-vocabulary), names, numbers, dates, version strings and
// project code names, and a length drawn from a log-normal (median ~14 words, tail to 80) like
// messages people actually send. Memory i is generated from its own seed, so any memory can be
// regenerated in O(1) (queries need their target's text without keeping the corpus in memory).
//
// Some content words have synonyms (a shared "concept"); `lexicon()` exposes word → concept so the
// synthetic embedder can place paraphrases near each other while BM25 sees different words.
import type { Category, NewMemory } from '../src/core/types.js';
import { isStopWord } from '../src/search/query-terms.js';

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** 32-bit mixing hash (splitmix-style finaliser). */
export function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** FNV-1a over a string, then mixed. */
export function hashString(s: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** sfc32: small, fast, good enough for synthetic data. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    this.a = mix32(seed ^ 0x9e3779b9);
    this.b = mix32(seed + 0x6a09e667);
    this.c = mix32(seed ^ 0xbb67ae85);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }
  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Standard normal (Box–Muller). */
  gauss(): number {
    let u = this.next();
    while (u <= 1e-12) u = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}

/**
 * Zipf–Mandelbrot sampler over ranks 0..n-1 (P(r) ∝ 1/(r + 1 + q)^s) by binary search on the CDF.
 * The offset q flattens the head: content words sit below ~100 function words in a real frequency
 * list, so the most common content word is in about 1% of messages, not a quarter of them.
 */
export class Zipf {
  private readonly cdf: Float64Array;
  constructor(n: number, s = 1.0, q = 0) {
    this.cdf = new Float64Array(n);
    let sum = 0;
    for (let r = 0; r < n; r++) this.cdf[r] = sum += 1 / Math.pow(r + 1 + q, s);
    for (let r = 0; r < n; r++) this.cdf[r]! /= sum;
  }
  sample(rng: Rng): number {
    const u = rng.next();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

// ---------------------------------------------------------------------------------------------
// Word lists (hand-written everyday words + synthesised long tail)

/** Function words in rough frequency order: about half of the tokens of real chat. */
const FUNCTION_WORDS = `the to and a of i it is that we in for you on this with be was have
not but so at are just do can will my if as me what from about all there our they or get
would your an up by out did been one like should need think know going then when now some
more than also still how because no yes which its were them any had after before over again
really maybe already since until here into well could only very much much also though while`
  .split(/\s+/)
  .filter(Boolean);

/** Everyday and software-team content words, most frequent first (top of the Zipf curve). */
const COMMON_WORDS = `time work meeting team project issue today tomorrow week call update fix deploy
server database user release change test build code review plan bug feature data api config
staging production customer email doc notes branch design budget deadline schedule report
client login password backup migration cache query index schema version port service error
log alert dashboard metric latency timeout retry queue worker job cron script token key secret
account invoice payment order price cost contract vendor office lunch dinner trip flight hotel
birthday family doctor appointment gym run coffee book movie music game phone laptop monitor
keyboard desk chair room floor building city weekend morning evening night monday tuesday
wednesday thursday friday saturday sunday january february march april may june july august
september october november december start finish move stop send share write read open close
decide agree prefer remember forget ask answer help try use keep leave call check confirm
cancel approve reject merge revert rollback upgrade install remove rename restart monitor
fast slow big small new old good bad broken stable flaky urgent blocked done ready late early
cheap expensive safe risky simple hard easy clean messy quiet loud happy tired busy free
bucket region cluster node pod container image registry pipeline runner artifact domain dns
certificate proxy firewall network vpn ssh shell terminal editor plugin library package module
function class method interface field column table row record file folder path disk memory cpu
gpu thread process session cookie header request response status limit quota throttle spike`
  .split(/\s+/)
  .filter(Boolean);

/** Hand-made synonym groups among the common words and extra words (paraphrase material). */
const SYNONYM_GROUPS: readonly string[][] = [
  ['bug', 'issue', 'defect', 'problem'],
  ['meeting', 'call', 'sync', 'standup'],
  ['deploy', 'release', 'ship', 'rollout'],
  ['fix', 'patch', 'repair'],
  ['database', 'db', 'datastore'],
  ['fast', 'quick', 'speedy'],
  ['slow', 'sluggish', 'laggy'],
  ['big', 'large', 'huge'],
  ['small', 'tiny', 'little'],
  ['cheap', 'inexpensive', 'affordable'],
  ['expensive', 'pricey', 'costly'],
  ['broken', 'failing', 'down'],
  ['error', 'failure', 'exception'],
  ['deadline', 'due', 'cutoff'],
  ['customer', 'client'],
  ['doc', 'document', 'writeup'],
  ['config', 'configuration', 'settings'],
  ['password', 'passphrase', 'credential'],
  ['restart', 'reboot', 'bounce'],
  ['approve', 'accept', 'greenlight'],
  ['cancel', 'drop', 'scrap'],
  ['timeout', 'hang', 'stall'],
  ['alert', 'alarm', 'page'],
  ['trip', 'journey', 'travel'],
  ['flight', 'plane'],
  ['doctor', 'physician', 'gp'],
  ['coffee', 'espresso', 'latte'],
  ['laptop', 'notebook', 'macbook'],
  ['urgent', 'critical', 'asap'],
  ['prefer', 'like', 'favor'],
  ['remove', 'delete', 'purge'],
  ['install', 'setup', 'provision'],
  ['budget', 'funding', 'spend'],
  ['schedule', 'calendar', 'agenda'],
  ['report', 'summary', 'recap'],
];

// Simple letters repeated so they dominate, clusters for variety: words come out like "darel",
// "tomvik", "plesta" rather than consonant soup.
const ONSETS = [...'bcdfghklmnprstvw'.split(''), ...'bdklmnprst'.split(''), 'br', 'dr', 'gr', 'pl', 'st', 'tr', 'ch', 'sh', 'th', 'sp', 'bl', 'cl', ''];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'i', 'o', 'a', 'e', 'ai', 'ea', 'ou', 'io', 'ee', 'y'];
const CODAS = ['', '', '', '', '', 'n', 'r', 's', 't', 'l', 'm', 'n', 'r', 'nd', 'st', 'rk', 'ck', 'ng', 'x'];

function syllable(rng: Rng): string {
  return rng.pick(ONSETS) + rng.pick(NUCLEI) + rng.pick(CODAS);
}

/** A pronounceable word of 1–3 syllables (longer ones for rarer ranks). */
function synthWord(rng: Rng, rank: number): string {
  const syllables = rank < 300 ? rng.range(1, 2) : rng.chance(0.75) ? 2 : 3;
  let w = '';
  for (let i = 0; i < syllables; i++) w += syllable(rng);
  return w;
}

export interface Vocabulary {
  /** Content words, most frequent first. */
  content: string[];
  /** Capitalised person names. */
  names: string[];
  /** Project / product code names (capitalised). */
  projects: string[];
  /** word → concept id (words sharing a concept are synonyms). */
  concept: Map<string, number>;
  /** concept id → its words. */
  synonyms: Map<number, string[]>;
}

function uniqueWords(rng: Rng, count: number, taken: Set<string>, make: (rank: number) => string): string[] {
  const out: string[] = [];
  let guard = 0;
  while (out.length < count && guard++ < count * 50) {
    const w = make(out.length);
    if (w.length < 3 || taken.has(w)) continue;
    taken.add(w);
    out.push(w);
  }
  return out;
}

export function buildVocabulary(seed: number, synthCount = 16000): Vocabulary {
  const rng = new Rng(seed ^ 0x5eed);
  const taken = new Set<string>([...FUNCTION_WORDS, ...COMMON_WORDS, ...SYNONYM_GROUPS.flat()]);
  const synth = uniqueWords(rng, synthCount, taken, (rank) => synthWord(rng, rank));
  const extraSynonyms = SYNONYM_GROUPS.flat().filter((w) => !COMMON_WORDS.includes(w));
  const content = [...new Set([...COMMON_WORDS, ...synth.slice(0, 600), ...extraSynonyms, ...synth.slice(600)])];
  const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  const names = uniqueWords(rng, 2000, taken, () => cap(syllable(rng) + syllable(rng).replace(/^$/, 'a') + (rng.chance(0.4) ? rng.pick(['a', 'o', 'ie', 'en', 'y']) : '')));
  const projects = uniqueWords(rng, 150, taken, () => cap(syllable(rng) + syllable(rng) + (rng.chance(0.3) ? 'ix' : '')));

  const concept = new Map<string, number>();
  const synonyms = new Map<number, string[]>();
  let next = 0;
  const group = (words: string[]) => {
    const id = next++;
    synonyms.set(id, words);
    for (const w of words) concept.set(w, id);
  };
  for (const g of SYNONYM_GROUPS) group(g);
  // About a third of the synthesised words come in pairs or triples of synonyms.
  const pool = synth.filter((w) => !concept.has(w));
  for (let i = 0; i + 3 < pool.length; ) {
    if (rng.chance(0.3)) {
      const size = rng.chance(0.7) ? 2 : 3;
      group(pool.slice(i, i + size));
      i += size;
    } else {
      group([pool[i]!]);
      i++;
    }
  }
  for (const w of content) if (!concept.has(w)) group([w]);
  return { content, names, projects, concept, synonyms };
}

// ---------------------------------------------------------------------------------------------
// Memories

const CATEGORY_WEIGHTS: ReadonlyArray<[Category, number]> = [
  ['fact', 22],
  ['decision', 14],
  ['preference', 12],
  ['plan', 10],
  ['note', 10],
  ['issue', 9],
  ['implementation', 7],
  ['discovery', 6],
  ['success', 4],
  ['feeling', 3],
  ['acknowledgement', 2],
  ['philosophy', 1],
];
const CATEGORY_TOTAL = CATEGORY_WEIGHTS.reduce((s, [, w]) => s + w, 0);

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const SUBJECTS = ['we', 'I', 'the team', 'they', 'she', 'he', 'you'];

type TokenClass = 'F' | 'C' | 'N' | 'X' | 'P';

export interface GeneratedMemory {
  memory: NewMemory;
  /** Content tokens (words, names, numbers, projects) in order, for query generation. */
  keywords: Array<{ text: string; cls: TokenClass }>;
  topic: number;
}

export interface CorpusOptions {
  seed?: number;
  namespace?: string;
  /** Number of topics (each a skewed sub-vocabulary). */
  topics?: number;
  /** Memories' event times are spread over this many days before `nowMs`. */
  spanDays?: number;
  nowMs?: number;
}

export class Corpus {
  readonly vocab: Vocabulary;
  readonly seed: number;
  readonly namespace: string;
  private readonly contentZipf: Zipf;
  private readonly functionZipf: Zipf;
  private readonly nameZipf: Zipf;
  private readonly topicWords: number[][];
  private readonly topicZipf: Zipf;
  private readonly topicPopularity: Zipf;
  private readonly topicProjects: string[];
  private readonly topicPeople: string[][];
  private readonly spanDays: number;
  private readonly nowMs: number;

  constructor(options: CorpusOptions = {}) {
    this.seed = options.seed ?? 42;
    this.namespace = options.namespace ?? 'default';
    this.spanDays = options.spanDays ?? 730;
    this.nowMs = options.nowMs ?? Date.UTC(2026, 0, 1);
    this.vocab = buildVocabulary(this.seed);
    this.contentZipf = new Zipf(this.vocab.content.length, 1.0, 40);
    this.functionZipf = new Zipf(FUNCTION_WORDS.length, 0.9);
    // A few people (the user's closest colleagues) come up often, most rarely.
    this.nameZipf = new Zipf(this.vocab.names.length, 1.0, 5);
    const topics = options.topics ?? 400;
    const rng = new Rng(this.seed ^ 0x70c1c5);
    this.topicWords = [];
    this.topicProjects = [];
    this.topicPeople = [];
    for (let t = 0; t < topics; t++) {
      const words: number[] = [];
      // Topic words come from the whole vocabulary but lean to the middle of the frequency range.
      for (let k = 0; k < 60; k++) words.push(rng.chance(0.3) ? rng.int(400) : 100 + rng.int(this.vocab.content.length - 100));
      this.topicWords.push(words);
      this.topicProjects.push(rng.pick(this.vocab.projects));
      this.topicPeople.push([0, 1, 2, 3].map(() => this.vocab.names[this.nameZipf.sample(rng)]!));
    }
    this.topicZipf = new Zipf(60, 0.8);
    this.topicPopularity = new Zipf(topics, 0.7);
  }

  /** word → concept id, for the synthetic embedder. */
  lexicon(): Map<string, number> {
    return this.vocab.concept;
  }

  private contentWord(rng: Rng, topic: number): string {
    if (rng.chance(0.6)) return this.vocab.content[this.topicWords[topic]![this.topicZipf.sample(rng)]!]!;
    return this.vocab.content[this.contentZipf.sample(rng)]!;
  }

  private numberish(rng: Rng, eventMs: number): string {
    const d = new Date(eventMs + rng.range(-20, 40) * 86_400_000);
    switch (rng.int(9)) {
      case 0:
        return String(rng.range(1000, 65000)); // ports, ids
      case 1:
        return `v${rng.range(0, 9)}.${rng.range(0, 30)}.${rng.range(0, 20)}`;
      case 2:
        return d.toISOString().slice(0, 10);
      case 3:
        return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
      case 4:
        return `${rng.range(1, 12)}${rng.pick(['am', 'pm'])}`;
      case 5:
        return `$${rng.range(5, 5000)}`;
      case 6:
        return `#${rng.range(100, 9999)}`;
      case 7:
        return `${rng.range(2, 500)}${rng.pick(['ms', 'gb', 'mb', '%', 'k'])}`;
      default:
        return String(rng.range(2, 99));
    }
  }

  /** Log-normal length: median 14 words, most between 6 and 35, capped at 80. */
  private length(rng: Rng): number {
    return Math.max(3, Math.min(80, Math.round(Math.exp(Math.log(14) + 0.6 * rng.gauss()))));
  }

  generate(i: number): GeneratedMemory {
    const rng = new Rng(mix32(this.seed * 0x9e3779b1 + i * 0x85ebca6b));
    const topic = this.topicPopularity.sample(rng);
    const len = this.length(rng);
    // Event times lean recent: exponential with a mean of a third of the span.
    const ageDays = Math.min(this.spanDays, -Math.log(1 - rng.next()) * (this.spanDays / 3));
    const eventMs = this.nowMs - ageDays * 86_400_000;
    const words: string[] = [];
    const keywords: GeneratedMemory['keywords'] = [];
    const entities = new Set<string>();
    const push = (text: string, cls: TokenClass) => {
      words.push(text);
      if (cls !== 'F') keywords.push({ text, cls });
    };
    // Openers like chat: a person, a pronoun, or straight in.
    const opener = rng.next();
    if (opener < 0.3) {
      const person = rng.chance(0.7) ? rng.pick(this.topicPeople[topic]!) : this.vocab.names[this.nameZipf.sample(rng)]!;
      entities.add(person);
      push(person, 'N');
      push(rng.pick(['said', 'thinks', 'wants', 'prefers', 'asked', 'mentioned', 'decided', 'noticed']), 'F');
    } else if (opener < 0.6) {
      push(rng.pick(SUBJECTS), 'F');
    }
    while (words.length < len) {
      const u = rng.next();
      if (u < 0.44) push(FUNCTION_WORDS[this.functionZipf.sample(rng)]!, 'F');
      else if (u < 0.86) push(this.contentWord(rng, topic), 'C');
      else if (u < 0.91) {
        const person = rng.chance(0.6) ? rng.pick(this.topicPeople[topic]!) : this.vocab.names[this.nameZipf.sample(rng)]!;
        entities.add(person);
        push(person, 'N');
      } else if (u < 0.96) push(this.numberish(rng, eventMs), 'X');
      else push(rng.chance(0.8) ? this.topicProjects[topic]! : rng.pick(this.vocab.projects), 'P');
    }
    // Punctuation: a comma here and there, one or two sentences, a final mark.
    let text = '';
    for (let k = 0; k < words.length; k++) {
      let w = words[k]!;
      if (k === 0) w = w[0]!.toUpperCase() + w.slice(1);
      text += (k === 0 ? '' : ' ') + w;
      if (k < words.length - 1 && k > 2) {
        if (rng.chance(0.05)) text += ',';
        else if (words.length > 18 && rng.chance(0.03)) {
          text += '.';
          words[k + 1] = words[k + 1]![0]!.toUpperCase() + words[k + 1]!.slice(1);
        }
      }
    }
    text += rng.chance(0.85) ? '.' : rng.chance(0.5) ? '!' : '?';

    let r = rng.next() * CATEGORY_TOTAL;
    let category: Category = 'note';
    for (const [c, w] of CATEGORY_WEIGHTS) {
      if ((r -= w) < 0) {
        category = c;
        break;
      }
    }
    const importance = Math.max(1, Math.min(10, Math.round(5.5 + 1.8 * rng.gauss())));
    const tags: string[] = [];
    if (rng.chance(0.4)) tags.push(this.topicProjects[topic]!.toLowerCase());
    if (rng.chance(0.2)) tags.push(this.contentWord(rng, topic));
    return {
      memory: {
        namespace: this.namespace,
        text,
        category,
        importance,
        tags,
        entities: [...entities],
        eventTime: new Date(eventMs).toISOString(),
        provenance: [{ source: 'bench', sessionId: `s${Math.floor(i / 40)}`, line: i }],
      },
      keywords,
      topic,
    };
  }

  /** Memories [from, to). */
  batch(from: number, to: number): NewMemory[] {
    const out: NewMemory[] = [];
    for (let i = from; i < to; i++) out.push(this.generate(i).memory);
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Queries

export type QueryStyle = 'keyword' | 'question' | 'paraphrase' | 'semantic';

export interface BenchQuery {
  text: string;
  /** Index of the memory the query was written about. */
  target: number;
  style: QueryStyle;
}

const QUESTION_TEMPLATES: readonly string[] = [
  'what did we decide about {0} {1}?',
  'what did {N} say about {0}?',
  'when is the {0} {1}?',
  'do you remember the {0} for {1}?',
  'how do we {0} the {1}',
  'who is handling {0} {1}?',
  'any notes on {0} and {1}',
  'what was the {0} {1} {2} thing',
  'remind me about {0} {1}',
  'where did we put the {0} {1}?',
  '{0} {1} status?',
  'what happened with {0} on {X}?',
];

function synonymOf(vocab: Vocabulary, word: string, rng: Rng): string | null {
  const id = vocab.concept.get(word.toLowerCase());
  if (id === undefined) return null;
  const others = vocab.synonyms.get(id)!.filter((w) => w !== word.toLowerCase());
  return others.length ? rng.pick(others) : null;
}

/**
 * Queries about random memories: 30% bare keywords, 35% questions sharing 2–3 content words,
 * 25% paraphrases (one content word swapped for a synonym), 10% semantic (every swappable word
 * swapped: little or no keyword overlap).
 */
export function generateQueries(corpus: Corpus, n: number, corpusSize: number, seed = 7): BenchQuery[] {
  const rng = new Rng(mix32(seed * 0x27d4eb2d + corpus.seed));
  const out: BenchQuery[] = [];
  while (out.length < n) {
    const target = rng.int(corpusSize);
    const g = corpus.generate(target);
    const content = g.keywords.filter((k) => k.cls === 'C');
    if (content.length < 2) continue;
    const chosen: string[] = [];
    const want = rng.range(2, Math.min(4, content.length));
    const used = new Set<number>();
    for (let tries = 0; chosen.length < want && tries < 20; tries++) {
      const k = rng.int(content.length);
      if (used.has(k)) continue;
      used.add(k);
      chosen.push(content[k]!.text);
    }
    const u = rng.next();
    const style: QueryStyle = u < 0.3 ? 'keyword' : u < 0.65 ? 'question' : u < 0.9 ? 'paraphrase' : 'semantic';
    if (style === 'paraphrase') {
      const idx = chosen.findIndex((w) => synonymOf(corpus.vocab, w, rng) !== null);
      if (idx >= 0) chosen[idx] = synonymOf(corpus.vocab, chosen[idx]!, rng)!;
    } else if (style === 'semantic') {
      for (let k = 0; k < chosen.length; k++) chosen[k] = synonymOf(corpus.vocab, chosen[k]!, rng) ?? chosen[k]!;
    }
    const name = g.keywords.find((k) => k.cls === 'N')?.text;
    const num = g.keywords.find((k) => k.cls === 'X')?.text;
    let text: string;
    if (style === 'keyword') {
      text = chosen.join(' ');
      if (name && rng.chance(0.3)) text = `${name} ${text}`;
      if (num && rng.chance(0.2)) text += ` ${num}`;
    } else {
      let tpl = rng.pick(QUESTION_TEMPLATES);
      if (tpl.includes('{N}') && !name) tpl = QUESTION_TEMPLATES[0]!;
      if (tpl.includes('{X}') && !num) tpl = QUESTION_TEMPLATES[8]!;
      text = tpl
        .replace('{N}', name ?? '')
        .replace('{X}', num ?? '')
        .replace(/\{(\d)\}/g, (_, d: string) => chosen[Number(d)] ?? '')
        .replace(/\s+/g, ' ')
        .replace(/\s+\?/, '?')
        .trim();
    }
    out.push({ text, target, style });
  }
  return out;
}

export interface CorpusStats {
  median: number;
  p95: number;
  max: number;
  meanChars: number;
  /** Distinct lower-case words in the sample. */
  distinctWords: number;
  /** The most common words that are not stop words, and the share of memories containing each. */
  topWords: Array<{ word: string; docShare: number }>;
}

const FUNCTION_SET = new Set(FUNCTION_WORDS);
const isFunctionWord = (w: string): boolean => FUNCTION_SET.has(w) || isStopWord(w);

/** Length and vocabulary statistics of the first `sample` memories, for the report. */
export function lengthStats(corpus: Corpus, sample = 10000): CorpusStats {
  const lens: number[] = [];
  let chars = 0;
  const df = new Map<string, number>();
  for (let i = 0; i < sample; i++) {
    const t = corpus.generate(i).memory.text;
    lens.push(t.split(/\s+/).length);
    chars += t.length;
    for (const w of new Set(t.toLowerCase().match(/[a-z0-9]+/g) ?? [])) df.set(w, (df.get(w) ?? 0) + 1);
  }
  lens.sort((a, b) => a - b);
  const topWords = [...df]
    .filter(([w]) => !isFunctionWord(w) && !/^\d+$/.test(w))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([word, n]) => ({ word, docShare: n / sample }));
  return {
    median: lens[Math.floor(sample / 2)]!,
    p95: lens[Math.floor(sample * 0.95)]!,
    max: lens[sample - 1]!,
    meanChars: Math.round(chars / sample),
    distinctWords: df.size,
    topWords,
  };
}
