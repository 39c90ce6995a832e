// LoCoMo loading for recall measurements: conversations as turns, questions with normalised
// evidence ids (the data has a few malformed ones, see ../shared/bench/README.md).
import { existsSync, readFileSync } from 'node:fs';

export interface LocomoTurn {
  sessionId: string;
  diaId: string;
  speaker: string;
  text: string;
  timestamp: string;
}

export interface LocomoQuestion {
  question: string;
  category: number;
  evidence: string[];
}

export interface LocomoConversation {
  id: string;
  turns: LocomoTurn[];
  questions: LocomoQuestion[];
}

export const CATEGORY_LABELS: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → ISO (UTC). */
export function parseLocomoDate(s: string): string {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(s);
  if (!m) throw new Error(`unparsable LoCoMo date: ${s}`);
  let hour = Number(m[1]) % 12;
  if (m[3]!.toLowerCase() === 'pm') hour += 12;
  const month = MONTHS.indexOf(m[5]!.toLowerCase());
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

function normaliseEvidence(raw: string[], known: Set<string>): string[] {
  const out = new Set<string>();
  for (const item of raw) {
    for (const piece of item.split(/[;,\s]+/)) {
      const m = /^D:?(\d+):0*(\d+)$/.exec(piece.trim());
      if (!m) continue;
      const id = `D${m[1]}:${m[2]}`;
      if (known.has(id)) out.add(id);
    }
  }
  return [...out];
}

export function loadLocomo(path: string): LocomoConversation[] | null {
  if (!existsSync(path)) return null;
  const data = JSON.parse(readFileSync(path, 'utf8')) as Array<Record<string, unknown>>;
  return data.map((sample) => {
    const conv = sample.conversation as Record<string, unknown>;
    const turns: LocomoTurn[] = [];
    const sessionKeys = Object.keys(conv)
      .filter((k) => /^session_\d+$/.test(k))
      .sort((a, b) => Number(a.split('_')[1]) - Number(b.split('_')[1]));
    for (const key of sessionKeys) {
      const when = parseLocomoDate(String(conv[`${key}_date_time`]));
      const list = conv[key] as Array<{ speaker: string; dia_id: string; text: string }>;
      list.forEach((t, i) => {
        // Turns within a session are a minute apart so their order survives a sort by time.
        const ts = new Date(Date.parse(when) + i * 60_000).toISOString();
        turns.push({ sessionId: key, diaId: t.dia_id, speaker: t.speaker, text: t.text, timestamp: ts });
      });
    }
    const known = new Set(turns.map((t) => t.diaId));
    const questions = (sample.qa as Array<{ question: string; category: number; evidence: string[] }>)
      .filter((q) => q.category >= 1 && q.category <= 4)
      .map((q) => ({ question: q.question, category: q.category, evidence: normaliseEvidence(q.evidence ?? [], known) }))
      .filter((q) => q.evidence.length > 0);
    return { id: String(sample.sample_id), turns, questions };
  });
}
