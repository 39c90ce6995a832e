// Deterministic generator of realistic agent transcripts, for the capture bench and the capture
// fuzz tests. Nothing is downloaded and nothing is committed: files are written to a temp dir.
//
// OpenClaw (pi session format v3, see /work/shared/FORMATS.md): a session header, then exchanges —
// user messages wrapped the way OpenClaw stores them (a `[Sat 2026-02-14 18:49 GMT-3]` stamp and
// "untrusted metadata" blocks), assistant replies with thinking blocks and text, tool loops
// (assistant toolCall lines and toolResult lines with long outputs: file contents, command output,
// search results), heartbeat prompts answered by HEARTBEAT_OK, cron runs, model_change /
// thinking_level_change / custom (model-snapshot) / hidden custom_message records, and a compaction
// now and then. Texts come from bench/corpus.ts (Zipf vocabulary, names, numbers), so they are not
// all alike; a realistic share of user and assistant messages are short repeats ("ok", "thanks").
//
// Claude Code and generic JSONL generators are smaller: enough variety (split assistant responses,
// tool results, noise lines) to serve as valid base transcripts for mutation fuzzing.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Corpus, Rng } from './corpus.js';

export interface GenOptions {
  /** Exact number of lines to produce (header included). */
  lines: number;
  seed?: number;
  /** Session id written into the transcript (OpenClaw header, Claude Code lines). */
  sessionId?: string;
  /** Time of the first line (epoch ms). */
  startMs?: number;
}

/** What a generated transcript holds, by line kind. */
export interface GenStats {
  lines: number;
  bytes: number;
  kinds: Record<string, number>;
}

const SHORT_USER = ['ok', 'thanks', 'yes', 'ok thanks', 'sounds good', 'go ahead', 'perfect', 'thank you!', 'no', 'do it', '👍', 'nice', 'great, thanks', 'yep'];
const SHORT_ASSISTANT = ['Done.', 'Got it.', 'On it.', 'Sure.', 'Noted.', 'Done — anything else?', 'You\'re welcome!'];
const TOOLS = ['read', 'exec', 'edit', 'write', 'web_search', 'memory_search', 'browser', 'process'] as const;
const HEARTBEAT_PROMPT =
  'Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. Do not infer or repeat old tasks from prior chats. If nothing needs attention, reply HEARTBEAT_OK.';
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const SENDERS = ['Ana', 'Bruno', 'Chen', 'Dara', 'Eli'];
const EXTS = ['ts', 'py', 'md', 'json', 'yaml', 'sh', 'go', 'sql'];

/** A sentence source: corpus memories, one after another, reproducible from the seed. */
export class Texts {
  private readonly corpus: Corpus;
  private k: number;
  constructor(seed: number) {
    this.corpus = new Corpus({ seed });
    this.k = seed * 7919;
  }
  sentence(): string {
    return this.corpus.generate(this.k++).memory.text;
  }
  sentences(n: number): string {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.sentence());
    return out.join(' ');
  }
  /** About `chars` characters of prose. */
  prose(chars: number): string {
    let s = '';
    while (s.length < chars) s += (s ? ' ' : '') + this.sentence();
    return s;
  }
  word(rng: Rng): string {
    return this.corpus.vocab.content[rng.int(Math.min(3000, this.corpus.vocab.content.length))]!;
  }
}

/** Log-normal integer with the given median, clamped. */
export function logNormal(rng: Rng, median: number, sigma: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, Math.round(Math.exp(Math.log(median) + sigma * rng.gauss()))));
}

export function hex(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += '0123456789abcdef'[rng.int(16)];
  return s;
}

function uuid(rng: Rng): string {
  return `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-a${hex(rng, 3)}-${hex(rng, 12)}`;
}

function b64(rng: Rng, n: number): string {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let s = '';
  for (let i = 0; i < n; i++) s += abc[rng.int(64)];
  return s;
}

/**
 * OpenClaw session lines (without newlines): exactly `options.lines` of them, header first. The
 * sequence is a pure function of the options.
 */
export function* openClawLines(options: GenOptions): Generator<string> {
  const seed = options.seed ?? 1;
  const rng = new Rng(seed ^ 0x0c1a);
  const texts = new Texts(seed);
  const sessionId = options.sessionId ?? uuid(rng);
  let t = options.startMs ?? Date.UTC(2026, 2, 2, 9, 14, 5);
  let remaining = options.lines;
  const used = new Set<string>();
  let parentId: string | null = null;
  let model = 'claude-sonnet-4-6';
  let sinceCompaction = 0;
  let firstKept: string | null = null;

  const newId = (): string => {
    let id = hex(rng, 8);
    while (used.has(id)) id = hex(rng, 8);
    used.add(id);
    return id;
  };
  const tick = (ms: number): string => {
    t += ms;
    return new Date(t).toISOString();
  };
  /** A record line with the common fields; `body` comes after them. */
  const record = (type: string, body: Record<string, unknown>, gapMs: number): string => {
    const id = newId();
    const line = JSON.stringify({ type, id, parentId, timestamp: tick(gapMs), ...body });
    parentId = id;
    firstKept ??= id;
    sinceCompaction++;
    remaining--;
    return line;
  };
  const message = (msg: Record<string, unknown>, gapMs: number): string => record('message', { message: { ...msg, timestamp: t + gapMs - 1 } }, gapMs);
  const usage = () => {
    const input = rng.range(200, 40_000);
    const output = rng.range(5, 1500);
    const cacheRead = rng.range(0, 120_000);
    return { input, output, cacheRead, cacheWrite: rng.range(0, 4000), totalTokens: input + output + cacheRead, cost: { total: Number((output * 1.5e-5 + input * 3e-6).toFixed(6)) } };
  };
  const assistantMsg = (content: unknown[], stopReason: string) => ({
    role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model, usage: usage(), stopReason,
  });
  const thinking = () => ({ type: 'thinking', thinking: texts.sentences(rng.range(1, 4)), thinkingSignature: b64(rng, rng.range(40, 200)) });

  function userText(): string {
    let body: string;
    const u = rng.next();
    if (u < 0.14) body = rng.pick(SHORT_USER);
    else if (u < 0.2) body = `${texts.sentence()}\n\n\`\`\`\n${toolOutput('exec', 200).slice(0, 600)}\n\`\`\``; // a pasted log
    else body = texts.sentences(logNormal(rng, 2, 0.6, 1, 8));
    const d = new Date(t);
    const stamp = `[${DAYS[d.getUTCDay()]} ${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} GMT-3] `;
    let envelope = '';
    if (rng.chance(0.55)) {
      const sender = rng.pick(SENDERS);
      envelope += `Conversation info (untrusted metadata):\n\`\`\`json\n${JSON.stringify({ message_id: String(rng.range(1000, 99999)), sender, chat_type: rng.pick(['direct', 'group']), channel: rng.pick(['telegram', 'whatsapp', 'discord']) }, null, 2)}\n\`\`\`\n\n`;
      if (rng.chance(0.35)) envelope += `Sender (untrusted metadata):\n\`\`\`json\n${JSON.stringify({ label: sender, name: sender, id: String(rng.range(10_000, 9_999_999)) }, null, 2)}\n\`\`\`\n\n`;
    }
    return envelope + stamp + body;
  }

  function toolArgs(tool: (typeof TOOLS)[number]): Record<string, unknown> {
    const path = `${rng.pick(['src', 'docs', 'memory', 'scripts', 'config'])}/${texts.word(rng)}/${texts.word(rng)}.${rng.pick(EXTS)}`;
    switch (tool) {
      case 'read': return { path };
      case 'write': return { path, content: texts.prose(logNormal(rng, 600, 0.8, 50, 8000)) };
      case 'edit': return { path, oldText: texts.sentence(), newText: texts.sentence() };
      case 'exec': return { command: rng.pick(['npm test', 'git status', `grep -rn ${texts.word(rng)} src`, 'ls -la', `cat ${path}`, 'npm run build', `docker logs ${texts.word(rng)}`]) };
      case 'web_search': return { query: texts.sentence().slice(0, 80), count: 5 };
      case 'memory_search': return { query: texts.sentence().slice(0, 60), maxResults: 6 };
      case 'browser': return { action: 'open', url: `https://${texts.word(rng)}.example.com/${texts.word(rng)}` };
      case 'process': return { action: 'poll', sessionId: hex(rng, 6) };
    }
  }

  /** A long tool output of about `chars` characters, shaped like the tool's real output. */
  function toolOutput(tool: string, chars: number): string {
    const lines: string[] = [];
    let n = 0;
    let i = 1;
    while (n < chars) {
      let line: string;
      if (tool === 'read' || tool === 'write') line = rng.chance(0.3) ? `  ${rng.pick(['const', 'let', 'export function', 'return', 'if (', 'await'])} ${texts.word(rng)}${rng.pick(['(', ' = ', '.', ') {'])}${texts.word(rng)}${rng.pick([');', ';', ' }', ''])}` : `// ${texts.sentence()}`;
      else if (tool === 'exec') line = rng.chance(0.5) ? `${new Date(t - rng.int(3_600_000)).toISOString()} ${rng.pick(['INFO', 'WARN', 'DEBUG', 'ERROR'])} [${texts.word(rng)}] ${texts.sentence()}` : `${rng.pick(['✔', '✖', 'ok', 'PASS', 'FAIL'])} ${i++} ${texts.sentence()}`;
      else if (tool === 'web_search' || tool === 'memory_search') line = `${i++}. ${texts.sentence()} — https://${texts.word(rng)}.example.org/${texts.word(rng)} (score ${rng.next().toFixed(2)})`;
      else line = texts.sentence();
      lines.push(line);
      n += line.length + 1;
    }
    return lines.join('\n');
  }

  function* toolLoop(calls: number, final: boolean): Generator<string> {
    for (let c = 0; c < calls && remaining > 0; c++) {
      const parallel = rng.chance(0.15) ? 2 : 1;
      const blocks: unknown[] = [];
      if (rng.chance(0.6)) blocks.push(thinking());
      if (rng.chance(0.3)) blocks.push({ type: 'text', text: rng.chance(0.5) ? texts.sentence() : `Let me check the ${texts.word(rng)} first.` });
      const ids: Array<{ id: string; name: (typeof TOOLS)[number] }> = [];
      for (let p = 0; p < parallel; p++) {
        const name = rng.pick(TOOLS);
        const id = `toolu_01${b64(rng, 20).replace(/[+/]/g, 'x')}`;
        ids.push({ id, name });
        blocks.push({ type: 'toolCall', id, name, arguments: toolArgs(name) });
      }
      yield message(assistantMsg(blocks, 'toolUse'), rng.range(800, 9000));
      for (const call of ids) {
        if (remaining <= 0) return;
        const isError = rng.chance(0.05);
        const chars = logNormal(rng, call.name === 'edit' || call.name === 'process' ? 60 : 1500, 1.0, 10, 30_000);
        const text = isError ? `Error: ${texts.sentence()}` : call.name === 'edit' ? `Edited ${String(toolArgs('edit').path)}` : toolOutput(call.name, chars);
        yield message({ role: 'toolResult', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text }], details: { exitCode: isError ? 1 : 0, durationMs: rng.range(5, 20_000) }, isError }, rng.range(50, 15_000));
      }
    }
    if (final && remaining > 0) yield message(assistantMsg([...(rng.chance(0.5) ? [thinking()] : []), { type: 'text', text: texts.sentences(logNormal(rng, 3, 0.7, 1, 14)) }], 'stop'), rng.range(1000, 20_000));
  }

  function* exchange(): Generator<string> {
    const u = rng.next();
    if (u < 0.08) {
      // Heartbeat: OpenClaw's periodic prompt; nearly always answered with HEARTBEAT_OK.
      yield message({ role: 'user', content: [{ type: 'text', text: HEARTBEAT_PROMPT }] }, rng.range(600_000, 3_600_000));
      if (rng.chance(0.85)) yield message(assistantMsg([{ type: 'text', text: rng.chance(0.9) ? 'HEARTBEAT_OK' : 'HEARTBEAT_OK\n' }], 'stop'), rng.range(1500, 6000));
      else yield* toolLoop(rng.range(1, 2), true);
      return;
    }
    if (u < 0.1) {
      yield message({ role: 'user', content: `[cron:${hex(rng, 8)} ${rng.pick(['daily-digest', 'inbox-check', 'backup-report'])}] ${texts.sentence()}` }, rng.range(600_000, 7_200_000));
      if (rng.chance(0.4)) yield message(assistantMsg([{ type: 'text', text: 'NO_REPLY' }], 'stop'), rng.range(2000, 9000));
      else yield* toolLoop(rng.range(0, 2), true);
      return;
    }
    yield message({ role: 'user', content: [{ type: 'text', text: userText() }] }, rng.range(20_000, 1_800_000));
    if (rng.chance(0.55)) yield* toolLoop(logNormal(rng, 2, 0.7, 1, 12), true);
    else {
      const text = rng.chance(0.1) ? rng.pick(SHORT_ASSISTANT) : texts.sentences(logNormal(rng, 3, 0.7, 1, 16));
      yield message(assistantMsg([...(rng.chance(0.6) ? [thinking()] : []), { type: 'text', text: rng.chance(0.1) ? `[[reply_to_current]] ${text}` : text }], 'stop'), rng.range(1500, 30_000));
    }
  }

  const header = { type: 'session', version: 3, id: sessionId, timestamp: new Date(t).toISOString(), cwd: '/home/ana/.openclaw/workspace' };
  yield JSON.stringify(header);
  remaining--;
  if (remaining > 0) yield record('model_change', { provider: 'anthropic', modelId: model }, 5);
  if (remaining > 0) yield record('thinking_level_change', { thinkingLevel: 'low' }, 5);
  while (remaining > 0) {
    const u = rng.next();
    if (u < 0.01) {
      model = rng.pick(['claude-sonnet-4-6', 'claude-opus-4-6', 'gpt-5.2', 'gemini-3-pro']);
      yield record('model_change', { provider: model.startsWith('claude') ? 'anthropic' : 'other', modelId: model }, 1000);
    } else if (u < 0.02) {
      yield record('custom', { customType: 'model-snapshot', data: { provider: 'anthropic', modelApi: 'anthropic-messages', modelId: model, timestamp: t } }, 10);
    } else if (u < 0.03) {
      yield record('custom_message', { customType: 'memory-recall', content: texts.sentences(2), display: false }, 10);
    } else if (u < 0.032) {
      yield record('thinking_level_change', { thinkingLevel: rng.pick(['off', 'low', 'medium', 'high']) }, 100);
    } else if (sinceCompaction > 2500 && rng.chance(0.05)) {
      const tokensBefore = rng.range(150_000, 190_000);
      yield record('compaction', { summary: `## Goal\n${texts.sentences(2)}\n\n## Decisions\n- ${texts.sentence()}\n- ${texts.sentence()}\n\n## Open\n${texts.sentences(2)}`, firstKeptEntryId: firstKept, tokensBefore }, 2000);
      sinceCompaction = 0;
      firstKept = null;
    } else yield* exchange();
  }
}

/** Claude Code session lines: user prompts, assistant responses split over lines sharing message.id, tool results, noise. */
export function* claudeCodeLines(options: GenOptions): Generator<string> {
  const seed = options.seed ?? 1;
  const rng = new Rng(seed ^ 0xc1a0);
  const texts = new Texts(seed);
  const sessionId = options.sessionId ?? uuid(rng);
  let t = options.startMs ?? Date.UTC(2026, 1, 18, 11, 43, 58);
  let remaining = options.lines;
  let parentUuid: string | null = null;
  const base = () => ({ parentUuid, isSidechain: false, cwd: '/home/ana/proj', sessionId, version: '2.1.37', gitBranch: 'main' });
  const line = (rec: Record<string, unknown>): string => {
    const uuid = `${hex(rng, 8)}-${hex(rng, 4)}`;
    t += rng.range(200, 60_000);
    const out = JSON.stringify({ ...base(), ...rec, uuid, timestamp: new Date(t).toISOString() });
    parentUuid = uuid;
    remaining--;
    return out;
  };
  while (remaining > 0) {
    const u = rng.next();
    if (u < 0.1) {
      yield line({ type: rng.pick(['progress', 'file-history-snapshot', 'queue-operation']), data: { note: texts.sentence() } });
      continue;
    }
    yield line({ type: 'user', message: { role: 'user', content: rng.chance(0.1) ? rng.pick(SHORT_USER) : texts.sentences(rng.range(1, 3)) } });
    const msgId = `msg_01${b64(rng, 16).replace(/[+/]/g, 'y')}`;
    const requestId = `req_${hex(rng, 12)}`;
    const parts = rng.range(1, 3);
    for (let p = 0; p < parts && remaining > 0; p++) {
      const useTool = p === parts - 1 && rng.chance(0.4);
      const toolId = `toolu_${hex(rng, 10)}`;
      const content = useTool
        ? [{ type: 'tool_use', id: toolId, name: rng.pick(['Read', 'Bash', 'Edit', 'Grep']), input: { file_path: `/home/ana/proj/src/${texts.word(rng)}.ts` } }]
        : [rng.chance(0.3) ? { type: 'thinking', thinking: texts.sentence(), signature: b64(rng, 40) } : { type: 'text', text: texts.sentences(rng.range(1, 4)) }];
      yield line({ type: 'assistant', requestId, message: { id: msgId, type: 'message', role: 'assistant', model: 'claude-opus-4-6', content, stop_reason: useTool ? 'tool_use' : null, usage: { input_tokens: rng.range(10, 9000), output_tokens: rng.range(1, 900) } } });
      if (useTool && remaining > 0) {
        yield line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content: texts.prose(rng.range(40, 900)), is_error: rng.chance(0.05) }] }, toolUseResult: { stdout: '' } });
      }
    }
  }
}

/** Generic JSONL chat lines: `{role, content, id?, timestamp?, speaker?}`. */
export function* genericJsonlLines(options: GenOptions): Generator<string> {
  const seed = options.seed ?? 1;
  const rng = new Rng(seed ^ 0x6e6e);
  const texts = new Texts(seed);
  let t = options.startMs ?? Date.UTC(2026, 0, 5, 8, 0, 0);
  for (let i = 0; i < options.lines; i++) {
    t += rng.range(1000, 600_000);
    const role = i % 2 === 0 ? 'user' : rng.chance(0.9) ? 'assistant' : 'tool';
    const rec: Record<string, unknown> = { role, content: rng.chance(0.1) ? rng.pick(SHORT_USER) : texts.sentences(rng.range(1, 3)) };
    if (rng.chance(0.8)) rec.id = `m${i + 1}`;
    if (rng.chance(0.7)) rec.timestamp = new Date(t).toISOString();
    if (role === 'user' && rng.chance(0.5)) rec.speaker = rng.pick(SENDERS);
    if (options.sessionId && rng.chance(0.5)) rec.session = options.sessionId;
    yield JSON.stringify(rec);
  }
}

export type GenFormat = 'openclaw' | 'claude-code' | 'jsonl';

export function linesFor(format: GenFormat, options: GenOptions): Generator<string> {
  return format === 'openclaw' ? openClawLines(options) : format === 'claude-code' ? claudeCodeLines(options) : genericJsonlLines(options);
}

/** The whole transcript as one string (small transcripts: tests). Every line ends with a newline. */
export function transcriptText(format: GenFormat, options: GenOptions): string {
  let s = '';
  for (const line of linesFor(format, options)) s += line + '\n';
  return s;
}

/** Streams a transcript to `path` (constant memory) and returns what it holds. */
export async function writeTranscript(path: string, format: GenFormat, options: GenOptions): Promise<GenStats> {
  const out = createWriteStream(path);
  const stats: GenStats = { lines: 0, bytes: 0, kinds: {} };
  for (const line of linesFor(format, options)) {
    const kind = kindOf(line);
    stats.kinds[kind] = (stats.kinds[kind] ?? 0) + 1;
    stats.lines++;
    const chunk = line + '\n';
    stats.bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return stats;
}

/** A coarse kind for a generated line: record type, or message role (plus tool-call / heartbeat detail). */
function kindOf(line: string): string {
  const rec = JSON.parse(line) as { type?: string; role?: string; message?: { role?: string; content?: unknown } };
  if (rec.type === 'message' && rec.message) {
    const role = rec.message.role ?? '?';
    const content = JSON.stringify(rec.message.content ?? '');
    if (role === 'assistant' && content.includes('"toolCall"')) return 'assistant:toolCall';
    if (role === 'assistant' && content.includes('HEARTBEAT_OK')) return 'assistant:HEARTBEAT_OK';
    if (role === 'user' && content.includes('HEARTBEAT.md')) return 'user:heartbeat';
    if (role === 'user' && content.includes('[cron:')) return 'user:cron';
    return role;
  }
  return rec.type ?? rec.role ?? '?';
}
