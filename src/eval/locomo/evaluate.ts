// `cairn eval locomo`: load the data, pick the variants, get an ingested home for each (kept
// across runs), ask every question, and write the report. Variants that differ only at search
// time share one home, ingested once.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, cpus, platform } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import { CATEGORIES, readLocomo, type LocomoConversation } from './dataset.js';
import { homeComponents, prepareHome, pruneObsoleteHomes, type EvalHome } from './homes.js';
import { summarise } from './metrics.js';
import { plural, renderReport, type EvalReport, type VariantRun } from './report.js';
import { askAll, ingestMissing, type Log } from './run.js';
import { namespaceOf, writeTranscripts } from './transcripts.js';
import { VARIANTS, configVariant, hashOf, pickVariants, resolveVariant, type ResolvedVariant } from './variants.js';

export const DEFAULT_DATA_PATH = '../shared/bench/data/locomo10.json';
export const DEFAULT_WORK_DIR = '.cairn-eval/locomo';
export const DEFAULT_OUT = 'bench/results/locomo.md';

export interface EvalOptions {
  /** Absolute paths. */
  dataPath: string;
  workDir: string;
  out: string;
  /** Variant names; default: all with `compare`, else the default variant. */
  variants?: readonly string[];
  compare?: boolean;
  fresh?: boolean;
  /** Only the first N conversations. */
  conversations?: number;
  /**
   * A config file measured as one more variant (e.g. an LLM judge with statements and query
   * rewriting): alone it replaces the default variant, with --compare/--variants it is added.
   */
  configPath?: string;
  /** How the run was started, for the report. */
  command: string;
  log: Log;
}

export type EvalOutcome = { skipped: string } | { report: EvalReport; markdown: string; out: string };

function assertWritable(out: string): void {
  let isDir = false;
  try {
    isDir = statSync(out).isDirectory();
  } catch {
    // absent: written at the end
  }
  if (isDir) throw new CairnError(ERROR_CODES.INVALID_INPUT, `--out ${out} is a directory; give a file path`);
}

function datasetSummary(path: string, sha256: string, conversations: readonly LocomoConversation[]): EvalReport['dataset'] {
  const questions = conversations.flatMap((c) => c.questions);
  const sum = (f: (c: LocomoConversation) => number) => conversations.reduce((n, c) => n + f(c), 0);
  return {
    path,
    sha256,
    conversations: conversations.length,
    turns: sum((c) => c.turns.length),
    questions: questions.length,
    byCategory: Object.fromEntries(CATEGORIES.map((k) => [k, questions.filter((q) => q.category === k).length])),
    excluded: { adversarial: sum((c) => c.excluded.adversarial), noEvidence: sum((c) => c.excluded.noEvidence), unknownEvidenceIds: sum((c) => c.excluded.unknownEvidenceIds) },
  };
}

function stateText(home: EvalHome): string {
  const n = plural(home.missing.length, 'conversation');
  return home.state === 'new' ? `new, ingesting ${n}` : home.state === 'extended' ? `reused, ingesting the ${n} it lacks` : 'reused (already ingested)';
}

export async function runLocomoEval(o: EvalOptions): Promise<EvalOutcome> {
  // Bad flags fail before the data is read or anything runs.
  assertWritable(o.out);
  const fromFile = o.configPath ? configVariant(o.configPath) : null;
  const named = o.variants ? pickVariants(o.variants) : o.compare ? VARIANTS : fromFile ? [] : VARIANTS.slice(0, 1);
  const variants = [...named, ...(fromFile ? [fromFile] : [])].map(resolveVariant);
  const data = readLocomo(o.dataPath);
  if (!data) return { skipped: `LoCoMo data not found at ${o.dataPath}: skipping the evaluation (../shared/bench/README.md says where it comes from).` };
  const conversations = data.conversations.slice(0, o.conversations ?? data.conversations.length);
  const namespaces = conversations.map(namespaceOf);
  for (const path of pruneObsoleteHomes(o.workDir)) o.log(`removed ${relative(process.cwd(), path)}: built by an older pipeline or store schema`);
  const transcriptDir = join(o.workDir, 'transcripts', data.sha256.slice(0, 16));
  let transcripts: Map<string, string> | null = null;
  const homes = new Map<string, EvalHome>();
  const runs: VariantRun[] = [];

  const homeFor = async (v: ResolvedVariant): Promise<{ home: EvalHome; ingestSeconds: number }> => {
    const components = homeComponents(data.sha256, v);
    const known = homes.get(hashOf(components));
    if (known) return { home: known, ingestSeconds: 0 };
    const home = prepareHome(o.workDir, components, namespaces, Boolean(o.fresh));
    homes.set(home.manifest.key, home);
    o.log(`home ${relative(process.cwd(), home.path)} for "${v.name}": ${stateText(home)}`);
    if (home.missing.length === 0) return { home, ingestSeconds: 0 };
    transcripts ??= writeTranscripts(transcriptDir, conversations);
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
    const asked = earlier ?? (await askAll(home, v, conversations, o.log));
    askedFor.set(same, asked);
    // Per-question results, for looking into what a variant misses.
    mkdirSync(join(o.workDir, 'runs'), { recursive: true });
    writeFileSync(join(o.workDir, 'runs', `${v.name.replace(/[^a-z0-9]+/gi, '-')}.jsonl`), asked.outcomes.map((q) => JSON.stringify(q)).join('\n') + '\n');
    runs.push({
      name: v.name, description: v.description, config: v.config, ...(v.search ? { search: v.search } : {}), resolved: v.resolved,
      home: { path: home.path, state, ingestSeconds }, questionsSeconds: asked.seconds, metrics: summarise(asked.outcomes), degraded: asked.degraded,
    });
  }

  const report: EvalReport = {
    generatedAt: new Date().toISOString(),
    command: o.command,
    machine: { cpu: cpus()[0]?.model.trim() ?? 'unknown CPU', cores: availableParallelism(), node: process.version, platform: `${platform()} ${arch()}` },
    dataset: datasetSummary(relative(process.cwd(), o.dataPath) || o.dataPath, data.sha256, conversations),
    variants: runs,
  };
  const markdown = renderReport(report);
  mkdirSync(dirname(o.out), { recursive: true });
  writeFileSync(o.out, markdown);
  return { report, markdown, out: o.out };
}
