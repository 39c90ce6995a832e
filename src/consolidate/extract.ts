// The offline extractive summariser: which records of a window are worth a line, what kind of work
// each was, and which few lines cover the window best. Pure and deterministic: the same records in
// any order give the same points, ties broken by time, then id.
import type { DigestSource } from '../core/types.js';
import { isBareAcknowledgement } from '../judge/backchannel.js';
import { judgeHeuristic } from '../judge/heuristic.js';
import { NOISE_ONLY_RE } from '../judge/lexicon.js';
import { countWordChars } from '../judge/text.js';
import type { Item } from './contracts.js';
import { contentTokens, duplicateKey, oneLineText, pointText, similarity } from './point-text.js';

export type Activity = 'coding' | 'research' | 'ops' | 'chat';
/** The order activity sections appear in. */
export const ACTIVITIES: readonly Activity[] = ['coding', 'research', 'ops', 'chat'];

/** One line's worth: a record (or several saying the same) in its own words, with every record cited. */
export interface Point {
  text: string;
  /** The records behind the line, by time then id: near-duplicates and a memory's own turns. */
  sources: DigestSource[];
  /** Time, local clock time and local day of the record whose words the line uses. */
  time: string;
  localTime: string;
  localDay: string;
  importance: number;
  category: string | null;
  activity: Activity;
}

/** Unpromoted turns below this importance are chit-chat or routine (promotion itself is at 5). */
export const TURN_IMPORTANCE_FLOOR = 4;
/** Texts this similar (Jaccard over content words) say the same thing: one line cites them all. */
export const NEAR_DUPLICATE = 0.6;

const HEARTBEAT_RE = /^[\s*_`[(]*(?:heartbeat(?:[ _-]?(?:ok|ping|check))?|HEARTBEAT_OK|NO_REPLY|ping|pong|keep-?alive)[\s*_`\]).!]*$/i;
/** OpenClaw's heartbeat prompt and replies: the agent polled, nothing happened. */
const HEARTBEAT_PROMPT_RE = /\bHEARTBEAT(?:_OK|\.md)\b/;
const TOOL_CALL_RE = /^→ tool\b/;

const judgments = new WeakMap<Item, { importance: number; category: string }>();

/** The item's judged importance and category, or the heuristic judge's reading of a turn not judged yet. */
function judged(item: Item): { importance: number; category: string | null } {
  if (item.importance !== null && Number.isFinite(item.importance)) return { importance: item.importance, category: item.category };
  let j = judgments.get(item);
  if (!j) {
    const h = judgeHeuristic({ text: item.text, role: item.role ?? 'user', speaker: item.speaker, timestamp: item.time });
    j = { importance: item.kind === 'memory' ? Math.max(h.importance, 5) : h.importance, category: h.category };
    judgments.set(item, j);
  }
  return { importance: j.importance, category: item.category ?? j.category };
}

/**
 * Whether a record is below a digest's notice: heartbeats and protocol tokens, acknowledgements,
 * system and tool chatter, empty or content-free text, and unpromoted turns judged (or, when not
 * judged yet, read by the heuristic judge) as noise or below {@link TURN_IMPORTANCE_FLOOR}.
 * Memories were judged important when they were made, so only their form can rule them out.
 */
export function isNoise(item: Item): boolean {
  let noise = noiseOf.get(item);
  if (noise === undefined) {
    noise = readsAsNoise(item);
    noiseOf.set(item, noise);
  }
  return noise;
}

// A run hands the same Item objects to the day note, the review, the next seven reviews' look back
// and the week: what is read from an item's text is kept with the item, not read again.
const noiseOf = new WeakMap<Item, boolean>();

function readsAsNoise(item: Item): boolean {
  const text = oneLineText(item.text);
  if (countWordChars(text) < 2) return true;
  if (HEARTBEAT_RE.test(text) || (HEARTBEAT_PROMPT_RE.test(text) && text.length <= 600)) return true;
  if (item.category === 'noise' || item.category === 'acknowledgement') return true;
  const bare = text.toLowerCase().replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim();
  if (NOISE_ONLY_RE.test(bare) || isBareAcknowledgement(text, speakers(item))) return true;
  if (item.kind === 'memory') return false;
  const role = (item.role ?? '').toLowerCase();
  if (role === 'system' || TOOL_CALL_RE.test(text)) return true;
  const j = judged(item);
  if (j.category === 'noise' || j.category === 'acknowledgement' || j.importance < TURN_IMPORTANCE_FLOOR) return true;
  // Tool output is worth a line only when it reports a failure; its successes are in what follows.
  return role === 'tool' && j.category !== 'issue';
}

function speakers(item: Item): Set<string> {
  return new Set(item.speaker ? item.speaker.toLowerCase().split(/[^\p{L}\p{N}'-]+/u).filter((w) => w.length >= 2) : []);
}

interface Signal {
  re: RegExp;
  points: number;
  /** A word list: two different words of it count twice ("a bug … the tests pass"), a repeated word once. */
  words?: true;
}

// Each signal counts once per record (a word list at most twice, for two different words), so a
// stack trace of 200 frames weighs what one frame does and the reason for a label can be told in a
// sentence. Paths, code, commands and URLs read the same in
// every language; the word lists carry a few German, Japanese and Chinese terms besides English.
const SIGNALS: Record<Exclude<Activity, 'chat'>, readonly Signal[]> = {
  coding: [
    { re: /\n\s+at \S+ \(|Traceback \(most recent call last\)|\bFile "[^"]+", line \d+|\bpanicked at\b|\b[A-Z][a-zA-Z]*(?:Error|Exception)\b/, points: 3 },
    { re: /^(?:diff --git|@@ -\d|\+\+\+ b\/|--- a\/)/m, points: 3 },
    { re: /\b[\w./-]*\w\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|kt|c|cc|cpp|h|hpp|rb|php|cs|swift|sql|css|scss|vue|svelte|ipynb)\b/, points: 2 },
    { re: /\b(?:npm|pnpm|yarn|npx|pip|cargo|tsc|pytest|jest|vitest|gradle|mvn|make)\b|\bgit (?:commit|push|pull|merge|rebase|checkout|diff|log|status|bisect|cherry-pick)\b|\bgo (?:build|test|run|mod)\b/, points: 2 },
    { re: /\b[a-z]+[A-Z][A-Za-z0-9]+\b|\b[a-z0-9]+_[a-z0-9_]+\b|\b\w+\(\)/, points: 1 },
    { words: true, re: /\b(?:function|refactor(?:ed|ing)?|bugs?|compil(?:e|es|ed|er)|typecheck|type error|unit tests?|test suite|tests? (?:pass|fail)\w*|regex|commit(?:ted)?|pull request|merge[sd]?|branch|lint(?:er)?|endpoint|implement(?:ed|ing)?|codebase|null pointer|off-by-one)\b/i, points: 1.5 },
    { re: /バグ|コード|関数|代码|函数|\b(?:Funktion|Quellcode|Klasse)\b/, points: 1.5 },
    { re: /テスト|実装|リファクタ|测试|实现|重构|编译|\b(?:Fehler(?:meldung)?|implementiert|Testfall)\b/, points: 1.5 },
  ],
  ops: [
    { re: /\b(?:deploy(?:s|ed|ing|ment)?|cron(?:job|tab)?|backups?|DNS|nginx|caddy|apache2|systemd|systemctl|docker|kubernetes|k8s|kubectl|helm|terraform|ansible|firewall|load balancer|rollback|rolled back|CI|CI\/CD)\b/, points: 2 },
    { words: true, re: /\b(?:servers?|config(?:uration)?|ports?|databases?|ssh|ssl|tls|certificates?|certs?|vps|hosting|uptime|monitoring|alerts?|disk|restart(?:ed)?|reboot(?:ed)?|staging|production|prod|domains?|cluster|env vars?|pipeline|outage|downtime)\b/i, points: 1 },
    { re: /デプロイ|サーバー?|バックアップ|本番|再起動|設定|部署|服务器|备份|配置|重启|生产环境|\b(?:Bereitstellung|bereitgestellt|Sicherung(?:en)?|Konfiguration(?:en)?|Server[ns]?|neu gestartet|eingerichtet)\b/, points: 2 },
  ],
  research: [
    { re: /\bhttps?:\/\/\S+/, points: 2 },
    { re: /\b(?:papers?|arxiv|stud(?:y|ies)|literature|articles?|surveys?|looked into|read up|reading|documentation|docs|according to|benchmarks?|compar(?:e|ed|ing|ison)|versus|vs\.?|trade-?offs?|alternatives|evaluat(?:e|ed|ing)|research(?:ed|ing)?|RFC)\b/i, points: 2 },
    { re: /\b(?:read|learn(?:ed|t)?|options|pros and cons|which is better)\b/i, points: 1 },
    { re: /論文|調査|比較|読んだ|ドキュメント|论文|研究|调研|比较|对比|文档|阅读|\b(?:gelesen|verglichen|Vergleich|Artikel|recherchiert|Studie|Dokumentation)\b/, points: 2 },
  ],
};

/** Below this many points a record is conversation, whatever single word it holds. */
const ACTIVITY_MIN_POINTS = 2;

function hits(signal: Signal, text: string): number {
  if (!signal.words) return signal.re.test(text) ? 1 : 0;
  const found = new Set<string>();
  for (const m of text.matchAll(new RegExp(signal.re.source, `${signal.re.flags}g`))) {
    found.add(m[0].toLowerCase());
    if (found.size === 2) break;
  }
  return found.size;
}

/** The activity's points, summed over the signals found (each counted once, a word list up to twice). */
export function activityScores(text: string): Record<Exclude<Activity, 'chat'>, number> {
  const head = text.slice(0, 4000);
  const score = (signals: readonly Signal[]): number => signals.reduce((sum, s) => sum + s.points * hits(s, head), 0);
  return { coding: score(SIGNALS.coding), research: score(SIGNALS.research), ops: score(SIGNALS.ops) };
}

/**
 * What kind of work a record was, from its text: code, diffs, commands and stack traces are
 * coding; deployment, servers, configuration, cron, backups are ops; papers, reading, comparing
 * and links are research; anything else is chat. Ties go coding, ops, research.
 */
export function activityOf(item: Pick<Item, 'text'>): Activity {
  const s = activityScores(typeof item.text === 'string' ? item.text : '');
  let best: Activity = 'chat';
  let bestPoints = ACTIVITY_MIN_POINTS - 0.001;
  for (const a of ['coding', 'ops', 'research'] as const) {
    if (s[a] > bestPoints) {
      best = a;
      bestPoints = s[a];
    }
  }
  return best;
}

/** The point of a record in its own words: one line, cut at a sentence end, safe in Markdown. */
export function pointOf(item: Pick<Item, 'text'>): string {
  return pointText(item.text);
}

/** Canonical order: time, then id. */
export function byTimeThenId(a: { time: string; id: string }, b: { time: string; id: string }): number {
  return a.time < b.time ? -1 : a.time > b.time ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Records that say one thing: the first (most important, earliest) lends its words. */
export interface Cluster {
  rep: Item;
  members: Item[];
  /** Turns a member memory came from that are not in the window: cited at the memory's time. */
  extraTurns: DigestSource[];
  importance: number;
  category: string | null;
  activity: Activity;
  tokens: Set<string>;
  /** The numbers it states: "port 8080" and "port 8081" are two facts, however alike the words. */
  figures: string;
}

function figuresOf(tokens: ReadonlySet<string>): string {
  return [...tokens].filter((t) => /\p{N}/u.test(t)).sort().join(' ');
}

const CATEGORY_WEIGHT: Record<string, number> = {
  decision: 0.25, issue: 0.2, implementation: 0.2, success: 0.15, discovery: 0.15, plan: 0.1, preference: 0.05, fact: 0.05,
};

/**
 * The window's records grouped into what they say: noise dropped, a memory together with its own
 * turns, and near-duplicates (same normalised text, or the same numbers and content words
 * ≥ {@link NEAR_DUPLICATE} alike) in one cluster. Ordered by importance, then time, then id.
 */
interface TextFeatures {
  key: string;
  tokens: Set<string>;
  figures: string;
}
const featuresOf = new WeakMap<Item, TextFeatures>();

/** An item's duplicate key, content tokens and figures (shared, never changed: clusters only read them). */
function textFeatures(item: Item): TextFeatures {
  let f = featuresOf.get(item);
  if (!f) {
    const tokens = contentTokens(oneLineText(item.text));
    f = { key: duplicateKey(item.text), tokens, figures: figuresOf(tokens) };
    featuresOf.set(item, f);
  }
  return f;
}

const activityOfItem = new WeakMap<Item, Activity>();
function cachedActivity(item: Item): Activity {
  let a = activityOfItem.get(item);
  if (a === undefined) {
    a = activityOf(item);
    activityOfItem.set(item, a);
  }
  return a;
}

export function clusterItems(items: readonly Item[]): Cluster[] {
  const byId = new Map<string, Item>();
  for (const item of items) {
    const seen = byId.get(item.id);
    if (!seen || (seen.kind === 'turn' && item.kind === 'memory')) byId.set(item.id, item);
  }
  const all = [...byId.values()].sort(byTimeThenId);
  const ownTurn = new Map<string, Item>();
  for (const m of all) if (m.kind === 'memory') for (const t of m.turnIds) if (!ownTurn.has(t)) ownTurn.set(t, m);
  const seeds = all.filter((i) => !(i.kind === 'turn' && ownTurn.has(i.id)) && !isNoise(i));
  const rank = (i: Item): number => judged(i).importance;
  seeds.sort((a, b) => rank(b) - rank(a) || byTimeThenId(a, b));
  const clusters: Cluster[] = [];
  const byKey = new Map<string, Cluster>();
  // Only clusters stating the same figures can be near-duplicates: each is looked for among those, in creation order.
  const byFigures = new Map<string, Cluster[]>();
  for (const item of seeds) {
    const { key, tokens, figures } = textFeatures(item);
    const same = byKey.get(key) ?? byFigures.get(figures)?.find((c) => similarity(c.tokens, tokens) >= NEAR_DUPLICATE);
    const turns = item.kind === 'memory' ? item.turnIds.map((id) => byId.get(id)).filter((t): t is Item => t !== undefined && t.kind === 'turn') : [];
    const extra: DigestSource[] = item.kind === 'memory' ? item.turnIds.filter((id) => !byId.has(id)).map((id) => ({ kind: 'turn', id, time: item.time })) : [];
    if (same) {
      same.members.push(item, ...turns);
      same.extraTurns.push(...extra);
      if (!byKey.has(key)) byKey.set(key, same);
      continue;
    }
    const j = judged(item);
    const cluster: Cluster = { rep: item, members: [item, ...turns], extraTurns: extra, importance: j.importance, category: j.category, activity: cachedActivity(item), tokens, figures };
    clusters.push(cluster);
    byKey.set(key, cluster);
    const sameFigures = byFigures.get(figures);
    if (sameFigures) sameFigures.push(cluster);
    else byFigures.set(figures, [cluster]);
  }
  return clusters;
}

/** Every record a cluster stands for, by time then id, each once. */
export function clusterSources(c: Cluster): DigestSource[] {
  const seen = new Set<string>();
  const out: DigestSource[] = [];
  for (const s of [...c.members.map((m) => ({ kind: m.kind, id: m.id, time: m.time })), ...c.extraTurns].sort(byTimeThenId)) {
    if (seen.has(s.id)) continue;
    seen.add(s.id);
    out.push(s);
  }
  return out;
}

export function clusterPoint(c: Cluster): Point {
  return {
    text: pointText(c.rep.text),
    sources: clusterSources(c),
    time: c.rep.time,
    localTime: c.rep.localTime,
    localDay: c.rep.localDay,
    importance: c.importance,
    category: c.category,
    activity: c.activity,
  };
}

/** How much a cluster is worth before the others are considered: importance, kind of record, how often it came up. */
function relevance(c: Cluster): number {
  return c.importance / 10 + (CATEGORY_WEIGHT[c.category ?? ''] ?? 0) + Math.min(0.1, 0.05 * (c.members.length - 1));
}

/**
 * Maximal marginal relevance over clusters: each pick is the most relevant cluster less its
 * likeness to the ones already picked, with a bonus for an activity or session not covered yet.
 * Returns at most `max` clusters in the order picked.
 */
export function pickClusters(clusters: readonly Cluster[], max: number): Cluster[] {
  const picked: Cluster[] = [];
  const left = [...clusters];
  // Each candidate's likeness to the closest pick so far, brought up to date with each new pick only.
  const likenessOf = new Map<Cluster, number>(left.map((c) => [c, 0]));
  const worth = new Map<Cluster, number>(left.map((c) => [c, relevance(c)]));
  const activities = new Set<Activity>();
  const sessions = new Set<string>();
  while (picked.length < max && left.length > 0) {
    let best = -1;
    let bestScore = -Infinity;
    const last = picked[picked.length - 1];
    for (let i = 0; i < left.length; i++) {
      const c = left[i]!;
      let likeness = likenessOf.get(c)!;
      if (last) {
        likeness = Math.max(likeness, similarity(c.tokens, last.tokens));
        likenessOf.set(c, likeness);
      }
      const session = c.rep.sessionId;
      const score = worth.get(c)! - 0.5 * likeness + (activities.has(c.activity) ? 0 : 0.15) + (session && !sessions.has(session) ? 0.05 : 0);
      // Equal scores keep the earlier cluster in canonical order (importance, time, id).
      if (score > bestScore + 1e-9) {
        best = i;
        bestScore = score;
      }
    }
    const [c] = left.splice(best, 1);
    picked.push(c!);
    activities.add(c!.activity);
    if (c!.rep.sessionId) sessions.add(c!.rep.sessionId);
  }
  return picked;
}

/**
 * The lines that best cover a window: noise dropped, near-duplicates and a memory's own turns
 * merged into one point citing all, then up to `max` points chosen for importance, novelty and
 * coverage of activities and sessions. In the order chosen (most worth first).
 */
export function selectPoints(items: readonly Item[], options: { max: number }): Point[] {
  const max = Math.max(0, Math.floor(options.max));
  if (max === 0) return [];
  return pickClusters(clusterItems(items), max).map(clusterPoint);
}
