// Hostile transcripts through the real `cairn ingest --json` process, for each format (OpenClaw,
// Claude Code, generic JSONL). The contract checked here:
//   - the process never crashes: exit 0 when every path is a readable file, else a documented
//     non-zero code (3 = INVALID_INPUT) with a clear JSON error naming the path and the reason;
//   - every bad line is reported with its file and its line number, and only bad lines are;
//   - every good line is captured (counted in the SQLite file, opened read-only), exactly once.
// Cases: binary garbage, invalid JSON, JSON of the wrong types, missing fields, unknown record
// types, dangling parent ids, non-UTF-8 bytes, 100k-deep nesting, a 50 MB line (skipped, memory
// bounded), a last line without newline, CRLF, empty and blank files, a directory, a symlink loop,
// an unreadable file (as `nobody` when running as root), and a seeded mutation fuzz whose capture
// must match a direct parse of the same bytes through the library.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { NO_EMBEDDER, ROOT, json, runCli, writeConfig, type RunResult, tempHomes } from '../helpers/cli.js';
import { NOBODY, canRunAs, isRoot } from '../helpers/cli-as.js';
import { parseLines } from '../../src/capture/formats/index.js';
import { sessionFromFileName } from '../../src/capture/ingest-file.js';
import { MAX_LINE_BYTES } from '../../src/capture/file-reader.js';
import { transcriptText } from '../../bench/capture-gen.js';
import { Rng } from '../../bench/corpus.js';

type Format = 'openclaw' | 'claude-code' | 'jsonl';
const FORMATS: readonly Format[] = ['openclaw', 'claude-code', 'jsonl'];
/** Exit code of INVALID_INPUT (README: CLI exit codes). */
const EXIT_INVALID_INPUT = 3;
const DEPTH = 100_000;
const MAX_RSS_PRELOAD = join(ROOT, 'test', 'helpers', 'max-rss.mjs');

interface Issue {
  line: number;
  reason: string;
}
interface Report {
  path: string;
  linesRead: number;
  turnsInserted: number;
  duplicates: number;
  skipped: number;
  issues: Issue[];
  checkpointLine: number;
}
interface FileResult {
  path: string;
  report?: Report;
  error?: { code: string; message: string };
}
interface IngestOut {
  namespace: string;
  format: string;
  files: FileResult[];
  turnsInserted: number;
}
interface TurnRow {
  session_id: string;
  message_id: string;
  text: string;
  line: number;
}

const home = tempHomes();

// ---------------------------------------------------------------------------------------------
// Running the CLI and reading the store

/** The process did not crash: no signal, no internal error, no stack trace, a documented exit code. */
function noCrash(res: RunResult): void {
  const where = `exit ${res.code} signal ${res.signal}\nstdout: ${res.stdout.slice(0, 2000)}\nstderr: ${res.stderr.slice(0, 2000)}`;
  assert.equal(res.signal, null, `killed by a signal: ${where}`);
  assert.ok(res.code === 0 || res.code === EXIT_INVALID_INPUT, `unexpected exit code: ${where}`);
  assert.doesNotMatch(res.stderr + res.stdout, /"INTERNAL"|internal error|Maximum call stack|RangeError|\n\s+at /, `crash or internal error: ${where}`);
}

async function ingest(h: string, paths: readonly string[], format: Format, extra: readonly string[] = []): Promise<{ res: RunResult; out: IngestOut | null }> {
  const res = await runCli(['ingest', ...paths, '--format', format, '--json', ...extra], { home: h });
  return { res, out: res.stdout.trim() === '' ? null : json<IngestOut>(res.stdout) };
}

/** Ingest that must exit 0 with a report for every path. */
async function ingestOk(h: string, paths: readonly string[], format: Format, extra: readonly string[] = []): Promise<IngestOut> {
  const { res, out } = await ingest(h, paths, format, extra);
  noCrash(res);
  assert.equal(res.code, 0, `exit ${res.code}\nstdout: ${res.stdout.slice(0, 3000)}\nstderr: ${res.stderr.slice(0, 2000)}`);
  assert.ok(out);
  assert.deepEqual(out.files.map((f) => f.path), paths.map((p) => p));
  for (const f of out.files) assert.ok(f.report && !f.error, `${f.path}: ${JSON.stringify(f.error)}`);
  return out;
}

function turnsIn(h: string, session?: string): TurnRow[] {
  const path = join(h, 'cairn.db');
  if (!existsSync(path)) return [];
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const sql = 'SELECT session_id, message_id, text, line FROM turns' + (session === undefined ? '' : ' WHERE session_id = ?') + ' ORDER BY seq';
    return (session === undefined ? db.prepare(sql).all() : db.prepare(sql).all(session)) as TurnRow[];
  } finally {
    db.close();
  }
}

function turnCount(h: string): number {
  const path = join(h, 'cairn.db');
  if (!existsSync(path)) return 0;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM turns').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The error reported for `path`: a per-file entry on stdout, or the command's JSON error on stderr. */
function errorFor(res: RunResult, path: string): { code: string; message: string } | null {
  if (res.stdout.trim() !== '') {
    const out = json<IngestOut>(res.stdout);
    const hit = out.files.find((f) => f.path === path && f.error);
    if (hit?.error) return hit.error;
  }
  for (const line of res.stderr.split('\n')) {
    if (!line.startsWith('{')) continue;
    const parsed = json<{ error?: { code: string; message: string; path?: string } }>(line);
    if (parsed.error && (parsed.error.path === path || parsed.error.message.includes(path))) return parsed.error;
  }
  return null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// ---------------------------------------------------------------------------------------------
// Transcript lines

const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const iso = (i: number): string => new Date(T0 + i * 1000).toISOString();

/** Adds `"key": <raw JSON>` to a serialised object (for values too deep to JSON.stringify). */
function withRaw(jsonText: string, key: string, raw: string): string {
  return `${jsonText.slice(0, -1)},${JSON.stringify(key)}:${raw}}`;
}

interface GoodOptions {
  role?: 'user' | 'assistant';
  /** null: leave the id (uuid) out. */
  id?: string | null;
  text?: string;
}

/**
 * One line that yields exactly one turn, and the message id that turn gets (null when the line has
 * no id and the parser makes one up).
 */
function good(format: Format, session: string, i: number, options: GoodOptions = {}): { line: string; id: string | null } {
  const role = options.role ?? (i % 2 === 0 ? 'user' : 'assistant');
  const text = options.text ?? `good line ${i} of ${session}: the ${role === 'user' ? 'staging database' : 'cache'} moved to port ${5000 + i}`;
  const id = options.id === undefined ? `g${String(i).padStart(7, '0')}` : options.id;
  switch (format) {
    case 'openclaw': {
      const content = role === 'user' ? text : [{ type: 'text', text }];
      const rec: Record<string, unknown> = { type: 'message', ...(id === null ? {} : { id }), parentId: `p${i}`, timestamp: iso(i), message: { role, content, timestamp: T0 + i * 1000 } };
      return { line: JSON.stringify(rec), id };
    }
    case 'claude-code': {
      const base: Record<string, unknown> = { parentUuid: `p-${i}`, isSidechain: false, cwd: '/home/ana/proj', sessionId: session, type: role, ...(id === null ? {} : { uuid: id }), timestamp: iso(i) };
      if (role === 'user') return { line: JSON.stringify({ ...base, message: { role: 'user', content: text } }), id };
      const msgId = `msg-${session}-${i}`;
      return { line: JSON.stringify({ ...base, requestId: `req-${i}`, message: { id: msgId, type: 'message', role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'text', text }] } }), id: msgId };
    }
    case 'jsonl':
      return { line: JSON.stringify({ role, content: text, ...(id === null ? {} : { id }), timestamp: iso(i) }), id };
  }
}

function header(format: Format, session: string): string | null {
  return format === 'openclaw' ? JSON.stringify({ type: 'session', version: 3, id: session, timestamp: iso(0), cwd: '/home/ana/.openclaw/workspace' }) : null;
}

/** A good line whose text is `before + raw bytes + after` (bytes spliced into the JSON string as they are). */
function goodWithBytes(format: Format, session: string, i: number, id: string, bytes: Buffer): Buffer {
  const marker = '@@BYTES@@';
  const { line } = good(format, session, i, { id, role: 'user', text: `bytes ${marker} end` });
  const at = line.indexOf(marker);
  return Buffer.concat([Buffer.from(line.slice(0, at)), bytes, Buffer.from(line.slice(at + marker.length))]);
}

/** A line in a hostile file: how many turns it must yield and whether it must be reported. */
interface Entry {
  bytes: string | Buffer;
  turns: 0 | 1;
  /** true: must be reported; false: must not be; 'any': either (e.g. a skipped record). */
  issue: boolean | 'any';
  /** The message id its turn must have, when it yields one with a known id. */
  id?: string;
}

const bad = (bytes: string | Buffer): Entry => ({ bytes, turns: 0, issue: true });

function garbageLine(rng: Rng): Buffer {
  const n = rng.range(1, 400);
  const b = Buffer.alloc(n);
  for (let k = 0; k < n; k++) {
    let v = rng.int(256);
    if (v === 10) v = 0; // newlines would split the line; NUL is welcome
    b[k] = v;
  }
  b[0] = 0xff; // never blank, never JSON
  return b;
}

const deepArray = (): string => '['.repeat(DEPTH) + ']'.repeat(DEPTH);
const deepObject = (): string => '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);

/** The hostile lines of one case, for one format (placed between good lines). */
function hostile(format: Format, name: string, session: string): Entry[] {
  const rng = new Rng(name.length * 7919 + format.length);
  switch (name) {
    case 'garbage':
      return Array.from({ length: 8 }, () => bad(garbageLine(rng)));
    case 'invalid-json':
      return ['{oops', '{"type":"message",', '}{', '{"a":1}}', 'nul', "{'single':'quotes'}", '{"role":"user","content":"x"', '\u0000{}', '{"a":1,}', '{"a":NaN}', '{"a":"\\x41"}', '{"a":"unterminated}', '\u00ff\u00fe{}']
        .map(bad);
    case 'wrong-types': {
      const common = ['[]', '[1,2,3]', '42', '-0.5e3', '"just a string"', 'null', 'true', '[{"type":"message"}]'].map(bad);
      const specific: Record<Format, Entry[]> = {
        openclaw: [
          bad('{"type":"message","id":"w1","timestamp":"2026-03-02T09:00:00Z","message":{"role":"user","content":42}}'),
          bad('{"type":"message","id":"w2","timestamp":"2026-03-02T09:00:00Z","message":null}'),
          bad('{"type":"message","id":"w3","timestamp":"2026-03-02T09:00:00Z","message":{"role":{"name":"user"},"content":"hi"}}'),
          bad('{"type":"message","id":"w4","message":"just text"}'),
          bad('{"type":"message","id":"w5","message":{"role":"assistant","content":42}}'),
          bad('{"type":"message","id":"w6","message":{"role":"toolResult","toolName":"exec","content":{"a":1}}}'),
          bad('{"type":42,"id":"w7"}'),
          bad('{"type":["message"],"id":"w8"}'),
          bad('{"type":"compaction","id":"w9","summary":42}'),
          bad('{"type":"message","id":"w10","message":[{"role":"user","content":"hi"}]}'),
          { bytes: '{"type":"message","id":"w11","timestamp":"2026-03-02T09:00:00Z","message":{"role":"user","content":[1,null,{"type":"text","text":42},["x"]]}}', turns: 0, issue: 'any' },
          // Wrong-typed but recoverable: the turn is kept, the problem reported.
          { bytes: '{"type":"message","id":"w12","timestamp":{"at":"noon"},"message":{"role":"user","content":"typed timestamp object"}}', turns: 1, issue: true, id: 'w12' },
          { bytes: '{"type":"message","id":"w13","timestamp":"2026-03-02T09:00:00Z","message":{"role":"assistant","content":[{"type":"toolCall","name":{"x":1},"arguments":[1,2]}]}}', turns: 1, issue: false, id: 'w13' },
        ],
        'claude-code': [
          bad('{"type":"user","uuid":"w1","sessionId":"S","timestamp":"2026-03-02T09:00:00Z","message":{"role":"user","content":42}}'),
          bad('{"type":"user","uuid":"w2","message":null}'),
          bad('{"type":"assistant","uuid":"w3","message":{"id":"mx","role":"assistant","content":42}}'),
          bad('{"type":{"a":1},"uuid":"w4"}'),
          bad('{"type":"assistant","uuid":"w5","message":"text"}'),
          bad('{"type":"user","uuid":"w6","message":[1]}'),
          bad('{"uuid":"w7","message":{"role":"user","content":"no type"}}'),
          { bytes: '{"type":"user","uuid":"w8","timestamp":42.5e300,"message":{"role":"user","content":"absurd timestamp"}}', turns: 1, issue: true, id: 'w8' },
          { bytes: '{"type":"user","uuid":"w9","timestamp":"2026-03-02T09:00:00Z","message":{"role":{"r":1},"content":"role as object is not read by this format"}}', turns: 1, issue: false, id: 'w9' },
        ],
        jsonl: [
          bad('{"role":"user","content":42}'),
          bad('{"role":{"name":"user"},"content":"role as object"}'),
          bad('{"role":"user","content":null}'),
          bad('{"role":null,"content":"null role"}'),
          bad('{"role":"user","content":{"text":"object content"}}'),
          bad('{"role":42,"content":"numeric role"}'),
          bad('{"role":["user"],"content":"array role"}'),
          { bytes: '{"role":"user","content":"object id","id":{"x":1},"timestamp":"2026-03-02T09:00:00Z"}', turns: 1, issue: true },
          { bytes: '{"role":"user","content":"array session","id":"w9","session":["a"],"timestamp":"2026-03-02T09:00:00Z"}', turns: 1, issue: true },
          { bytes: '{"role":"user","content":"bad time","id":"w10","timestamp":"yesterday-ish"}', turns: 1, issue: true, id: 'w10' },
        ],
      };
      return [...common, ...specific[format]];
    }
    case 'missing-fields': {
      const specific: Record<Format, Entry[]> = {
        openclaw: [
          bad('{"type":"message"}'),
          bad('{"type":"message","id":"m1","message":{"role":"user"}}'),
          bad('{"type":"message","id":"m2","message":{}}'),
          bad('{"id":"m3","message":{"role":"user","content":"no type"}}'),
          bad('{"type":"compaction","id":"m4"}'),
          { bytes: good(format, session, 900, { id: null }).line, turns: 1, issue: true }, // no id
          { bytes: '{"type":"message","id":"m5","message":{"role":"user","content":"no timestamp anywhere"}}', turns: 1, issue: true, id: 'm5' },
          { bytes: '{"type":"message","id":"m6","timestamp":"2026-03-02T09:00:00Z","message":{"role":"toolResult","content":[{"type":"text","text":"no tool name"}]}}', turns: 1, issue: false, id: 'm6' },
          { bytes: '{"type":"message","id":"m7","timestamp":"2026-03-02T09:00:00Z","message":{"role":"assistant"}}', turns: 0, issue: 'any' },
        ],
        'claude-code': [
          bad('{"type":"user"}'),
          bad('{"type":"assistant","uuid":"m1"}'),
          bad('{"type":"user","uuid":"m2","message":{"role":"user"}}'),
          { bytes: good(format, session, 900, { id: null, role: 'user' }).line, turns: 1, issue: true }, // no uuid
          { bytes: '{"type":"user","uuid":"m3","message":{"role":"user","content":"no timestamp, no session"}}', turns: 1, issue: true, id: 'm3' },
          { bytes: '{"type":"assistant","uuid":"m4","timestamp":"2026-03-02T09:00:00Z","message":{"role":"assistant","content":[{"type":"text","text":"no message id"}]}}', turns: 1, issue: false, id: 'm4' },
        ],
        jsonl: [
          bad('{}'),
          bad('{"content":"no role"}'),
          bad('{"role":"user"}'),
          { bytes: '{"role":"assistant","content":"no id, no timestamp"}', turns: 1, issue: false },
        ],
      };
      return specific[format];
    }
    case 'unknown-types': {
      const specific: Record<Format, Entry[]> = {
        openclaw: [
          { bytes: '{"type":"frobnicate","id":"u1","parentId":"x","timestamp":"2026-03-02T09:00:00Z","payload":{"a":[1,2]}}', turns: 0, issue: false },
          { bytes: '{"type":"message","id":"u2","timestamp":"2026-03-02T09:00:00Z","message":{"role":"bashExecution","command":"ls"}}', turns: 0, issue: false },
          { bytes: '{"type":"custom","id":"u3","customType":"model-snapshot","data":{}}', turns: 0, issue: false },
          { bytes: '{"type":"label","id":"u4","label":"x"}', turns: 0, issue: false },
          { bytes: '{"type":"custom_message","id":"u5","content":"hidden injection","display":false}', turns: 0, issue: false },
          // A second header for the same session (a resumed writer), of an unknown version.
          { bytes: JSON.stringify({ type: 'session', version: 99, id: session, timestamp: '2026-03-02T09:00:00Z' }), turns: 0, issue: 'any' },
        ],
        'claude-code': [
          { bytes: '{"type":"frobnicate","uuid":"u1","sessionId":"S"}', turns: 0, issue: false },
          { bytes: '{"type":"progress","uuid":"u2","data":{"type":"hook_progress"}}', turns: 0, issue: false },
          { bytes: '{"type":"system","subtype":"compact_boundary","uuid":"u3","content":"Conversation compacted"}', turns: 0, issue: false },
          { bytes: '{"type":"file-history-snapshot","messageId":"u4","snapshot":{}}', turns: 0, issue: false },
        ],
        jsonl: [
          bad('{"role":"wizard","content":"unknown role"}'),
          bad('{"type":"frobnicate","content":"no role"}'),
          { bytes: '{"role":"user","content":"unknown fields kept aside","id":"u1","mood":"sunny","nested":{"a":1},"timestamp":"2026-03-02T09:00:00Z"}', turns: 1, issue: false, id: 'u1' },
        ],
      };
      return specific[format];
    }
    case 'dangling-parent': {
      const line = (i: number) => {
        const { line: l, id } = good(format, session, i);
        const dangled = l.replace(/"parent(Id|Uuid)":"[^"]*"/, '"parent$1":"deadbeef-missing"');
        return { bytes: format === 'jsonl' ? withRaw(l, 'parentId', '"deadbeef-missing"') : dangled, turns: 1 as const, issue: false, ...(id ? { id } : {}) };
      };
      return [line(800), line(801), line(802)];
    }
    case 'non-utf8': {
      const seqs: Array<[string, Buffer]> = [
        ['latin1', Buffer.from('caf\u00e9 cr\u00e8me br\u00fbl\u00e9e', 'latin1')],
        ['cesu-surrogate', Buffer.from([0xed, 0xa0, 0x80, 0x20, 0xed, 0xbf, 0xbf])],
        ['overlong-2', Buffer.from([0xc0, 0xaf])],
        ['overlong-3', Buffer.from([0xe0, 0x80, 0xaf])],
        ['overlong-nul', Buffer.from([0xc0, 0x80])],
        ['stray-continuation', Buffer.from([0x80, 0xbf, 0x80])],
        ['truncated-4', Buffer.from([0xf0, 0x9f, 0x98, 0x20])],
        ['invalid-lead', Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80, 0xfe, 0xff])],
        ['json-lone-high', Buffer.from('\\ud800 lone high')],
        ['json-lone-low', Buffer.from('\\udc00 lone low')],
        ['json-two-highs', Buffer.from('\\udbff\\udbff')],
        ['json-nul-escape', Buffer.from('nul \\u0000 and bell \\u0007')],
        ['valid-astral', Buffer.from('😀 ok')],
      ];
      const entries: Entry[] = seqs.map(([name, bytes], k) => ({ bytes: goodWithBytes(format, session, 700 + k, `u8-${name}`, bytes), turns: 1, issue: false, id: `u8-${name}` }));
      // A BOM before a record is whitespace to JSON.parse after trim: still a good line.
      entries.push({ bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(good(format, session, 750, { id: 'u8-bom', role: 'user' }).line)]), turns: 1, issue: false, id: 'u8-bom' });
      // Invalid bytes outside any string break the JSON itself.
      const { line } = good(format, session, 751, { id: 'u8-structural', role: 'user' });
      entries.push(bad(Buffer.concat([Buffer.from(line.slice(0, 1)), Buffer.from([0xff, 0xfe]), Buffer.from(line.slice(1))])));
      return entries;
    }
    case 'deep-nesting': {
      const withId = good(format, session, 600, { id: 'deep-with-id', role: 'user' });
      const noId = good(format, session, 601, { id: null, role: 'user', text: 'a record without id next to a deep field' });
      const entries: Entry[] = [
        bad(deepArray()),
        bad(deepObject()),
        { bytes: withRaw(withId.line, 'x', deepArray()), turns: 1, issue: false, id: 'deep-with-id' },
        // No id: the parser derives one from the record's content; a deep field must not overflow the stack.
        { bytes: withRaw(noId.line, 'x', deepArray()), turns: 1, issue: format !== 'jsonl' },
        { bytes: withRaw(good(format, session, 602, { id: 'deep-obj', role: 'user' }).line, 'y', deepObject()), turns: 1, issue: false, id: 'deep-obj' },
      ];
      if (format === 'openclaw') {
        entries.push({ bytes: `{"type":"message","id":"deep-content","timestamp":"2026-03-02T09:00:00Z","message":{"role":"user","content":${deepArray()}}}`, turns: 0, issue: 'any' });
        entries.push({ bytes: `{"type":"message","id":"deep-args","timestamp":"2026-03-02T09:00:00Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"exec","arguments":${deepObject()}}]}}`, turns: 1, issue: false, id: 'deep-args' });
      } else if (format === 'claude-code') {
        entries.push({ bytes: `{"type":"user","uuid":"deep-content","timestamp":"2026-03-02T09:00:00Z","message":{"role":"user","content":${deepArray()}}}`, turns: 0, issue: 'any' });
      } else {
        entries.push({ bytes: `{"role":"user","id":"deep-content","content":${deepArray()}}`, turns: 0, issue: 'any' });
      }
      return entries;
    }
    default:
      throw new Error(`unknown case ${name}`);
  }
}

const CASES = ['garbage', 'invalid-json', 'wrong-types', 'missing-fields', 'unknown-types', 'dangling-parent', 'non-utf8', 'deep-nesting'] as const;

interface Built {
  buf: Buffer;
  /** Message ids that must be captured. */
  ids: string[];
  turns: number;
  mustReport: number[];
  mayReport: Set<number>;
}

/** Good lines with the hostile entries between them: good, bad, good, bad, …, good. */
function build(format: Format, session: string, entries: readonly Entry[], eol = '\n'): Built {
  const parts: Buffer[] = [];
  let lineNo = 0;
  const out: Built = { buf: Buffer.alloc(0), ids: [], turns: 0, mustReport: [], mayReport: new Set() };
  const push = (bytes: string | Buffer) => {
    parts.push(typeof bytes === 'string' ? Buffer.from(bytes) : bytes, Buffer.from(eol));
    return ++lineNo;
  };
  const h = header(format, session);
  if (h) push(h);
  const addGood = (i: number) => {
    const g = good(format, session, i);
    push(g.line);
    out.ids.push(g.id!);
    out.turns++;
  };
  entries.forEach((entry, k) => {
    addGood(k);
    const at = push(entry.bytes);
    out.turns += entry.turns;
    if (entry.id) out.ids.push(entry.id);
    if (entry.issue === true) out.mustReport.push(at);
    if (entry.issue !== false) out.mayReport.add(at);
  });
  addGood(entries.length);
  out.buf = Buffer.concat(parts);
  return out;
}

/** Checks one file's report and stored turns against what was built. */
function checkFile(h: string, format: Format, session: string, built: Built, file: FileResult | undefined): void {
  assert.ok(file?.report, `no report: ${JSON.stringify(file)}`);
  const r = file.report;
  const reported = [...new Set(r.issues.map((i) => i.line))].sort((a, b) => a - b);
  for (const line of built.mustReport) assert.ok(reported.includes(line), `${format} ${session}: line ${line} not reported; reported ${JSON.stringify(r.issues).slice(0, 1500)}`);
  for (const line of reported) assert.ok(built.mayReport.has(line), `${format} ${session}: good line ${line} reported: ${JSON.stringify(r.issues.filter((i) => i.line === line))}`);
  for (const issue of r.issues) assert.ok(typeof issue.reason === 'string' && issue.reason.length > 0 && issue.reason.length <= 200, `unclear reason ${JSON.stringify(issue)}`);
  assert.equal(r.turnsInserted, built.turns, `${format} ${session}: turns inserted`);
  assert.equal(r.duplicates, 0);
  const rows = turnsIn(h, session);
  assert.equal(rows.length, built.turns, `${format} ${session}: turns stored`);
  const ids = new Set(rows.map((t) => t.message_id));
  for (const id of built.ids) assert.ok(ids.has(id), `${format} ${session}: turn ${id} missing`);
  for (const row of rows) assert.doesNotMatch(row.text, LONE_SURROGATE, `${row.message_id}: lone surrogate stored`);
}

// ---------------------------------------------------------------------------------------------

describe('hostile lines between good ones: reported by file and line, every good line captured', { concurrency: 2 }, () => {
  for (const format of FORMATS) {
    for (const name of CASES) {
      test(`${format}: ${name}`, async () => {
        const h = home();
        const session = `${name}-${format}`;
        const built = build(format, session, hostile(format, name, session));
        const path = join(h, `${session}.jsonl`);
        writeFileSync(path, built.buf);
        const out = await ingestOk(h, [path], format, ['--final']);
        assert.equal(out.files[0]!.path, path, 'the report names the file');
        checkFile(h, format, session, built, out.files[0]);
        if (name === 'non-utf8') {
          const byId = new Map(turnsIn(h, session).map((t) => [t.message_id, t.text]));
          assert.match(byId.get('u8-latin1')!, /caf\uFFFD cr\uFFFDme/);
          assert.match(byId.get('u8-valid-astral')!, /😀 ok/);
          assert.doesNotMatch(byId.get('u8-json-nul-escape')!, /[\u0000\u0007]/);
        }
        // Exactly once: a second run reads nothing new.
        const again = await ingestOk(h, [path], format, ['--final']);
        assert.deepEqual([again.files[0]!.report!.linesRead, again.turnsInserted], [0, 0]);
        assert.equal(turnCount(h), built.turns);
      });
    }
  }
});

describe('file shapes', { concurrency: 2 }, () => {
  test('a 50 MB line (over the 8 MB cap) is skipped and reported, memory stays bounded, the lines around it are captured', async (t) => {
    const h = home();
    const format: Format = 'openclaw';
    const session = 'huge-line';
    const lines: Buffer[] = [Buffer.from(header(format, session)! + '\n')];
    for (let i = 0; i < 3; i++) lines.push(Buffer.from(good(format, session, i).line + '\n'));
    // A valid record: if the cap did not hold, it would be captured.
    const hugeSize = 50 * 1024 * 1024;
    const prefix = Buffer.from('{"type":"message","id":"huge","timestamp":"2026-03-02T09:00:00Z","message":{"role":"user","content":"');
    const suffix = Buffer.from('"}}\n');
    const huge = Buffer.alloc(hugeSize, 'x');
    prefix.copy(huge, 0);
    suffix.copy(huge, hugeSize - suffix.length);
    lines.push(huge);
    for (let i = 3; i < 6; i++) lines.push(Buffer.from(good(format, session, i).line + '\n'));
    const path = join(h, `${session}.jsonl`);
    writeFileSync(path, Buffer.concat(lines));
    const small = join(h, 'small.jsonl');
    writeFileSync(small, header(format, 'small') + '\n' + good(format, 'small', 0).line + '\n');

    const measure = async (file: string): Promise<{ out: IngestOut; rssMiB: number }> => {
      const rssFile = join(h, `rss-${Math.random().toString(36).slice(2)}.json`);
      const res = await runCli(['ingest', file, '--format', format, '--json'], { home: h, nodeArgs: ['--import', MAX_RSS_PRELOAD], env: { CAIRN_TEST_MAXRSS_FILE: rssFile } });
      noCrash(res);
      assert.equal(res.code, 0, res.stderr);
      const { maxRssKiB } = JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRssKiB: number };
      return { out: json<IngestOut>(res.stdout), rssMiB: maxRssKiB / 1024 };
    };
    const base = await measure(small);
    const big = await measure(path);
    const r = big.out.files[0]!.report!;
    assert.deepEqual([r.linesRead, r.turnsInserted, r.checkpointLine], [8, 6, 8]);
    assert.equal(r.issues.length, 1);
    assert.equal(r.issues[0]!.line, 5);
    assert.match(r.issues[0]!.reason, new RegExp(`line of ${hugeSize} bytes exceeds the ${MAX_LINE_BYTES}-byte limit; skipped`));
    const ids = turnsIn(h, session).map((t) => t.message_id);
    assert.equal(ids.length, 6);
    assert.ok(!ids.includes('huge'));
    // Reading the line whole would need at least its 50 MB (more as a string); the reader keeps at
    // most the 8 MB cap plus one 1 MB chunk.
    const growth = big.rssMiB - base.rssMiB;
    t.diagnostic(`peak RSS: ${base.rssMiB.toFixed(0)} MiB (small file), ${big.rssMiB.toFixed(0)} MiB (50 MB line)`);
    assert.ok(growth < 40, `peak RSS grew by ${growth.toFixed(0)} MiB over a small ingest (${base.rssMiB.toFixed(0)} → ${big.rssMiB.toFixed(0)} MiB)`);
    // The checkpoint is past the huge line: the next run reads nothing.
    const again = await ingestOk(h, [path], format);
    assert.equal(again.files[0]!.report!.linesRead, 0);
  });

  test('a last line without newline waits for it, then is captured exactly once', async () => {
    for (const format of FORMATS) {
      const h = home();
      const session = `partial-${format}`;
      const path = join(h, `${session}.jsonl`);
      const g0 = good(format, session, 0, { role: 'user' });
      const g1 = good(format, session, 1, { role: 'user' });
      const first = [header(format, session), g0.line, g1.line].filter((l) => l !== null);
      const last = good(format, session, 2, { role: 'user' });
      const half = Math.floor(last.line.length / 2);
      writeFileSync(path, first.join('\n') + '\n' + last.line.slice(0, half));
      const r1 = (await ingestOk(h, [path], format)).files[0]!.report!;
      assert.deepEqual([r1.linesRead, r1.turnsInserted, r1.issues.length, r1.checkpointLine], [first.length, 2, 0, first.length], format);
      appendFileSync(path, last.line.slice(half)); // complete, still no newline
      const r2 = (await ingestOk(h, [path], format)).files[0]!.report!;
      assert.deepEqual([r2.linesRead, r2.turnsInserted, r2.issues.length], [0, 0, 0], `${format}: a line without newline is not read`);
      appendFileSync(path, '\n');
      const r3 = (await ingestOk(h, [path], format)).files[0]!.report!;
      assert.deepEqual([r3.linesRead, r3.turnsInserted, r3.duplicates, r3.issues.length], [1, 1, 0, 0], format);
      const r4 = (await ingestOk(h, [path], format)).files[0]!.report!;
      assert.deepEqual([r4.linesRead, r4.turnsInserted], [0, 0], format);
      const rows = turnsIn(h, session);
      assert.deepEqual(rows.map((t) => t.message_id), [g0.id, g1.id, last.id], format);
    }
  });

  test('CRLF line endings: same turns, no carriage returns kept, bad lines still reported by number', async () => {
    for (const format of FORMATS) {
      const h = home();
      const session = `crlf-${format}`;
      const entries: Entry[] = [bad('{oops'), { bytes: '', turns: 0, issue: false }, bad(Buffer.from([0xff, 0x0d, 0x00, 0x41])), bad('[1]')];
      const built = build(format, session, entries, '\r\n');
      const path = join(h, `${session}.jsonl`);
      writeFileSync(path, built.buf);
      const out = await ingestOk(h, [path], format, ['--final']);
      checkFile(h, format, session, built, out.files[0]);
      for (const row of turnsIn(h, session)) assert.doesNotMatch(row.text, /\r/, `${format}: CR kept in ${row.message_id}`);
    }
  });

  test('an empty file and a file of blank lines: exit 0, nothing captured, nothing reported', async () => {
    for (const format of FORMATS) {
      const h = home();
      const empty = join(h, 'empty.jsonl');
      const blank = join(h, 'blank.jsonl');
      writeFileSync(empty, '');
      writeFileSync(blank, '\n\n   \n\t\n\r\n \r\n\n');
      const out = await ingestOk(h, [empty, blank], format, ['--final']);
      const [e, b] = out.files.map((f) => f.report!);
      assert.deepEqual([e!.linesRead, e!.turnsInserted, e!.issues.length, e!.checkpointLine], [0, 0, 0, 0], format);
      assert.deepEqual([b!.linesRead, b!.turnsInserted, b!.issues.length, b!.checkpointLine], [7, 0, 0, 7], format);
      assert.equal(turnCount(h), 0);
      const again = await ingestOk(h, [empty, blank], format);
      assert.deepEqual(again.files.map((f) => f.report!.linesRead), [0, 0]);
    }
  });
});

describe('unusable paths: a clear error for that path, the other paths of the same call still captured', { concurrency: 2 }, () => {
  /** Two good files around `badPath`, in one call; asserts the error and the capture of both good files. */
  async function mixed(h: string, badPath: string, reason: RegExp, run: (paths: string[]) => Promise<RunResult>): Promise<void> {
    const format: Format = 'jsonl';
    const a = join(h, 'good-a.jsonl');
    const b = join(h, 'good-b.jsonl');
    writeFileSync(a, good(format, 'good-a', 0).line + '\n' + good(format, 'good-a', 1).line + '\n');
    writeFileSync(b, good(format, 'good-b', 0).line + '\n');
    chmodSync(a, 0o644);
    chmodSync(b, 0o644);
    // Alone, the unusable path fails the whole call: documented exit code, JSON error, nothing stored.
    const alone = await run([badPath]);
    noCrash(alone);
    assert.equal(alone.code, EXIT_INVALID_INPUT, alone.stderr);
    const aloneErr = errorFor(alone, badPath);
    assert.ok(aloneErr, `no JSON error naming ${badPath}: ${alone.stdout} ${alone.stderr}`);
    assert.equal(aloneErr.code, 'INVALID_INPUT');
    assert.match(aloneErr.message, reason);
    assert.equal(turnCount(h), 0);
    // Among good files: the same error for that path, and the good files captured.
    const res = await run([a, badPath, b]);
    noCrash(res);
    assert.equal(res.code, EXIT_INVALID_INPUT, `a failed path makes the exit code non-zero\n${res.stdout}\n${res.stderr}`);
    const err = errorFor(res, badPath);
    assert.ok(err, `no JSON error naming ${badPath}: ${res.stdout} ${res.stderr}`);
    assert.match(err.message, reason);
    assert.equal(turnsIn(h, 'good-a').length + turnsIn(h, 'good-b').length, 3, `the other paths of the call are captured\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  }

  test('a directory', async () => {
    const h = home();
    const dir = join(h, 'a-directory.jsonl');
    mkdirSync(dir);
    await mixed(h, dir, /is a directory/, (paths) => runCli(['ingest', ...paths, '--format', 'jsonl', '--json'], { home: h }));
  });

  test('a symlink loop', async () => {
    const h = home();
    const loopA = join(h, 'loop-a.jsonl');
    const loopB = join(h, 'loop-b.jsonl');
    symlinkSync(loopB, loopA);
    symlinkSync(loopA, loopB);
    await mixed(h, loopA, /symbolic links|ELOOP/i, (paths) => runCli(['ingest', ...paths, '--format', 'jsonl', '--json'], { home: h }));
  });

  test('permission denied (as nobody when running as root)', async (t) => {
    const asRoot = isRoot();
    if (asRoot && !canRunAs(NOBODY)) return t.skip('running as root, and nobody cannot run the built CLI here');
    const h = home();
    const locked = join(h, 'locked.jsonl');
    writeFileSync(locked, good('jsonl', 'locked', 0).line + '\n');
    chmodSync(locked, 0o000);
    if (asRoot) {
      // Root reads mode-000 files: run the CLI as nobody, in a home it can write.
      chmodSync(h, 0o777);
      writeConfig(h, NO_EMBEDDER);
      chmodSync(join(h, 'config.json'), 0o644);
    }
    await mixed(h, locked, /permission denied/, (paths) =>
      runCli(['ingest', ...paths, '--format', 'jsonl', '--json'], { home: h, ...(asRoot ? NOBODY : {}) }),
    );
    assert.ok(!turnsIn(h, 'locked').length, 'nothing read from the unreadable file');
  });
});

// ---------------------------------------------------------------------------------------------
// Seeded mutation fuzz: what the CLI captures equals a direct parse of the same bytes.

/** The complete lines of a file as the reader yields them (the unterminated tail is not read). */
function readerLines(buf: Buffer): string[] {
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const nl = buf.indexOf(10, from);
    if (nl === -1) return out;
    let text = buf.toString('utf8', from, nl);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    out.push(text);
    from = nl + 1;
  }
}

function splitLines(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let from = 0;
  for (;;) {
    const nl = buf.indexOf(10, from);
    if (nl === -1) {
      if (from < buf.length) out.push(buf.subarray(from));
      return out;
    }
    out.push(buf.subarray(from, nl + 1));
    from = nl + 1;
  }
}

const BAD_UTF8 = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x80], [0xf0, 0x9f], [0x00], [0x0d]];

/** One to five random mutations of `base`: byte flips, truncation, duplicated, deleted, swapped or garbage lines, split and joined lines. */
function mutate(base: Buffer, rng: Rng): Buffer {
  let buf = Buffer.from(base);
  const ops = rng.range(1, 5);
  for (let k = 0; k < ops; k++) {
    const lines = splitLines(buf);
    const op = rng.int(11);
    if (op === 0 && buf.length) {
      buf[rng.int(buf.length)] = rng.int(256); // byte flip
    } else if (op === 1 && buf.length) {
      const at = rng.int(buf.length);
      buf[at] = buf[at]! ^ (1 << rng.int(8)); // bit flip
    } else if (op === 2) {
      buf = buf.subarray(0, rng.int(buf.length + 1)); // truncation (usually mid-line)
    } else if (op === 3 && lines.length) {
      const at = rng.int(lines.length);
      lines.splice(at, 0, lines[at]!); // duplicated line
      buf = Buffer.concat(lines);
    } else if (op === 4 && lines.length) {
      lines.splice(rng.int(lines.length), 1); // deleted line
      buf = Buffer.concat(lines);
    } else if (op === 5 && lines.length > 1) {
      const i = rng.int(lines.length - 1);
      [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!]; // swapped lines
      buf = Buffer.concat(lines);
    } else if (op === 6) {
      lines.splice(rng.int(lines.length + 1), 0, Buffer.concat([garbageLine(rng), Buffer.from('\n')])); // garbage line
      buf = Buffer.concat(lines);
    } else if (op === 7 && buf.length) {
      const at = rng.int(buf.length);
      buf = Buffer.concat([buf.subarray(0, at), Buffer.from('\n'), buf.subarray(at)]); // split a line
    } else if (op === 8) {
      const nls: number[] = [];
      for (let i = 0; i < buf.length; i++) if (buf[i] === 10) nls.push(i);
      if (nls.length) {
        const at = rng.pick(nls);
        buf = Buffer.concat([buf.subarray(0, at), buf.subarray(at + 1)]); // join two lines
      }
    } else if (op === 9 && buf.length) {
      const at = rng.int(buf.length);
      buf = Buffer.concat([buf.subarray(0, at), Buffer.from(rng.pick(BAD_UTF8)), buf.subarray(at)]); // invalid UTF-8
    } else if (op === 10) {
      buf = Buffer.from(buf.toString('latin1').replace(/\n/g, '\r\n'), 'latin1'); // CRLF
    }
  }
  return buf;
}

/** Valid base transcripts of 40 lines, generated once per format and seed; the session id is a placeholder. */
const baseCache = new Map<string, string[]>();
const SESSION_PLACEHOLDER = 'SESSION-PLACEHOLDER';
function baseTranscript(format: Format, seed: number, lines: number, session: string): Buffer {
  const key = `${format}/${seed}`;
  let all = baseCache.get(key);
  if (!all) {
    all = transcriptText(format, { lines: 40, seed, sessionId: SESSION_PLACEHOLDER }).split('\n').slice(0, -1);
    baseCache.set(key, all);
  }
  return Buffer.from(all.slice(0, lines).map((l) => l.replaceAll(SESSION_PLACEHOLDER, session) + '\n').join(''));
}

describe('seeded mutation fuzz (200 mutations per format, one call each)', { concurrency: 2 }, () => {
  for (const format of FORMATS) {
    test(`${format}: no crash; capture equals a direct parse of the same bytes`, async () => {
      const h = home();
      const rng = new Rng(0xf022 + format.length);
      const paths: string[] = [];
      const expected = new Set<string>();
      const perFile = new Map<string, { issues: number[]; turns: number }>();
      for (let i = 0; i < 200; i++) {
        // Pairs of files share a session, so duplicates across files are exercised too.
        const session = `fz-${format}-${i % 100}`;
        const base = baseTranscript(format, 1 + (i % 7), rng.range(8, 40), session);
        const bytes = mutate(base, rng);
        const path = join(h, `fuzz-${String(i).padStart(3, '0')}.jsonl`);
        writeFileSync(path, bytes);
        paths.push(path);
        const parsed = parseLines(format, readerLines(bytes), { sessionId: sessionFromFileName(path) });
        for (const t of parsed.turns) expected.add(`${t.sessionId}\u0000${t.messageId}`);
        perFile.set(path, { issues: parsed.issues.map((x) => x.line), turns: parsed.turns.length });
      }
      const out = await ingestOk(h, paths, format, ['--final']);
      let reportedIssues = 0;
      for (const file of out.files) {
        const want = perFile.get(file.path)!;
        const r = file.report!;
        assert.deepEqual(r.issues.map((x) => x.line), want.issues, `${file.path}: issue lines`);
        assert.equal(r.turnsInserted + r.duplicates, want.turns, `${file.path}: turns`);
        reportedIssues += r.issues.length;
      }
      assert.ok(reportedIssues > 50, `the mutations should produce bad lines (got ${reportedIssues} issues)`);
      assert.equal(out.turnsInserted, expected.size);
      const rows = turnsIn(h);
      assert.equal(rows.length, expected.size, 'stored turns equal the capturable turns of a direct parse');
      assert.deepEqual(new Set(rows.map((t) => `${t.session_id}\u0000${t.message_id}`)), expected);
      for (const row of rows) assert.doesNotMatch(row.text, LONE_SURROGATE);
      // Exactly once: nothing new on a second run.
      const again = await ingestOk(h, paths, format, ['--final']);
      assert.equal(again.turnsInserted, 0);
      assert.equal(again.files.reduce((n, f) => n + f.report!.linesRead, 0), 0);
    });
  }
});
