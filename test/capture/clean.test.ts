// Shared cleaning: what every parser does to turn text. Protocol noise goes, conversational
// "ok"/"thanks" stays (the judge decides), text is bounded, and tool activity reads as one line.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_TURN_CHARS, clip, cleanText, cutAt, cutOutsideMarkers, excerpt, isProtocolNoise, normalizeWhitespace, removeTagged, sanitizeChars,
  stripProtocolTokens, toolCallSummary, toolResultLine,
} from '../../src/capture/clean.js';

describe('cleanText', () => {
  it('normalises line ends, trailing spaces and blank lines, and trims', () => {
    assert.equal(cleanText('  first line   \r\n\r\n\r\n\r\nsecond\tline\t\rthird  \n\n'), 'first line\n\nsecond\tline\nthird');
    assert.equal(normalizeWhitespace('a  \n\n\n\n  b'), 'a\n\n  b');
  });

  it('keeps indentation and inner spacing (code stays readable)', () => {
    assert.equal(cleanText('```ts\nif (x) {\n    return  1;\n}\n```'), '```ts\nif (x) {\n    return  1;\n}\n```');
  });

  it('strips NUL and control characters but keeps tabs and newlines', () => {
    assert.equal(cleanText('a\u0000b\u0001c\u001bd\u007fe\tf\ng'), 'abcde\tf\ng');
  });

  it('repairs lone surrogates, keeps valid pairs, folds replacement-character runs', () => {
    assert.equal(sanitizeChars('x\ud800y\udc00z'), 'x\uFFFDy\uFFFDz');
    assert.equal(sanitizeChars('emoji 😀 ok'), 'emoji 😀 ok');
    assert.equal(sanitizeChars('bad \uFFFD\uFFFD\uFFFD\uFFFD bytes'), 'bad \uFFFD bytes');
    assert.equal(sanitizeChars('cafe\u0301'), 'caf\u00e9');
  });

  it('returns an empty string for whitespace-only text', () => {
    assert.equal(cleanText(' \n\t\u0000 \r\n'), '');
  });

  it('does not drop short conversational turns', () => {
    for (const text of ['ok', 'thanks', 'k', '👍']) assert.equal(cleanText(text), text);
  });

  it('truncates long text with a marker naming the original length, within the limit', () => {
    const long = 'word '.repeat(10_000);
    const out = cleanText(long, { maxChars: 1000 });
    assert.ok(out.length <= 1000, String(out.length));
    assert.ok(out.startsWith('word word'));
    assert.ok(out.endsWith('\n…[truncated from 50000 chars]'));
    assert.equal(cleanText('x'.repeat(MAX_TURN_CHARS)).length, MAX_TURN_CHARS);
    assert.ok(cleanText('x'.repeat(MAX_TURN_CHARS + 1)).includes('…[truncated from 20001 chars]'));
  });

  it('clips huge input before the transform runs, and marks it even when cleaning shrinks it', () => {
    let seen = 0;
    const out = cleanText(`hello${' '.repeat(5_000_000)}tail`, { maxChars: 1000, transform: (t) => ((seen = t.length), t) });
    assert.equal(seen, 4000);
    assert.equal(out, 'hello\n…[truncated from 5000009 chars]');
  });

  it('runs the format transform before normalising', () => {
    assert.equal(cleanText('[x] keep  \n\n\n\nthis', { transform: (t) => t.replace('[x] ', '') }), 'keep\n\nthis');
  });

  it('never splits a surrogate pair when cutting', () => {
    assert.equal(cutAt('ab😀', 3), 'ab');
    assert.equal(cutAt('ab😀', 4), 'ab😀');
    assert.equal(cutAt('abc', 10), 'abc');
  });
});

describe('cutting redacted text (issue 30 item 4)', () => {
  it('never leaves part of a marker, and redacts before it cuts', () => {
    assert.equal(cutOutsideMarkers('ab [REDACTED:jwt] cd', 8), 'ab ');
    assert.equal(cutOutsideMarkers('ab [REDACTED:jwt] cd', 17), 'ab [REDACTED:jwt]');
    assert.equal(cutOutsideMarkers('ab [x] cd', 5), 'ab [x');
    const tally: Record<string, number> = {};
    const key = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
    assert.equal(clip(`echo ${key} done`, 12, tally), 'echo ');
    assert.deepEqual(tally, { 'github-token': 1 });
  });
});

describe('protocol noise', () => {
  it('recognises replies that are only HEARTBEAT_OK or NO_REPLY', () => {
    for (const text of ['HEARTBEAT_OK', ' NO_REPLY\n', '**HEARTBEAT_OK**', '`NO_REPLY`.', '']) assert.equal(isProtocolNoise(text), true, text);
    for (const text of ['ok', 'thanks!', 'The heartbeat is fine', 'HEARTBEAT_OKAY']) assert.equal(isProtocolNoise(text), false, text);
  });

  it('strips a token at the start or end and keeps the content', () => {
    assert.equal(stripProtocolTokens('HEARTBEAT_OK\n\nDisk /data is 91% full.'), 'Disk /data is 91% full.');
    assert.equal(stripProtocolTokens('Sent the report. NO_REPLY'), 'Sent the report.');
    assert.equal(stripProtocolTokens('Say HEARTBEAT_OK in the middle and it stays.'), 'Say HEARTBEAT_OK in the middle and it stays.');
  });
});

describe('excerpt and tagged spans', () => {
  it('makes a one-line excerpt of at most the given length', () => {
    assert.equal(excerpt('  line one\n\n   line two\t end  '), 'line one line two end');
    const cut = excerpt('a'.repeat(1000), 300);
    assert.equal(cut.length, 300);
    assert.ok(cut.endsWith('…'));
    assert.equal(excerpt('\u0000\n '), '');
  });

  // That it stays linear on hostile input is measured by bench/speed-budgets.ts.
  it('removes closed tag spans and keeps unclosed ones, hostile runs included', () => {
    assert.equal(removeTagged('a<x>1</x>b<x>2</x>c', '<x>', '</x>'), 'abc');
    assert.equal(removeTagged('a<x>unclosed', '<x>', '</x>'), 'a<x>unclosed');
    assert.equal(removeTagged('plain', '<x>', '</x>'), 'plain');
    const hostile = '<x>'.repeat(200_000);
    assert.equal(removeTagged(hostile, '<x>', '</x>'), hostile);
    assert.equal(removeTagged(`${hostile}</x>tail`, '<x>', '</x>'), 'tail');
  });
});

describe('tool summaries', () => {
  it('names the tool and its most telling argument', () => {
    assert.equal(toolCallSummary('Read', { file_path: '/home/ana/proj/src/fetch.ts' }), '→ tool Read /home/ana/proj/src/fetch.ts');
    assert.equal(toolCallSummary('edit', { path: 'memory/2026-03-02.md', newText: '- Staging DB port is 5433\n' }), '→ tool edit memory/2026-03-02.md');
    assert.equal(toolCallSummary('Bash', { command: 'npm test', description: 'Run tests' }), '→ tool Bash npm test');
    assert.equal(toolCallSummary('WebFetch', { url: 'https://example.com/a', prompt: 'summarise' }), '→ tool WebFetch https://example.com/a');
    assert.equal(toolCallSummary('memory_search', { query: 'staging port', maxResults: 5 }), '→ tool memory_search staging port');
    assert.equal(toolCallSummary('Grep', { pattern: 'retry', path: 'src' }), '→ tool Grep retry');
    assert.equal(toolCallSummary('exec', { command: ['ls', '-la', '/tmp'] }), '→ tool exec ls -la /tmp');
    assert.equal(toolCallSummary('Task', { subagent_type: 'general', description: 'Find callers' }), '→ tool Task Find callers');
    assert.equal(toolCallSummary('custom_tool', { level: 3, label: 'nightly' }), '→ tool custom_tool nightly');
  });

  it('copes with missing names, odd arguments and long commands', () => {
    assert.equal(toolCallSummary(undefined, undefined), '→ tool unknown');
    assert.equal(toolCallSummary('TodoWrite', { todos: [{ content: 'x' }] }), '→ tool TodoWrite');
    assert.equal(toolCallSummary('fn', '{"raw": "json string args"}'), '→ tool fn {"raw": "json string args"}');
    const long = toolCallSummary('Bash', { command: `for f in *.log; do\n  gzip "$f"\ndone ${'x'.repeat(500)}` });
    assert.ok(long.startsWith('→ tool Bash for f in *.log; do gzip "$f" done xxx'));
    assert.equal(long.length, '→ tool Bash '.length + 120);
    assert.ok(long.endsWith('…'));
  });

  it('writes one line per tool result, or null when it has no text', () => {
    assert.equal(toolResultLine('edit', 'Edited memory/2026-03-02.md', false), '← edit: Edited memory/2026-03-02.md');
    assert.equal(toolResultLine('Bash', 'exit 1\nnpm ERR!', true), '← Bash (error): exit 1 npm ERR!');
    assert.equal(toolResultLine(null, 'plain', false), '← plain');
    assert.equal(toolResultLine(null, 'boom', true), '← (error): boom');
    assert.equal(toolResultLine('read', '  \n ', false), null);
    assert.equal(toolResultLine('read', 'y'.repeat(1000), false, 50)!.length, '← read: '.length + 50);
  });
});
