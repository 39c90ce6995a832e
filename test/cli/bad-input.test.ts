// Bad input through the real `cairn` binary: every failure class has its own exit code and a
// message a person can act on, and nothing is written, created or damaged by a rejected command.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { NO_EMBEDDER, cliJson, json, ok, runCli, writeConfig, type RunResult, tempHomes } from '../helpers/cli.js';

const home = tempHomes();

/** Asserts the exit code and that stderr carries a single clear `cairn: ` message matching `message`. */
function fails(res: RunResult, code: number, message: RegExp): void {
  assert.equal(res.code, code, `expected exit ${code}, got ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  assert.match(res.stderr, /^cairn: /, 'stderr starts with the program name');
  assert.match(res.stderr, message);
  assert.doesNotMatch(res.stderr, /internal error|\n\s+at /, 'no internal error or stack trace');
  assert.equal(res.stdout, '', 'nothing on stdout');
}

async function memoryCount(h: string, ns?: string): Promise<number> {
  const list = await cliJson([...(ns ? ['-n', ns] : []), 'list', '--all', '--limit', '10000', '--json'], { home: h });
  return list.length;
}

describe('usage errors exit 2', { concurrency: 2 }, () => {
  test('unknown command', async () => {
    const res = await runCli(['frobnicate'], { home: home() });
    assert.equal(res.code, 2);
    assert.match(res.stderr, /^cairn: unknown command 'frobnicate'/);
    assert.match(res.stderr, /--help/);
  });

  test('unknown flag, on a command and globally', async () => {
    const h = home();
    const onCommand = await runCli(['store', '--bogus', 'x'], { home: h });
    assert.equal(onCommand.code, 2);
    assert.match(onCommand.stderr, /^cairn: unknown option '--bogus'/);
    const global = await runCli(['--nope', 'list'], { home: h });
    assert.equal(global.code, 2);
    assert.match(global.stderr, /unknown option '--nope'/);
    assert.equal(await memoryCount(h), 0);
  });

  test('missing required argument', async () => {
    const h = home();
    for (const args of [['get'], ['history'], ['supersede'], ['supersede', 'm_abc'], ['import']]) {
      const res = await runCli(args, { home: h });
      assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
      assert.match(res.stderr, /^cairn: missing required argument '(id|text|file)'/, args.join(' '));
    }
    const noValue = await runCli(['search', 'x', '--limit'], { home: h });
    assert.equal(noValue.code, 2);
    assert.match(noValue.stderr, /option '-l, --limit <n>' argument missing/);
  });
});

describe('invalid values exit 3', { concurrency: 2 }, () => {
  let h: string;
  before(async () => {
    h = home();
    ok(await runCli(['store', 'an existing memory'], { home: h }));
  });

  test('--limit must be an integer in range', async () => {
    fails(await runCli(['search', 'memory', '--limit', 'abc'], { home: h }), 3, /--limit must be an integer, got "abc"/);
    fails(await runCli(['search', 'memory', '--limit', '0'], { home: h }), 3, /--limit must be between 1 and 200, got 0/);
    fails(await runCli(['search', 'memory', '--limit', '10abc'], { home: h }), 3, /--limit must be an integer, got "10abc"/);
    fails(await runCli(['search', 'memory', '--limit', '201'], { home: h }), 3, /--limit must be between 1 and 200/);
    fails(await runCli(['search', 'memory', '--limit', '1.5'], { home: h }), 3, /--limit must be an integer/);
    fails(await runCli(['list', '--limit', '-1'], { home: h }), 3, /--limit must be between 1 and 10000, got -1/);
  });

  test('--importance must be 1–10', async () => {
    fails(await runCli(['store', 'too important', '--importance', '11'], { home: h }), 3, /--importance must be between 1 and 10, got 11/);
    fails(await runCli(['store', 'not important', '-i', '0'], { home: h }), 3, /--importance must be between 1 and 10, got 0/);
    fails(await runCli(['store', 'fractional', '-i', '5.5'], { home: h }), 3, /--importance must be an integer/);
    fails(await runCli(['search', 'memory', '--min-importance', 'high'], { home: h }), 3, /--min-importance must be an integer/);
    assert.equal(await memoryCount(h), 1, 'nothing was stored');
  });

  test('empty and whitespace-only text', async () => {
    fails(await runCli(['store', ''], { home: h }), 3, /Invalid memory: text: text is empty/);
    fails(await runCli(['store', '   \t  '], { home: h }), 3, /text is empty/);
    fails(await runCli(['store', '--text', '\n\n'], { home: h }), 3, /text is empty/);
    fails(await runCli(['store'], { home: h }), 3, /text is empty/);
    fails(await runCli(['store', '-'], { home: h, input: ' \n ' }), 3, /text is empty/);
    fails(await runCli(['search', '   '], { home: h }), 3, /query is empty/);
    fails(await runCli(['search'], { home: h }), 3, /query is empty/);
    assert.equal(await memoryCount(h), 1, 'nothing was stored');
  });

  test('bad category, kind, mode, event time', async () => {
    fails(await runCli(['store', 'x y z', '-c', 'gossip'], { home: h }), 3, /category: Invalid option/);
    fails(await runCli(['search', 'memory', '-k', 'memory,bogus'], { home: h }), 3, /kinds\.1: Invalid option/);
    fails(await runCli(['search', 'memory', '--mode', 'psychic'], { home: h }), 3, /mode: Invalid option/);
    fails(await runCli(['store', 'x y z', '--event-time', 'yesterday'], { home: h }), 3, /Invalid event time "yesterday"/);
    assert.equal(await memoryCount(h), 1);
  });

  test('invalid dates for --since / --until', async () => {
    fails(await runCli(['search', 'memory', '--since', '2026-13-45'], { home: h }), 3, /Invalid since "2026-13-45": use an ISO date/);
    fails(await runCli(['search', 'memory', '--since', 'tomorrowish'], { home: h }), 3, /Invalid since "tomorrowish"/);
    fails(await runCli(['search', 'memory', '--until', '2026-02-31'], { home: h }), 3, /Invalid until "2026-02-31"/);
    fails(await runCli(['search', 'memory', '--as-of', 'last tuesday'], { home: h }), 3, /Invalid asOf "last tuesday"/);
    fails(await runCli(['search', 'memory', '--as-of', '2026-02-30'], { home: h }), 3, /Invalid asOf "2026-02-30"/);
  });

  test('get and history of a hostile id are rejected before any lookup', async () => {
    fails(await runCli(['get', '../../etc/passwd'], { home: h }), 3, /Invalid id: not a Cairn id/);
    fails(await runCli(['history', "m_x' OR 1=1 --"], { home: h }), 3, /Invalid id/);
    fails(await runCli(['supersede', 'm_%', 'new text here'], { home: h }), 3, /Invalid id/);
  });
});

describe('text over the configured limit', { concurrency: 2 }, () => {
  test('exits 3 and stores nothing', async () => {
    const h = home({ limits: { maxTextChars: 100 }, embedder: { provider: 'none' } });
    fails(await runCli(['store', 'x'.repeat(101)], { home: h }), 3, /longer than the limit of 100 characters \(limits\.maxTextChars\)/);
    fails(await runCli(['store', '-'], { home: h, input: 'y'.repeat(5000) }), 3, /longer than the limit of 100/);
    assert.deepEqual(await cliJson(['list', '--json'], { home: h }), []);
    ok(await runCli(['store', 'z'.repeat(100)], { home: h }), 'exactly at the limit');
    assert.equal((await cliJson(['list', '--json'], { home: h })).length, 1);
  });
});

describe('hostile namespaces', { concurrency: 2 }, () => {
  test('are rejected with exit 3 and create nothing inside or outside the home', async () => {
    const parent = home(null);
    const h = join(parent, 'home');
    writeConfig(h, NO_EMBEDDER);
    const cases: Array<[string, RegExp]> = [
      ['../x', /Invalid namespace "\.\.\/x"/],
      ['a/b', /Invalid namespace "a\/b"/],
      ['', /Invalid namespace ""/],
      ['a'.repeat(100_000), /Invalid namespace "a{40}"… \(100000 chars\)/],
      ['Work', /Invalid namespace "Work"/],
      ['..', /Invalid namespace/],
      ['/etc', /Invalid namespace/],
    ];
    for (const [ns, message] of cases) {
      for (const args of [['-n', ns, 'store', 'hello there'], ['--namespace', ns, 'list'], ['-n', ns, 'search', 'hello']]) {
        const res = await runCli(args, { home: h });
        fails(res, 3, message);
        assert.ok(res.stderr.length < 500, `message is short (${res.stderr.length} chars)`);
      }
      const asJson = await runCli(['-n', ns, 'store', 'hello there', '--json'], { home: h });
      assert.equal(asJson.code, 3);
      assert.equal(json(asJson.stderr.trim()).error.code, 'INVALID_NAMESPACE');
    }
    assert.deepEqual(readdirSync(parent), ['home'], 'nothing created next to the home');
    assert.deepEqual(readdirSync(h), ['config.json'], 'nothing created in the home either');
    const importInto = await runCli(['import', '-', '--into', '../escape'], { home: h, input: '' });
    fails(importInto, 3, /Invalid namespace "\.\.\/escape"/);
    assert.deepEqual(readdirSync(parent), ['home']);
  });
});

describe('not found and conflicts', { concurrency: 2 }, () => {
  test('get/history of an unknown id exit 4', async () => {
    const h = home();
    fails(await runCli(['get', 'm_doesnotexist'], { home: h }), 4, /No memory m_doesnotexist in namespace default/);
    fails(await runCli(['history', 'm_doesnotexist'], { home: h }), 4, /No memory m_doesnotexist/);
    fails(await runCli(['supersede', 'm_doesnotexist', 'new words'], { home: h }), 4, /No memory m_doesnotexist/);
    fails(await runCli(['import', join(h, 'no-such.jsonl')], { home: h }), 4, /No such file/);
  });

  test('supersede of an already superseded memory exits 5 and changes nothing', async () => {
    const h = home();
    const id = (await cliJson(['store', 'the office is on floor 3', '--json'], { home: h })).memory.id;
    const next = (await cliJson(['supersede', id, 'the office is on floor 4', '--json'], { home: h })).current.id;
    const before = ok(await runCli(['export'], { home: h }));
    fails(await runCli(['supersede', id, 'the office is on floor 5'], { home: h }), 5, new RegExp(`already superseded by ${next}; supersede that one instead`));
    const asJson = await runCli(['supersede', id, 'the office is on floor 5', '--json'], { home: h });
    assert.equal(asJson.code, 5);
    assert.deepEqual(json(asJson.stderr.trim()).error, {
      code: 'CONFLICT',
      message: `Memory ${id} was already superseded by ${next}; supersede that one instead`,
      supersededBy: next,
    });
    assert.equal(ok(await runCli(['export'], { home: h })), before);
    fails(await runCli(['supersede', next, 'The office is on floor 4.'], { home: h }), 3, /same statement/);
  });
});

describe('corrupt configuration exits 6', { concurrency: 2 }, () => {
  test('invalid JSON', async () => {
    const h = home('{"embedder": {"provider": "none"');
    for (const args of [['list'], ['store', 'hello'], ['status'], ['init']]) {
      fails(await runCli(args, { home: h }), 6, /config\.json is not valid JSON/);
    }
    assert.deepEqual(readdirSync(h), ['config.json'], 'no database created');
  });

  test('unknown keys are named', async () => {
    const h = home({ embedder: { provider: 'none' }, embeder: { provider: 'none' } });
    fails(await runCli(['list'], { home: h }), 6, /unknown key "embeder"/);
    writeConfig(h, { embedder: { provider: 'none', model: 'x' } });
    fails(await runCli(['list'], { home: h }), 6, /unknown key "embedder\.model"/);
    writeConfig(h, { limits: { maxTextChars: 'lots' }, embedder: { provider: 'none' } });
    fails(await runCli(['list'], { home: h }), 6, /"limits\.maxTextChars"/);
    const asJson = await runCli(['list', '--json'], { home: h });
    assert.equal(asJson.code, 6);
    assert.equal(json(asJson.stderr.trim()).error.code, 'CONFIG');
  });

  test('a bad CAIRN_BUSY_TIMEOUT_MS is a configuration error', async () => {
    const h = home();
    for (const v of ['abc', '0', '-5', '1.5']) {
      fails(await runCli(['list'], { home: h, env: { CAIRN_BUSY_TIMEOUT_MS: v } }), 6, /CAIRN_BUSY_TIMEOUT_MS must be a positive integer/);
    }
  });
});

describe('a corrupt database exits 8 and is left untouched', { concurrency: 2 }, () => {
  for (const [label, bytes] of [
    ['random bytes', () => randomBytes(64 * 1024)],
    ['a SQLite header followed by garbage', () => Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), randomBytes(16 * 1024)])],
  ] as const) {
    test(label, async () => {
      const h = home();
      const db = join(h, 'cairn.db');
      const original = bytes();
      writeFileSync(db, original);
      for (const args of [['list'], ['store', 'hello world'], ['status'], ['search', 'hello'], ['export'], ['init']]) {
        fails(await runCli(args, { home: h }), 8, /cairn\.db (exists but is not a SQLite database|is corrupt or not a Cairn database)/);
      }
      const asJson = await runCli(['store', 'hello world', '--json'], { home: h });
      assert.equal(asJson.code, 8);
      assert.equal(json(asJson.stderr.trim()).error.code, 'STORE_CORRUPT');
      assert.deepEqual(readFileSync(db), original, 'bytes unchanged');
      assert.deepEqual(readdirSync(h).sort(), ['cairn.db', 'config.json'], 'no -wal/-shm or other files created');
    });
  }
});

describe('a locked database', () => {
  test('store waits for the busy timeout, exits 7 saying it is locked, then succeeds once released', async () => {
    const h = home();
    ok(await runCli(['store', 'before the lock'], { home: h }));
    const holder = new Database(join(h, 'cairn.db'));
    let released = false;
    try {
      holder.pragma('busy_timeout = 0');
      holder.exec('BEGIN IMMEDIATE');
      const env = { CAIRN_BUSY_TIMEOUT_MS: '600' };
      const res = await runCli(['store', 'written under contention'], { home: h, env });
      fails(res, 7, /is locked by another process; tried for the busy timeout and gave up/);
      assert.ok(res.ms >= 600, `waited for the busy timeout first (${res.ms} ms)`);
      const asJson = await runCli(['store', 'written under contention', '--json'], { home: h, env });
      assert.equal(asJson.code, 7);
      assert.equal(json(asJson.stderr.trim()).error.code, 'STORE_LOCKED');
      holder.exec('ROLLBACK');
      released = true;
      const retry = await runCli(['store', 'written under contention'], { home: h, env });
      assert.equal(retry.code, 0, retry.stderr);
      assert.match(retry.stdout, /^Stored: /);
    } finally {
      if (!released && holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
    }
    const texts = (await cliJson(['list', '--json'], { home: h })).map((m: { text: string }) => m.text).sort();
    assert.deepEqual(texts, ['before the lock', 'written under contention']);
  });

  test('a reader keeps working while a writer holds the lock (WAL)', async () => {
    const h = home();
    ok(await runCli(['store', 'readable while locked'], { home: h }));
    const holder = new Database(join(h, 'cairn.db'));
    try {
      holder.exec('BEGIN IMMEDIATE');
      holder.prepare("INSERT INTO namespaces (id, created_at) VALUES ('uncommitted', 'x')").run();
      // A reader that waited for the write lock would wait for the whole busy timeout (10 minutes),
      // past the hang guard of runCli, which then fails the test: no clock needed to tell.
      const env = { CAIRN_BUSY_TIMEOUT_MS: '600000' };
      for (const args of [['search', 'readable', '--json'], ['list', '--json'], ['status', '--json'], ['export']]) {
        const res = await runCli(args, { home: h, env });
        assert.equal(res.code, 0, `${args.join(' ')} while a writer holds the lock: ${res.stderr}`);
      }
      const found = await cliJson(['search', 'readable', '--json'], { home: h, env });
      assert.equal(found.results.length, 1);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });
});

describe('import of a malformed JSONL file', { concurrency: 2 }, () => {
  test('reports bad lines with numbers, keeps the good ones, exits 3, leaves existing memories alone', async () => {
    const src = home();
    ok(await runCli(['store', 'good line one'], { home: src }));
    ok(await runCli(['store', 'good line two'], { home: src }));
    const [one, two] = ok(await runCli(['export'], { home: src })).trim().split('\n');

    const dst = home();
    const existing = (await cliJson(['store', 'already here before the import', '-t', 'keep', '--json'], { home: dst })).memory;
    const file = join(dst, 'bad.jsonl');
    const badRecord = JSON.stringify({ ...json(one!), id: 'm_otherid', text: 123 });
    const tooLong = JSON.stringify({ ...json(one!), id: 'm_longone', text: 'x'.repeat(9000) });
    writeFileSync(file, [one, '{not json', '', badRecord, two, '["an array"]', tooLong, JSON.stringify({ ...json(one!), id: 'm_ns', namespace: '../up' })].join('\n') + '\n');

    const res = await runCli(['import', file], { home: dst });
    assert.equal(res.code, 3, res.stderr);
    assert.match(res.stdout, /Read 8 lines: 2 imported, 0 already present, 0 merged into equal memories, 5 bad/);
    assert.match(res.stderr, /^ {2}line 2: invalid JSON/m);
    assert.match(res.stderr, /^ {2}line 4: text: /m);
    assert.match(res.stderr, /^ {2}line 6: /m);
    assert.match(res.stderr, /^ {2}line 7: text longer than 8000 characters/m);
    assert.match(res.stderr, /^ {2}line 8: namespace: /m);
    assert.doesNotMatch(res.stderr, /line (1|3|5):/);

    const texts = (await cliJson(['list', '--json'], { home: dst })).map((m: { text: string }) => m.text).sort();
    assert.deepEqual(texts, ['already here before the import', 'good line one', 'good line two']);
    assert.deepEqual(await cliJson(['get', existing.id, '--json'], { home: dst }), existing, 'existing memory untouched');
    assert.deepEqual(readdirSync(dst).filter((f) => !/^(cairn\.db(-wal|-shm)?|config\.json|bad\.jsonl)$/.test(f)), []);

    const asJson = await runCli(['import', file, '--json'], { home: dst });
    assert.equal(asJson.code, 3);
    const report = json(asJson.stdout);
    assert.equal(report.imported, 0);
    assert.equal(report.existing, 2);
    assert.deepEqual(
      report.errors.map((e: { line: number }) => e.line),
      [2, 4, 6, 7, 8],
    );
  });

  test('a directory is a clear error, not a crash', async () => {
    const h = home();
    const dir = join(h, 'adir');
    mkdirSync(dir);
    fails(await runCli(['import', dir], { home: h }), 3, /adir is a directory, not a JSONL file/);
  });
});

describe('--json errors', { concurrency: 2 }, () => {
  test('are one JSON object on stderr with error.code and message, stdout empty', async () => {
    const h = home();
    const cases: Array<[string[], number, string]> = [
      [['search', 'x', '--limit', '0', '--json'], 3, 'INVALID_INPUT'],
      [['store', '', '--json'], 3, 'INVALID_INPUT'],
      [['get', 'm_missing', '--json'], 4, 'NOT_FOUND'],
      [['-n', 'BAD', 'list', '--json'], 3, 'INVALID_NAMESPACE'],
      [['reembed', '--json'], 9, 'EMBEDDER'],
    ];
    for (const [args, code, errorCode] of cases) {
      const res = await runCli(args, { home: h });
      assert.equal(res.code, code, `${args.join(' ')}: ${res.stderr}`);
      assert.equal(res.stdout, '');
      const lines = res.stderr.trim().split('\n');
      assert.equal(lines.length, 1, 'exactly one line');
      const err = json(lines[0]!).error;
      assert.equal(err.code, errorCode, args.join(' '));
      assert.equal(typeof err.message, 'string');
      assert.ok(err.message.length > 10);
    }
  });
});
