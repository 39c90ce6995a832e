// What a person reads from `cairn search` (not --json): the hit first, as its matching passage of a
// long message rather than the whole message, the turns around it and its session's other hits
// under it; --json keeps the full text for programs. formatResult on plain results, then the CLI
// as a child process on a real home.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatResult } from '../../src/interfaces/cli/format.js';
import type { SearchResult } from '../../src/search/hybrid.js';
import type { ContextTurn } from '../../src/search/neighbours.js';
import { NO_EMBEDDER, cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';

const newHome = tempHomes();

const ctx = (offset: number, match: boolean, speaker: string, text: string): ContextTurn => ({ offset, match, speaker, role: 'user', text, time: '2026-01-01T10:00:00.000Z', messageId: `m${offset}` });
const result = (context: ContextTurn[]): SearchResult => ({
  id: 't_1', kind: 'turn', namespace: 'default', text: 'the whole long text', snippet: 'the matching part', score: 0.5,
  parts: { bm25: 1, vector: 0, cosine: null, own: 1, neighbours: 0, speaker: 1, when: 1, relevance: 0.5, importance: 1, recency: 1, tier: 'cold' },
  time: '2026-01-01T10:00:00.000Z', createdAt: '2026-01-01T10:00:00.000Z', validTo: null, current: true, category: null, importance: null,
  provenance: [{ source: 'jsonl', sessionId: 's1', messageId: 'm0', speaker: 'Ana', role: 'user' }], context,
  confidence: 0.8, signals: { cosine: null, cover: 1, sessionCover: 1, speaker: 0 },
});

describe('search output for a person', () => {
  it('the hit first (its speaker and snippet), then the turns around it, then its session\'s other hits', () => {
    const lines = formatResult(result([ctx(-2, true, 'Cy', 'an earlier hit'), ctx(-1, false, 'Bo', 'the question'), ctx(1, false, 'Bo', 'the reply'), ctx(1, true, 'Cy', 'a later hit')]), 1, false).split('\n');
    assert.match(lines[0]!, /^1\. 0\.500 {2}\[turn\] 2026-01-01 {2}t_1$/);
    assert.deepEqual(lines.slice(1, 6), ['   Ana: the matching part', '     ↑ Bo: the question', '     ↓ Bo: the reply', '   + Cy: an earlier hit', '   + Cy: a later hit']);
    assert.match(lines[6]!, /^ {3}source: jsonl · session s1 · message m0 · speaker Ana/);
    assert.ok(!lines.join('\n').includes('the whole long text'));
  });

  it('a result without context is its head, snippet and source', () => {
    const memory = { ...result([]), kind: 'memory' as const, id: 'm_1', provenance: [] };
    assert.deepEqual(formatResult(memory, 3, false).split('\n').slice(1), ['   the matching part', '   source: unknown']);
  });

  it('cairn search shows a long message by its matching passage; --json keeps the full text', async () => {
    const home = newHome();
    const filler = 'We spent the morning on the kitchen renovation and argued about tiles and the colour of the cabinets. ';
    const long = `${filler.repeat(12)}The staging database now listens on port 6543 after the migration. ${filler.repeat(8)}`;
    const chat = join(home, 'chat.jsonl');
    const line = (id: string, speaker: string, content: string, minute: number) =>
      JSON.stringify({ role: 'user', speaker, content, session: 's1', id, timestamp: `2026-01-02T10:0${minute}:00.000Z` });
    writeFileSync(chat, [line('m1', 'Ana', 'Which port does staging use now?', 0), line('m2', 'Bo', long, 1), line('m3', 'Ana', 'Thanks!', 2)].join('\n') + '\n');
    ok(await runCli(['ingest', chat, '-f', 'jsonl'], { home }));
    const human = ok(await runCli(['search', 'staging database port 6543'], { home }));
    const hit = human.split('\n').find((l) => l.includes('6543'));
    assert.ok(hit, human);
    assert.ok(hit.length <= 300 + 10, `the hit line is ${hit.length} characters`);
    assert.ok(!human.includes(long.trim()), 'the whole message is not printed');
    const res = await cliJson<{ results: SearchResult[] }>(['search', 'staging database port 6543', '--json'], { home });
    const found = res.results.find((r) => r.text.includes('6543') || r.context.some((c) => c.text.includes('6543')));
    assert.ok(found);
    const all = res.results.flatMap((r) => [r.text]);
    assert.ok(all.some((t) => t.includes(long.trim().slice(0, 200))), 'the JSON result carries the full text');
    assert.ok(res.results.every((r) => r.snippet.length <= 300));
  });

  it('cairn search says "No good match" when all it found is weak; --json carries noGoodMatch and each result\'s confidence', async () => {
    // A higher bar than the default so that a one-word match of five is weak even in a two-turn home.
    const home = newHome({ ...NO_EMBEDDER, search: { minConfidence: 0.3 } });
    const chat = join(home, 'chat.jsonl');
    const line = (id: string, content: string, minute: number) => JSON.stringify({ role: 'user', speaker: 'Ana', content, session: 's1', id, timestamp: `2026-01-02T10:0${minute}:00.000Z` });
    writeFileSync(chat, [line('m1', 'The staging database listens on port 6543 now', 0), line('m2', 'We use pnpm for installs in the monorepo', 1)].join('\n') + '\n');
    ok(await runCli(['ingest', chat, '-f', 'jsonl'], { home }));
    // One rare word of five matches (BM25 only here): a weak match, left out.
    const weak = 'tungsten mining weather during monorepo audits';
    const none = ok(await runCli(['search', weak], { home }));
    assert.match(none, /^No good match for "tungsten mining weather during monorepo audits" in namespace default \(1 weak result below search\.minConfidence left out\)\.$/m);
    const noneJson = await cliJson<{ results: SearchResult[]; noGoodMatch: boolean; belowConfidence: number }>(['search', weak, '--json'], { home });
    assert.deepEqual({ results: noneJson.results, noGoodMatch: noneJson.noGoodMatch, belowConfidence: noneJson.belowConfidence }, { results: [], noGoodMatch: true, belowConfidence: 1 });
    assert.match(ok(await runCli(['search', 'boiling point of tungsten'], { home })), /^No results in namespace default\.$/m, 'nothing found at all reads as before');
    const found = await cliJson<{ results: SearchResult[]; noGoodMatch: boolean }>(['search', 'staging database port', '--json'], { home });
    assert.equal(found.noGoodMatch, false);
    assert.ok(found.results[0]!.confidence > 0 && found.results[0]!.confidence <= 1);
    const explained = ok(await runCli(['search', 'staging database port', '--explain'], { home }));
    assert.match(explained, /confidence 0\.\d\d \(query words 1\.00/);
  });
});
