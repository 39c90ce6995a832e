// The session-start brief (seed 004's scratchpad): what an agent should know when it starts, in a
// fixed token budget. Order: hot state, MEMORY.md, the most important recent memories, then what
// is relevant to the query. Every item appears once (same id or same normalised text) and names its
// source; the brief is counted with a real tokenizer (o200k_base) and is never over budget.
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, relative, sep } from 'node:path';
import { z } from 'zod';
import { namespaceDir, type HomePaths } from '../core/home.js';
import type { Namespace } from '../core/namespace.js';
import { normalizeText, stripControl } from '../core/text.js';
import type { Memory } from '../core/types.js';
import type { SearchResult } from '../search/hybrid.js';
import type { Store } from '../store/store.js';
import { getState, memoryFilePath, MEMORY_FILE, renderStateFile, STATE_FILE } from './hot-state.js';
import { parseInput } from './inputs.js';
import { gateText } from './redaction-gate.js';

import { CONTEXT_BUDGET_RANGE, CONTEXT_DEFAULT_BUDGET } from './context-budget.js';

export { CONTEXT_BUDGET_RANGE, CONTEXT_DEFAULT_BUDGET } from './context-budget.js';
export const CONTEXT_TOKENIZER = 'o200k_base (gpt-tokenizer)';

/** Longest a single memory, turn or document item may be before it is shortened. */
const ITEM_MAX_TOKENS = 120;
/** Below this much room an item is not worth shortening to fit: the section stops. */
const MIN_PARTIAL_TOKENS = 16;
/** Candidates for "important recent memories": the newest, plus the most important of all time. */
const RECENT_CANDIDATES = 200;
const IMPORTANT_CANDIDATES = 100;
const IMPORTANT_BAR = 8;
const MAX_IMPORTANT_ITEMS = 30;
const QUERY_RESULTS = 20;
const MEMORY_FILE_MAX_BYTES = 256 * 1024;
const QUERY_TITLE_CHARS = 80;

export type ContextItem = {
  id?: string;
  kind: 'state' | 'memory-file' | 'memory' | 'turn' | 'document' | 'digest';
  text: string;
  /** Provenance: `path:line` (relative paths are under the namespace folder) or a memory id. */
  source?: string;
  score?: number;
};

export type ContextSection = {
  title: string;
  items: ContextItem[];
};

export type ContextBrief = {
  namespace: string;
  query: string | null;
  budgetTokens: number;
  usedTokens: number;
  tokenizer: string;
  sections: ContextSection[];
  /** The Markdown brief. */
  text: string;
  /** True when something was left out or shortened to stay within the budget. */
  truncated: boolean;
};

export interface ContextOptions {
  query?: string;
  budgetTokens?: number;
  namespace?: string;
}

export const contextInputSchema = z.strictObject({
  query: z
    .string()
    .transform((q) => stripControl(q).replace(/\s+/g, ' ').trim())
    .refine((q) => q.length <= 2000, 'query is longer than 2000 characters')
    .optional(),
  budgetTokens: z.number().int().min(CONTEXT_BUDGET_RANGE.min).max(CONTEXT_BUDGET_RANGE.max).optional(),
});

export interface ContextDeps {
  store: Store;
  paths: HomePaths;
  namespace: string;
  /** Hybrid search in the namespace (the facade's, so it degrades to BM25 the same way). */
  search: (query: string, limit: number) => Promise<SearchResult[]>;
}

interface Tokenizer {
  count: (text: string) => number;
  truncate: (text: string, maxTokens: number) => string;
}

let tokenizerPromise: Promise<Tokenizer> | null = null;

/** Loaded on first use (≈ 200 ms): processes that never build a brief do not pay for it. */
export function loadTokenizer(): Promise<Tokenizer> {
  tokenizerPromise ??= import('gpt-tokenizer').then(({ encode, decode, countTokens }) => ({
    count: (text: string) => countTokens(text),
    truncate: (text: string, maxTokens: number) => {
      const tokens = encode(text);
      if (tokens.length <= maxTokens) return text;
      if (maxTokens <= 1) return '…';
      return decode(tokens.slice(0, maxTokens - 1)).replace(/\uFFFD+$/, '').trimEnd() + '…';
    },
  }));
  return tokenizerPromise;
}

/** What counts as "the same text": Markdown list/heading markers dropped, then normalizeText. */
export function dedupText(text: string): string {
  return normalizeText(text.replace(/^\s*(?:(?:[-*+]|\d+[.)]|#{1,6}|>)\s+)*(?:\[[ xX]\]\s+)?/, ''));
}

interface Candidate {
  /** The item as reported; its text becomes what the brief shows (possibly shortened). */
  item: ContextItem;
  /** The text shown for the item (one line for memories, turns and documents). */
  body: string;
  /** The Markdown line(s) for a body. */
  render: (body: string) => string;
  /** Dedup keys: id and normalised content. */
  keys: string[];
  /** May be shortened to fit (memories, turns, documents, state); file lines are cut whole. */
  shortenable: boolean;
}

interface SectionPlan {
  title: string;
  candidates: Candidate[];
  /** Share of the room left when this section starts, used only if later sections have something. */
  share: number;
  /** Stop at the first line that does not fit (a file is cut, not sampled). */
  cutAtFirstMiss: boolean;
}

const oneLine = (t: string): string => t.replace(/\s+/g, ' ').trim();

function shortTime(iso: string | null): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') + 'Z' : '';
}

function stateCandidates(state: Awaited<ReturnType<typeof getState>>): Candidate[] {
  const { lines } = renderStateFile(state);
  const out: Candidate[] = [];
  const add = (label: string, content: string, line: number | undefined) => {
    const text = `${label}: ${content}`;
    out.push({
      item: { kind: 'state', text, source: line ? `${STATE_FILE}:${line}` : STATE_FILE },
      body: text,
      render: (t) => `- ${t.replace(/\n/g, '\n  ')}`,
      keys: [`text:${dedupText(content)}`],
      shortenable: true,
    });
  };
  if (state.objective) add('Objective', state.objective, lines.objective);
  state.blockers.forEach((b, i) => add('Blocker', b, lines.blockers[i]));
  state.nextActions.forEach((a, i) => add('Next', a, lines.nextActions[i]));
  if (state.notes) add('Notes', state.notes, lines.notes);
  return out;
}

/** MEMORY.md of the namespace folder, at most 256 KB; not followed out of the folder by a link. */
function readMemoryFile(path: string, nsDir: string): string | null {
  try {
    const real = realpathSync(path);
    const rel = relative(realpathSync(nsDir), real);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
    const st = statSync(real);
    if (!st.isFile()) return null;
    const fd = openSync(real, 'r');
    try {
      const buf = Buffer.alloc(Math.min(st.size, MEMORY_FILE_MAX_BYTES));
      const n = readSync(fd, buf, 0, buf.length, 0);
      return buf.subarray(0, n).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

function memoryFileCandidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  const lines = stripControl(text).split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    if (line.trim() === '') return;
    // The brief's own headings are H1/H2: the file's headings move down two levels.
    const shown = /^#{1,6}\s/.test(line) ? ('##' + line).replace(/^#{7,}/, '######') : line;
    const key = dedupText(line);
    out.push({
      item: { kind: 'memory-file', text: line, source: `${MEMORY_FILE}:${i + 1}` },
      body: line,
      render: () => shown,
      keys: key ? [`text:${key}`] : [],
      shortenable: false,
    });
  });
  return out;
}

function memoryCandidate(m: Memory): Candidate {
  return {
    item: { id: m.id, kind: 'memory', text: m.text, source: m.id },
    body: oneLine(m.text),
    render: (t: string) => `- ${t} [${m.category}, ${m.id}]`,
    keys: [`id:${m.id}`, `text:${dedupText(m.text)}`],
    shortenable: true,
  };
}

function displayPath(paths: HomePaths, ns: string, path: string): string {
  const dir = namespaceDir(paths, ns as Namespace);
  const rel = relative(dir, path);
  return isAbsolute(path) && rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : path;
}

function resultCandidate(r: SearchResult, paths: HomePaths, ns: string): Candidate | null {
  if (r.kind === 'memory') {
    const c = memoryCandidate({ id: r.id, text: r.text, category: (r.category ?? 'note') as Memory['category'] } as Memory);
    c.item.score = r.score;
    return c;
  }
  if (r.kind !== 'turn' && r.kind !== 'document' && r.kind !== 'digest') return null;
  const p = r.provenance.find((x) => typeof x.path === 'string' && x.path.length > 0);
  const line = typeof p?.line === 'number' ? p.line : undefined;
  const source = p?.path ? `${displayPath(paths, ns, p.path)}${line !== undefined ? `:${line}` : ''}` : r.id;
  // Transcripts are long paths an agent cannot open: the brief shows the file name; the item keeps it all.
  const shownSource = r.kind === 'turn' && p?.path ? `${basename(p.path)}${line !== undefined ? `:${line}` : ''}` : source;
  const role = r.kind === 'turn' ? r.provenance.find((x) => x.role)?.role : undefined;
  const prefix = r.kind === 'turn' ? `(${[r.time.slice(0, 10), role].filter(Boolean).join(', ')}) ` : '';
  const text = oneLine(r.text);
  return {
    item: { id: r.id, kind: r.kind, text: r.text, source, score: r.score },
    // A long turn or chunk is shown as its snippet (the part around the query's words).
    body: text.length > ITEM_MAX_TOKENS * 4 ? r.snippet : text,
    render: (t: string) => `- ${prefix}${t} [${shownSource}]`,
    keys: [`id:${r.id}`, `text:${dedupText(r.text)}`],
    shortenable: true,
  };
}

async function importantMemories(store: Store, ns: string): Promise<Memory[]> {
  const [recent, top] = await Promise.all([
    store.listMemories({ namespace: ns, limit: RECENT_CANDIDATES }),
    store.listMemories({ namespace: ns, limit: IMPORTANT_CANDIDATES, minImportance: IMPORTANT_BAR }),
  ]);
  const byId = new Map<string, Memory>();
  for (const m of [...top, ...recent]) if (m.category !== 'noise') byId.set(m.id, m);
  return [...byId.values()]
    .sort((a, b) => b.importance - a.importance || (b.createdAt < a.createdAt ? -1 : b.createdAt > a.createdAt ? 1 : 0))
    .slice(0, MAX_IMPORTANT_ITEMS * 3);
}

interface Chosen {
  title: string;
  items: Array<{ item: ContextItem; line: string }>;
}

function assemble(header: string, sections: readonly Chosen[], emptyNote: string | null): string {
  let text = header + '\n';
  for (const s of sections) {
    if (s.items.length === 0) continue;
    text += `\n${s.title}\n` + s.items.map((i) => i.line).join('\n') + '\n';
  }
  if (emptyNote && sections.every((s) => s.items.length === 0)) text += `\n${emptyNote}\n`;
  return text;
}

export async function buildContext(deps: ContextDeps, options: unknown): Promise<ContextBrief> {
  const input = parseInput(contextInputSchema, options ?? {}, 'context request');
  const budget = input.budgetTokens ?? CONTEXT_DEFAULT_BUDGET;
  const query = input.query ? input.query : null;
  const { store, paths, namespace: ns } = deps;
  const tok = await loadTokenizer();

  const [state, memories, results] = await Promise.all([
    getState(store, ns),
    importantMemories(store, ns),
    query ? deps.search(query, QUERY_RESULTS) : Promise.resolve([] as SearchResult[]),
  ]);
  // MEMORY.md may be edited by hand: what it shows passes the redaction gate like everything else.
  const memoryFileRaw = readMemoryFile(memoryFilePath(paths, ns), namespaceDir(paths, ns as Namespace));
  const memoryFile = memoryFileRaw === null ? null : gateText(memoryFileRaw);

  const queryTitle = query ? (query.length > QUERY_TITLE_CHARS ? query.slice(0, QUERY_TITLE_CHARS - 1) + '…' : query) : '';
  const plans: SectionPlan[] = [
    {
      title: `## Hot state (${STATE_FILE}${state.updatedAt ? `, updated ${shortTime(state.updatedAt)}` : ''})`,
      candidates: stateCandidates(state),
      share: 0.4,
      cutAtFirstMiss: true,
    },
    { title: `## ${MEMORY_FILE}`, candidates: memoryFile ? memoryFileCandidates(memoryFile) : [], share: 0.5, cutAtFirstMiss: true },
    { title: '## Important memories', candidates: memories.map(memoryCandidate), share: query ? 0.4 : 1, cutAtFirstMiss: false },
    {
      title: `## Relevant to "${queryTitle.replace(/"/g, "'")}"`,
      candidates: results.map((r) => resultCandidate(r, paths, ns)).filter((c): c is Candidate => c !== null),
      share: 1,
      cutAtFirstMiss: false,
    },
  ];

  const header = `# Memory brief: ${ns}`;
  const emptyNote = plans.every((p) => p.candidates.length === 0) ? '_No hot state or memories yet._' : null;
  let truncated = false;
  let room = budget - tok.count(header + '\n') - (emptyNote ? tok.count(`\n${emptyNote}\n`) : 0);
  const seen = new Set<string>();
  const chosen: Chosen[] = [];
  const importantIndex = 2;

  plans.forEach((plan, index) => {
    const section: Chosen = { title: plan.title, items: [] };
    chosen.push(section);
    if (plan.candidates.length === 0) return;
    const laterHasContent = plans.slice(index + 1).some((p) => p.candidates.length > 0);
    const cap = Math.floor(laterHasContent ? room * plan.share : room);
    const titleCost = tok.count(`\n${plan.title}\n`);
    let used = 0;
    let misses = 0;
    for (const c of plan.candidates) {
      if (c.keys.some((k) => seen.has(k))) continue;
      if (index === importantIndex && section.items.length >= MAX_IMPORTANT_ITEMS) break;
      const overhead = section.items.length === 0 ? titleCost : 0;
      let body = c.body;
      let line = c.render(body);
      let cost = tok.count(line + '\n');
      const frame = () => tok.count(c.render('') + '\n');
      if (c.shortenable && cost > ITEM_MAX_TOKENS) {
        body = tok.truncate(oneLine(body), ITEM_MAX_TOKENS - frame());
        line = c.render(body);
        cost = tok.count(line + '\n');
        truncated = true;
      }
      if (used + overhead + cost > cap) {
        truncated = true;
        const left = cap - used - overhead - frame();
        let fitted = false;
        if (c.shortenable && left >= MIN_PARTIAL_TOKENS) {
          // Shorten to the room left; a token can merge at the edges, so step down until it fits.
          for (let n = left - 1; n >= MIN_PARTIAL_TOKENS / 2 && !fitted; n -= 2) {
            const shortBody = tok.truncate(oneLine(c.body), n);
            const shortLine = c.render(shortBody);
            const shortCost = tok.count(shortLine + '\n');
            if (used + overhead + shortCost <= cap) {
              body = shortBody;
              line = shortLine;
              cost = shortCost;
              fitted = true;
            }
          }
        }
        if (!fitted) {
          if (plan.cutAtFirstMiss || ++misses > 3) break;
          continue;
        }
      }
      section.items.push({ item: { ...c.item, text: body }, line });
      used += overhead + cost;
      for (const k of c.keys) seen.add(k);
    }
    room -= used;
  });

  // The per-piece counts are close but not exact (tokens can merge across line breaks): check the
  // whole text and drop items from the end until it fits.
  let text = assemble(header, chosen, emptyNote);
  let usedTokens = tok.count(text);
  while (usedTokens > budget) {
    const last = [...chosen].reverse().find((s) => s.items.length > 0);
    if (!last) {
      text = tok.truncate(text, budget);
      usedTokens = tok.count(text);
      break;
    }
    last.items.pop();
    truncated = true;
    text = assemble(header, chosen, emptyNote);
    usedTokens = tok.count(text);
  }

  return {
    namespace: ns,
    query,
    budgetTokens: budget,
    usedTokens,
    tokenizer: CONTEXT_TOKENIZER,
    sections: chosen.filter((s) => s.items.length > 0).map((s) => ({ title: s.title.replace(/^#+\s*/, ''), items: s.items.map((i) => i.item) })),
    text,
    truncated,
  };
}
