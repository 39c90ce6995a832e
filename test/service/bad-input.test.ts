// Bad input through the facade: every malformed value gets a typed error that names the problem,
// and nothing is stored, created or changed by a rejected call.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { resolveHome, namespaceDir } from '../../src/core/home.js';
import type { Namespace } from '../../src/core/namespace.js';
import type { StoreInput } from '../../src/service/inputs.js';
import type { Memory } from '../../src/core/types.js';
import { HashEmbedder, collect, readableOf, rejectsCode, tempDir } from '../helpers/store-fixtures.js';

const HOSTILE_NAMESPACES: Array<[string, string]> = [
  ['../x', 'parent path'],
  ['a/b', 'slash'],
  ['', 'empty'],
  ['n'.repeat(1_000_000), '1 MB'],
  ['ok\0evil', 'NUL byte'],
  ['..', 'dot-dot'],
  ['Work', 'uppercase'],
  ['.hidden', 'leading dot'],
  ['a..b', 'inner dot-dot'],
  ['/etc', 'absolute'],
  ['a\\b', 'backslash'],
  [' work', 'leading space'],
  ['n'.repeat(65), '65 chars'],
  ['ns%2f..', 'encoded'],
];

describe('bad input', () => {
  let base: ReturnType<typeof tempDir>;
  let home: string;
  let cairn: Cairn;

  beforeEach(async () => {
    base = tempDir();
    home = join(base.dir, 'home');
    cairn = await Cairn.open({ home, embedder: new HashEmbedder(), config: { limits: { maxTextChars: 100 } } });
  });
  afterEach(async () => {
    await cairn.close();
    base.cleanup();
  });

  const count = async (namespace?: string) => (await cairn.list({ namespace, includeSuperseded: true, limit: 1000 })).length;
  const totalMemories = async () => (await cairn.status()).totals.memories;

  it('empty, whitespace-only and control-only text → INVALID_INPUT, nothing stored', async () => {
    for (const text of ['', '   ', '\n\t \r\n', '\u0000\u0001\u0007', '\u0000 \u001f ']) {
      const err = await rejectsCode(cairn.remember({ text }), 'INVALID_INPUT', /text is empty/);
      assert.deepEqual(err.details?.problems, ['text: text is empty'], JSON.stringify(text));
    }
    await rejectsCode(cairn.remember({ text: 42 } as unknown as StoreInput), 'INVALID_INPUT', /text/);
    await rejectsCode(cairn.remember({} as unknown as StoreInput), 'INVALID_INPUT', /text/);
    assert.equal(await totalMemories(), 0);
    assert.deepEqual((await cairn.status()).namespaces, []);
  });

  it('text over the configured limit → INVALID_INPUT naming the limit; at the limit it is stored', async () => {
    await cairn.remember({ text: 'already here' });
    const before = await count();
    const err = await rejectsCode(cairn.remember({ text: 'x'.repeat(101) }), 'INVALID_INPUT', /limits\.maxTextChars/);
    assert.match(err.message, /100/);
    await rejectsCode(cairn.remember({ text: 'word '.repeat(5000) }), 'INVALID_INPUT');
    assert.equal(await count(), before);
    const atLimit = await cairn.remember({ text: `  ${'y'.repeat(100)}  ` });
    assert.equal(atLimit.memory.text.length, 100, 'the limit applies to the trimmed text');
    assert.equal(await count(), before + 1);
    // Supersede obeys the same limit and leaves the old memory current.
    const { memory } = await cairn.remember({ text: 'short and sweet' });
    await rejectsCode(cairn.supersede(memory.id, { text: 'z'.repeat(101) }), 'INVALID_INPUT', /maxTextChars/);
    assert.equal((await cairn.get(memory.id)).validTo, null);
    assert.equal(await count(), before + 2);
  });

  it('NUL and control characters inside text are stripped, not stored', async () => {
    const { memory } = await cairn.remember({ text: 'nul\u0000 in\u0008 the middle' });
    assert.equal(memory.text, 'nul in the middle');
  });

  for (const [ns, label] of HOSTILE_NAMESPACES) {
    it(`hostile namespace (${label}) → INVALID_NAMESPACE everywhere, no directory created`, async () => {
      await cairn.remember({ text: 'a memory in the default namespace' });
      const { memory } = await cairn.remember({ text: 'the one we try to reach' });
      const filesBefore = readdirSync(home).sort();
      const err = await rejectsCode(cairn.remember({ text: 'escape attempt', namespace: ns }), 'INVALID_NAMESPACE');
      assert.ok(err.message.length < 400, 'a huge namespace is not echoed back in full');
      await rejectsCode(cairn.search('anything', { namespace: ns }), 'INVALID_NAMESPACE');
      await rejectsCode(cairn.get(memory.id, ns), 'INVALID_NAMESPACE');
      await rejectsCode(cairn.history(memory.id, ns), 'INVALID_NAMESPACE');
      await rejectsCode(cairn.list({ namespace: ns }), 'INVALID_NAMESPACE');
      await rejectsCode(cairn.supersede(memory.id, { text: 'moved', namespace: ns }), 'INVALID_NAMESPACE');
      await rejectsCode(cairn.importJsonl(readableOf(''), { namespace: ns }), 'INVALID_NAMESPACE');
      await rejectsCode(cairn.exportJsonl(process.stdout, ns), 'INVALID_NAMESPACE');
      await rejectsCode(Cairn.open({ home, embedder: null, namespace: ns }), 'INVALID_NAMESPACE');
      // As a config value it fails config validation, naming the key.
      const cfg = await rejectsCode(Cairn.open({ home, embedder: null, config: { defaultNamespace: ns } }), 'CONFIG');
      assert.match(cfg.message, /defaultNamespace/);
      assert.deepEqual(readdirSync(base.dir), ['home'], 'nothing created beside the home');
      assert.deepEqual(readdirSync(home).sort(), filesBefore, 'nothing created inside the home');
      assert.deepEqual((await cairn.status()).namespaces.map((n) => n.namespace), ['default']);
      assert.equal((await cairn.get(memory.id)).validTo, null);
    });
  }

  it('namespaceDir double-checks: a namespace can never resolve outside the home', () => {
    const paths = resolveHome(home);
    for (const ns of ['..', '../x', '/etc', '.', '']) {
      assert.throws(() => namespaceDir(paths, ns as Namespace), (e: Error & { code?: string }) => e.code === 'INVALID_NAMESPACE', ns);
    }
    assert.equal(namespaceDir(paths, 'work' as Namespace), join(home, 'work'));
  });

  it('invalid dates for since, until and eventTime → INVALID_INPUT naming the field', async () => {
    await cairn.remember({ text: 'a dated memory', eventTime: '2026-02-28' });
    for (const bad of ['2026-13-45', 'yesterday-ish', '2026-02-31', '2025-02-29', '2026-02-31T10:00:00Z', '', '7', '7 days ago', '-7d', '2026/01/01', '99999d0']) {
      await rejectsCode(cairn.search('dated', { since: bad }), 'INVALID_INPUT', /since/);
      await rejectsCode(cairn.search('dated', { until: bad }), 'INVALID_INPUT', /until/);
      await rejectsCode(cairn.remember({ text: `event at ${bad}`, eventTime: bad }), 'INVALID_INPUT', /event ?time/i);
    }
    await rejectsCode(cairn.search('dated', { since: 5 as unknown as string }), 'INVALID_INPUT', /since/);
    assert.equal(await count(), 1);
  });

  it('valid dates are accepted, including offsets that move the UTC day and leap days', async () => {
    const offset = await cairn.remember({ text: 'late evening in New York', eventTime: '2026-03-01T23:00:00-05:00' });
    assert.equal(offset.memory.eventTime, '2026-03-02T04:00:00.000Z');
    const leap = await cairn.remember({ text: 'leap day', eventTime: '2028-02-29' });
    assert.equal(leap.memory.eventTime, '2028-02-29T00:00:00.000Z');
    const found = await cairn.search('leap', { since: '2028-02-29', until: '2028-02-29T23:59:59+00:00' });
    assert.deepEqual(found.results.map((r) => r.id), [leap.memory.id]);
  });

  it('invalid ids for get, history and supersede → INVALID_INPUT; a well-formed unknown id → NOT_FOUND', async () => {
    for (const id of ['../../etc/passwd', '', 'm_' + 'x'.repeat(10_000), 'm_a b', "m_1' OR '1'='1", 'M_ABC', '%', 'm_\u0000']) {
      await rejectsCode(cairn.get(id), 'INVALID_INPUT', /id/);
      await rejectsCode(cairn.history(id), 'INVALID_INPUT', /id/);
      await rejectsCode(cairn.supersede(id, { text: 'replacement' }), 'INVALID_INPUT', /id/);
    }
    await rejectsCode(cairn.get(42 as unknown as string), 'INVALID_INPUT');
    await rejectsCode(cairn.get('m_0123456789abc'), 'NOT_FOUND');
    await rejectsCode(cairn.history('m_0123456789abc'), 'NOT_FOUND');
    assert.equal(await count(), 0);
  });

  it('unknown fields and wrong types in input objects → INVALID_INPUT naming them', async () => {
    const remember = (input: Record<string, unknown>) => cairn.remember(input as unknown as StoreInput);
    await rejectsCode(remember({ text: 'ok', colour: 'red' }), 'INVALID_INPUT', /unknown field "colour"/);
    await rejectsCode(remember({ text: 'ok', provenance: [{ source: 'cli', secret: 'x' }] }), 'INVALID_INPUT', /"secret"/);
    await rejectsCode(remember({ text: 'ok', importance: '5' }), 'INVALID_INPUT', /importance/);
    await rejectsCode(remember({ text: 'ok', importance: 11 }), 'INVALID_INPUT', /importance/);
    await rejectsCode(remember({ text: 'ok', importance: 4.5 }), 'INVALID_INPUT', /importance/);
    await rejectsCode(remember({ text: 'ok', category: 'gossip' }), 'INVALID_INPUT', /category/);
    await rejectsCode(remember({ text: 'ok', tags: 'one,two' }), 'INVALID_INPUT', /tags/);
    await rejectsCode(remember({ text: 'ok', tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }), 'INVALID_INPUT', /tags/);
    await rejectsCode(remember({ text: 'ok', tags: ['  '] }), 'INVALID_INPUT', /tags/);
    await rejectsCode(remember({ text: 'ok', provenance: [{ line: -1 }] }), 'INVALID_INPUT', /provenance/);
    assert.equal(await count(), 0);

    const search = (options: Record<string, unknown>) => cairn.search('query', options as never);
    await rejectsCode(search({ sort: 'asc' }), 'INVALID_INPUT', /unknown field "sort"/);
    await rejectsCode(search({ limit: 0 }), 'INVALID_INPUT', /limit/);
    await rejectsCode(search({ limit: 201 }), 'INVALID_INPUT', /limit/);
    await rejectsCode(search({ limit: '10' }), 'INVALID_INPUT', /limit/);
    await rejectsCode(search({ mode: 'magic' }), 'INVALID_INPUT', /mode/);
    await rejectsCode(search({ kinds: ['email'] }), 'INVALID_INPUT', /kinds/);
    await rejectsCode(search({ categories: ['gossip'] }), 'INVALID_INPUT', /categories/);
    await rejectsCode(search({ minImportance: 0 }), 'INVALID_INPUT', /minImportance/);
    await rejectsCode(search({ includeSuperseded: 'yes' }), 'INVALID_INPUT', /includeSuperseded/);
  });

  it('queries: over 2000 characters → INVALID_INPUT; empty → INVALID_INPUT; punctuation-only finds nothing', async () => {
    await cairn.remember({ text: 'something to find' });
    await rejectsCode(cairn.search('q'.repeat(2001)), 'INVALID_INPUT', /2000/);
    await rejectsCode(cairn.search('find '.repeat(500)), 'INVALID_INPUT', /2000/);
    await rejectsCode(cairn.search(''), 'INVALID_INPUT', /empty/);
    await rejectsCode(cairn.search(' \t\n'), 'INVALID_INPUT', /empty/);
    await rejectsCode(cairn.search(undefined as unknown as string), 'INVALID_INPUT', /query/);
    const long = await cairn.search(`${'find '.repeat(399)}find`); // 2000 characters: accepted
    assert.equal(long.results.length, 1);
    for (const q of ['!!!', '"*"', 'NEAR(', ')(', '-', '🚀']) {
      const res = await cairn.search(q, { mode: 'bm25' });
      assert.deepEqual(res.results, [], q);
    }
    const syntax = await cairn.search('something OR "find" AND NOT * NEAR(x)', { mode: 'bm25' });
    assert.equal(syntax.results.length, 1);
  });

  describe('config files', () => {
    const openWith = async (content: string) => {
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, 'config.json'), content);
      return Cairn.open({ home, embedder: null });
    };

    it('invalid JSON → CONFIG naming the file', async () => {
      const err = await rejectsCode(openWith('{ "defaultNamespace": "a", '), 'CONFIG', /not valid JSON/);
      assert.ok(err.message.includes(join(home, 'config.json')));
      await rejectsCode(openWith(''), 'CONFIG', /not valid JSON/);
      await rejectsCode(() => Cairn.init(home), 'CONFIG', /not valid JSON/);
    });

    it('an unknown key → CONFIG naming the key', async () => {
      const err = await rejectsCode(openWith('{"embeder":{}}'), 'CONFIG', /"embeder"/);
      assert.deepEqual(err.details?.problems, ['unknown key "embeder"']);
      await rejectsCode(openWith('{"search":{"bm25weight":0.3}}'), 'CONFIG', /"search\.bm25weight"/);
    });

    it('a wrong type → CONFIG naming the key path', async () => {
      await rejectsCode(openWith('{"search":{"bm25Weight":"x"}}'), 'CONFIG', /search\.bm25Weight/);
      await rejectsCode(openWith('{"limits":{"maxTextChars":5}}'), 'CONFIG', /limits\.maxTextChars/);
      await rejectsCode(openWith('{"embedder":{"provider":"ollama"}}'), 'CONFIG', /embedder\.model/);
      await rejectsCode(openWith('{"embedder":{"provider":"ollama","model":"m","baseUrl":"file:///etc"}}'), 'CONFIG', /embedder\.baseUrl/);
      await rejectsCode(openWith('[]'), 'CONFIG');
      await rejectsCode(openWith('null'), 'CONFIG');
    });

    it('a bad config passed in code is rejected before anything is created', async () => {
      const fresh = join(base.dir, 'fresh');
      await rejectsCode(Cairn.open({ home: fresh, embedder: null, config: { bogus: 1 } as never }), 'CONFIG', /"bogus"/);
      assert.equal(existsSync(fresh), false);
    });

    it('a valid config file is used', async () => {
      const opened = await openWith('{"defaultNamespace":"team","limits":{"maxTextChars":150}}');
      try {
        assert.equal(opened.defaultNamespace, 'team');
        await rejectsCode(opened.remember({ text: 'x'.repeat(151) }), 'INVALID_INPUT', /150/);
        assert.equal((await opened.remember({ text: 'x'.repeat(150) })).memory.namespace, 'team');
      } finally {
        await opened.close();
      }
    });
  });

  describe('JSONL import', () => {
    const record = (over: Partial<Memory> = {}): Memory => ({
      id: 'm_good000000000001',
      namespace: 'default',
      text: 'Imported good memory',
      category: 'fact',
      importance: 5,
      tags: [],
      entities: [],
      eventTime: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      validFrom: '2026-01-01T00:00:00.000Z',
      validTo: null,
      supersededBy: null,
      supersedes: null,
      mentions: 1,
      provenance: [],
      ...over,
    });

    it('malformed lines are reported with their line numbers; good lines are imported; existing memories untouched', async () => {
      const existing = (await cairn.remember({ text: 'Existing memory stays as it is', importance: 4 })).memory;
      const garbage = Buffer.from(Array.from({ length: 300 }, (_, i) => [0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0x1b, 0x7f][i % 8]!));
      const lines: Array<string | Buffer> = [
        JSON.stringify(record()), // 1 ok
        '{not json', // 2
        '', // 3 empty: skipped silently
        JSON.stringify({ ...record({ id: 'm_bad4' }), importance: 'high' }), // 4 wrong type
        JSON.stringify(record({ id: 'm_big5', text: 'x'.repeat(2 * 1024 * 1024) })), // 5 a 2 MB line
        garbage, // 6 binary
        '   \t ', // 7 whitespace only: skipped
        '42', // 8 not an object
        'null', // 9
        JSON.stringify(record({ id: 'm_evil10', namespace: '../evil' })), // 10 hostile namespace
        JSON.stringify(record({ id: 'm_long11', text: 'y'.repeat(101) })), // 11 over maxTextChars (100)
        JSON.stringify(record({ id: 'm_good000000000012', text: 'Second good memory' })), // 12 ok
        JSON.stringify(record({ id: existing.id, text: 'An attempt to overwrite an existing memory', mentions: 9 })), // 13 exists
        JSON.stringify(record({ id: 'm_bad14', createdAt: 'not a date' })), // 14 bad date
        JSON.stringify(record({ id: 'm_good000000000015', text: 'existing MEMORY stays as it is.', mentions: 2 })), // 15 merged
        JSON.stringify({ ...record({ id: 'm_bad16' }), tags: 'a,b' }), // 16 wrong type
      ];
      const body = Buffer.concat(lines.flatMap((l, i) => [typeof l === 'string' ? Buffer.from(l) : l, Buffer.from(i === 11 ? '\r\n' : '\n')]));
      const report = await cairn.importJsonl(readableOf(body));
      assert.equal(report.lines, 16);
      assert.deepEqual(report.errors.map((e) => e.line), [2, 4, 5, 6, 8, 9, 10, 11, 14, 16]);
      const msg = new Map(report.errors.map((e) => [e.line, e.message]));
      assert.match(msg.get(2)!, /invalid JSON/);
      assert.match(msg.get(4)!, /importance/);
      assert.match(msg.get(5)!, /longer than/);
      assert.match(msg.get(10)!, /namespace/);
      assert.match(msg.get(11)!, /100/);
      assert.match(msg.get(14)!, /createdAt/);
      assert.match(msg.get(16)!, /tags/);
      for (const e of report.errors) assert.ok(e.message.length < 2000, `line ${e.line}: message of ${e.message.length} chars`);
      assert.equal(report.imported, 2);
      assert.equal(report.existing, 1);
      assert.equal(report.merged, 1);
      const after = await cairn.get(existing.id);
      assert.equal(after.text, existing.text, 'an existing id is never overwritten');
      assert.equal(after.mentions, 3, 'only the merge (2 mentions) raised the count');
      assert.equal(after.importance, 5, 'a merge may raise importance (4 → 5), as a re-mention does');
      assert.deepEqual(after.createdAt, existing.createdAt);
      const texts = (await cairn.list()).map((m) => m.text).sort();
      assert.deepEqual(texts, ['Existing memory stays as it is', 'Imported good memory', 'Second good memory']);
      assert.equal((await collect(cairn.store.exportMemories('evil'))).length, 0);
      assert.ok(!existsSync(join(base.dir, 'evil')));
    });

    it('a file of nothing but garbage imports nothing and reports every line', async () => {
      await cairn.remember({ text: 'untouched' });
      const report = await cairn.importJsonl(readableOf('a\nb\n{"id":1}\n[]\n'));
      assert.deepEqual(report.errors.map((e) => e.line), [1, 2, 3, 4]);
      assert.equal(report.imported + report.existing + report.merged, 0);
      assert.equal(report.embedded, 0);
      assert.deepEqual((await cairn.list()).map((m) => m.text), ['untouched']);
    });

    it('an empty file is an empty report', async () => {
      const report = await cairn.importJsonl(readableOf(''));
      assert.deepEqual(report, { lines: 0, imported: 0, existing: 0, merged: 0, errors: [], embedded: 0 });
    });
  });

  describe('the default home', () => {
    it('refuses to resolve under the test runner when CAIRN_HOME is unset', async () => {
      const saved = { home: process.env.CAIRN_HOME, test: process.env.CAIRN_TEST };
      delete process.env.CAIRN_HOME;
      // Under `node --test` NODE_TEST_CONTEXT is set; when run directly, CAIRN_TEST=1 is the guard.
      if (process.env.NODE_TEST_CONTEXT === undefined) process.env.CAIRN_TEST = '1';
      try {
        await rejectsCode(() => resolveHome(), 'CONFIG', /Refusing to use the default home/);
        await rejectsCode(Cairn.open({ embedder: null }), 'CONFIG', /Refusing/);
        await rejectsCode(() => Cairn.init(), 'CONFIG', /Refusing/);
        // An explicit home or CAIRN_HOME still works.
        assert.equal(resolveHome(home).root, home);
        process.env.CAIRN_HOME = home;
        assert.equal(resolveHome().database, join(home, 'cairn.db'));
        for (const bad of ['   ', 'a\0b']) await rejectsCode(() => resolveHome(bad), 'CONFIG', /non-empty/);
        await rejectsCode(() => resolveHome(''), 'CONFIG');
        // An empty CAIRN_HOME is unset: here, under the test runner, that is the refused default.
        process.env.CAIRN_HOME = '';
        await rejectsCode(() => resolveHome(), 'CONFIG', /Refusing to use the default home/);
        process.env.CAIRN_HOME = '   ';
        await rejectsCode(() => resolveHome(), 'CONFIG', /non-empty/);
      } finally {
        if (saved.home === undefined) delete process.env.CAIRN_HOME;
        else process.env.CAIRN_HOME = saved.home;
        if (saved.test === undefined) delete process.env.CAIRN_TEST;
        else process.env.CAIRN_TEST = saved.test;
      }
    });
  });
});
