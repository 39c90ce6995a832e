// What a transcript says about itself: OpenClaw header versions that are read the same way as
// version 3 (no issue for each session), and the Claude Code lines that mark a response complete
// (so it is captured at once rather than after the settle wait).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createParser, parseLines } from '../../src/capture/formats/index.js';
import type { ParseResult } from '../../src/capture/turn-draft.js';
import { fixtureLines } from './fixtures/load.js';

const line = (value: unknown): string => JSON.stringify(value);

function rows(result: ParseResult): Array<[number, string, string, string, string | null, string]> {
  return result.turns.map((t) => [t.line, t.role, t.kind, t.messageId, t.speaker, t.text]);
}

describe('OpenClaw session header versions', () => {
  it('reads header version 4 (OpenClaw 2026.9) and later versions of the same shape without an issue', () => {
    // The session of the FORMATS.md example as OpenClaw 2026.9 writes it: only the header's version differs.
    const [header, ...rest] = fixtureLines('openclaw-session.jsonl');
    const v3 = parseLines('openclaw', [header!, ...rest]);
    assert.deepEqual(v3.issues, []);
    for (const version of [4, 5, 12]) {
      const result = parseLines('openclaw', [header!.replace('"version":3', `"version":${version}`), ...rest]);
      assert.deepEqual(result.issues, [], `version ${version}`);
      assert.deepEqual(rows(result), rows(v3), `version ${version} reads the same turns`);
      assert.ok(result.turns.every((t) => t.sessionId === '7c1e9a40-5d2b-4f0e-9a61-2b8f0c3d4e11'));
    }
    // Older formats (v1 had no ids, v2 another custom role) and unreadable versions are still named.
    const issueOf = (version: unknown) => parseLines('openclaw', [line({ type: 'session', version, id: 's', cwd: '/w' })]).issues;
    assert.deepEqual(issueOf(1), [{ line: 1, reason: 'session header version 1; read as version 3' }]);
    assert.deepEqual(issueOf('4'), [{ line: 1, reason: 'session header version "4"; read as version 3' }]);
    assert.deepEqual(issueOf(4.5), [{ line: 1, reason: 'session header version 4.5; read as version 3' }]);
    assert.deepEqual(issueOf(undefined), [{ line: 1, reason: 'session header version undefined; read as version 3' }]);
  });
});

describe('Claude Code responses marked complete', () => {
  it('closes a response once the transcript marks it final: a stop_reason, or a system line ending the turn', () => {
    const at = { sessionId: 's', timestamp: '2026-02-18T11:00:01Z' };
    const part = (uuid: string, id: string, text: string, stop: string | null) =>
      line({ ...at, type: 'assistant', uuid, message: { id, role: 'assistant', content: [{ type: 'text', text }], stop_reason: stop } });
    const system = (uuid: string, extra: Record<string, unknown>) => line({ ...at, type: 'system', uuid, ...extra });
    const parser = createParser('claude-code');
    const push = (text: string, lineNo: number) => {
      parser.push(text, lineNo);
      return { taken: rows(parser.take()), pendingFrom: parser.pendingFrom() };
    };
    // Claude Code writes stop_reason null on parts whose response may still grow: held.
    assert.deepEqual(push(part('a1', 'msg_1', 'The rounding drops a cent', null), 1), { taken: [], pendingFrom: 1 });
    // The part that carries the stop reason is the last one: the response is out at once.
    assert.deepEqual(push(part('a2', 'msg_1', 'so totals never match.', 'end_turn'), 2), {
      taken: [[1, 'assistant', 'message', 'msg_1', null, 'The rounding drops a cent\n\nso totals never match.']], pendingFrom: null,
    });
    // A response written whole with its stop reason (older versions, tool calls) is never held.
    assert.deepEqual(push(part('b1', 'msg_2', 'Reading the ledger.', 'tool_use'), 3).pendingFrom, null);
    // Lines Claude Code writes once a turn is over close the response before them.
    for (const [n, end] of [
      [4, { subtype: 'turn_duration', durationMs: 5200 }],
      [6, { subtype: 'stop_hook_summary', hookCount: 1, toolUseID: 'x', level: 'info' }],
      [8, { subtype: 'compact_boundary', content: 'Conversation compacted' }],
      [10, { subtype: 'api_error', level: 'error', retryAttempt: 1 }],
      [12, { subtype: 'local_command', content: '<command-name>/cost</command-name>' }],
    ] as const) {
      assert.deepEqual(push(part(`c${n}`, `msg_${n}`, `Answer ${n}`, null), n), { taken: [], pendingFrom: n });
      assert.deepEqual(push(system(`s${n}`, end), n + 1), { taken: [[n, 'assistant', 'message', `msg_${n}`, null, `Answer ${n}`]], pendingFrom: null }, end.subtype);
    }
    // A hook's message about one tool call can come while the response still streams: it waits.
    assert.deepEqual(push(part('d1', 'msg_20', 'Checking', null), 20), { taken: [], pendingFrom: 20 });
    assert.deepEqual(push(system('s21', { content: 'PreToolUse:Bash hook ran', toolUseID: 'toolu_9', level: 'info' }), 21), { taken: [], pendingFrom: 20 });
    assert.deepEqual(push(system('s22', { subtype: 'informational', content: 'note' }), 22), { taken: [], pendingFrom: 20 });
    assert.deepEqual(push(part('d2', 'msg_20', 'both files.', null), 23), { taken: [], pendingFrom: 20 });
    parser.flush();
    assert.deepEqual(rows(parser.take()), [[20, 'assistant', 'message', 'msg_20', null, 'Checking\n\nboth files.']]);
  });
});
