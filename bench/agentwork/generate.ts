// Turns the agent-work scenarios into Claude Code transcripts: ids, times, the JSONL lines Claude
// Code writes (user lines, assistant messages with text and tool_use blocks, tool_result lines,
// the noise lines capture skips), the turns capture makes of them and the questions with their
// evidence resolved to those turns' messageIds. Seeded: one seed, one byte-identical output.
import { createHash } from 'node:crypto';
import { cleanText, toolCallSummary, toolResultLine } from '../../src/capture/clean.js';
import { userText } from '../../src/capture/formats/claude-code-text.js';
import { joinPieces } from '../../src/capture/formats/common.js';
import { seeded } from '../../test/helpers/prng.js';
import type { DevConversation, DevQuestion, DevTurn } from '../eval/devset.js';
import { ASIDES } from './asides.js';
import { routineSession, shuffled } from './routine.js';
import type { Project, Session, Step } from './script.js';
import { PROJECTS } from './projects.js';

export const DEFAULT_SEED = 29;
const VERSION = '2.1.37';
const MODEL = 'claude-opus-4-6';
/** Share of multi-block responses written one line per block (capture merges them by message.id). */
const SPLIT_RESPONSES = 0.5;
/** How often a scripted session is followed by three routine sessions rather than two. */
const ROUTINE_THIRD = 0.5;

export interface GeneratedConversation {
  conversation: DevConversation;
  /** The transcript, one JSON object per line. */
  jsonl: string;
  /** For each question (same order), literal strings its evidence must hold as captured. */
  find: string[][];
}

type Rng = () => number;

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rng() * 16)]).join('');
const b62 = (rng: Rng, n: number) => Array.from({ length: n }, () => B62[Math.floor(rng() * 62)]).join('');
const uuid = (rng: Rng) => `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-${'89ab'[Math.floor(rng() * 4)]}${hex(rng, 3)}-${hex(rng, 12)}`;

/**
 * Scripted sessions with two or three routine ones on the days between each and the next, in
 * time order; the project's asides are spread over the routine sessions in a seeded order.
 */
function withRoutine(rng: Rng, p: Project): Session[] {
  const scripted = [...p.sessions].sort((x, y) => x.day - y.day);
  const asides = shuffled(rng, ASIDES[p.id] ?? []);
  const out: Session[] = [];
  let used = 0;
  for (let i = 0; i < scripted.length; i++) {
    const s = scripted[i]!;
    out.push(s);
    const gap = (scripted[i + 1]?.day ?? s.day + 8) - s.day - 1;
    const n = Math.min(gap, rng() < ROUTINE_THIRD ? 3 : 2);
    // One routine session per equal slice of the gap, so their days differ.
    for (let k = 0; k < n; k++) out.push(routineSession(rng, p, s.day + 1 + Math.floor(((k + rng()) * gap) / n), asides[used++]));
  }
  return out.sort((x, y) => x.day - y.day || x.hour - y.hour);
}

/** One project as a transcript, its turns and its questions. */
export function generateProject(p: Project, seed: number): GeneratedConversation {
  const rng = seeded(seed ^ hashSeed(p.id));
  const lines: string[] = [];
  const turns: DevTurn[] = [];
  const keys = new Map<string, DevTurn>();
  const startMs = Date.parse(`${p.start}T00:00:00.000Z`);
  const setKey = (key: string | undefined, turn: DevTurn) => {
    if (key === undefined) return;
    if (keys.has(key)) throw new Error(`${p.id}: key ${key} is used twice`);
    keys.set(key, turn);
  };
  for (const s of withRoutine(rng, p)) {
    const sessionId = uuid(rng);
    let t = startMs + s.day * 86_400_000 + s.hour * 3_600_000 + Math.floor(rng() * 1_800_000);
    let parent: string | null = null;
    const base = (type: string, id: string) => ({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: p.cwd, sessionId, version: VERSION, gitBranch: s.branch ?? 'main', type, uuid: id, timestamp: new Date(t).toISOString() });
    const emit = (rec: object, id: string) => {
      lines.push(JSON.stringify(rec));
      parent = id;
    };
    for (const step of s.steps) {
      if (step.who === 'user') {
        t += 15_000 + Math.floor(rng() * 240_000);
        const id = uuid(rng);
        lines.push(JSON.stringify({ type: 'file-history-snapshot', messageId: id, snapshot: { messageId: id, trackedFileBackups: {}, timestamp: new Date(t).toISOString() }, isSnapshotUpdate: false }));
        emit({ ...base('user', id), message: { role: 'user', content: step.text } }, id);
        const turn: DevTurn = { sessionId, id, speaker: p.person, role: 'user', text: cleanText(step.text, { transform: userText }), timestamp: new Date(t).toISOString() };
        turns.push(turn);
        setKey(step.key, turn);
        continue;
      }
      t += 4_000 + Math.floor(rng() * 80_000);
      const messageId = `msg_01${b62(rng, 22)}`;
      const id = uuid(rng);
      const tools = (step.tools ?? []).map((call) => ({ call, id: `toolu_01${b62(rng, 22)}` }));
      const content: object[] = [];
      if (step.text !== '') content.push({ type: 'text', text: step.text });
      for (const x of tools) content.push({ type: 'tool_use', id: x.id, name: x.call.name, input: x.call.input });
      const stop = tools.length > 0 ? 'tool_use' : 'end_turn';
      const usage = { input_tokens: 3 + Math.floor(rng() * 40), cache_read_input_tokens: 10_000 + Math.floor(rng() * 90_000), output_tokens: 20 + Math.floor(step.text.length / 4) };
      const requestId = `req_011C${b62(rng, 20)}`;
      const message = (blocks: object[], stopReason: string | null) => ({ id: messageId, type: 'message', role: 'assistant', model: MODEL, content: blocks, stop_reason: stopReason, stop_sequence: null, usage });
      if (content.length > 1 && rng() < SPLIT_RESPONSES) {
        // As Claude Code often writes it: one line per content block, the stop reason on the last.
        content.forEach((block, i) => {
          const last = i === content.length - 1;
          const lineId = i === 0 ? id : uuid(rng);
          emit({ ...base('assistant', lineId), requestId, message: message([block], last ? stop : null) }, lineId);
        });
      } else emit({ ...base('assistant', id), requestId, message: message(content, stop) }, id);
      // The turn's text as capture makes it (text, then one summary line per tool call), so the set's turns are the captured ones.
      const pieces = [{ text: step.text, tool: false }, ...tools.map((x) => ({ text: toolCallSummary(x.call.name, x.call.input), tool: true }))];
      const turn: DevTurn = { sessionId, id: messageId, speaker: 'assistant', role: 'assistant', text: cleanText(joinPieces(pieces)), timestamp: new Date(t).toISOString() };
      turns.push(turn);
      setKey(step.key, turn);
      if (tools.length === 0) {
        lines.push(JSON.stringify({ ...base('system', uuid(rng)), subtype: 'turn_duration', durationMs: 2_000 + Math.floor(rng() * 60_000), isMeta: false }));
        continue;
      }
      t += 200 + Math.floor(rng() * 4_000);
      const resultId = uuid(rng);
      const blocks = tools.map((x) => ({ type: 'tool_result', tool_use_id: x.id, content: x.call.output, ...(x.call.isError ? { is_error: true } : {}) }));
      emit({ ...base('user', resultId), message: { role: 'user', content: blocks }, toolUseResult: { stdout: tools.map((x) => x.call.output).join('\n'), stderr: '', interrupted: false } }, resultId);
      // Capture makes no turn of a result line whose outputs are all empty.
      const shown = tools.filter((x) => x.call.output.trim() !== '');
      if (shown.length === 0) continue;
      const result: DevTurn = { sessionId, id: resultId, speaker: 'tool', role: 'tool', text: cleanText(shown.map((x) => toolResultLine(x.call.name, x.call.output, x.call.isError === true)).join('\n')), timestamp: new Date(t).toISOString() };
      turns.push(result);
      for (const x of shown) if (x.call.key !== undefined) setKey(x.call.key, result);
    }
  }
  const questions: DevQuestion[] = p.questions.map((q) => ({
    question: q.question,
    category: q.category,
    answer: q.answer,
    evidence: [
      ...new Set(
        q.evidence.map((k) => {
          const turn = keys.get(k);
          if (!turn) throw new Error(`${p.id}: question "${q.question}" names an unknown key ${k}`);
          return turn.id;
        }),
      ),
    ],
  }));
  return { conversation: { id: p.id, turns, questions }, jsonl: lines.join('\n') + '\n', find: p.questions.map((q) => q.find) };
}

function hashSeed(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32LE(0);
}

/** Every project, generated with `seed`, and the sha256 of all of it. */
export function generate(seed = DEFAULT_SEED): { conversations: GeneratedConversation[]; sha256: string } {
  const conversations = PROJECTS.map((p) => generateProject(p, seed));
  const hash = createHash('sha256');
  for (const c of conversations) hash.update(c.jsonl).update(JSON.stringify(c.conversation.questions));
  return { conversations, sha256: hash.digest('hex') };
}
