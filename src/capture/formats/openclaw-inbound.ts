// OpenClaw stores a chat message as the model saw it: the person's words wrapped in a time stamp
// and "untrusted metadata" blocks (conversation info, sender, chat history, newer ones marked
// ⟦openclaw:ctx⟧). Memory wants the words and the sender's name, not the envelope; this file
// unwraps it and recognises heartbeat and cron prompts, which carry no memory.
import { clip } from '../clean.js';
import { isRecord, type JsonRecord } from './common.js';

export const CTX_MARKER = '⟦openclaw:ctx⟧';
/** `[Sat 2026-02-14 18:49 GMT-3] `, as OpenClaw's own stripper matches it. */
const STAMP = /^\[[A-Za-z]{3} \d{4}-\d{2}-\d{2} \d{2}:\d{2}[^\]\n]{0,40}\] */;
const UNTRUSTED_HEADER = /\(untrusted(?: metadata|, for context)\):?$/;

/** A user message with OpenClaw's envelope removed. */
export interface Inbound {
  text: string;
  /** Sender name from the metadata blocks, when present. */
  sender: string | null;
  senderId: string | null;
  /** Set when a metadata block held unreadable JSON (reported by the parser, text still kept). */
  problem: string | null;
}

function isHeader(line: string, leading: boolean): boolean {
  const t = line.trim();
  if (t.length > 200) return false;
  return t.endsWith(CTX_MARKER) || (leading && UNTRUSTED_HEADER.test(t));
}

/**
 * Removes the leading stamp and metadata blocks (a header line followed by a fenced block, or by
 * lines up to the next blank line), any later ⟦openclaw:ctx⟧ block, and stray markers; reads the
 * sender from the "Conversation info" / "Sender" JSON.
 */
export function stripInbound(raw: string): Inbound {
  const lines = raw.split('\n');
  const kept: string[] = [];
  const blocks: Array<{ label: string; json: string }> = [];
  let leading = true;
  let i = 0;
  while (i < lines.length) {
    let line = lines[i]!;
    if (leading && line.trim() === '') {
      i++;
      continue;
    }
    if (leading) line = line.replace(STAMP, '');
    if (!isHeader(line, leading)) {
      leading = false;
      kept.push(line);
      i++;
      continue;
    }
    const next = lines[i + 1]?.trim() ?? '';
    if (next.startsWith('```')) {
      let end = i + 2;
      while (end < lines.length && lines[end]!.trim() !== '```') end++;
      if (end >= lines.length) {
        // Unclosed fence: not an envelope we know; keep the text as written.
        leading = false;
        kept.push(line);
        i++;
        continue;
      }
      blocks.push({ label: line.trim(), json: lines.slice(i + 2, end).join('\n') });
      i = end + 1;
    } else {
      i++;
      while (i < lines.length && lines[i]!.trim() !== '') i++;
    }
  }
  const text = kept.join('\n').split(CTX_MARKER).join('');
  return { text, ...senderOf(blocks) };
}

function senderOf(blocks: Array<{ label: string; json: string }>): Omit<Inbound, 'text'> {
  let conversation: JsonRecord | null = null;
  let sender: JsonRecord | null = null;
  let problem: string | null = null;
  for (const block of blocks) {
    const isConversation = block.label.startsWith('Conversation info');
    const isSender = block.label.startsWith('Sender');
    if (!isConversation && !isSender) continue;
    const parsed = parseObject(block.json);
    if (!parsed) {
      problem = `unreadable JSON in "${clip(block.label, 40)}" block`;
      continue;
    }
    if (isConversation) conversation ??= parsed;
    else sender ??= parsed;
  }
  const convSender = conversation?.sender;
  const name =
    text(convSender) ??
    (isRecord(convSender) ? text(convSender.name) ?? text(convSender.username) ?? text(convSender.id) : null) ??
    text(sender?.name) ?? text(sender?.label) ?? text(sender?.username) ?? text(sender?.id);
  const id = text(conversation?.sender_id) ?? text(sender?.id) ?? (isRecord(convSender) ? text(convSender.id) : null);
  return { sender: name, senderId: id, problem };
}

function parseObject(json: string): JsonRecord | null {
  try {
    const value: unknown = JSON.parse(json);
    return isRecord(value) ? value : null;
  } catch {
    // Not silent: the caller turns a null into `problem`, which the parser reports as an issue.
    return null;
  }
}

function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const t = value.trim();
  return t === '' ? null : clip(t, 120); // redacted before the cut, as every capped text is
}

/**
 * `heartbeat` for OpenClaw's heartbeat prompt (it names HEARTBEAT.md and asks for HEARTBEAT_OK),
 * `cron` for a scheduled job's prompt (`[cron:<id> <name>] …`), else null.
 */
export function triggerOf(userText: string): 'heartbeat' | 'cron' | null {
  if (/^\[cron:[^\]\n]{0,200}\]/.test(userText)) return 'cron';
  if (userText.includes('HEARTBEAT.md') && userText.includes('HEARTBEAT_OK')) return 'heartbeat';
  return null;
}

/** Removes reply-routing directives (`[[reply_to_current]]`, `[[reply_to:123]]`) from a reply. */
export function stripReplyTags(text: string): string {
  return text.replace(/\[\[\s*reply_to(?:_current|\s*:[^\]\n]{0,100})\s*\]\]/g, '');
}
