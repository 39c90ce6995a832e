// Reads Claude Code session transcripts (~/.claude/projects/<cwd>/<session>.jsonl) into cleaned
// turns. Claude Code writes one assistant response as several lines sharing `message.id` (one per
// content block), sometimes with tool results in between; this parser merges them back into one
// turn and keeps everything in line order.
import { EXCERPT_CHARS, MAX_TURN_CHARS, cleanText, toolCallSummary, toolResultLine, type Tally } from '../clean.js';
import type { DraftKind, DraftRole, TurnDraft } from '../turn-draft.js';
import { userText } from './claude-code-text.js';
import { Collector, Timestamps, addTally, compact, contentText, isRecord, joinPieces, preview, readRecord, str, withRedactions, type JsonRecord, type ParserOptions, type TranscriptParser, fallbackMessageId } from './common.js';

/** Line types that carry no conversation: dropped and counted as skipped (as are `system` lines). */
export const CLAUDE_CODE_NOISE_TYPES = ['progress', 'file-history-snapshot', 'queue-operation', 'attachment', 'summary'] as const;

/**
 * `system` subtypes Claude Code writes only once a response is over: the turn's end (its duration,
 * the Stop hooks' summary), a compaction, a failed request being retried (the retry is another
 * message), a local slash command. A hook's message about one tool call (`toolUseID`, no subtype)
 * or an `informational` line can come while a response still streams, so they do not close it.
 */
const TURN_END_SUBTYPES = new Set(['turn_duration', 'stop_hook_summary', 'compact_boundary', 'api_error', 'local_command']);

const MAX_TOOL_NAMES = 2000;
const MAX_CLOSED = 256;

interface Pending {
  /** `message.id`, without the `#<uuid>` a continuation adds to the turn's messageId. */
  baseId: string;
  /** The turn as its first part made it; text, kind and meta are filled in on close. */
  turn: TurnDraft;
  model: string | undefined;
  uuids: Set<string>;
  pieces: Array<{ text: string; tool: boolean }>;
  /** Redactions made while its tool summaries and text were cut. */
  tally: Tally;
}

/**
 * A parser for Claude Code JSONL.
 *
 * Merging: assistant lines with the same `message.id` become one turn (messageId = `message.id`,
 * line and time of its first part). The merge stays open across tool-result lines and noise lines;
 * it is closed as soon as the transcript says the response is over: a part with a `stop_reason`
 * (the last one), a `system` line that ends the turn (TURN_END_SUBTYPES), an assistant line with
 * another id, a real user message; else by `flush()`.
 * While it is open, the turns after it are held so `take()` returns turns in line order, and
 * `pendingFrom()` names its first line (the checkpoint must not pass it). Call `flush()` when the
 * transcript is complete or quiet. A part that arrives after its response was flushed becomes its
 * own turn `<message.id>#<uuid>`, so the store's dedup does not drop it (within one parser's life;
 * a restart in between cannot know, which is why the checkpoint should stop at `pendingFrom()`).
 *
 * Other lines: `user` text → `user` turn (messageId = `uuid`); `tool_result` blocks → one `tool`
 * turn of excerpts (`<uuid>#tool` when the same line also has user text); `isMeta` → skipped;
 * `isCompactSummary` → `summary` turn; slash commands → `/cmd args` (see userText); `system` and
 * noise types → skipped. Meta keeps cwd, gitBranch, isSidechain and (assistant) model.
 */
export function createClaudeCodeParser(options: ParserOptions = {}): TranscriptParser {
  const out = new Collector();
  const times = new Timestamps(options.fallbackTimestamp);
  const maxChars = options.maxTextChars ?? MAX_TURN_CHARS;
  const excerptChars = options.excerptChars ?? EXCERPT_CHARS;
  const toolNames = new Map<string, string>();
  const closed = new Map<string, Set<string>>();
  let pending: Pending | null = null;
  let held: TurnDraft[] = [];
  let session = options.sessionId ?? null;
  let noSessionReported = false;
  let cwd: string | undefined;
  let gitBranch: string | undefined;

  function place(turn: TurnDraft): void {
    if (pending) held.push(turn);
    else out.emit(turn);
  }

  /**
   * The turn a line starts: session, uuid as messageId, time, cwd/gitBranch/isSidechain meta.
   * Called once per line that yields turns, so each problem is reported once.
   */
  function lineTurn(rec: JsonRecord, lineNo: number): TurnDraft {
    session = str(rec.sessionId) ?? session;
    if (!session && !noSessionReported) out.issue(lineNo, 'line has no sessionId and none was given; used "unknown"');
    noSessionReported ||= !session;
    cwd = str(rec.cwd) ?? cwd;
    gitBranch = str(rec.gitBranch) ?? gitBranch;
    let uuid = str(rec.uuid);
    if (!uuid) {
      out.issue(lineNo, 'line has no uuid; used the line number');
      uuid = fallbackMessageId(lineNo, rec);
    }
    const timestamp = times.resolve([rec.timestamp], lineNo, out);
    const meta = compact({ cwd, gitBranch, isSidechain: typeof rec.isSidechain === 'boolean' ? rec.isSidechain : undefined });
    return { sessionId: session ?? 'unknown', messageId: uuid, role: 'user', speaker: null, text: '', timestamp, line: lineNo, kind: 'message', meta };
  }

  function derive(base: TurnDraft, role: DraftRole, kind: DraftKind, text: string, extra: Record<string, unknown> = {}, messageId = base.messageId): TurnDraft {
    return { ...base, messageId, role, kind, text, meta: compact({ ...base.meta, ...extra }) };
  }

  function close(): void {
    if (!pending) return;
    const p = pending;
    pending = null;
    const text = cleanText(joinPieces(p.pieces), { maxChars, tally: p.tally });
    if (text === '') out.skip();
    else {
      const kind = p.pieces.every((x) => x.tool || x.text.trim() === '') ? 'tool' : 'message';
      const meta = compact({ ...p.turn.meta, model: p.model, parts: p.uuids.size > 1 ? p.uuids.size : undefined });
      out.emit(withRedactions({ ...p.turn, text, kind, meta }, p.tally));
    }
    for (const turn of held) out.emit(turn);
    held = [];
    const seen = closed.get(p.baseId) ?? new Set<string>();
    for (const uuid of p.uuids) seen.add(uuid);
    closed.delete(p.baseId);
    closed.set(p.baseId, seen);
    if (closed.size > MAX_CLOSED) closed.delete(closed.keys().next().value!);
  }

  function assistant(rec: JsonRecord, lineNo: number): void {
    const msg = rec.message;
    if (!isRecord(msg)) return out.issue(lineNo, 'assistant line without a message object');
    const pieces: Pending['pieces'] = [];
    const tally: Tally = {};
    if (typeof msg.content === 'string') pieces.push({ text: msg.content, tool: false });
    else if (Array.isArray(msg.content)) {
      for (const block of msg.content) {
        if (!isRecord(block)) continue;
        if (block.type === 'text' && typeof block.text === 'string') pieces.push({ text: block.text, tool: false });
        else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
          pieces.push({ text: toolCallSummary(block.name, block.input, tally), tool: true });
          const id = str(block.id);
          const name = str(block.name);
          if (id && name) toolNames.set(id, name);
          if (toolNames.size > MAX_TOOL_NAMES) toolNames.delete(toolNames.keys().next().value!);
        }
      }
    } else return out.issue(lineNo, `assistant content is ${preview(msg.content)}, not text`);
    // Synthetic messages ("API Error: …", "No response requested.") are Claude Code talking, not the model.
    if (msg.model === '<synthetic>' || rec.isApiErrorMessage === true) return out.skip();
    const messageId = str(msg.id);
    const uuid = str(rec.uuid) ?? fallbackMessageId(lineNo, rec);
    // The API's stop reason arrives after the last block: a part that carries one ends its response.
    const final = typeof msg.stop_reason === 'string' && msg.stop_reason !== '';
    if (pending && messageId === pending.baseId) {
      if (pending.uuids.has(uuid)) return out.skip(); // the same part written twice
      pending.uuids.add(uuid);
      pending.pieces.push(...pieces);
      addTally(pending.tally, tally);
      if (final) close();
      return;
    }
    close();
    if (messageId && closed.get(messageId)?.has(uuid)) return out.skip();
    const base = lineTurn(rec, lineNo);
    const turnId = messageId && closed.has(messageId) ? `${messageId}#${uuid}` : messageId ?? base.messageId;
    const turn = derive(base, 'assistant', 'message', '', {}, turnId);
    pending = { baseId: messageId ?? turn.messageId, turn, model: str(msg.model), uuids: new Set([uuid]), pieces, tally };
    if (!messageId || final) close(); // nothing to merge with, or nothing more to come
  }

  function user(rec: JsonRecord, lineNo: number): void {
    const msg = rec.message;
    if (!isRecord(msg)) return out.issue(lineNo, 'user line without a message object');
    if (rec.isMeta === true) return out.skip();
    if (rec.isCompactSummary === true) {
      const raw = contentText(msg.content);
      if (raw === null) return out.issue(lineNo, `compact summary content is ${preview(msg.content)}, not text`);
      const tally: Tally = {};
      const text = cleanText(raw, { maxChars, tally });
      if (text === '') return out.skip();
      close();
      return place(withRedactions(derive(lineTurn(rec, lineNo), 'summary', 'compaction', text), tally));
    }
    const texts: string[] = [];
    const results: string[] = [];
    const toolUseIds: string[] = [];
    const toolTally: Tally = {};
    const textTally: Tally = {};
    let isError = false;
    if (typeof msg.content === 'string') texts.push(msg.content);
    else if (Array.isArray(msg.content)) {
      for (const block of msg.content) {
        if (!isRecord(block)) continue;
        if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
        else if (block.type === 'image') texts.push('[image]');
        else if (block.type === 'tool_result') {
          const id = str(block.tool_use_id);
          const body = block.content === undefined || block.content === null ? '' : contentText(block.content);
          if (body === null) out.issue(lineNo, `tool_result content is ${preview(block.content)}, not text`);
          const plain = (body ?? '').replace(/<\/?tool_use_error>/g, '');
          const line = toolResultLine((id && toolNames.get(id)) ?? null, plain, block.is_error === true, excerptChars, toolTally);
          if (id) toolUseIds.push(id);
          isError ||= block.is_error === true;
          if (line) results.push(line);
        }
      }
    } else return out.issue(lineNo, `user content is ${preview(msg.content)}, not text`);
    const text = texts.length > 0 ? cleanText(texts.join('\n\n'), { maxChars, transform: userText, tally: textTally }) : '';
    if (results.length === 0 && text === '') return out.skip(); // noise, empty results, unknown blocks
    const base = lineTurn(rec, lineNo);
    if (results.length > 0) {
      const toolId = text === '' ? base.messageId : `${base.messageId}#tool`;
      const toolText = cleanText(results.join('\n'), { maxChars, tally: toolTally });
      place(withRedactions(derive(base, 'tool', 'tool', toolText, { toolUseIds, isError }, toolId), toolTally));
    }
    if (text !== '') {
      close(); // a real user message ends the assistant response
      place(withRedactions(derive(base, 'user', 'message', text), textTally));
    }
  }

  return {
    push(line: string, lineNo: number): void {
      const rec = readRecord(line, lineNo, out);
      if (!rec) return;
      if (rec.type === 'assistant') return assistant(rec, lineNo);
      if (rec.type === 'user') return user(rec, lineNo);
      if (typeof rec.type !== 'string') return out.issue(lineNo, 'line has no type');
      if (rec.type === 'system' && typeof rec.subtype === 'string' && TURN_END_SUBTYPES.has(rec.subtype)) close();
      out.skip(); // system (compact_boundary, …), CLAUDE_CODE_NOISE_TYPES and unknown types
    },
    flush: close,
    take: () => out.take(),
    pendingFrom: () => pending?.turn.line ?? null,
  };
}
