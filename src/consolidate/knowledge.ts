// Layer 2's reading of a stretch of records: what was decided, learned and achieved, which problems
// found their fix and which stayed open. Shared by the daily review and the weekly distill.
import type { DigestSource } from '../core/types.js';
import { byTimeThenId, type Cluster, clusterSources } from './extract.js';
import { overlap } from './point-text.js';

/** Wording that states a lesson: "turns out", "learned that", "root cause" (and a few other languages). */
const LESSON_RE = /\b(?:learn(?:ed|t)|lessons?|turns? out|turned out|root cause|caused by|TIL|note to self|the trick (?:is|was)|gelernt|stellte sich heraus|lag daran)\b|教訓|分かった|わかった|原因は|学到|原来|原因是/i;
/** Wording that reports a fix, whatever the judge called the record. */
const FIXED_RE = /\b(?:fixed|resolved|solved|patched|worked around|workaround|works now|working now|no longer|behoben|gelöst)\b|直した|修正した|解決|修复|解决/i;

/** The time a cluster was first seen: its earliest record. */
export function firstSeen(c: Cluster): string {
  let t = c.rep.time;
  for (const m of c.members) if (m.time < t) t = m.time;
  return t;
}

/** The time a cluster was last seen: its latest record. */
export function lastSeen(c: Cluster): string {
  let t = c.rep.time;
  for (const m of c.members) if (m.time > t) t = m.time;
  return t;
}

/** A problem: something reported broken, or a question the person asked. */
export function isProblem(c: Cluster): boolean {
  return c.category === 'issue' || /[?？]\s*$/.test(c.rep.text.trim());
}

function isFixLike(c: Cluster): boolean {
  return c.category === 'implementation' || c.category === 'success' || FIXED_RE.test(c.rep.text);
}

/**
 * Whether `fix` answers `problem`: it is a change, a result or says it fixed something, it was
 * seen after the problem was last seen (a problem that came back is open again), and it speaks of the same things (at least two content words,
 * a fifth of the shorter text).
 */
export function fixes(fix: Cluster, problem: Cluster): boolean {
  if (fix === problem || !isFixLike(fix) || isProblem(fix)) return false;
  if (lastSeen(fix) <= lastSeen(problem)) return false;
  let shared = 0;
  for (const t of fix.tokens) if (problem.tokens.has(t)) shared++;
  return shared >= 2 && overlap(fix.tokens, problem.tokens) >= 0.2;
}

export interface Knowledge {
  decisions: Cluster[];
  /** Discoveries and lessons, and fixes with the problems they solved (cited with them). */
  lessons: Array<{ cluster: Cluster; solved: Cluster[] }>;
  achievements: Cluster[];
  /** Problems with no later fix among the clusters. */
  open: Cluster[];
}

/**
 * Each cluster goes to one place, first match wins: decisions, then lessons (a discovery, lesson
 * wording, or a fix of an earlier problem), then achievements (successes and changes), then open
 * problems. A problem that found its fix is not listed on its own: its fix's line cites it.
 */
export function sortKnowledge(clusters: readonly Cluster[]): Knowledge {
  const out: Knowledge = { decisions: [], lessons: [], achievements: [], open: [] };
  const problems = clusters.filter(isProblem);
  const solvedIds = new Set<Cluster>();
  for (const c of clusters) {
    if (c.category === 'decision') {
      out.decisions.push(c);
      continue;
    }
    if (isProblem(c)) continue;
    const solved = problems.filter((p) => fixes(c, p));
    for (const p of solved) solvedIds.add(p);
    if (c.category === 'discovery' || LESSON_RE.test(c.rep.text) || solved.length > 0) out.lessons.push({ cluster: c, solved });
    else if (c.category === 'success' || c.category === 'implementation') out.achievements.push(c);
  }
  for (const p of problems) if (!solvedIds.has(p) && p.category !== 'decision') out.open.push(p);
  return out;
}

/** Sources of several clusters, by time then id, each once. */
export function mergedSources(clusters: readonly Cluster[]): DigestSource[] {
  const seen = new Set<string>();
  return clusters
    .flatMap(clusterSources)
    .sort(byTimeThenId)
    .filter((s) => (seen.has(s.id) ? false : (seen.add(s.id), true)));
}
