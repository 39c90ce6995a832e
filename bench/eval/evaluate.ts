// One evaluation run on any dev set: take the split's conversations, pick the variants, get an
// ingested home for each (kept across runs), ask every question, compare each variant with the
// default question by question, and write the report. Variants that differ only at search time
// share one home, ingested once.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, cpus, platform } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { CairnError, ERROR_CODES } from '../../src/core/errors.js';
import { pairedBootstrap, type BootstrapOptions } from './bootstrap.js';
import { namespaceOf, type DevConversation, type DevSet, type DevTranscript } from './devset.js';
import { homeComponents, prepareHome, pruneObsoleteHomes, type EvalHome } from './homes.js';
import { answersKey, keepAnswers, keptAnswers } from './answers.js';
import { HEADLINE, HEADLINE_KEYS, KS, changedAt, summarise, type K, type QuestionOutcome } from './metrics.js';
import { plural, renderReport, type EvalReport, type VariantRun } from './report.js';
import { askAll, ingestMissing, type Log } from './run.js';
import { BASELINE_VARIANT, DEFAULT_VARIANT, VARIANTS, configVariant, hashOf, pickVariants, resolveVariant, type ResolvedVariant, type Variant } from './variants.js';

export const SPLITS = ['dev', 'report', 'all'] as const;
export type Split = (typeof SPLITS)[number];

export interface EvalOptions {
  set: DevSet;
  split: Split;
  /** Absolute paths. */
  workDir: string;
  out: string;
  /** Variant names; default: all with `compare`, else the default (with the baseline beside it). */
  variants?: readonly string[];
  compare?: boolean;
  fresh?: boolean;
  /** Only the first N conversations of the split. */
  conversations?: number;
  /**
   * A config file measured as one more variant (e.g. an LLM judge with statements and query
   * rewriting): alone it replaces the default variant, with --compare/--variants it is added.
   */
  configPath?: string;
  /** The limits each question is asked with (default: every k of KS). */
  limits?: readonly K[];
  /** Take a variant's kept answers when everything they depend on is unchanged (answers.ts). */
  reuse?: boolean;
  /** How the run was started, for the report. */
  command: string;
  bootstrap?: BootstrapOptions;
  log: Log;
}

export interface EvalOutcome {
  report: EvalReport;
  markdown: string;
  out: string;
}

/**
 * The conversations of a split: the set's first half (LoCoMo: conversations 0–4) to choose
 * mechanisms on, the second half (5–9) to report, so a figure is never fitted to what it reports.
 */
export function splitConversations<T>(conversations: readonly T[], split: Split): { picked: T[]; first: number } {
  const half = Math.ceil(conversations.length / 2);
  if (split === 'dev') return { picked: conversations.slice(0, half), first: 0 };
  if (split === 'report') return { picked: conversations.slice(half), first: half };
  return { picked: [...conversations], first: 0 };
}

function assertWritable(out: string): void {
  let isDir = false;
  try {
    isDir = statSync(out).isDirectory();
  } catch {
    // absent: written at the end
  }
  if (isDir) throw new CairnError(ERROR_CODES.INVALID_INPUT, `--out ${out} is a directory; give a file path`);
}

/** The variants to run: those named (or all), the config file's, and the baseline beside the default. */
export function variantsToRun(o: Pick<EvalOptions, 'variants' | 'compare' | 'configPath'>): Variant[] {
  const fromFile = o.configPath ? configVariant(o.configPath) : null;
  const named = o.variants ? pickVariants(o.variants) : o.compare ? [...VARIANTS] : fromFile ? [] : pickVariants([DEFAULT_VARIANT]);
  if (named.some((v) => v.name === DEFAULT_VARIANT) && !named.some((v) => v.name === BASELINE_VARIANT)) named.splice(named.findIndex((v) => v.name === DEFAULT_VARIANT) + 1, 0, ...pickVariants([BASELINE_VARIANT]));
  return [...named, ...(fromFile ? [fromFile] : [])];
}

function datasetSummary(o: EvalOptions, conversations: readonly DevConversation[], first: number): EvalReport['dataset'] {
  const questions = conversations.flatMap((c) => c.questions);
  const categories = [...new Set(questions.map((q) => q.category))].sort();
  const source = isAbsolute(o.set.source) ? relative(process.cwd(), o.set.source) || o.set.source : o.set.source;
  return {
    name: o.set.name,
    source,
    sha256: o.set.sha256,
    split: o.split,
    range: conversations.length ? [first, first + conversations.length - 1] : [first, first - 1],
    of: o.set.conversations.length,
    conversations: conversations.length,
    turns: conversations.reduce((n, c) => n + c.turns.length, 0),
    questions: questions.length,
    byCategory: Object.fromEntries(categories.map((k) => [k, questions.filter((q) => q.category === k).length])),
    ...(o.set.notes ? { notes: o.set.notes } : {}),
  };
}

function stateText(home: EvalHome): string {
  const n = plural(home.missing.length, 'conversation');
  return home.state === 'new' ? `new, ingesting ${n}` : home.state === 'extended' ? `reused, ingesting the ${n} it lacks` : 'reused (already ingested)';
}

/** Each headline figure of `run` minus the reference's, paired question by question. */
function differences(run: QuestionOutcome[], reference: QuestionOutcome[], bootstrap: BootstrapOptions | undefined): VariantRun['difference'] {
  return Object.fromEntries(HEADLINE_KEYS.map((key) => [key, pairedBootstrap(run.map(HEADLINE[key].of), reference.map(HEADLINE[key].of), bootstrap)])) as VariantRun['difference'];
}

export async function runEval(o: EvalOptions): Promise<EvalOutcome> {
  // Bad flags fail before anything is ingested or asked.
  assertWritable(o.out);
  const variants = variantsToRun(o).map(resolveVariant);
  const { picked, first } = splitConversations(o.set.conversations, o.split);
  const conversations = picked.slice(0, o.conversations ?? picked.length);
  if (conversations.length === 0) throw new CairnError(ERROR_CODES.INVALID_INPUT, `the ${o.split} split of ${o.set.name} has no conversations (the set has ${o.set.conversations.length})`);
  const namespaces = conversations.map(namespaceOf);
  const limits = o.limits ?? KS;
  for (const path of pruneObsoleteHomes(o.workDir)) o.log(`removed ${relative(process.cwd(), path)}: built by an older pipeline or store schema`);
  const transcriptDir = join(o.workDir, 'transcripts', o.set.sha256.slice(0, 16));
  let transcripts: Map<string, DevTranscript> | null = null;
  const homes = new Map<string, EvalHome>();
  const runs: VariantRun[] = [];
  const outcomes = new Map<string, QuestionOutcome[]>();
  const dataset = datasetSummary(o, conversations, first);

  // Every other variant against the default when it ran, else against the first variant.
  const write = (done: number, of: number): EvalOutcome => {
    const reference = runs.find((r) => r.name === DEFAULT_VARIANT) ?? runs[0]!;
    for (const run of runs) {
      if (run === reference) {
        delete run.difference;
        delete run.changed10;
        delete run.differenceFrom;
      }
      else if (run.differenceFrom !== reference.name) {
        run.difference = differences(outcomes.get(run.name)!, outcomes.get(reference.name)!, o.bootstrap);
        run.changed10 = changedAt(10, outcomes.get(run.name)!, outcomes.get(reference.name)!);
        run.differenceFrom = reference.name;
      }
    }
    const report: EvalReport = {
      generatedAt: new Date().toISOString(),
      command: o.command,
      machine: { cpu: cpus()[0]?.model.trim() ?? 'unknown CPU', cores: availableParallelism(), node: process.version, platform: `${platform()} ${arch()}` },
      dataset,
      reference: reference.name,
      variants: runs,
      ...(done < of ? { incomplete: { done, of } } : {}),
    };
    const markdown = renderReport(report);
    mkdirSync(dirname(o.out), { recursive: true });
    writeFileSync(o.out, markdown);
    return { report, markdown, out: o.out };
  };

  const homeFor = async (v: ResolvedVariant): Promise<{ home: EvalHome; ingestSeconds: number }> => {
    const components = homeComponents(o.set.sha256, v);
    const known = homes.get(hashOf(components));
    if (known) return { home: known, ingestSeconds: 0 };
    const home = prepareHome(o.workDir, components, namespaces, Boolean(o.fresh));
    homes.set(home.manifest.key, home);
    o.log(`home ${relative(process.cwd(), home.path)} for "${v.name}": ${stateText(home)}`);
    if (home.missing.length === 0) return { home, ingestSeconds: 0 };
    transcripts ??= o.set.writeTranscripts(transcriptDir);
    return { home, ingestSeconds: await ingestMissing(home, v, conversations, transcripts, o.log) };
  };

  // A ladder's last step is the default by construction: the same configuration is asked once.
  const askedFor = new Map<string, Awaited<ReturnType<typeof askAll>>>();
  for (const v of variants) {
    const { home, ingestSeconds } = await homeFor(v);
    const state = ingestSeconds > 0 ? home.state : 'reused';
    const same = hashOf({ home: home.manifest.key, resolved: v.resolved, search: v.search ?? null });
    const earlier = askedFor.get(same);
    if (earlier) o.log(`${v.name}: the same configuration as a variant already asked, its answers reused`);
    // Per-question results, for looking into what a variant misses, and for --reuse.
    mkdirSync(join(o.workDir, 'runs'), { recursive: true });
    const jsonl = join(o.workDir, 'runs', `${o.split}-${v.name.replace(/[^a-z0-9]+/gi, '-')}.jsonl`);
    const key = answersKey({ home: home.manifest.key, resolved: v.resolved, search: v.search ?? null, limits, namespaces });
    const kept = !earlier && o.reuse ? keptAnswers(jsonl, key) : null;
    if (kept) o.log(`${v.name}: answers kept from an earlier run with the same code, config and home reused`);
    const asked = earlier ?? kept ?? (await askAll(home, v, conversations, o.log, limits));
    askedFor.set(same, asked);
    outcomes.set(v.name, asked.outcomes);
    keepAnswers(jsonl, key, asked);
    runs.push({
      name: v.name, description: v.description, config: v.config, ...(v.search ? { search: v.search } : {}), resolved: v.resolved,
      ...(limits.length < KS.length ? { limits: [...limits] } : {}),
      home: { path: home.path, state, ingestSeconds }, questionsSeconds: asked.seconds, metrics: summarise(asked.outcomes, o.bootstrap), degraded: asked.degraded,
    });
    // The report so far, rewritten after every variant: a long ablation stopped part way (a
    // deadline, a loaded machine) still leaves the variants it finished, marked as incomplete.
    if (runs.length < variants.length) write(runs.length, variants.length);
  }
  return write(runs.length, variants.length);
}
