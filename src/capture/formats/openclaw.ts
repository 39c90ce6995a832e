// Reads OpenClaw session transcripts (pi-coding-agent session format v3), one JSONL line or one
// `transcript_events` row at a time, into cleaned turns. Every record is one line, so nothing is
// ever held back; the only state is the header's session id and cwd and whether a heartbeat or
// cron run is in progress.
import {
  EXCERPT_CHARS, MAX_TURN_CHARS, cleanText, removeTagged, stripProtocolTokens, toolCallSummary, toolResultLine, type Tally,
} from '../clean.js';
import type { DraftKind, DraftRole } from '../turn-draft.js';
import { Collector, Timestamps, compact, contentText, isRecord, joinPieces, preview, readRecord, scalar, str, withRedactions, type JsonRecord, type ParserOptions, type TranscriptParser, fallbackMessageId } from './common.js';
import { stripInbound, stripReplyTags, triggerOf, type Inbound } from './openclaw-inbound.js';

/**
 * Header versions read without an issue: 3 (pi's tree format), 4 (OpenClaw 2026.9: the same lines)
 * and later ones. A later version is read the same way; a record it changed is reported on its own
 * line, so flagging the header of every session would only repeat what those issues say. Older
 * versions (1 had no ids, 2 another custom role) and non-integer ones are still named.
 */
function readableVersion(version: unknown): boolean {
  return typeof version === 'number' && Number.isInteger(version) && version >= 3;
}

/** Record types that are not conversation: dropped and counted as skipped. */
export const OPENCLAW_NOISE_TYPES = ['model_change', 'thinking_level_change', 'custom', 'label', 'session_info'] as const;

/**
 * A parser for OpenClaw pi v3 transcripts.
 *
 * - `message` records become `user`, `assistant` and `tool` turns (messageId = record `id`).
 *   User text loses OpenClaw's envelope (time stamp, "untrusted metadata" blocks, ⟦openclaw:ctx⟧
 *   markers); the sender named in it becomes the speaker. Assistant thinking is dropped; tool
 *   calls become `→ tool <name> <target>` lines; tool results a one-line excerpt.
 * - Heartbeat and cron prompts are skipped, and so are replies that are only HEARTBEAT_OK or
 *   NO_REPLY. Replies with real content in such a run are kept with `meta.trigger` set, so the
 *   judge can weigh them (a cron job's report can be worth remembering).
 * - `compaction` and `branch_summary` become `summary` turns of kind `compaction`.
 * - `custom_message` (extension-injected text) becomes a `system` turn only when `display` is
 *   true, i.e. the user saw it; hidden ones are skipped: they are context injections (recalled
 *   memories among them), and capturing them would feed memory back into itself.
 * - The session id comes from the header line; without one, from `options.sessionId` (a resumed
 *   read, a database row's session id), else "unknown" with one issue.
 */
export function createOpenClawParser(options: ParserOptions = {}): TranscriptParser {
  const out = new Collector();
  const times = new Timestamps(options.fallbackTimestamp);
  const maxChars = options.maxTextChars ?? MAX_TURN_CHARS;
  const excerptChars = options.excerptChars ?? EXCERPT_CHARS;
  let sessionId = options.sessionId ?? null;
  let cwd: string | undefined;
  let noSessionReported = false;
  let trigger: 'heartbeat' | 'cron' | null = null;

  function emit(rec: JsonRecord, lineNo: number, role: DraftRole, kind: DraftKind, text: string, speaker: string | null, meta: Record<string, unknown>, time: unknown[], tally: Tally = {}): void {
    let session = sessionId;
    if (!session) {
      if (!noSessionReported) out.issue(lineNo, 'no session header and no session id given; used "unknown"');
      noSessionReported = true;
      session = 'unknown';
    }
    let messageId = str(rec.id);
    if (!messageId) {
      out.issue(lineNo, 'record has no id; used the line number');
      messageId = fallbackMessageId(lineNo, rec);
    }
    const timestamp = times.resolve(time, lineNo, out);
    out.emit(withRedactions({ sessionId: session, messageId, role, speaker, text, timestamp, line: lineNo, kind, meta: compact({ parentId: str(rec.parentId), cwd, ...meta }) }, tally));
  }

  function header(rec: JsonRecord, lineNo: number): void {
    if (!readableVersion(rec.version)) out.issue(lineNo, `session header version ${preview(rec.version)}; read as version 3`);
    const id = str(rec.id);
    if (id) sessionId = id;
    else out.issue(lineNo, 'session header has no id');
    cwd = str(rec.cwd) ?? cwd;
  }

  function user(rec: JsonRecord, msg: JsonRecord, lineNo: number): void {
    const raw = contentText(msg.content);
    if (raw === null) return out.issue(lineNo, `user content is ${preview(msg.content)}, not text`);
    const seen: { inbound?: Inbound } = {};
    const tally: Tally = {};
    const text = cleanText(raw, { maxChars, transform: (t) => (seen.inbound = stripInbound(t)).text, tally });
    if (seen.inbound?.problem) out.issue(lineNo, seen.inbound.problem);
    const started = triggerOf(text);
    if (started || text === '') {
      trigger = started;
      return out.skip();
    }
    trigger = null;
    emit(rec, lineNo, 'user', 'message', text, seen.inbound?.sender ?? null, { senderId: seen.inbound?.senderId }, [rec.timestamp, msg.timestamp], tally);
  }

  function assistant(rec: JsonRecord, msg: JsonRecord, lineNo: number): void {
    const pieces: Array<{ text: string; tool: boolean }> = [];
    const tally: Tally = {};
    if (typeof msg.content === 'string') pieces.push({ text: msg.content, tool: false });
    else if (Array.isArray(msg.content)) {
      for (const block of msg.content) {
        if (!isRecord(block)) continue;
        if (block.type === 'text' && typeof block.text === 'string') pieces.push({ text: block.text, tool: false });
        else if (block.type === 'toolCall') pieces.push({ text: toolCallSummary(block.name, block.arguments, tally), tool: true });
      }
    } else if (msg.content !== undefined) return out.issue(lineNo, `assistant content is ${preview(msg.content)}, not text`);
    const cleaned = cleanText(joinPieces(pieces), {
      maxChars,
      transform: (t) => stripReplyTags(removeTagged(t, '<think>', '</think>')),
      tally,
    });
    const text = stripProtocolTokens(cleaned);
    if (text === '') return out.skip();
    const kind = pieces.every((p) => p.tool || p.text.trim() === '') ? 'tool' : 'message';
    const meta = { model: str(msg.model), provider: str(msg.provider), stopReason: str(msg.stopReason), trigger: trigger ?? undefined };
    emit(rec, lineNo, 'assistant', kind, text, null, meta, [rec.timestamp, msg.timestamp], tally);
  }

  function toolResult(rec: JsonRecord, msg: JsonRecord, lineNo: number): void {
    const raw = msg.content === undefined ? '' : contentText(msg.content);
    if (raw === null) return out.issue(lineNo, `tool result content is ${preview(msg.content)}, not text`);
    const name = str(msg.toolName) ?? null;
    const tally: Tally = {};
    const line = toolResultLine(name, raw, msg.isError === true, excerptChars, tally);
    if (line === null) return out.skip();
    const meta = { toolName: name, toolCallId: str(msg.toolCallId), isError: typeof msg.isError === 'boolean' ? msg.isError : undefined, trigger: trigger ?? undefined };
    emit(rec, lineNo, 'tool', 'tool', cleanText(line, { maxChars, tally }), null, meta, [rec.timestamp, msg.timestamp], tally);
  }

  function message(rec: JsonRecord, lineNo: number): void {
    const msg = rec.message;
    if (!isRecord(msg)) return out.issue(lineNo, 'message record without a message object');
    if (msg.role === 'user') return user(rec, msg, lineNo);
    if (msg.role === 'assistant') return assistant(rec, msg, lineNo);
    if (msg.role === 'toolResult') return toolResult(rec, msg, lineNo);
    if (typeof msg.role !== 'string') return out.issue(lineNo, 'message has no role');
    out.skip(); // other roles (bashExecution, …) are not conversation we read
  }

  function summary(rec: JsonRecord, lineNo: number, of: 'compaction' | 'branch'): void {
    if (typeof rec.summary !== 'string') return out.issue(lineNo, `${rec.type as string} without summary text`);
    const tally: Tally = {};
    const text = cleanText(rec.summary, { maxChars, tally });
    if (text === '') return out.skip();
    const meta = of === 'compaction'
      ? { summaryOf: of, firstKeptEntryId: str(rec.firstKeptEntryId), tokensBefore: scalar(rec.tokensBefore) }
      : { summaryOf: of, fromId: str(rec.fromId) };
    emit(rec, lineNo, 'summary', 'compaction', text, null, meta, [rec.timestamp], tally);
  }

  function customMessage(rec: JsonRecord, lineNo: number): void {
    if (rec.display !== true) return out.skip();
    const raw = contentText(rec.content);
    if (raw === null) return out.issue(lineNo, `custom_message content is ${preview(rec.content)}, not text`);
    const tally: Tally = {};
    const text = cleanText(raw, { maxChars, tally });
    if (text === '') return out.skip();
    emit(rec, lineNo, 'system', 'message', text, null, { customType: scalar(rec.customType) }, [rec.timestamp], tally);
  }

  return {
    push(line: string, lineNo: number): void {
      const rec = readRecord(line, lineNo, out);
      if (!rec) return;
      switch (rec.type) {
        case 'session': return header(rec, lineNo);
        case 'message': return message(rec, lineNo);
        case 'compaction': return summary(rec, lineNo, 'compaction');
        case 'branch_summary': return summary(rec, lineNo, 'branch');
        case 'custom_message': return customMessage(rec, lineNo);
        default:
          if (typeof rec.type !== 'string') return out.issue(lineNo, 'record has no type');
          out.skip(); // noise types (OPENCLAW_NOISE_TYPES) and types we do not know
      }
    },
    flush(): void {},
    take: () => out.take(),
    pendingFrom: () => null,
  };
}
