// LoCoMo loading: conversations as turns, questions with normalised evidence ids (devset.ts makes
// them a DevSet). The file is validated as it is read, so a malformed one gets an error naming
// what is wrong (never a stack trace), and the known evidence defects are repaired or dropped.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { CairnError, ERROR_CODES } from '../../../src/core/errors.js';

export interface LocomoTurn {
  /** `session_N`, as keyed in the file. */
  sessionId: string;
  diaId: string;
  speaker: string;
  text: string;
  /** The caption of an image the speaker shared (BLIP), when the turn carries one. */
  caption?: string;
  /** ISO time: the session's date, plus one minute per earlier turn of the session. */
  timestamp: string;
}

export interface LocomoQuestion {
  question: string;
  category: number;
  /** Normalised `D<session>:<turn>` ids, each naming a turn of the conversation. */
  evidence: string[];
  /** The annotated answer as text, when the file has one (never used at query time). */
  answer?: string;
}

export interface LocomoConversation {
  /** `sample_id` as in the file (`conv-26`). */
  id: string;
  turns: LocomoTurn[];
  /** Questions of categories 1–4 with at least one evidence turn, in file order. */
  questions: LocomoQuestion[];
  /** What was left out, so a report can say so. */
  excluded: { adversarial: number; noEvidence: number; unknownEvidenceIds: number };
}

export interface LocomoDataset {
  path: string;
  sha256: string;
  conversations: LocomoConversation[];
}

/** The categories the metric covers; the integer is printed beside the label (tools differ). */
export const CATEGORY_LABELS: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };
export const CATEGORIES = [1, 2, 3, 4] as const;
const ADVERSARIAL = 5;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** A month by its name or first three letters ("Sept" too); -1 when it is none. */
function monthIndex(name: string): number {
  const n = name.toLowerCase();
  return n.length >= 3 ? MONTHS.findIndex((m) => m === n || (n.length <= 4 && m.startsWith(n))) : -1;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const CLOCK = /\b(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap])\.?m\b\.?|\b(\d{1,2}):(\d{2})(?::(\d{2}))?\b/i;
const DAY_MONTH_YEAR = /\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([A-Za-z]+)\.?,?\s+(\d{4})\b/;
const MONTH_DAY_YEAR = /\b([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/;
const ISO_DAY = /\b(\d{4})-(\d{2})-(\d{2})\b/;

/**
 * A session date → ISO (read as UTC, as the file gives no zone); null when it names no day.
 * LoCoMo writes "1:56 pm on 8 May, 2023"; files in its format made elsewhere may write
 * "8 May 2023", "May 8, 2023 at 13:56" or ISO, so any of those is read too (a time is optional).
 */
export function parseLocomoDate(s: string): string | null {
  const text = s.trim().slice(0, 100);
  if (ISO_TIME.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? null : new Date(ms).toISOString();
  }
  let day: { y: number; m: number; d: number } | null = null;
  const iso = ISO_DAY.exec(text);
  if (iso) day = { y: Number(iso[1]), m: Number(iso[2]) - 1, d: Number(iso[3]) };
  const dmy = day ? null : DAY_MONTH_YEAR.exec(text);
  if (dmy && monthIndex(dmy[2]!) >= 0) day = { y: Number(dmy[3]), m: monthIndex(dmy[2]!), d: Number(dmy[1]) };
  const mdy = day ? null : MONTH_DAY_YEAR.exec(text);
  if (mdy && monthIndex(mdy[1]!) >= 0) day = { y: Number(mdy[3]), m: monthIndex(mdy[1]!), d: Number(mdy[2]) };
  if (!day) return null;
  const clock = CLOCK.exec(text.replace(ISO_DAY, ' '));
  let hour = 0;
  let minute = 0;
  if (clock) {
    const half = clock[4]?.toLowerCase();
    hour = Number(clock[1] ?? clock[5]);
    minute = Number(clock[2] ?? clock[6]);
    if (half ? hour < 1 || hour > 12 : hour > 23) return null;
    if (half) hour = (hour % 12) + (half === 'p' ? 12 : 0);
    if (minute > 59) return null;
  }
  const at = new Date(Date.UTC(day.y, day.m, day.d, hour, minute));
  // Date.UTC rolls 31 February over to March: a day that does not round-trip is no day.
  if (at.getUTCFullYear() !== day.y || at.getUTCMonth() !== day.m || at.getUTCDate() !== day.d) return null;
  return at.toISOString();
}

/**
 * Splits and repairs evidence strings: several ids in one string ("D8:6; D9:17", "D9:1 D4:4"),
 * "D:11:26" → D11:26, "D30:05" → D30:5. Ids naming no turn of the conversation are dropped and
 * counted.
 */
export function normaliseEvidence(raw: readonly string[], known: ReadonlySet<string>): { ids: string[]; unknown: number } {
  const ids = new Set<string>();
  let unknown = 0;
  for (const item of raw) {
    for (const piece of item.split(/[;,\s]+/).filter(Boolean)) {
      const m = /^D:?(\d+):(\d+)$/i.exec(piece);
      const id = m ? `D${Number(m[1])}:${Number(m[2])}` : null;
      if (id && known.has(id)) ids.add(id);
      else unknown++;
    }
  }
  return { ids: [...ids], unknown };
}

type Json = Record<string, unknown>;

/** Type checks that name the offending place in the file. */
class Reader {
  constructor(private readonly path: string) {}

  fail(where: string, problem: string): never {
    throw new CairnError(ERROR_CODES.INVALID_INPUT, `LoCoMo file ${this.path}:${where ? ` ${where}` : ''} ${problem}`);
  }

  object(value: unknown, where: string): Json {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(where, `is not an object (got ${describe(value)})`);
    return value as Json;
  }

  array(value: unknown, where: string): unknown[] {
    if (!Array.isArray(value)) this.fail(where, `is not a list (got ${describe(value)})`);
    return value;
  }

  string(value: unknown, where: string): string {
    if (typeof value !== 'string') this.fail(where, `is not a string (got ${describe(value)})`);
    return value;
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing: the field is missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? `"${value.slice(0, 40)}"` : typeof value;
}

function sessionKeys(conv: Json): string[] {
  // Iterate over session_N keys, not date keys: one conversation has more dates than sessions.
  return Object.keys(conv)
    .filter((k) => /^session_\d+$/.test(k))
    .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
}

function readTurns(r: Reader, conv: Json, where: string): LocomoTurn[] {
  const turns: LocomoTurn[] = [];
  const seen = new Set<string>();
  for (const key of sessionKeys(conv)) {
    const dateKey = `${key}_date_time`;
    const when = parseLocomoDate(r.string(conv[dateKey], `${where}: conversation.${dateKey}`));
    if (!when) r.fail(`${where}: conversation.${dateKey}`, `is not a date like "1:56 pm on 8 May, 2023" or 2023-05-08 (got ${describe(conv[dateKey])})`);
    r.array(conv[key], `${where}: conversation.${key}`).forEach((raw, i) => {
      const at = `${where}: conversation.${key}[${i}]`;
      const t = r.object(raw, at);
      const diaId = r.string(t.dia_id, `${at}.dia_id`);
      if (seen.has(diaId)) r.fail(`${at}.dia_id`, `"${diaId}" appears twice`);
      seen.add(diaId);
      const caption = t.blip_caption === undefined || t.blip_caption === null ? '' : r.string(t.blip_caption, `${at}.blip_caption`).trim();
      turns.push({
        sessionId: key,
        diaId,
        speaker: r.string(t.speaker, `${at}.speaker`),
        text: r.string(t.text, `${at}.text`),
        ...(caption ? { caption } : {}),
        // A minute apart, so the order of a session's turns survives a sort by time.
        timestamp: new Date(Date.parse(when) + i * 60_000).toISOString(),
      });
    });
  }
  if (turns.length === 0) r.fail(`${where}: conversation`, 'has no session_N list of turns');
  return turns;
}

function readConversation(r: Reader, raw: unknown, index: number): LocomoConversation {
  const sample = r.object(raw, `conversation ${index}`);
  const id = r.string(sample.sample_id, `conversation ${index}: sample_id`);
  const where = `conversation ${index} (${id})`;
  const turns = readTurns(r, r.object(sample.conversation, `${where}: conversation`), where);
  const known = new Set(turns.map((t) => t.diaId));
  const excluded = { adversarial: 0, noEvidence: 0, unknownEvidenceIds: 0 };
  const questions: LocomoQuestion[] = [];
  r.array(sample.qa, `${where}: qa`).forEach((rawQ, i) => {
    const at = `${where}: qa[${i}]`;
    const q = r.object(rawQ, at);
    const question = r.string(q.question, `${at}.question`);
    // A category written as text ("2") is read as its number.
    const category = typeof q.category === 'string' && /^\s*\d+\s*$/.test(q.category) ? Number(q.category) : q.category;
    if (typeof category !== 'number' || !Number.isInteger(category) || category < 1 || category > ADVERSARIAL) r.fail(`${at}.category`, `is not a category 1–5 (got ${describe(category)})`);
    // One id, or several, may be written as a single string rather than a list ("D1:3; D2:4").
    const evidenceList = typeof q.evidence === 'string' ? [q.evidence] : q.evidence;
    const rawEvidence = evidenceList === undefined ? [] : r.array(evidenceList, `${at}.evidence`).map((e, j) => r.string(e, `${at}.evidence[${j}]`));
    if (category === ADVERSARIAL) {
      excluded.adversarial++;
      return;
    }
    const { ids, unknown } = normaliseEvidence(rawEvidence, known);
    excluded.unknownEvidenceIds += unknown;
    if (ids.length === 0) excluded.noEvidence++;
    else {
      // Answers are numbers or strings in the file ("2022", "Adoption agencies").
      const answer = typeof q.answer === 'string' || typeof q.answer === 'number' ? String(q.answer).trim() : '';
      questions.push({ question, category, evidence: ids, ...(answer ? { answer } : {}) });
    }
  });
  return { id, turns, questions, excluded };
}

/** Reads and validates a LoCoMo file; null when there is no file at `path`. */
export function readLocomo(path: string): LocomoDataset | null {
  if (!existsSync(path)) return null;
  const r = new Reader(path);
  if (statSync(path).isDirectory()) r.fail('', 'is a directory, not a JSON file');
  const bytes = readFileSync(path);
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    r.fail('', `is not valid JSON (${(err as Error).message})`);
  }
  const list = r.array(data, 'the top level');
  if (list.length === 0) r.fail('the top level', 'is an empty list: no conversations');
  const conversations = list.map((raw, i) => readConversation(r, raw, i));
  const ids = new Set<string>();
  for (const c of conversations) {
    if (ids.has(c.id)) r.fail(`sample_id "${c.id}"`, 'appears twice');
    ids.add(c.id);
  }
  return { path, sha256: createHash('sha256').update(bytes).digest('hex'), conversations };
}

/** The conversations of a LoCoMo file (see readLocomo); null when the file is absent. */
export function loadLocomo(path: string): LocomoConversation[] | null {
  return readLocomo(path)?.conversations ?? null;
}
