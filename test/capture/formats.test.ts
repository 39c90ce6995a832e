// Transcript parsers: the examples from FORMATS.md and realistic sessions parse into the expected
// turns field by field, a growing file parsed line by line gives the same turns as a whole one,
// and malformed input of every kind becomes issues and skip counts, never an exception.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createParser, parseLines, TRANSCRIPT_FORMATS } from '../../src/capture/formats/index.js';
import { toIso } from '../../src/capture/formats/common.js';
import { stripInbound, triggerOf } from '../../src/capture/formats/openclaw-inbound.js';
import { isCairnError } from '../../src/core/errors.js';
import type { ParseResult, TurnDraft } from '../../src/capture/turn-draft.js';
import { fixtureLines, parseFixture } from './fixtures/load.js';

const OC_SESSION = '5aa69cdb-42d7-48df-9377-3887a4cff539';
const OC_CWD = '/home/ana/.openclaw/workspace';
const CC_SESSION = '4f35e220-c435-4cf7-b9b9-f40426042847';

/** The fields most tests compare: one tuple per turn. */
/** Fallback ids carry a content hash (`line-3-1a2b3c4d`); most assertions only care about the line. */
function plainId(id: string): string {
  return id.replace(/^(line-\d+)-[0-9a-f]{8}$/, '$1');
}

function rows(result: ParseResult): Array<[number, string, string, string, string | null, string]> {
  return result.turns.map((t) => [t.line, t.role, t.kind, plainId(t.messageId), t.speaker, t.text]);
}

const line = (value: unknown): string => JSON.stringify(value);

describe('OpenClaw pi v3', () => {
  it('parses the FORMATS.md example into four turns', () => {
    const result = parseFixture('openclaw', 'openclaw-formats-md.jsonl');
    const expected: TurnDraft[] = [
      {
        sessionId: OC_SESSION, messageId: '813a837d', role: 'user', speaker: 'Ana',
        text: 'Remember that the staging DB moved to port 5433.', timestamp: '2026-03-02T09:14:05.300Z',
        line: 2, kind: 'message', meta: { parentId: '431dc59d', cwd: OC_CWD },
      },
      {
        sessionId: OC_SESSION, messageId: 'dd433acd', role: 'assistant', speaker: null,
        text: '→ tool edit memory/2026-03-02.md', timestamp: '2026-03-02T09:14:09.871Z', line: 3, kind: 'tool',
        meta: { parentId: '813a837d', cwd: OC_CWD, model: 'claude-sonnet-4-6', provider: 'anthropic', stopReason: 'toolUse' },
      },
      {
        sessionId: OC_SESSION, messageId: 'e0f1c758', role: 'tool', speaker: null,
        text: '← edit: Edited memory/2026-03-02.md', timestamp: '2026-03-02T09:14:09.990Z', line: 4, kind: 'tool',
        meta: { parentId: 'dd433acd', cwd: OC_CWD, toolName: 'edit', toolCallId: 'toolu_01Ab', isError: false },
      },
      {
        sessionId: OC_SESSION, messageId: 'f6a7b8c9', role: 'summary', speaker: null,
        text: 'Goal: migrate staging. Decisions: port 5433.', timestamp: '2026-03-05T18:02:44.000Z', line: 5,
        kind: 'compaction',
        meta: { parentId: 'e0f1c758', cwd: OC_CWD, summaryOf: 'compaction', firstKeptEntryId: 'c3d4e5f6', tokensBefore: 182340 },
      },
    ];
    assert.deepEqual(result, { turns: expected, issues: [], skipped: 0 });
  });

  it('cleans a realistic session: envelopes, heartbeats, cron, tools, summaries', () => {
    const result = parseFixture('openclaw', 'openclaw-session.jsonl');
    assert.deepEqual(result.issues, []);
    // model_change, thinking_level_change, custom, heartbeat prompt, HEARTBEAT_OK, cron prompt,
    // NO_REPLY, empty tool result, hidden custom_message, label, session_info, unknown type, bashExecution
    assert.equal(result.skipped, 13);
    const excerpt = result.turns[2]!.text;
    assert.deepEqual(rows(result), [
      [5, 'user', 'message', 'b0000001', null, 'Can you check whether the backup job ran last night?'],
      [6, 'assistant', 'message', 'b0000002', null, 'Let me look at the timer.\n\n→ tool exec systemctl status backup.timer --no-pager | head -20'],
      [7, 'tool', 'tool', 'b0000003', null, excerpt],
      [8, 'assistant', 'message', 'b0000004', null, 'The backup ran at 02:00 and finished at 02:41 (2.1 GiB).'],
      [9, 'user', 'message', 'b0000005', 'D W', 'Yes, have the data analyst check it'],
      [12, 'user', 'message', 'b0000008', 'Bek', 'Remind me to renew the domain on Friday'],
      [13, 'assistant', 'message', 'b0000009', null, 'Noted: I will remind you on Friday to renew the domain.'],
      [15, 'assistant', 'message', 'b000000b', null, 'Morning brief: two meetings today; the domain renewal is due Friday.'],
      [19, 'system', 'message', 'b000000f', null, 'Acceptance check failed: 2 failing tests in auth.spec.ts'],
      [22, 'summary', 'compaction', 'b0000012', null, 'Tried moving backups to S3; abandoned because of egress cost.'],
      [25, 'tool', 'tool', 'b0000015', null, "← read (error): ENOENT: no such file or directory, open 'memory/2026-09-24.md'"],
      [26, 'user', 'message', 'b0000016', null, 'Here is the screenshot of the error\n\n[image]'],
      [27, 'summary', 'compaction', 'b0000017', null, 'Goal: keep backups healthy. Decisions: nightly at 02:00; domain renewal Friday.'],
    ]);
    assert.match(excerpt, /^← exec: ● backup\.timer - Nightly backup Loaded: loaded/);
    assert.ok(excerpt.length <= '← exec: '.length + 300 && excerpt.endsWith('…'), excerpt);
    const byLine = new Map(result.turns.map((t) => [t.line, t]));
    assert.equal(byLine.get(5)!.timestamp, '2026-03-02T06:14:05.300Z');
    assert.equal(byLine.get(9)!.meta.senderId, '5003590611');
    assert.equal(byLine.get(12)!.meta.senderId, 'U09FU0EL0JD');
    assert.equal(byLine.get(15)!.meta.trigger, 'cron');
    assert.equal(byLine.get(13)!.meta.trigger, undefined);
    assert.equal(byLine.get(19)!.meta.customType, 'verify-gate');
    assert.deepEqual(byLine.get(22)!.meta, { parentId: 'b0000004', cwd: OC_CWD, summaryOf: 'branch', fromId: 'b000000f' });
    assert.equal(byLine.get(25)!.meta.isError, true);
    assert.ok(result.turns.every((t) => t.sessionId === '7c1e9a40-5d2b-4f0e-9a61-2b8f0c3d4e11'));
  });

  it('without a header uses options.sessionId, else "unknown" with one issue', () => {
    const lines = fixtureLines('openclaw-formats-md.jsonl').slice(1);
    const given = parseLines('openclaw', lines, { sessionId: 'from-file-name', firstLine: 2 });
    assert.deepEqual(given.issues, []);
    assert.ok(given.turns.every((t) => t.sessionId === 'from-file-name' && t.meta.cwd === undefined));
    const none = parseLines('openclaw', lines, { firstLine: 2 });
    assert.equal(none.turns.length, 4);
    assert.ok(none.turns.every((t) => t.sessionId === 'unknown'));
    assert.deepEqual(none.issues, [{ line: 2, reason: 'no session header and no session id given; used "unknown"' }]);
  });

  it('falls back from a bad record timestamp to the message epoch, then to the previous time', () => {
    const msg = (id: string, ts: unknown, epoch: unknown) =>
      line({ type: 'message', id, parentId: 'x', timestamp: ts, message: { role: 'user', content: `hello ${id}`, timestamp: epoch } });
    const result = parseLines('openclaw', [
      line({ type: 'session', version: 3, id: 's1', timestamp: '2026-03-02T09:00:00.000Z', cwd: '/w' }),
      msg('a1', '2026-03-02T09:14:05.300Z', 1),
      msg('a2', 'yesterday-ish', 1772442849870),
      msg('a3', 'garbage', 'also garbage'),
      msg('a4', undefined, undefined),
    ]);
    assert.deepEqual(result.turns.map((t) => t.timestamp), [
      '2026-03-02T09:14:05.300Z', '2026-03-02T09:14:09.870Z', '2026-03-02T09:14:09.870Z', '2026-03-02T09:14:09.870Z',
    ]);
    assert.deepEqual(result.issues, [
      { line: 4, reason: 'invalid timestamp "garbage"; used fallback' },
      { line: 5, reason: 'missing timestamp; used fallback' },
    ]);
  });

  it('unwraps every envelope shape and reads the sender', () => {
    assert.deepEqual(stripInbound('[Sat 2026-02-14 18:49 GMT-3] pick up milk'), { text: 'pick up milk', sender: null, senderId: null, problem: null });
    const chain = stripInbound([
      '[Sun 2026-03-01 11:22 GMT+1] Conversation info (untrusted metadata):', '```json', '{"timestamp":"Sun"}', '```', '',
      'Replied message (untrusted, for context):', '```json', '{"body":"earlier"}', '```', '',
      'Chat history since last reply ⟦openclaw:ctx⟧', '[Sun 10:00] Bo: hi', '[Sun 10:01] Bo: hello', '',
      'Sender: ⟦openclaw:ctx⟧', '```json', '{"label":"Bo (42)","id":"42","name":"Bo"}', '```', '',
      'deploy tonight ⟦openclaw:ctx⟧?',
    ].join('\n'));
    assert.deepEqual(chain, { text: 'deploy tonight ?', sender: 'Bo', senderId: '42', problem: null });
    const broken = stripInbound('Conversation info (untrusted metadata):\n```json\n{"sender": nope}\n```\n\nhi');
    assert.deepEqual(broken, { text: 'hi', sender: null, senderId: null, problem: 'unreadable JSON in "Conversation info (untrusted metadata):" block' });
    const unclosed = stripInbound('Conversation info (untrusted metadata):\n```json\n{"sender":"x"}\nno closing fence');
    assert.equal(unclosed.text, 'Conversation info (untrusted metadata):\n```json\n{"sender":"x"}\nno closing fence');
    assert.equal(triggerOf('[cron:ab12 nightly] run it'), 'cron');
    assert.equal(triggerOf('why do you answer HEARTBEAT_OK?'), null);
  });

  it('reports unreadable sender metadata but keeps the words', () => {
    const result = parseLines('openclaw', [
      line({ type: 'message', id: 'c1', timestamp: '2026-03-02T09:00:00Z', message: { role: 'user', content: 'Sender (untrusted metadata):\n```json\n{oops\n```\n\nship it' } }),
    ], { sessionId: 's' });
    assert.deepEqual(rows(result), [[1, 'user', 'message', 'c1', null, 'ship it']]);
    assert.deepEqual(result.issues, [{ line: 1, reason: 'unreadable JSON in "Sender (untrusted metadata):" block' }]);
  });
  it('reports wrong field types and skips thinking-only replies', () => {
    const rec = (id: string, message: unknown) => line({ type: 'message', id, parentId: null, timestamp: '2026-03-02T09:00:00Z', message });
    const result = parseLines('openclaw', [
      line({ type: 'session', version: 2, id: 42, cwd: '/w' }),
      rec('w1', 'not an object'),
      rec('w2', { content: 'no role' }),
      rec('w3', { role: 'user', content: 42 }),
      rec('w4', { role: 'assistant', content: { type: 'text' } }),
      rec('w5', { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm' }, 'stray', null] }),
      rec('w6', { role: 'toolResult', toolName: 'read', content: 7 }),
      line({ type: 'compaction', id: 'w7', timestamp: '2026-03-02T09:00:00Z', summary: { text: 'nested' } }),
      line({ type: 'custom_message', id: 'w8', timestamp: '2026-03-02T09:00:00Z', display: true, content: 3 }),
      line({ id: 'w9' }),
      line({ type: 'message', timestamp: '2026-03-02T09:00:00Z', message: { role: 'user', content: 'no id' } }),
    ], { sessionId: 'from-options' });
    assert.deepEqual(result.issues, [
      { line: 1, reason: 'session header version 2; read as version 3' },
      { line: 1, reason: 'session header has no id' },
      { line: 2, reason: 'message record without a message object' },
      { line: 3, reason: 'message has no role' },
      { line: 4, reason: 'user content is 42, not text' },
      { line: 5, reason: 'assistant content is object, not text' },
      { line: 7, reason: 'tool result content is 7, not text' },
      { line: 8, reason: 'compaction without summary text' },
      { line: 9, reason: 'custom_message content is 3, not text' },
      { line: 10, reason: 'record has no type' },
      { line: 11, reason: 'record has no id; used the line number' },
    ]);
    assert.deepEqual(rows(result), [[11, 'user', 'message', 'line-11', null, 'no id']]);
    assert.equal(result.turns[0]!.sessionId, 'from-options');
    assert.equal(result.skipped, 1); // w5: thinking only
  });
});

describe('Claude Code', () => {
  it('reports wrong field types and skips thinking-only responses', () => {
    const base = { sessionId: 's', timestamp: '2026-02-18T11:00:00Z' };
    const result = parseLines('claude-code', [
      line({ ...base, type: 'user', uuid: 'x1', message: 'flat string' }),
      line({ ...base, type: 'user', uuid: 'x2', message: { role: 'user', content: 12 } }),
      line({ ...base, type: 'assistant', uuid: 'x3', message: null }),
      line({ ...base, type: 'assistant', uuid: 'x4', message: { id: 'm4', content: 5 } }),
      line({ ...base, type: 'assistant', uuid: 'x5', message: { id: 'm5', content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'redacted_thinking', data: 'zz' }] } }),
      line({ ...base, type: 'user', uuid: 'x6', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 9 }] } }),
      line({ ...base, type: 'user', uuid: 'x7', isCompactSummary: true, message: { role: 'user', content: null } }),
      line({ ...base, type: 'user', uuid: 'x8', timestamp: 'noon', message: { role: 'user', content: [{ type: 'document', source: {} }, { type: 'text', text: 'late' }] } }),
    ]);
    assert.deepEqual(result.issues, [
      { line: 1, reason: 'user line without a message object' },
      { line: 2, reason: 'user content is 12, not text' },
      { line: 3, reason: 'assistant line without a message object' },
      { line: 4, reason: 'assistant content is 5, not text' },
      { line: 6, reason: 'tool_result content is 9, not text' },
      { line: 7, reason: 'compact summary content is null, not text' },
      { line: 8, reason: 'invalid timestamp "noon"; used fallback' },
    ]);
    assert.deepEqual(rows(result), [[8, 'user', 'message', 'x8', null, 'late']]);
    assert.equal(result.turns[0]!.timestamp, '2026-02-18T11:00:00.000Z');
    assert.equal(result.skipped, 2); // x5 thinking only, x6 nothing readable
  });

  it('parses the FORMATS.md example; compact_boundary is skipped', () => {
    const result = parseFixture('claude-code', 'claude-code-formats-md.jsonl');
    const meta = { cwd: '/home/ana/proj', gitBranch: 'main' };
    assert.deepEqual(result, {
      turns: [
        {
          sessionId: CC_SESSION, messageId: '9ff29d57-0001', role: 'user', speaker: null, text: 'Add a retry to the fetch helper',
          timestamp: '2026-02-18T11:43:58.858Z', line: 1, kind: 'message', meta: { ...meta, isSidechain: false },
        },
        {
          sessionId: CC_SESSION, messageId: 'msg_017T', role: 'assistant', speaker: null, text: '→ tool Read /home/ana/proj/src/fetch.ts',
          timestamp: '2026-02-18T11:44:02.101Z', line: 2, kind: 'tool', meta: { ...meta, isSidechain: false, model: 'claude-opus-4-6' },
        },
        {
          sessionId: CC_SESSION, messageId: '5b6c0003', role: 'tool', speaker: null, text: '← Read: export async function get(url) {',
          timestamp: '2026-02-18T11:44:02.240Z', line: 3, kind: 'tool', meta: { ...meta, toolUseIds: ['toolu_01NZ'], isError: false },
        },
      ],
      issues: [],
      skipped: 1,
    });
  });

  it('merges a split response across interleaved tool results and keeps line order', () => {
    const result = parseFixture('claude-code', 'claude-code-session.jsonl');
    assert.deepEqual(result.issues, []);
    // file-history-snapshot, progress, isMeta, local-command-stdout, compact_boundary, interrupted,
    // synthetic API error, queue-operation, attachment, summary
    assert.equal(result.skipped, 10);
    assert.deepEqual(rows(result), [
      [2, 'user', 'message', 'u-0001', null, 'Add a retry to the fetch helper: 3 attempts, exponential backoff'],
      [3, 'assistant', 'message', 'msg_01AAA', null, "I'll read the helper and find its callers.\n\n→ tool Read /home/ana/proj/src/fetch.ts\n→ tool Grep get\\("],
      [6, 'tool', 'tool', 'u-0005', null, '← Read: 1 export async function get(url: string) { 2 const res = await fetch(url); 3 return res.json(); 4 }'],
      [9, 'tool', 'tool', 'u-0008', null, '← Grep: Found 2 files src/api.ts src/sync.ts'],
      [10, 'assistant', 'message', 'msg_01BBB', null, 'Adding exponential backoff (3 attempts, 200 ms base).\n\n→ tool Edit /home/ana/proj/src/fetch.ts'],
      [11, 'tool', 'tool', 'u-0010', null, '← Edit (error): String to replace not found in file.'],
      [13, 'user', 'message', 'u-0012', null, '/model opus'],
      [16, 'summary', 'compaction', 'u-0015', null, 'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis: the user wants retries in src/fetch.ts.\nSummary: withRetry added; 3 attempts; tests pending.'],
      [19, 'user', 'message', 'u-0018', null, 'Use 500 ms as the base delay instead'],
      [23, 'assistant', 'message', 'msg_01CCC', null, 'Done: the base delay is now 500 ms.'],
    ]);
    const merged = result.turns[1]!;
    assert.equal(merged.timestamp, '2026-02-18T11:44:01.000Z');
    assert.deepEqual(merged.meta, { cwd: '/home/ana/proj', gitBranch: 'feat/retry', isSidechain: false, model: 'claude-opus-4-6', parts: 4 });
    assert.deepEqual(result.turns[5]!.meta.toolUseIds, ['toolu_E1']);
    assert.equal(result.turns[5]!.meta.isError, true);
  });

  it('fed line by line, holds the open response and everything after it until it closes', () => {
    const lines = fixtureLines('claude-code-session.jsonl');
    const parser = createParser('claude-code');
    const seen: Array<{ after: number; lines: number[]; pendingFrom: number | null }> = [];
    const all: TurnDraft[] = [];
    lines.forEach((text, i) => {
      parser.push(text, i + 1);
      const taken = parser.take().turns;
      all.push(...taken);
      if ([2, 5, 9, 10, 11, 23].includes(i + 1)) seen.push({ after: i + 1, lines: taken.map((t) => t.line), pendingFrom: parser.pendingFrom() });
    });
    // Lines 3–7 are one response (its last part, line 7, carries the stop_reason): held until
    // then, with the tool result between its parts. Lines 10 and 23 are final on their own.
    assert.deepEqual(seen, [
      { after: 2, lines: [2], pendingFrom: null },
      { after: 5, lines: [], pendingFrom: 3 },
      { after: 9, lines: [9], pendingFrom: null },
      { after: 10, lines: [10], pendingFrom: null },
      { after: 11, lines: [11], pendingFrom: null },
      { after: 23, lines: [23], pendingFrom: null },
    ]);
    parser.flush();
    all.push(...parser.take().turns);
    assert.equal(parser.pendingFrom(), null);
    assert.deepEqual(all, parseFixture('claude-code', 'claude-code-session.jsonl').turns);
  });

  it('resuming at pendingFrom() rebuilds the held turns exactly', () => {
    const lines = fixtureLines('claude-code-session.jsonl');
    const first = createParser('claude-code', { sessionId: CC_SESSION });
    lines.slice(0, 6).forEach((text, i) => first.push(text, i + 1));
    const before = first.take().turns;
    const resumeAt = first.pendingFrom()!;
    assert.equal(resumeAt, 3);
    const second = createParser('claude-code', { sessionId: CC_SESSION });
    lines.slice(resumeAt - 1).forEach((text, i) => second.push(text, resumeAt + i));
    second.flush();
    assert.deepEqual([...before, ...second.take().turns], parseFixture('claude-code', 'claude-code-session.jsonl').turns);
  });

  it('emits duplicated lines, merges a repeated part once, and keeps a part that arrives after flush', () => {
    const user = line({ type: 'user', sessionId: 's', uuid: 'u1', timestamp: '2026-02-18T11:00:00Z', message: { role: 'user', content: 'hi' } });
    const part = (uuid: string, text: string) =>
      line({ type: 'assistant', sessionId: 's', uuid, timestamp: '2026-02-18T11:00:01Z', message: { id: 'msg_X', role: 'assistant', content: [{ type: 'text', text }] } });
    const result = parseLines('claude-code', [user, user, part('a1', 'one'), part('a1', 'one'), part('a2', 'two'), user, part('a2', 'two')]);
    assert.deepEqual(rows(result), [
      [1, 'user', 'message', 'u1', null, 'hi'],
      [2, 'user', 'message', 'u1', null, 'hi'],
      [3, 'assistant', 'message', 'msg_X', null, 'one\n\ntwo'],
      [6, 'user', 'message', 'u1', null, 'hi'],
    ]);
    assert.equal(result.skipped, 2);
    const parser = createParser('claude-code');
    parser.push(part('a1', 'one'), 1);
    parser.flush();
    parser.push(part('a2', 'two'), 2);
    parser.flush();
    assert.deepEqual(rows(parser.take()), [[1, 'assistant', 'message', 'msg_X', null, 'one'], [2, 'assistant', 'message', 'msg_X#a2', null, 'two']]);
  });

  it('splits a line with tool results and user text into a tool turn and a user turn', () => {
    const result = parseLines('claude-code', [
      line({ type: 'assistant', sessionId: 's', uuid: 'a1', timestamp: '2026-02-18T11:00:00Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test', description: 'Run tests' } }] } }),
      line({ type: 'user', sessionId: 's', uuid: 'u2', timestamp: '2026-02-18T11:00:05Z', message: { role: 'user', content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'ok 12 tests' }, { type: 'tool_result', tool_use_id: 'zz', content: '' },
        { type: 'text', text: 'also lint it' },
      ] } }),
    ]);
    assert.deepEqual(rows(result), [
      [1, 'assistant', 'tool', 'm1', null, '→ tool Bash npm test'],
      [2, 'tool', 'tool', 'u2#tool', null, '← Bash: ok 12 tests'],
      [2, 'user', 'message', 'u2', null, 'also lint it'],
    ]);
    assert.deepEqual(result.turns[1]!.meta.toolUseIds, ['t1', 'zz']);
    assert.equal(result.skipped, 0); // the empty result inside a productive line is not a dropped record
  });

  it('uses options.sessionId, else "unknown" with one issue, and line ids for missing uuids', () => {
    const bare = line({ type: 'user', timestamp: '2026-02-18T11:00:00Z', message: { role: 'user', content: 'hi' } });
    assert.deepEqual(parseLines('claude-code', [bare], { sessionId: 'file-stem' }).turns.map((t) => [t.sessionId, plainId(t.messageId)]), [['file-stem', 'line-1']]);
    const result = parseLines('claude-code', [bare, bare]);
    assert.deepEqual(result.turns.map((t) => [t.sessionId, plainId(t.messageId)]), [['unknown', 'line-1'], ['unknown', 'line-2']]);
    assert.deepEqual(result.issues.map((i) => [i.line, i.reason]), [
      [1, 'line has no sessionId and none was given; used "unknown"'],
      [1, 'line has no uuid; used the line number'],
      [2, 'line has no uuid; used the line number'],
    ]);
  });
});

describe('generic JSONL chat', () => {
  it('a record without an id gets its line number plus a content hash: stable on re-read, new content never collides', () => {
    const a = parseLines('jsonl', [line({ role: 'user', content: 'first version' })]).turns[0]!.messageId;
    const again = parseLines('jsonl', [line({ role: 'user', content: 'first version' })]).turns[0]!.messageId;
    const rewritten = parseLines('jsonl', [line({ role: 'user', content: 'after truncation' })]).turns[0]!.messageId;
    assert.match(a, /^line-1-[0-9a-f]{8}$/);
    assert.equal(again, a);
    assert.notEqual(rewritten, a);
  });

  it('parses the fixture: ids, sessions, speakers, timestamps, extra fields', () => {
    const result = parseFixture('jsonl', 'generic-chat.jsonl', { sessionId: 'chat-file', fallbackTimestamp: '2026-04-02T00:00:00Z' });
    assert.deepEqual(result.issues, []);
    assert.equal(result.skipped, 1); // NO_REPLY
    assert.deepEqual(result.turns.map((t) => [t.line, t.sessionId, plainId(t.messageId), t.role, t.kind, t.speaker, t.text, t.timestamp, t.meta]), [
      [1, 'team-chat', 'm1', 'user', 'message', 'Caroline', 'We moved standup to 9:30.', '2026-04-01T09:00:00.000Z', {}],
      [2, 'team-chat', 'm2', 'assistant', 'message', null, 'Noted.\n\nStandup is now at 9:30.', '2026-04-01T09:00:05.000Z', {}],
      [3, 'team-chat', 'line-3', 'user', 'message', 'Caroline', 'ok thanks', '2026-04-01T09:00:05.000Z', {}],
      [5, 'chat-file', '42', 'system', 'message', null, 'Caroline joined the channel', '2026-04-01T09:00:00.000Z', { channel: 'general' }],
      [7, 'chat-file', 'm6', 'tool', 'tool', null, 'exit 0', '2026-04-01T07:01:00.000Z', {}],
    ]);
  });

  it('uses the caller fallback time and the default session when the file has neither', () => {
    const result = parseLines('jsonl', [line({ role: 'user', content: 'first words' })], { fallbackTimestamp: '2026-04-02T08:00:00+02:00' });
    assert.deepEqual(result.turns.map((t) => [t.sessionId, plainId(t.messageId), t.timestamp]), [['default', 'line-1', '2026-04-02T06:00:00.000Z']]);
    assert.deepEqual(result.issues, []);
  });

  it('reports wrong field types with their line numbers', () => {
    const result = parseLines('jsonl', [
      line({ role: 'user', content: 42 }),
      line({ content: 'no role' }),
      line({ role: 'narrator', content: 'x' }),
      line({ role: 'user' }),
      line({ role: 'user', content: 'kept', timestamp: 'tomorrow', id: { nested: 1 }, speaker: 7, session: ['a'] }),
      line({ role: 7, content: 'x' }),
    ], { fallbackTimestamp: '2026-04-02T00:00:00Z' });
    assert.deepEqual(result.issues, [
      { line: 1, reason: 'content is 42, not text' },
      { line: 2, reason: 'missing role' },
      { line: 3, reason: 'unknown role "narrator"' },
      { line: 4, reason: 'missing content' },
      { line: 5, reason: 'session is array; ignored' },
      { line: 5, reason: 'id is object; ignored' },
      { line: 5, reason: 'speaker is 7; ignored' },
      { line: 5, reason: 'invalid timestamp "tomorrow"; used fallback' },
      { line: 6, reason: 'unknown role 7' },
    ]);
    assert.deepEqual(rows(result), [[5, 'user', 'message', 'line-5', null, 'kept']]);
    assert.equal(result.turns[0]!.timestamp, '2026-04-02T00:00:00.000Z');
  });
});

describe('robustness, every format', () => {
  const good: Record<string, string> = {
    openclaw: line({ type: 'message', id: 'g1', parentId: 'missing-parent', timestamp: '2026-03-02T09:00:00Z', message: { role: 'user', content: 'still here' } }),
    'claude-code': line({ type: 'user', uuid: 'g1', parentUuid: 'missing-parent', sessionId: 's', timestamp: '2026-03-02T09:00:00Z', message: { role: 'user', content: 'still here' } }),
    jsonl: line({ role: 'user', id: 'g1', content: 'still here', timestamp: '2026-03-02T09:00:00Z' }),
  };
  const withText = (format: string, text: string): string => good[format]!.replace('"still here"', JSON.stringify(text));

  for (const format of TRANSCRIPT_FORMATS) {
    it(`${format}: bad lines become issues and the rest is still read`, () => {
      const result = parseLines(format, [
        '{"type":', '[1,2]', '"just a string"', 'null', '42', '', '   ', '\r', good[format]!, '{"no":"type or role"}', good[format]!,
      ], { sessionId: 's' });
      assert.deepEqual(result.issues.slice(0, 5), [
        { line: 1, reason: result.issues[0]!.reason },
        { line: 2, reason: 'not a JSON object (array)' },
        { line: 3, reason: 'not a JSON object (string)' },
        { line: 4, reason: 'not a JSON object (null)' },
        { line: 5, reason: 'not a JSON object (number)' },
      ]);
      assert.match(result.issues[0]!.reason, /^invalid JSON: /);
      assert.deepEqual(result.issues.slice(5).map((i) => i.line), [10]);
      // Duplicated lines are emitted twice; the store deduplicates on message id. Dangling parents are fine.
      assert.deepEqual(rows(result), [[9, 'user', 'message', 'g1', null, 'still here'], [11, 'user', 'message', 'g1', null, 'still here']]);
      assert.equal(result.skipped, 0);
    });

    // How fast (linear) is measured by bench/speed-budgets.ts.
    it(`${format}: a 5 MB line becomes one truncated turn`, () => {
      const big = `${'All work and no play. '.repeat(240_000)}THE END`;
      assert.ok(big.length > 5_000_000);
      const result = parseLines(format, [withText(format, big)], { sessionId: 's' });
      assert.equal(result.turns.length, 1);
      const text = result.turns[0]!.text;
      assert.ok(text.length <= 20_000, String(text.length));
      assert.ok(text.startsWith('All work and no play.'));
      assert.ok(text.endsWith(`…[truncated from ${big.length} chars]`), text.slice(-60));
    });

    it(`${format}: NUL, control characters, lone surrogates and undecodable bytes are cleaned`, () => {
      const bytes = Buffer.concat([Buffer.from(withText(format, 'caf\u00e9 XX').split('XX')[0]!), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(withText(format, 'XX').split('XX')[1]!)]);
      const decoded = bytes.toString('utf8');
      const result = parseLines(format, [decoded, withText(format, 'a\u0000b\u0007c\ud800d\r\ne')], { sessionId: 's' });
      assert.deepEqual(result.issues, []);
      assert.deepEqual(result.turns.map((t) => t.text), ['café \uFFFD', 'abc\uFFFDd\ne']);
    });
  }

  it('skips and counts unknown record types without issues', () => {
    for (const [format, rec] of [['openclaw', { type: 'hologram', id: 'z' }], ['claude-code', { type: 'pr-link', uuid: 'z' }]] as const) {
      const result = parseLines(format, [line(rec), line(rec)], { sessionId: 's' });
      assert.deepEqual(result, { turns: [], issues: [], skipped: 2 }, format);
    }
  });

  it('rejects an unknown format name with INVALID_INPUT', () => {
    assert.throws(() => createParser('mbox'), (err: unknown) => isCairnError(err) && err.code === 'INVALID_INPUT');
  });

  it('reads timestamps as ISO strings or epoch seconds/milliseconds only', () => {
    assert.equal(toIso('2026-03-02T09:14:05.300Z'), '2026-03-02T09:14:05.300Z');
    assert.equal(toIso('2026-03-02T06:14:05-03:00'), '2026-03-02T09:14:05.000Z');
    assert.equal(toIso(1772442845299), '2026-03-02T09:14:05.299Z');
    assert.equal(toIso(1772442845), '2026-03-02T09:14:05.000Z');
    assert.equal(toIso('1772442845299'), '2026-03-02T09:14:05.299Z');
    for (const bad of ['8:56 pm on 20 July, 2023', '1', '', 'x'.repeat(100), -5, Number.NaN, 1e20, '9999-01-01', null, {}, true]) {
      assert.equal(toIso(bad), null, String(bad));
    }
  });
});
