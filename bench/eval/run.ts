// The two halves of an eval run, both through the service facade a user's CLI calls: ingest the
// transcripts (capture → judge → memory → index, the daemon's code path) and ask the questions
// (`cairn search`'s call). Nothing here ranks or indexes: improvements belong in the product.
import { availableParallelism } from 'node:os';
import { CairnError, ERROR_CODES } from '../../src/core/errors.js';
import { Cairn } from '../../src/service/cairn.js';
import { loadTokenizer } from '../../src/service/context.js';
import { namespaceOf, type DevConversation, type DevTranscript } from './devset.js';
import { recordIngested, type EvalHome } from './homes.js';
import { ANSWER_K, KS, coveredIds, questionAnswerShown, returnedTexts, type K, type QuestionOutcome, type RankedResult } from './metrics.js';
import type { ResolvedVariant } from './variants.js';

export type Log = (line: string) => void;

const seconds = (since: number) => (performance.now() - since) / 1000;

/** Fails unless every turn of the namespace is judged and every entry has its vector. */
async function assertComplete(cairn: Cairn, ns: string): Promise<void> {
  const judge = (await cairn.judgeStats()).find((s) => s.namespace === ns);
  if (judge && judge.pending > 0) throw new CairnError(ERROR_CODES.INTERNAL, `${ns}: ${judge.pending} turns are still unjudged after ingest`);
  if (!cairn.modelId) return;
  const vectors = (await cairn.store.vectorStats(cairn.modelId)).find((s) => s.namespace === ns);
  if (vectors && vectors.missing > 0) throw new CairnError(ERROR_CODES.EMBEDDER, `${ns}: ${vectors.missing} entries still have no ${cairn.modelId} vector after ingest`);
}

/**
 * Ingests the conversations the home lacks, one namespace each, as `cairn ingest` does (bulk
 * embedding on every core), each transcript in the format the set wrote it in. Returns the
 * seconds spent.
 */
export async function ingestMissing(home: EvalHome, variant: ResolvedVariant, conversations: readonly DevConversation[], transcripts: ReadonlyMap<string, DevTranscript>, log: Log): Promise<number> {
  const todo = conversations.filter((c) => home.missing.includes(namespaceOf(c)));
  if (todo.length === 0) return 0;
  const started = performance.now();
  const cairn = await Cairn.open({ home: home.path, config: variant.resolved, embedThreads: availableParallelism() });
  try {
    for (const [i, conv] of todo.entries()) {
      const ns = namespaceOf(conv);
      const t0 = performance.now();
      const transcript = transcripts.get(conv.id);
      if (!transcript) throw new CairnError(ERROR_CODES.INTERNAL, `the set wrote no transcript for conversation ${conv.id}`);
      const res = await cairn.ingest([transcript.path], { format: transcript.format, namespace: ns });
      const failed = res.files.find((f) => f.error);
      if (failed?.error) throw new CairnError(ERROR_CODES.INTERNAL, `ingesting ${failed.path} failed: ${failed.error.message}`);
      const issues = res.files[0]?.report?.issues.length ?? 0;
      if (issues > 0) log(`warning: ${ns}: capture reported ${issues} malformed lines`);
      if (res.warning) log(`warning: ${ns}: ${res.warning}`);
      // Capture embeds what it stored when capture.embed is on; this catches anything it left over
      // (an embedding error it turned into a warning) so no question is asked of a partial index.
      if (cairn.modelId) await cairn.embedPending({ namespace: ns });
      await assertComplete(cairn, ns);
      const took = seconds(t0);
      recordIngested(home, ns, { turns: conv.turns.length, seconds: took });
      log(`ingested ${ns} (${i + 1}/${todo.length}): ${res.turnsInserted} turns, ${res.embedded} vectors in ${took.toFixed(1)} s`);
    }
  } finally {
    await cairn.close();
  }
  return seconds(started);
}

/**
 * Asks every question of every conversation through `search`, one facade for the whole run with
 * the embedder in-process, as a long-lived server (MCP, HTTP) would hold it.
 */
export async function askAll(home: EvalHome, variant: ResolvedVariant, conversations: readonly DevConversation[], log: Log, limits: readonly K[] = KS): Promise<{ outcomes: QuestionOutcome[]; seconds: number; degraded: string[] }> {
  const largest = Math.max(...limits) as K;
  const tokenizer = await loadTokenizer();
  const tokensOf = new Map<string, number>();
  const count = (text: string) => {
    let n = tokensOf.get(text);
    if (n === undefined) tokensOf.set(text, (n = tokenizer.count(text)));
    return n;
  };
  const total = conversations.reduce((n, c) => n + c.questions.length, 0);
  const outcomes: QuestionOutcome[] = [];
  const degraded = new Set<string>();
  const started = performance.now();
  const cairn = await Cairn.open({ home: home.path, config: variant.resolved, embedThreads: 0 });
  try {
    for (const conv of conversations) {
      const namespace = namespaceOf(conv);
      for (const q of conv.questions) {
        // One search per k, as a user asking for k results would: search sizes its candidate
        // pool by the limit, so the top 10 of a search for 20 is not what a search for 10 returns.
        const atLimit: Partial<Record<K, RankedResult[]>> = {};
        let latencyMs = 0;
        let answerWords: number | null = null;
        for (const k of limits) {
          const t0 = performance.now();
          const res = await cairn.search(q.question, { namespace, limit: k, ...variant.search });
          if (k === largest) latencyMs = performance.now() - t0;
          if (res.degraded) degraded.add(res.degraded.replace(namespace, '<conversation>'));
          if (res.rewrite?.status === 'skipped' && degraded.size < 20) degraded.add(`searched without query rewriting: ${res.rewrite.reason.slice(0, 160)}`);
          atLimit[k] = res.results.map((r) => ({
            ids: coveredIds(r.provenance),
            // The result's own hit comes first in its provenance, then folded hits and context turns.
            first: coveredIds(r.provenance.slice(0, 1)),
            tokens: returnedTexts(r).reduce((n, t) => n + count(t), 0),
          }));
          // The answer is read only here, after the search, to score what the search showed.
          if (k === ANSWER_K) answerWords = questionAnswerShown(q, () => res.results.flatMap(returnedTexts));
        }
        outcomes.push({
          conversation: namespace, question: q.question, category: q.category, evidence: q.evidence, results: atLimit[largest]!, atLimit, latencyMs,
          ...(limits.length < KS.length ? { limits: [...limits] } : {}),
          ...(answerWords === null ? {} : { answerWords }),
        });
      }
      log(`${variant.name}: asked ${outcomes.length}/${total} questions (${namespace} done)`);
    }
  } finally {
    await cairn.close();
  }
  return { outcomes, seconds: seconds(started), degraded: [...degraded] };
}
