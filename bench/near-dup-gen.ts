// Labelled memory pairs for the near-duplicate bench, generated from templates with a seed. Each
// family is one kind of statement (a decision, a preference, a port, where someone lives …) with
// several phrasings of the same content and a few negated ones. From them:
//   paraphrase  — the same slot values in two different phrasings (a duplicate);
//   value, number, date — one slot changed, in the same or another phrasing (not a duplicate: an update);
//   negation    — the same content, one side negated (not a duplicate);
//   unrelated   — two families sharing a slot value, so they share words (not a duplicate).
import { Rng } from './corpus.js';

export type PairKind = 'paraphrase' | 'value' | 'number' | 'date' | 'negation' | 'unrelated';

export interface LabelledPair {
  a: string;
  b: string;
  duplicate: boolean;
  kind: PairKind;
}

type SlotKind = 'value' | 'number' | 'date';

interface Family {
  slots: Record<string, { kind: SlotKind; values: readonly string[] }>;
  say: readonly string[];
  negate: readonly string[];
}

const PEOPLE = ['Ana', 'Bruno', 'Chen Wei', 'Priya', 'Tomás', 'Fatima', 'Jonas', 'Keiko', 'Olu', 'Marta'];
const CITIES = ['Lisbon', 'Berlin', 'Porto', 'Osaka', 'Nairobi', 'Montreal', 'Austin', 'Krakow', 'Seville', 'Leeds'];
const COMPANIES = ['Acme', 'Globex', 'Initech', 'Umbrella Labs', 'Hooli', 'Stark Industries', 'Wayne Corp'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'March 3', 'April 14', 'June 2', 'next week', 'tomorrow'];
const num = (lo: number, hi: number, step = 1): string[] => Array.from({ length: Math.floor((hi - lo) / step) + 1 }, (_, i) => String(lo + i * step));

const FAMILIES: readonly Family[] = [
  {
    slots: { db: { kind: 'value', values: ['Postgres', 'MySQL', 'SQLite', 'MongoDB', 'Redis', 'DynamoDB', 'CockroachDB'] }, comp: { kind: 'value', values: ['store', 'cache', 'queue', 'billing backend', 'analytics service', 'search index'] } },
    say: ['We picked {db} for the {comp}', 'The {comp} will use {db}, we decided', 'We went with {db} for the {comp}', 'For the {comp} we settled on {db}', 'Decision: {db} for the {comp}'],
    negate: ['We decided against {db} for the {comp}', 'The {comp} will not use {db}'],
  },
  {
    slots: { drink: { kind: 'value', values: ['cortado', 'flat white', 'espresso', 'green tea', 'latte', 'cappuccino', 'matcha', 'black coffee'] } },
    say: ['I drink {drink} every morning', 'Every morning I have a {drink}', 'My morning drink is a {drink}', 'In the mornings I usually get a {drink}', 'I like to start the day with a {drink}'],
    negate: ['I no longer drink {drink} in the morning', "I don't have {drink} in the mornings anymore"],
  },
  {
    slots: { env: { kind: 'value', values: ['staging', 'production', 'test', 'dev', 'QA'] }, port: { kind: 'number', values: num(5430, 5440).concat(num(6540, 6550), ['3306', '8080', '27017']) } },
    say: ['The {env} database runs on port {port}', 'The {env} db is on port {port}', 'Port {port} is where the {env} database listens', 'We run the {env} database on port {port}', '{env} database port: {port}'],
    negate: ['The {env} database does not run on port {port}', 'The {env} db is no longer on port {port}'],
  },
  {
    slots: { person: { kind: 'value', values: PEOPLE }, city: { kind: 'value', values: CITIES } },
    say: ['{person} lives in {city}', '{person} is living in {city} these days', "{person}'s home is in {city}", '{person} has a flat in {city}', '{person} is based in {city}'],
    negate: ['{person} does not live in {city}', '{person} no longer lives in {city}'],
  },
  {
    slots: { person: { kind: 'value', values: PEOPLE }, company: { kind: 'value', values: COMPANIES }, role: { kind: 'value', values: ['designer', 'data engineer', 'product manager', 'backend developer', 'recruiter', 'SRE'] } },
    say: ['{person} works at {company} as a {role}', '{person} is a {role} at {company}', '{company} employs {person} as a {role}', "{person}'s job: {role} at {company}"],
    negate: ['{person} is not a {role} at {company}', '{person} no longer works at {company} as a {role}'],
  },
  {
    slots: { lib: { kind: 'value', values: ['React', 'Node', 'TypeScript', 'Django', 'Rails', 'Postgres', 'Kubernetes'] }, ver: { kind: 'number', values: ['16', '17', '18', '18.2', '19', '20', '4.2', '5.0', '5.1', '7.1', '1.29', '1.30'] } },
    say: ['We upgraded {lib} to version {ver}', 'The project is on {lib} {ver} now', 'The project uses {lib} {ver}', '{lib} got bumped to {ver}', 'We are running {lib} {ver}'],
    negate: ['We did not upgrade {lib} to version {ver}', 'The project is not on {lib} {ver}'],
  },
  {
    slots: { event: { kind: 'value', values: ['design review', 'sprint demo', 'team offsite', 'retro', 'budget meeting', 'launch party'] }, day: { kind: 'date', values: DAYS } },
    say: ['The {event} is on {day}', 'We have the {event} on {day}', '{day} is when the {event} happens', 'The {event} takes place {day}', 'Scheduled the {event} for {day}'],
    negate: ['The {event} is not on {day}', 'The {event} will not happen {day}'],
  },
  {
    slots: { person: { kind: 'value', values: PEOPLE } },
    say: ['My manager is {person}', 'I report to {person}', '{person} is my manager', '{person} manages me now', 'I work under {person}'],
    negate: ['{person} is not my manager', 'I no longer report to {person}'],
  },
  {
    slots: { editor: { kind: 'value', values: ['Vim', 'Emacs', 'VS Code', 'Zed', 'Sublime Text', 'IntelliJ', 'Helix'] } },
    say: ['I write code in {editor}', '{editor} is my editor of choice', 'My editor is {editor}', 'I use {editor} for coding', 'For coding I prefer {editor}'],
    negate: ['I do not write code in {editor}', 'I stopped using {editor} for coding'],
  },
  {
    slots: { ci: { kind: 'value', values: ['GitHub Actions', 'GitLab CI', 'Jenkins', 'CircleCI', 'Buildkite', 'Drone'] }, repo: { kind: 'value', values: ['cairn', 'billing', 'website', 'mobile app', 'data pipeline'] } },
    say: ['The {repo} CI runs on {ci}', 'We use {ci} for the {repo} builds', 'The {repo} builds run on {ci}', '{ci} builds the {repo} repository', 'CI for {repo}: {ci}'],
    negate: ['The {repo} CI does not run on {ci}', 'We no longer use {ci} for the {repo} builds'],
  },
  {
    slots: { svc: { kind: 'value', values: ['payments API', 'search service', 'upload endpoint', 'auth service', 'webhook worker'] }, n: { kind: 'number', values: num(5, 120, 5) } },
    say: ['The {svc} timeout is {n} seconds', 'Requests to the {svc} time out after {n} seconds', 'We set the {svc} timeout to {n} seconds', 'The {svc} gives up after {n} seconds', '{svc} timeout: {n}s'],
    negate: ['The {svc} timeout is not {n} seconds', 'Requests to the {svc} do not time out after {n} seconds'],
  },
  {
    slots: { project: { kind: 'value', values: ['Atlas', 'the mobile app', 'the new onboarding', 'Project Falcon', 'the billing rewrite', 'v2 of the API'] }, day: { kind: 'date', values: DAYS } },
    say: ['We need to ship {project} by {day}', 'The deadline for {project} is {day}', '{project} is due {day}', '{project} has to be done by {day}', 'Deadline: {project}, {day}'],
    negate: ['{project} is not due {day}', 'We do not need to ship {project} by {day}'],
  },
];

function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => values[k]!);
}

function draw(rng: Rng, f: Family): Record<string, string> {
  return Object.fromEntries(Object.entries(f.slots).map(([k, s]) => [k, rng.pick(s.values)]));
}

function twoPhrasings(rng: Rng, f: Family, same: boolean): [string, string] {
  const i = rng.int(f.say.length);
  if (same) return [f.say[i]!, f.say[i]!];
  const j = (i + 1 + rng.int(f.say.length - 1)) % f.say.length;
  return [f.say[i]!, f.say[j]!];
}

/** A slot of the kind asked for changed to another value, in the same or another phrasing; null when the family has none. */
function changePair(rng: Rng, f: Family, kind: SlotKind): LabelledPair | null {
  const keys = Object.keys(f.slots).filter((k) => f.slots[k]!.kind === kind);
  if (keys.length === 0) return null;
  const key = rng.pick(keys);
  const before = draw(rng, f);
  let other = rng.pick(f.slots[key]!.values);
  while (other === before[key]) other = rng.pick(f.slots[key]!.values);
  const [ta, tb] = twoPhrasings(rng, f, rng.chance(0.5));
  return { a: fill(ta, before), b: fill(tb, { ...before, [key]: other }), duplicate: false, kind };
}

/** About `total` pairs: 40% paraphrases, 45% changes (value, number, date, negation), 15% unrelated. */
export function generatePairs(seed: number, total: number): LabelledPair[] {
  const rng = new Rng(seed);
  const out: LabelledPair[] = [];
  const seen = new Set<string>();
  const push = (p: LabelledPair | null) => {
    if (!p || p.a === p.b) return;
    const key = `${p.a}\u0000${p.b}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(p);
  };
  const want = { paraphrase: Math.round(total * 0.4), change: Math.round(total * 0.45), unrelated: total - Math.round(total * 0.4) - Math.round(total * 0.45) };
  for (let guard = 0; out.filter((p) => p.kind === 'paraphrase').length < want.paraphrase && guard < total * 20; guard++) {
    const f = rng.pick(FAMILIES);
    const values = draw(rng, f);
    const [ta, tb] = twoPhrasings(rng, f, false);
    push({ a: fill(ta, values), b: fill(tb, values), duplicate: true, kind: 'paraphrase' });
  }
  const kinds: readonly PairKind[] = ['value', 'number', 'date', 'negation'];
  for (let guard = 0; out.filter((p) => p.kind !== 'paraphrase').length < want.change && guard < total * 20; guard++) {
    const f = rng.pick(FAMILIES);
    const kind = kinds[guard % kinds.length]!;
    if (kind === 'negation') {
      const values = draw(rng, f);
      push({ a: fill(rng.pick(f.say), values), b: fill(rng.pick(f.negate), values), duplicate: false, kind });
    } else push(changePair(rng, f, kind as SlotKind));
  }
  for (let guard = 0; out.filter((p) => p.kind === 'unrelated').length < want.unrelated && guard < total * 50; guard++) {
    const f = rng.pick(FAMILIES);
    const g = rng.pick(FAMILIES);
    const shared = Object.keys(f.slots).filter((k) => k in g.slots && f !== g);
    if (shared.length === 0) continue;
    const fv = draw(rng, f);
    const gv = { ...draw(rng, g), ...Object.fromEntries(shared.map((k) => [k, fv[k]!])) };
    push({ a: fill(rng.pick(f.say), fv), b: fill(rng.pick(g.say), gv), duplicate: false, kind: 'unrelated' });
  }
  return out;
}
