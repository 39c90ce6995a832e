// The LLM prose writer: a digest already rendered extractively goes to the judge's chat model in one
// request, which rewrites each cited section as short paragraphs from the section's own records,
// every paragraph citing the ids it draws on. The answer is never trusted: a paragraph citing
// anything outside its section, or nothing, or too long, is dropped; a section left with nothing
// keeps its extractive lines. Spending and failures go through the judge's budget (the store's
// ledger) and breaker; when the model cannot be used the extractive file stands, with a line
// saying so.
import type { CairnConfig } from '../core/config.js';
import type { DigestKind, DigestSection, DigestSource } from '../core/types.js';
import { budgetDay, costUsd, type Budget, type Prices } from '../llm/budget.js';
import type { ChatClient, ChatUsage } from '../llm/chat.js';
import type { CircuitBreaker } from '../llm/circuit-breaker.js';
import { llmDetails, llmError, llmFailureKind } from '../llm/errors.js';
import { createChatClient } from '../llm/factory.js';
import { jsonSchemaOf, parseJsonOutput } from '../llm/json-output.js';
import type { TransportOptions } from '../llm/transport.js';
import type { Item, Rendered } from './contracts.js';
import { PROSE_PROMPT_VERSION, PROSE_SYSTEM, buildProsePrompt, promptHeading, proseAnswerSchema, type ProseAnswer, type PromptSection } from './prose-prompt.js';
import { locateSections, neutralise, proseParagraph, replaceSections, sectionText, withFallbackNote, type SectionSpan } from './prose-render.js';

/** The generator of a digest the model did not write. */
export const EXTRACTIVE_GENERATOR = 'extractive@1';

/** Caps on what the model may put in a section (the instructions ask for 4 paragraphs of 600). */
export const MAX_PARAGRAPHS = 6;
export const MAX_PARAGRAPH_CHARS = 900;
/** Records offered in one request; sections past this keep their extractive lines. */
const MAX_ITEMS = 160;

export interface ProseInput {
  /** Whose budget pays (per namespace and local day, like the judge). */
  namespace: string;
  kind: DigestKind;
  title: string;
  /** The digest as the extractive renderer made it. */
  rendered: Rendered;
  /** The records its sections cite (by id); sources without one here are not offered to the model. */
  items: readonly Item[];
  signal?: AbortSignal;
}

export interface ProseResult {
  rendered: Rendered;
  /** `llm:<provider>/<model>@<prompt version>`, or `extractive@1`. */
  generator: string;
  /** Why the model did not write it (the full error; the file says it in short). */
  fallback?: string;
}

export interface ProseWriter {
  /** The generator name of the prose it writes. */
  readonly name: string;
  /** Never rejects for an LLM failure (that is a fallback); rejects only when `signal` aborts the call. */
  write(input: ProseInput): Promise<ProseResult>;
}

/** What the writer shares with the judge (`createLlmRuntime`'s result fits). */
export interface ProseRuntime {
  budget: Budget;
  prices: Prices;
  breaker: CircuitBreaker;
}

export interface ProseWriterOptions {
  config: CairnConfig;
  /** The judge's runtime: one breaker and one daily budget for every call to the model. */
  runtime: ProseRuntime | null;
  transport?: TransportOptions;
  /** The chat client (default: one made from `config.judge.llm`). */
  client?: ChatClient;
  /** The clock that picks the budget's day (default Date.now). */
  now?: () => number;
}

/** Null when no chat model is configured or `consolidation.llmProse` is off: the extractive text is all. */
export function createProseWriter(options: ProseWriterOptions): ProseWriter | null {
  const llm = options.config.judge.llm;
  if (!llm || !options.config.consolidation.llmProse || !options.runtime) return null;
  const client = options.client ?? createChatClient(llm, options.transport ?? {});
  return new LlmProseWriter(client, options.runtime, options.config.timezone, options.now ?? Date.now);
}

/** A fixed phrase per failure for the file: error messages hold ports, times and the server's words. */
function shortReason(err: unknown): string {
  const kind = llmFailureKind(err);
  switch (kind) {
    case 'http':
      return `HTTP ${String(llmDetails(err)?.status ?? 'error')}`;
    case 'circuit-open':
      return 'paused after repeated failures';
    case 'network':
      return 'network error';
    case 'timeout':
      return 'no answer in time';
    case 'truncated':
      return 'answer cut off';
    case 'refused':
      return 'the model declined';
    case 'too-large':
      return 'answer too large';
    case 'bad-response':
    case 'invalid-output':
      return 'unusable answer';
    case 'config':
      return 'configuration error';
    default:
      return 'unexpected error';
  }
}

interface Planned {
  span: SectionSpan;
  section: DigestSection;
  /** The section's sources that have a record, in the section's order. */
  offered: DigestSource[];
  prompt: PromptSection;
}

class LlmProseWriter implements ProseWriter {
  readonly name: string;

  constructor(
    private readonly client: ChatClient,
    private readonly runtime: ProseRuntime,
    private readonly timeZone: string,
    private readonly now: () => number,
  ) {
    this.name = `llm:${client.provider}/${client.model}@${PROSE_PROMPT_VERSION}`;
  }

  async write(input: ProseInput): Promise<ProseResult> {
    const plan = this.plan(input);
    if (plan.length === 0) return { rendered: input.rendered, generator: EXTRACTIVE_GENERATOR };
    const prompt = buildProsePrompt(input.kind, input.title, plan.map((p) => p.prompt));
    const maxTokens = Math.min(4096, 256 + 400 * plan.length);
    const day = budgetDay(this.now(), this.timeZone);
    const { budget, breaker, prices } = this.runtime;
    const estimate = costUsd({ inputTokens: Math.ceil((prompt.length + PROSE_SYSTEM.length) / 4), outputTokens: 0 }, prices);
    if (!(await budget.canSpend(input.namespace, day, estimate))) return fallback(input.rendered, 'daily budget spent', 'the LLM daily budget is spent');

    let usage: ChatUsage | undefined;
    try {
      // One breaker call per digest, succeeding only with a usable answer: a model that keeps
      // answering badly opens the circuit like one that keeps failing.
      const result = await breaker.run(async () => {
        const res = await this.client.chat({
          messages: [
            { role: 'system', content: PROSE_SYSTEM },
            { role: 'user', content: prompt },
          ],
          jsonSchema: jsonSchemaOf('digest_prose', proseAnswerSchema),
          maxTokens,
          temperature: 0,
          signal: input.signal,
        });
        usage = res.usage;
        const replaced = applyAnswer(plan, parseJsonOutput(res, proseAnswerSchema));
        if (replaced.size === 0) {
          throw llmError(`${res.provider} (${res.model}) wrote no section that cites only its own records`, { kind: 'invalid-output', provider: res.provider });
        }
        return replaced;
      });
      await budget.record(input.namespace, day, usage!, costUsd(usage!, prices));
      return { rendered: replaceSections(input.rendered, plan.map((p) => p.span), result), generator: this.name };
    } catch (err) {
      if (input.signal?.aborted) throw err;
      // A refused call (open circuit) sent nothing; any other was a call, billed when it answered.
      if (llmFailureKind(err) !== 'circuit-open') await budget.recordFailure(input.namespace, day, usage, usage ? costUsd(usage, prices) : 0);
      return fallback(input.rendered, shortReason(err), (err as Error).message);
    }
  }

  /** The sections worth a request: cited, found in the file, not holding a marker; within MAX_ITEMS. */
  private plan(input: ProseInput): Planned[] {
    const byId = new Map(input.items.map((item) => [item.id, item]));
    const planned: Planned[] = [];
    let items = 0;
    for (const span of locateSections(input.rendered)) {
      const section = input.rendered.sections[span.index]!;
      // An HTML comment may be a marker of the person's own text: that section is not the model's.
      if (section.text.includes('<!--')) continue;
      const offered = section.sources.filter((s) => byId.has(s.id));
      if (offered.length === 0) continue;
      if (items + offered.length > MAX_ITEMS) break;
      items += offered.length;
      planned.push({ span, section, offered, prompt: { heading: section.heading, items: offered.map((s) => byId.get(s.id)!) } });
    }
    return planned;
  }
}

function fallback(rendered: Rendered, reason: string, detail: string): ProseResult {
  return { rendered: withFallbackNote(rendered, reason), generator: EXTRACTIVE_GENERATOR, fallback: detail };
}

/**
 * The sections the answer rewrote validly, by section index. Answer sections are matched to the
 * request's by heading (the n-th answer with a heading to the n-th section with it); any other is
 * invented and ignored.
 */
export function applyAnswer(plan: readonly Pick<Planned, 'span' | 'section' | 'offered'>[], answer: ProseAnswer): Map<number, DigestSection> {
  const byHeading = new Map<string, ProseAnswer['sections']>();
  for (const s of answer.sections) {
    const key = s.heading.trim();
    byHeading.set(key, [...(byHeading.get(key) ?? []), s]);
  }
  const out = new Map<number, DigestSection>();
  for (const p of plan) {
    const written = byHeading.get(promptHeading(p.section.heading))?.shift();
    if (!written) continue;
    const sources = new Map(p.offered.map((s) => [s.id, s]));
    const paragraphs: string[] = [];
    const cited: DigestSource[] = [];
    for (const para of written.paragraphs) {
      if (paragraphs.length === MAX_PARAGRAPHS) break;
      const ids = [...new Set(para.cites.map((c) => c.trim()))];
      const text = para.text.trim();
      if (ids.length === 0 || !ids.every((id) => sources.has(id)) || neutralise(text) === '' || text.length > MAX_PARAGRAPH_CHARS) continue;
      paragraphs.push(proseParagraph(text, ids));
      for (const id of ids) if (!cited.some((c) => c.id === id)) cited.push(sources.get(id)!);
    }
    if (paragraphs.length === 0) continue;
    out.set(p.span.index, { heading: p.section.heading, text: sectionText(p.section.text, paragraphs), sources: cited });
  }
  return out;
}
