// `cairn sources list` counts the turns a source stored, not the turns it read (issue 30 item 20):
// a file replaced or truncated is read again from the top, and the turns it already gave are
// duplicates, stored once and counted once. Through the real CLI and a real home.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';

const home = tempHomes();

const lines = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ role: 'user', content: `note ${i + 1} about the allotment and its tomatoes` })).join('\n') + '\n';

describe('sources list after re-reads (issue 30 item 20)', () => {
  test('12 turns read three times (replaced, then truncated and rewritten) are shown as 12 turns', async () => {
    const dir = home();
    const file = join(dir, 'chat.jsonl');
    writeFileSync(file, lines(12));
    ok(await runCli(['ingest', '-f', 'jsonl', file], { home: dir }));
    // Replaced by a new file with the same lines: read again from the top, 12 duplicates.
    writeFileSync(`${file}.new`, lines(12));
    renameSync(`${file}.new`, file);
    const again = await runCli(['ingest', '-f', 'jsonl', file], { home: dir });
    assert.match(ok(again), /0 new turns, 12 duplicates/);
    // Truncated to its first line: read again from the top, 1 duplicate.
    writeFileSync(file, lines(1));
    assert.match(ok(await runCli(['ingest', '-f', 'jsonl', file], { home: dir })), /0 new turns, 1 duplicates/);

    const { sources } = await cliJson<{ sources: Array<{ turns: number; stats: { turns: number; linesRead: number } }> }>(['sources', 'list', '--all', '--json'], { home: dir });
    assert.equal(sources.length, 1);
    assert.equal(sources[0]!.turns, 12, 'stored turns');
    assert.equal(sources[0]!.stats.turns, 12, 'the running total counts stored turns, not re-read duplicates');
    assert.equal(sources[0]!.stats.linesRead, 12 + 12 + 1, 'lines read do include the re-reads');
    const text = ok(await runCli(['sources', 'list', '--all'], { home: dir }));
    assert.match(text, / 12 turns /);
    assert.doesNotMatch(text, /\b(24|25) turns\b/);
  });

  test('new lines after a re-read are counted once each', async () => {
    const dir = home();
    const file = join(dir, 'chat.jsonl');
    writeFileSync(file, lines(3));
    ok(await runCli(['ingest', '-f', 'jsonl', file], { home: dir }));
    writeFileSync(`${file}.new`, lines(5));
    renameSync(`${file}.new`, file);
    assert.match(ok(await runCli(['ingest', '-f', 'jsonl', file], { home: dir })), /2 new turns, 3 duplicates/);
    const { sources } = await cliJson<{ sources: Array<{ turns: number; stats: { turns: number } }> }>(['sources', 'list', '--all', '--json'], { home: dir });
    assert.deepEqual([sources[0]!.turns, sources[0]!.stats.turns], [5, 5]);
  });
});
