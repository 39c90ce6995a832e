// The knowledge-update benchmark's data: seeded personas, each a 12-week generic-JSONL chat with
// an assistant in which facts change (moves, job and role changes, version bumps, preference
// changes, ports and hosts), with filler chat and re-mentions of the current values, and the
// questions whose answers those timelines fix: the newest value ("current") and the value valid
// on a past date ("as of"). A few personas also have a second file of older turns, captured after
// the first: an old fact learned late must not replace the newer one.
import { seeded } from '../test/helpers/prng.js';

export const START_DAY = '2026-01-05';
export const WEEKS = 12;
const DAYS = WEEKS * 7;

export type Shape = 'lives' | 'works' | 'role' | 'version' | 'coffee' | 'editor' | 'port' | 'host';

export interface Timeline {
  id: string;
  shape: Shape;
  /** The service or tool it is about ('' for facts about the persona). */
  thing: string;
  /** Values in the order they became true; each differs from the others and is in none of them. */
  values: string[];
  /** Day (0-based from START_DAY) each value was first stated. */
  days: number[];
  /** Values whose turns are only in the late file (captured after the main one). */
  lateValues: number;
}

export interface ChatLine {
  role: 'user' | 'assistant';
  content: string;
  timestamp: string;
  id: string;
  session: string;
  speaker: string;
}

export interface Question {
  id: string;
  persona: string;
  timeline: string;
  type: 'current' | 'as-of';
  text: string;
  /** The as-of date (YYYY-MM-DD) for as-of questions. */
  date?: string;
  answer: string;
  /** Every value of the timeline: a result naming one of them is about the question. */
  values: string[];
}

export interface Persona {
  /** Namespace-safe slug. */
  slug: string;
  name: string;
  project: string;
  timelines: Timeline[];
  main: ChatLine[];
  /** Older turns in a file of their own, ingested after `main` (empty for most personas). */
  late: ChatLine[];
  questions: Question[];
}

type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const intIn = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
function shuffle<T>(rng: Rng, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function dayDate(day: number): string {
  const t = Date.parse(`${START_DAY}T00:00:00Z`) + day * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

const FIRST = ['Ana', 'Bruno', 'Chiara', 'Dmitri', 'Esme', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Lars', 'Maya', 'Nikhil', 'Olga', 'Pablo', 'Quinn', 'Rosa', 'Sven', 'Tamar'];
const LAST = ['Souza', 'Keller', 'Marino', 'Petrov', 'Lindqvist', 'Haddad', 'Novak', 'Tanaka', 'Ferreira', 'Weber', 'Adeyemi', 'Nilsen', 'Cohen', 'Rao', 'Ivanova', 'Ortega'];
const PROJECTS = ['Heron', 'Kestrel', 'Osprey', 'Puffin', 'Lark', 'Wren', 'Ibis', 'Egret', 'Condor', 'Plover', 'Tern', 'Merlin', 'Avocet', 'Shrike', 'Dunlin', 'Gannet'];
const CITIES = ['Lisbon', 'Porto', 'Berlin', 'Hamburg', 'Madrid', 'Valencia', 'Toronto', 'Montreal', 'Oslo', 'Bergen', 'Kyoto', 'Osaka', 'Dublin', 'Vienna', 'Seattle', 'Denver', 'Zurich', 'Prague', 'Warsaw', 'Krakow'];
const COMPANIES = ['Globex', 'Initech', 'Umbrella Labs', 'Hooli', 'Vandelay Industries', 'Stark Analytics', 'Wayne Logistics', 'Pied Piper', 'Tyrell Robotics', 'Cyberdyne Data', 'Massive Dynamic', 'Aperture Metrics'];
const ROLES = ['tech lead', 'staff engineer', 'engineering manager', 'product manager', 'site reliability engineer', 'data scientist', 'principal engineer', 'QA lead'];
const COFFEES = ['cortado', 'flat white', 'oat latte', 'espresso', 'cold brew', 'chai latte', 'cappuccino'];
const EDITORS = ['Vim', 'VS Code', 'Emacs', 'Zed', 'Sublime Text', 'IntelliJ'];
const TOOLS: ReadonlyArray<{ tool: string; versions: string[] }> = [
  { tool: 'Node', versions: ['Node 18', 'Node 20', 'Node 22'] },
  { tool: 'Postgres', versions: ['Postgres 14', 'Postgres 15', 'Postgres 16'] },
  { tool: 'Python', versions: ['Python 3.10', 'Python 3.11', 'Python 3.12'] },
  { tool: 'Java', versions: ['Java 11', 'Java 17', 'Java 21'] },
  { tool: 'Go', versions: ['Go 1.21', 'Go 1.22', 'Go 1.23'] },
];
const PORT_SERVICES = ['staging database', 'Redis cache', 'metrics exporter', 'admin dashboard', 'search service'];
const HOST_SERVICES = ['API gateway', 'build server', 'VPN gateway', 'log collector'];
const HOST_WORDS = ['amber', 'birch', 'cobalt', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper'];

/** What a timeline is about, for its sentences and questions. */
interface Subject {
  shape: Shape;
  project: string;
  /** The service, tool or nothing. */
  thing: string;
}

type Template = (v: string, s: Subject, old: string) => string;
/** Sentences per shape: the first statement, a change (some naming the old value), a re-mention. */
const SAY: Record<Shape, { first: Template[]; change: Template[]; fromOld: Template[]; again: Template[] }> = {
  lives: {
    first: [(v) => `I live in ${v}, close to the river.`, (v) => `Quick context about me: I'm based in ${v}.`, (v) => `Home for me is ${v} these days.`],
    change: [(v) => `Big news: I moved to ${v} last weekend.`, (v) => `I now live in ${v}.`, (v) => `We finally relocated, I'm living in ${v} now.`, (v) => `I live in ${v}.`],
    fromOld: [(v, _s, o) => `I moved from ${o} to ${v}, the boxes are still everywhere.`],
    again: [(v) => `The weather in ${v} is grim today, so I'm working from home.`, (v) => `I'm looking for a good coworking space in ${v}.`],
  },
  works: {
    first: [(v) => `I work at ${v} in the platform group.`, (v) => `For context, my employer is ${v}.`],
    change: [(v) => `I switched jobs: I started at ${v} this week.`, (v) => `I now work at ${v}.`, (v) => `I joined ${v} on Monday.`, (v) => `I work at ${v}.`],
    fromOld: [(v, _s, o) => `I left ${o} and started at ${v} this week.`],
    again: [(v) => `Busy day at ${v}, back-to-back meetings.`, (v) => `${v} has a hackathon next month and I signed up.`],
  },
  role: {
    first: [(v, s) => `My role is ${v} on the ${s.project} team.`, (v, s) => `I'm the ${v} for ${s.project}.`],
    change: [(v) => `I got promoted, I'm now ${v}.`, (v, s) => `Role change: from today I'm the ${v} on ${s.project}.`, (v) => `My role is ${v}.`, (v) => `I switched to the ${v} role.`],
    fromOld: [(v, _s, o) => `I moved from ${o} to ${v} this month.`],
    again: [(v) => `As ${v} I have to review the roadmap this week.`],
  },
  version: {
    first: [(v, s) => `The ${s.project} backend runs on ${v}.`, (v, s) => `${s.project} is built against ${v}.`],
    change: [(v, s) => `We upgraded the ${s.project} backend to ${v}.`, (v, s) => `${s.project} now runs on ${v}.`, (v, s) => `Switched the ${s.project} build to ${v} today.`, (v, s) => `The ${s.project} backend runs on ${v}.`],
    fromOld: [(v, s, o) => `We bumped ${s.project} from ${o} to ${v}, all tests pass.`],
    again: [(v, s) => `CI for ${s.project} is green on ${v}.`],
  },
  coffee: {
    first: [(v) => `My usual coffee order is a ${v}.`, (v) => `I always get a ${v} in the morning.`],
    change: [(v) => `These days I drink a ${v} instead.`, (v) => `I now prefer a ${v} as my coffee.`, (v) => `My usual coffee order is a ${v}.`],
    fromOld: [(v, _s, o) => `I switched from ${o} to ${v}, much better.`],
    again: [(v) => `Grabbing a ${v} before standup.`],
  },
  editor: {
    first: [(v) => `I write all my code in ${v}.`, (v) => `My editor is ${v}, with a minimal config.`],
    change: [(v) => `I switched my editor to ${v}.`, (v) => `I now use ${v} as my editor.`, (v) => `My editor is ${v}.`],
    fromOld: [(v, _s, o) => `I moved from ${o} to ${v} for editing, the plugins won me over.`],
    again: [(v) => `Spent the morning tweaking my ${v} keybindings.`],
  },
  port: {
    first: [(v, s) => `The ${s.project} ${s.thing} runs on port ${v}.`, (v, s) => `The ${s.thing} for ${s.project} listens on port ${v}.`],
    change: [(v, s) => `We moved the ${s.project} ${s.thing} to port ${v}.`, (v, s) => `The ${s.project} ${s.thing} now listens on port ${v}.`, (v, s) => `The ${s.project} ${s.thing} runs on port ${v}.`],
    fromOld: [(v, s, o) => `Heads up: the ${s.project} ${s.thing} switched from port ${o} to ${v}.`],
    again: [(v, s) => `Reminder: the ${s.project} ${s.thing} is on port ${v}, not the default.`],
  },
  host: {
    first: [(v, s) => `The ${s.project} ${s.thing} is hosted at ${v}.`, (v, s) => `The ${s.thing} for ${s.project} runs on the host ${v}.`],
    change: [(v, s) => `We migrated the ${s.project} ${s.thing} to ${v}.`, (v, s) => `The ${s.project} ${s.thing} now runs on ${v}.`, (v, s) => `The ${s.project} ${s.thing} is hosted at ${v}.`],
    fromOld: [(v, s, o) => `The ${s.project} ${s.thing} moved from ${o} to ${v} last night.`],
    again: [(v, s) => `The ${s.project} ${s.thing} on ${v} was slow this morning.`],
  },
};

function ask(s: Subject, date?: string): string {
  const on = date ? ` on ${date}` : '';
  switch (s.shape) {
    case 'lives': return date ? `Which city did I live in${on}?` : 'Which city do I live in?';
    case 'works': return date ? `Which company did I work at${on}?` : 'Which company do I work at?';
    case 'role': return date ? `What was my role${on}?` : 'What is my role?';
    case 'version': return date ? `Which ${s.thing} version did the ${s.project} backend run on${on}?` : `Which ${s.thing} version does the ${s.project} backend run on?`;
    case 'coffee': return date ? `What was my usual coffee order${on}?` : 'What is my usual coffee order?';
    case 'editor': return date ? `Which editor did I use${on}?` : 'Which editor do I use?';
    case 'port': return date ? `Which port did the ${s.project} ${s.thing} use${on}?` : `Which port does the ${s.project} ${s.thing} use?`;
    case 'host': return date ? `Which host was the ${s.project} ${s.thing} on${on}?` : `Which host is the ${s.project} ${s.thing} on?`;
  }
}

const FILLER_USER = [
  'Can you help me draft the sprint notes for tomorrow?', 'Let us look at the flaky test in the auth module again.', 'Remind me to call the dentist on Thursday.',
  'What is a good name for a retro board?', 'Summarise the thread about the release checklist, please.', 'I need a regex that matches ISO dates.',
  'Write a short apology for missing the design review.', 'How do I squash the last three commits?', 'Any ideas for a team offsite activity?',
  'Explain the difference between a mutex and a semaphore briefly.', 'The demo went fine, people liked the charts.', 'I am tired today, keep answers short.',
  'Draft a reply declining the vendor call.', 'What should I read about event sourcing?', 'Turn these bullet points into a paragraph.',
];
const FILLER_ASSISTANT = [
  'Sure, here is a first draft you can edit.', 'Done. Let me know if you want it shorter.', 'Here are three options to pick from.',
  'Good question: in short, it depends on the workload.', 'Understood.', 'Here is a version with the main points first.',
];
const ACKS = ['Noted, I will keep that in mind.', 'Got it.', 'Thanks for the update.', 'Okay, noted.'];

/** The values of one timeline: distinct, and none contains another. */
function timelineValues(rng: Rng, shape: Shape, n: number, project: string): { values: string[]; thing: string } {
  const distinct = (pool: readonly string[]) => shuffle(rng, pool).slice(0, n);
  switch (shape) {
    case 'lives': return { values: distinct(CITIES), thing: '' };
    case 'works': return { values: distinct(COMPANIES), thing: '' };
    case 'role': return { values: distinct(ROLES), thing: '' };
    case 'coffee': return { values: distinct(COFFEES), thing: '' };
    case 'editor': return { values: distinct(EDITORS), thing: '' };
    case 'version': {
      const t = pick(rng, TOOLS);
      return { values: t.versions.slice(t.versions.length - n), thing: t.tool };
    }
    case 'port': {
      const ports = new Set<string>();
      while (ports.size < n) ports.add(String(intIn(rng, 2000, 9899)));
      return { values: [...ports], thing: pick(rng, PORT_SERVICES) };
    }
    case 'host': {
      const slug = project.toLowerCase();
      return { values: shuffle(rng, HOST_WORDS).slice(0, n).map((w, i) => `${w}-${i + 1}.${slug}.internal`), thing: pick(rng, HOST_SERVICES) };
    }
  }
}

interface Said {
  day: number;
  text: string;
  late: boolean;
}

/** One persona: its timelines, what it said when, its files and its questions. */
function persona(rng: Rng, index: number): Persona {
  const name = `${FIRST[index % FIRST.length]} ${LAST[(index * 7 + 3) % LAST.length]}`;
  const slug = `p${String(index).padStart(2, '0')}-${name.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  const project = PROJECTS[index % PROJECTS.length]!;
  const hasLate = index % 7 === 3;
  const shapes = shuffle(rng, ['lives', 'works', 'role', 'version', 'coffee', 'editor', 'port', 'host'] as Shape[]).slice(0, 5);
  if (hasLate && !shapes.includes('port')) shapes[0] = 'port';
  const timelines: Timeline[] = [];
  const said: Said[] = [];
  for (const shape of shapes) {
    const late = hasLate && shape === 'port';
    const n = late ? 2 : rng() < 0.35 ? 3 : 2;
    const { values, thing } = timelineValues(rng, shape, n, project);
    const subject: Subject = { shape, project, thing };
    // Changes at least two weeks apart, the last one before the final week.
    const days = [intIn(rng, 0, 10)];
    for (let i = 1; i < n; i++) days.push(intIn(rng, days[i - 1]! + 14, DAYS - 8 - 14 * (n - 1 - i)));
    const t: Timeline = { id: `${slug}/${shape}`, shape, thing, values, days, lateValues: late ? 1 : 0 };
    timelines.push(t);
    values.forEach((v, i) => {
      const isLate = i < t.lateValues;
      const text = i === 0 ? pick(rng, SAY[shape].first)(v, subject, '')
        : !isLate && i - 1 >= t.lateValues && rng() < 0.3 ? pick(rng, SAY[shape].fromOld)(v, subject, values[i - 1]!)
        : pick(rng, SAY[shape].change)(v, subject, '');
      said.push({ day: days[i]!, text, late: isLate });
      // Re-mentions of the value while it holds, never on the day of a change.
      const end = days[i + 1] ?? DAYS;
      for (let k = intIn(rng, 0, 2); k > 0; k--) {
        if (end - days[i]! < 4) break;
        said.push({ day: intIn(rng, days[i]! + 2, end - 2), text: pick(rng, SAY[shape].again)(v, subject, ''), late: isLate });
      }
    });
  }
  const { main, late } = transcripts(rng, slug, name, said);
  const questions: Question[] = [];
  for (const t of timelines) {
    const subject: Subject = { shape: t.shape, project, thing: t.thing };
    questions.push({ id: `${t.id}/current`, persona: slug, timeline: t.id, type: 'current', text: ask(subject), answer: t.values[t.values.length - 1]!, values: t.values });
    for (let i = 0; i + 1 < t.values.length; i++) {
      const date = dayDate(Math.floor((t.days[i]! + t.days[i + 1]!) / 2));
      questions.push({ id: `${t.id}/as-of-${date}`, persona: slug, timeline: t.id, type: 'as-of', text: ask(subject, date), date, answer: t.values[i]!, values: t.values });
    }
  }
  return { slug, name, project, timelines, main, late, questions };
}

/** Sessions of the 12 weeks: every day something is said, plus filler days; times in daytime UTC. */
function transcripts(rng: Rng, slug: string, speaker: string, said: Said[]): { main: ChatLine[]; late: ChatLine[] } {
  const byDay = new Map<number, Said[]>();
  for (const s of said) byDay.set(s.day, [...(byDay.get(s.day) ?? []), s]);
  for (let w = 0; w < WEEKS; w++) for (let k = intIn(rng, 1, 2); k > 0; k--) {
    const d = w * 7 + intIn(rng, 0, 4);
    if (!byDay.has(d)) byDay.set(d, []);
  }
  const main: ChatLine[] = [];
  const late: ChatLine[] = [];
  for (const day of [...byDay.keys()].sort((a, b) => a - b)) {
    for (const fileLate of [false, true]) {
      const facts = byDay.get(day)!.filter((s) => s.late === fileLate);
      if (fileLate && facts.length === 0) continue;
      const out = fileLate ? late : main;
      const session = `${slug}-${dayDate(day)}${fileLate ? '-late' : ''}`;
      let minute = intIn(rng, 8 * 60, 16 * 60);
      const turn = (role: ChatLine['role'], content: string) => {
        minute += intIn(rng, 1, 6);
        const ts = new Date(Date.parse(`${dayDate(day)}T00:00:00Z`) + minute * 60_000).toISOString();
        out.push({ role, content, timestamp: ts, id: `${session}-${out.length}`, session, speaker: role === 'user' ? speaker : 'assistant' });
      };
      const fillers = intIn(rng, 1, 3);
      const order = shuffle(rng, [...facts.map((f) => f.text), ...Array.from({ length: fillers }, () => '')]);
      for (const text of order) {
        if (text) {
          turn('user', text);
          turn('assistant', pick(rng, ACKS));
        } else {
          turn('user', pick(rng, FILLER_USER));
          turn('assistant', pick(rng, FILLER_ASSISTANT));
        }
      }
    }
  }
  return { main, late };
}

export interface Dataset {
  seed: number;
  personas: Persona[];
}

/** The whole dataset for a seed: the same seed gives the same bytes. */
export function generate(seed: number, personas = 40): Dataset {
  const rng = seeded(seed);
  const out: Persona[] = [];
  for (let i = 0; i < personas; i++) out.push(persona(rng, i));
  return { seed, personas: out };
}

const LEADS = ['', '', 'FYI: ', 'Note for later: ', 'Just confirming: ', 'As discussed, ', 'For the record, ', 'Quick update: ', 'Heads up, ', 'To be clear, '];
const TAILS = ['.', '.', ' (checked again today).', ', see the runbook.', ', as agreed with the team.', ' for the foreseeable future.', ', per the latest notes.', ', if anyone asks.'];

/**
 * `n` fact-bearing user turns for throughput runs: many subjects (projects × shapes), each stated,
 * changed, re-mentioned and restated over a year, so most turns become memories and many facts
 * supersede others. Deterministic for a seed.
 */
export function* factTurns(seed: number, n: number): Generator<ChatLine> {
  const rng = seeded(seed);
  const shapes: Shape[] = ['lives', 'works', 'role', 'version', 'coffee', 'editor', 'port', 'host'];
  const subjects = Math.max(8, Math.floor(n / 10));
  const current = new Map<number, { subject: Subject; values: string[]; at: number }>();
  const t0 = Date.parse(`${START_DAY}T08:00:00Z`);
  for (let i = 0; i < n; i++) {
    const k = Math.floor(rng() * subjects);
    let tl = current.get(k);
    let text: string;
    if (!tl) {
      const shape = shapes[k % shapes.length]!;
      const project = `${PROJECTS[k % PROJECTS.length]}${Math.floor(k / PROJECTS.length)}`;
      const { values, thing } = timelineValues(rng, shape, 3, project.toLowerCase());
      tl = { subject: { shape, project, thing }, values, at: 0 };
      current.set(k, tl);
      text = pick(rng, SAY[shape].first)(values[0]!, tl.subject, '');
    } else if (rng() < 0.2) {
      const old = tl.values[tl.at]!;
      tl.at = (tl.at + 1) % tl.values.length;
      const say = SAY[tl.subject.shape];
      text = rng() < 0.3 ? pick(rng, say.fromOld)(tl.values[tl.at]!, tl.subject, old) : pick(rng, say.change)(tl.values[tl.at]!, tl.subject, '');
    } else {
      text = pick(rng, SAY[tl.subject.shape].again)(tl.values[tl.at]!, tl.subject, '');
    }
    // Lead-ins and tails keep repeated statements from being exact duplicates (which never reach the pass).
    const lead = pick(rng, LEADS);
    const content = `${lead}${lead && !/^I\b/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text}`.replace(/\.$/, pick(rng, TAILS));
    const ts = new Date(t0 + i * Math.floor((365 * 86_400_000) / n)).toISOString();
    yield { role: 'user', content, timestamp: ts, id: `f${i}`, session: `s${Math.floor(i / 50)}`, speaker: FIRST[k % FIRST.length]! };
  }
}

export const jsonl = (lines: readonly ChatLine[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : '');

/** Whether a text names a value (case-insensitive, as a whole word or phrase). */
export function names(text: string, value: string): boolean {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w.-])${escaped}(?![\\w-]|\\.\\w)`, 'i').test(text);
}
