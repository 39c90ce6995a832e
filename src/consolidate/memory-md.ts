// Layer 1, MEMORY.md: the page an agent reads first. Links to the other layers, then what matters
// by age — the last 7 days in full (hot), days 8–30 one short line each (warm), anything older only
// by link to its weekly file (cold) — the active subjects, the decisions still in force and the
// open items of the hot state. At most `maxLines` lines, whatever the input: the parts share the
// lines by priority (line-budget.ts). The person's section is carried over untouched and counted
// first, so a long one shrinks the generated parts, never itself. If the person's section alone
// leaves no room, the file is the title, their section and a one-line note — and then it is longer
// than `maxLines` by exactly as much as their own text is: Cairn never cuts a person's words.
import { isoWeekOf } from './windows.js';
import type { DigestKind, DigestSource } from '../core/types.js';
import { citation, type Item, type Rendered } from './contracts.js';
import { sectionsOf } from './digest-sections.js';
import { placeParts, type BudgetPart } from './line-budget.js';
import { GENERATED_MARKER, carriedPersonText, personBlockLines, withPersonSection } from './person-sections.js';
import { inlineSafe, oneLine } from './topics.js';
import { pointText } from './point-text.js';

/** The issue's bar for MEMORY.md. */
export const MEMORY_MD_MAX_LINES = 150;
/** Fewer lines leave no room for the title, an empty person section and one line of links. */
export const MEMORY_MD_MIN_LINES = 10;

/** What MEMORY.md shows of the hot state (service/hot-state.ts's HotState fits it). */
export interface MemoryHotState {
  objective?: string | null;
  blockers?: readonly string[];
  nextActions?: readonly string[];
  notes?: string | null;
}

export interface MemoryMdInput {
  namespace: string;
  /** The local day the file is written for, `YYYY-MM-DD`: ages are counted from it. */
  today: string;
  timeZone: string;
  /** At most this many lines (clamped to 10–150). */
  maxLines: number;
  /** Current memories of the last 30 days or more (older ones are ignored: cold tier, by link). */
  memories: readonly Item[];
  /** The decisions still in force; one that is not current is dropped all the same. */
  decisionsInForce: readonly Item[];
  hotState: MemoryHotState | null;
  /** The digest files that exist (path relative to the namespace folder). */
  digests: ReadonlyArray<{ kind: DigestKind; path: string; periodStart: string }>;
  topics: ReadonlyArray<{ slug: string; title: string; days: readonly string[] }>;
  /** Promoted entities with a life/ page (life.ts); archived ones are left out here. */
  entities?: ReadonlyArray<MemoryEntity>;
  existingText: string | null;
}

/** A promoted entity as MEMORY.md links it. */
export interface MemoryEntity {
  name: string;
  type: string;
  relation: string | null;
  kind: string;
  /** `life/<kind>/<slug>/summary.md`. */
  path: string;
  lastSeen: string;
  mentions: number;
}

const HOT_DAYS = 7;
const WARM_DAYS = 30;
const HOT_POINT = 220;
const WARM_POINT = 100;
const DECISION_POINT = 180;
const STATE_POINT = 200;
const DAY_LINKS = 7;
const OLDER_WEEKS = 8;

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const PATH_RE: Partial<Record<DigestKind, RegExp>> = {
  daily: /^daily\/(\d{4}-\d{2}-\d{2})\.md$/,
  night: /^daily\/(\d{4}-\d{2}-\d{2})-last-night\.md$/,
  review: /^reviews\/(\d{4}-\d{2}-\d{2})\.md$/,
  weekly: /^weekly\/(\d{4}-W\d{2})\.md$/,
};

/** Days since 1970-01-01 of a calendar day, or null when it is not one. */
function dayNumber(day: string): number | null {
  const m = DAY_RE.exec(day);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(ms) ? null : ms / 86_400_000;
}

/** The ISO week (`YYYY-Www`) of the calendar day `n` days after 1970-01-01. */
function isoWeek(n: number): string {
  return isoWeekOf(new Date(n * 86_400_000).toISOString().slice(0, 10));
}

const importanceOf = (it: Item): number => it.importance ?? 5;
/** Most important first, then the newest, then by id: which points a short budget keeps. */
const byWeight = (a: Item, b: Item): number =>
  importanceOf(b) - importanceOf(a) || (a.time < b.time ? 1 : a.time > b.time ? -1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const sourceOf = (it: Item): DigestSource => ({ kind: it.kind, id: it.id, time: it.time });
const linkText = (s: string): string => s.replace(/[[\]]/g, (c) => `\\${c}`);

/** Point lines of some records, most wanted first, one per distinct point; `order` shows them oldest first. */
function pointLines(items: readonly Item[], line: (it: Item, point: string) => string, max: number, cited: Map<string, DigestSource>) {
  const seen = new Set<string>();
  const out: Array<{ line: string; order: string }> = [];
  for (const it of [...items].sort(byWeight)) {
    const point = pointText(it.text, max);
    const key = point.normalize('NFKC').toLowerCase();
    if (point === '' || seen.has(key)) continue;
    seen.add(key);
    cited.set(it.id, sourceOf(it));
    out.push({ line: line(it, point), order: `${it.time}\u0000${it.id}` });
  }
  return out;
}

interface Files {
  daily: string[];
  night: string[];
  review: string[];
  weekly: string[];
}

/** The digest files by kind, as the day or week their path names, ascending; paths Cairn would not write are ignored. */
function filesOf(digests: MemoryMdInput['digests']): Files {
  const files: Files = { daily: [], night: [], review: [], weekly: [] };
  for (const d of digests) {
    const re = PATH_RE[d.kind];
    const m = re?.exec(d.path);
    if (m) files[d.kind as keyof Files].push(m[1]!);
  }
  for (const k of Object.keys(files) as Array<keyof Files>) files[k] = [...new Set(files[k])].sort();
  return files;
}

function linkParts(input: MemoryMdInput, files: Files, todayN: number): BudgetPart {
  const thisWeek = isoWeek(todayN);
  const lastWeek = isoWeek(todayN - 7);
  const layers: string[] = [];
  const review = files.review.filter((d) => d <= input.today).at(-1);
  if (review) layers.push(`[latest review ${review}](reviews/${review}.md)`);
  if (files.weekly.includes(thisWeek)) layers.push(`[this week ${thisWeek}](weekly/${thisWeek}.md)`);
  if (files.weekly.includes(lastWeek)) layers.push(`[last week ${lastWeek}](weekly/${lastWeek}.md)`);
  if (input.topics.length > 0) layers.push('[topics](topics/)');
  layers.push('[raw log](raw/)');
  if (input.hotState) layers.push('[session state](SESSION-STATE.md)');
  const days = (list: string[], suffix: string) =>
    list.filter((d) => d <= input.today).slice(-DAY_LINKS).map((d) => `[${d}](daily/${d}${suffix}.md)`).join(' · ');
  const candidates = [{ line: `Layers: ${layers.join(' · ')}`, order: 1 }];
  const daily = days(files.daily, '');
  if (daily) candidates.push({ line: `Daily notes: ${daily}`, order: 2 });
  const night = days(files.night, '-last-night');
  if (night) candidates.push({ line: `Last-night notes: ${night}`, order: 3 });
  const tz = oneLine(input.timeZone, 60).replace(/[`*_[\]<>]/g, '');
  candidates.push({ line: `As of ${input.today} (${tz}). Last 7 days in full, days 8–30 condensed, older weeks by link.`, order: 0 });
  return { key: 'links', heading: null, candidates, minLines: 1, maxLines: 4 };
}

function openItems(state: MemoryHotState | null): BudgetPart {
  const candidates: Array<{ line: string; order: number }> = [];
  const add = (label: string, text: string | null | undefined) => {
    const point = text ? inlineSafe(oneLine(text, STATE_POINT)) : '';
    if (point) candidates.push({ line: `- ${label}: ${point}`, order: candidates.length });
  };
  add('Objective', state?.objective);
  for (const b of state?.blockers ?? []) add('Blocked', b);
  for (const n of state?.nextActions ?? []) add('Next', n);
  add('Notes', state?.notes);
  return { key: 'open', heading: 'Open items', candidates, minLines: 3, maxLines: 12 };
}

function activeSubjects(input: MemoryMdInput, todayN: number, recent: readonly Item[]): BudgetPart {
  const topics = input.topics
    .filter((t) => /^[a-z0-9-]{1,60}$/.test(t.slug) && t.days.length > 0)
    .map((t) => ({ ...t, last: [...t.days].sort().at(-1)! }))
    .filter((t) => {
      const n = dayNumber(t.last);
      return n !== null && todayN - n <= WARM_DAYS;
    })
    .sort((a, b) => (a.last < b.last ? 1 : a.last > b.last ? -1 : b.days.length - a.days.length || (a.slug < b.slug ? -1 : 1)));
  const candidates: Array<{ line: string; order: number }> = topics.map((t, i) => ({
    line: `- [${linkText(inlineSafe(oneLine(t.title, 80)))}](topics/${t.slug}.md): ${new Set(t.days).size} days, last ${t.last}`,
    order: i + 1,
  }));
  // Tags of recent memories that have no page of their own, by the days they came up on.
  const titled = new Set(input.topics.map((t) => t.title.toLowerCase()));
  const tagDays = new Map<string, Set<string>>();
  for (const it of recent) {
    for (const raw of it.tags) {
      const tag = oneLine(raw, 40).replace(/^#/, '');
      if (!tag || titled.has(tag.toLowerCase())) continue;
      (tagDays.get(tag) ?? tagDays.set(tag, new Set()).get(tag)!).add(it.localDay);
    }
  }
  const tags = [...tagDays].sort(([a, da], [b, db]) => db.size - da.size || (a < b ? -1 : 1)).slice(0, 8);
  if (tags.length > 0) {
    const line = `Tags: ${tags.map(([t, d]) => `${inlineSafe(t).replace(/`/g, "'")} (${d.size} day${d.size === 1 ? '' : 's'})`).join(' · ')}`;
    // Wanted right after the first topic, shown after all of them.
    candidates.splice(Math.min(1, candidates.length), 0, { line, order: topics.length + 1 });
  }
  return { key: 'subjects', heading: 'Active projects / subjects', candidates, minLines: 3, maxLines: 10 };
}

const KIND_ORDER = ['projects', 'areas', 'resources'];
const LIFE_PAGE = /^life\/[a-z]+\/[a-z0-9-]+\/summary\.md$/;

/** People & projects: the active drawers' entities, projects first, then the most mentioned; at most 12 lines with the index link. */
function peopleAndProjects(input: MemoryMdInput): BudgetPart {
  const entities = (input.entities ?? [])
    .filter((e) => KIND_ORDER.includes(e.kind) && LIFE_PAGE.test(e.path))
    .sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || b.mentions - a.mentions || (a.lastSeen < b.lastSeen ? 1 : a.lastSeen > b.lastSeen ? -1 : a.path < b.path ? -1 : 1));
  if (entities.length === 0) return { key: 'people', heading: 'People & projects', candidates: [], minLines: 2, maxLines: 12 };
  const candidates: Array<{ line: string; order: number }> = [{ line: `All of them: [life/index.md](life/index.md)`, order: Number.MAX_SAFE_INTEGER }];
  entities.forEach((e, i) => {
    const relation = e.relation && e.relation.trim() !== '' ? `, your ${inlineSafe(oneLine(e.relation, 40)).replace(/`/g, "'")}` : '';
    candidates.push({ line: `- [${linkText(inlineSafe(oneLine(e.name, 80)))}](${e.path}): ${e.type}${relation}, ${e.mentions} mention${e.mentions === 1 ? '' : 's'}`, order: i });
  });
  return { key: 'people', heading: 'People & projects', candidates, minLines: 2, maxLines: 12 };
}

function olderWeeks(files: Files, todayN: number): BudgetPart {
  const lastWeek = isoWeek(todayN - 7);
  const weeks = files.weekly.filter((w) => w < lastWeek).reverse().slice(0, OLDER_WEEKS);
  const line = weeks.length === 0 ? '' : `Weekly distills: ${weeks.map((w) => `[${w}](weekly/${w}.md)`).join(' · ')} · [all weeks](weekly/)`;
  return { key: 'older', heading: 'Older', candidates: line ? [{ line, order: 0 }] : [], minLines: 1, maxLines: 1 };
}

/** Display order of the parts (the budget places them by priority, see renderMemoryMd). */
const SHOWN = ['links', 'hot', 'warm', 'subjects', 'people', 'decisions', 'open', 'older'];

/** MEMORY.md of a namespace: deterministic, at most `maxLines` lines unless the person's own section alone is longer. */
export function renderMemoryMd(input: MemoryMdInput): Rendered {
  const todayN = dayNumber(input.today);
  if (todayN === null) throw new Error(`renderMemoryMd: today must be a calendar day YYYY-MM-DD, got ${JSON.stringify(input.today)}`);
  const maxLines = Number.isFinite(input.maxLines) ? Math.min(MEMORY_MD_MAX_LINES, Math.max(MEMORY_MD_MIN_LINES, Math.floor(input.maxLines))) : MEMORY_MD_MAX_LINES;
  const person = carriedPersonText(input.existingText);
  const title = `# Memory: ${inlineSafe(oneLine(input.namespace, 80))}`;
  // Marker, title, the blank line after it and the person's section.
  const fixed = 3 + personBlockLines(person);
  const cited = new Map<string, DigestSource>();

  const decisions = input.decisionsInForce.filter((d) => d.current);
  const decisionIds = new Set(decisions.map((d) => d.id));
  const ageOf = (it: Item): number | null => {
    const n = dayNumber(it.localDay);
    return n === null ? null : todayN - n;
  };
  const current = input.memories.filter((m) => m.current && !decisionIds.has(m.id) && ageOf(m) !== null);
  const hot = current.filter((m) => ageOf(m)! <= HOT_DAYS);
  const warm = current.filter((m) => ageOf(m)! > HOT_DAYS && ageOf(m)! <= WARM_DAYS);
  const files = filesOf(input.digests);

  // Priority: how to find the rest, what is open now, what was decided, the last week, the subjects,
  // the rest of the month, then older weeks. Each part gets its quota first, then grows in this order.
  const parts: BudgetPart[] = [
    linkParts(input, files, todayN),
    openItems(input.hotState),
    {
      key: 'decisions',
      heading: 'Decisions in force',
      candidates: pointLines(decisions, (it, p) => `- ${it.localDay} ${p} ${citation([sourceOf(it)])}`, DECISION_POINT, cited),
      minLines: 3,
      maxLines: 20,
    },
    {
      key: 'hot',
      heading: 'This week',
      candidates: pointLines(hot, (it, p) => `- ${it.localDay} ${it.localTime} ${p} ${citation([sourceOf(it)])}`, HOT_POINT, cited),
      minLines: 5,
      maxLines: 60,
    },
    activeSubjects(input, todayN, [...hot, ...warm]),
    peopleAndProjects(input),
    {
      key: 'warm',
      heading: 'Earlier this month',
      candidates: pointLines(warm, (it, p) => `- ${it.localDay} ${p} ${citation([sourceOf(it)])}`, WARM_POINT, cited),
      minLines: 3,
      maxLines: 20,
    },
    olderWeeks(files, todayN),
  ];
  const placed = placeParts(parts, maxLines - fixed).sort((a, b) => SHOWN.indexOf(a.key) - SHOWN.indexOf(b.key));

  const lines = [GENERATED_MARKER, title];
  for (const part of placed) {
    lines.push('');
    if (part.heading !== null) lines.push(`## ${part.heading}`, '');
    lines.push(...part.lines);
  }
  if (placed.length === 0 && maxLines - fixed < 2) {
    lines.push(
      '',
      `<!-- cairn: your section is ${personBlockLines(person)} lines and this file holds at most ${maxLines}: the generated parts are left out until it is shorter. -->`,
    );
  }
  const text = withPersonSection(`${lines.join('\n')}\n`, person);
  return { text, sections: sectionsOf(text, cited) };
}
