// End-to-end tests of the `cairn` CLI: the real built binary, spawned as a child process with its
// own temporary home. Most tests run without an embedder (BM25 only) to stay fast; a few use the
// default offline embedder (use-lite) to prove hybrid search works with no network.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  NO_EMBEDDER,
  ROOT,
  assertBuilt,
  cliJson,
  json,
  makeHome,
  ok,
  removeHome,
  runCli,
  writeConfig,
} from '../helpers/cli.js';

const NO_NETWORK = ['--import', join(ROOT, 'test', 'cli', 'fixtures', 'no-network.mjs')];
const homes: string[] = [];

function home(config?: object | string): string {
  const h = makeHome(config);
  homes.push(h);
  return h;
}

function parseJsonl(text: string): any[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => json(l));
}

async function storeId(h: string, args: string[]): Promise<string> {
  const res = await cliJson(['store', ...args, '--json'], { home: h });
  assert.equal(res.duplicate, false, `expected a new memory for ${args.join(' ')}`);
  return res.memory.id as string;
}

before(() => assertBuilt());
after(() => {
  for (const h of homes) removeHome(h);
});

describe('cairn init', { concurrency: 2 }, () => {
  test('creates the home, a valid config and a SQLite database; a second init says already', async () => {
    const parent = home();
    const h = join(parent, 'nested', 'home');
    const first = await runCli(['init'], { home: h });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^Initialised: /);
    assert.ok(first.stdout.includes(h), 'names the home');
    const config = json(readFileSync(join(h, 'config.json'), 'utf8'));
    assert.deepEqual(config.embedder, { provider: 'use-lite' });
    assert.equal(config.defaultNamespace, 'default');
    const db = readFileSync(join(h, 'cairn.db'));
    assert.equal(db.subarray(0, 16).toString('latin1'), 'SQLite format 3\0');

    const configBytes = readFileSync(join(h, 'config.json'));
    const second = await runCli(['init'], { home: h });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /^Already initialised: /);
    assert.deepEqual(readFileSync(join(h, 'config.json')), configBytes, 'second init leaves the config alone');
  });

  test('--json reports paths and whether it created the config', async () => {
    const h = join(home(), 'h');
    const first = await cliJson(['init', '--json'], { home: h });
    assert.deepEqual(Object.keys(first).sort(), ['config', 'created', 'database', 'home']);
    assert.deepEqual(first, { home: h, config: join(h, 'config.json'), database: join(h, 'cairn.db'), created: true });
    const second = await cliJson(['init', '--json'], { home: h });
    assert.equal(second.created, false);
    assert.equal(second.home, h);
  });

  test('--home wins over CAIRN_HOME, before or after the command name', async () => {
    const envHome = join(home(), 'env');
    const flagA = join(home(), 'flag-a');
    const flagB = join(home(), 'flag-b');
    ok(await runCli(['--home', flagA, 'init'], { home: envHome }));
    ok(await runCli(['init', '--home', flagB], { home: envHome }));
    assert.ok(existsSync(join(flagA, 'cairn.db')));
    assert.ok(existsSync(join(flagB, 'config.json')));
    assert.equal(existsSync(envHome), false, 'CAIRN_HOME was not touched');
  });

  test('refuses the default home under test when neither CAIRN_HOME nor --home is set', async () => {
    const res = await runCli(['status'], { home: null });
    assert.equal(res.code, 6, res.stderr);
    assert.match(res.stderr, /Refusing to use the default home/);
  });
});

describe('store then search with the default embedder, offline', { concurrency: 2 }, () => {
  let h: string;
  let id: string;
  before(async () => {
    h = home(); // no config file: defaults, i.e. the use-lite embedder
    const res = await cliJson(['store', 'The staging database password rotates every Tuesday', '-c', 'fact', '-i', '8', '--json'], {
      home: h,
      nodeArgs: NO_NETWORK,
    });
    id = res.memory.id;
    assert.equal(res.embedded, true, `stored with a vector (warning: ${res.warning})`);
    assert.equal(res.warning, undefined);
  });

  test('search --json finds the memory with its provenance, in hybrid mode with a vector part', async () => {
    const res = await runCli(['search', 'staging', 'database', 'password', '--json'], { home: h, nodeArgs: NO_NETWORK });
    assert.equal(res.code, 0, res.stderr);
    assert.doesNotMatch(res.stderr, /NETWORK ATTEMPT/);
    const out = json(res.stdout);
    assert.equal(out.mode, 'hybrid');
    assert.equal(out.degraded, undefined, 'vector side was used');
    assert.equal(out.namespace, 'default');
    assert.equal(out.query, 'staging database password');
    assert.equal(out.results.length, 1);
    const [r] = out.results;
    assert.equal(r.id, id);
    assert.equal(r.kind, 'memory');
    assert.equal(r.text, 'The staging database password rotates every Tuesday');
    assert.equal(r.category, 'fact');
    assert.equal(r.importance, 8);
    assert.equal(r.current, true);
    assert.deepEqual(r.provenance, [{ source: 'cli' }]);
    assert.equal(typeof r.parts.cosine, 'number', 'a real cosine similarity was computed');
    assert.ok(r.parts.cosine > 0.2, `cosine ${r.parts.cosine}`);
    assert.ok(r.parts.vector > 0, 'vector part contributes');
    assert.ok(r.parts.bm25 > 0, 'bm25 part contributes');
    assert.ok(r.score > 0);
  });

  test('a paraphrase with no shared word is still found through the vector side', async () => {
    const out = await cliJson(['search', 'credentials', 'changed', 'weekly', '--json', '--mode', 'vector'], { home: h, nodeArgs: NO_NETWORK });
    assert.equal(out.mode, 'vector');
    assert.equal(out.results[0]?.id, id);
    assert.equal(out.results[0].parts.bm25, 0);
  });

  test('human output shows the provenance; --explain shows how the score was made', async () => {
    const plain = ok(await runCli(['search', 'password'], { home: h, nodeArgs: NO_NETWORK }));
    assert.match(plain, new RegExp(`^1\\. \\d+\\.\\d{3}  \\[memory/fact\\] \\d{4}-\\d{2}-\\d{2}  ${id}$`, 'm'));
    assert.match(plain, /The staging database password rotates every Tuesday/);
    assert.match(plain, /source: cli/);
    assert.doesNotMatch(plain, /score =/);
    const explained = ok(await runCli(['search', 'password', '--explain'], { home: h, nodeArgs: NO_NETWORK }));
    assert.match(
      explained,
      /score = relevance \d\.\d{3} \(bm25 \d\.\d{3}, vector \d\.\d{3}, cosine -?\d\.\d{3}, neighbours \d\.\d{3}, speaker ×\d\.\d{2}\) × importance \d\.\d{2} × recency \d\.\d{2} \((hot|warm|cold)\)/,
    );
  });
});

describe('search filters (BM25 only)', { concurrency: 2 }, () => {
  let h: string;
  const ids: Record<string, string> = {};
  before(async () => {
    h = home(NO_EMBEDDER);
    ids.old = await storeId(h, ['kubernetes cluster upgrade plan for the ingress', '-c', 'plan', '-i', '8', '--event-time', '2020-06-01']);
    ids.now = await storeId(h, ['kubernetes cluster upgrade decision was postponed', '-c', 'decision', '-i', '3']);
    ids.month = await storeId(h, ['kubernetes logging issue in the sidecar', '-c', 'issue', '-i', '5', '--event-time', '30d']);
  });

  const search = async (...args: string[]): Promise<string[]> => {
    const out = await cliJson(['search', ...args, '--json'], { home: h });
    assert.equal(out.mode, 'bm25');
    return out.results.map((r: { id: string }) => r.id);
  };

  test('without filters every match is returned; no embedder degrades to bm25 and says so', async () => {
    assert.deepEqual((await search('kubernetes')).sort(), Object.values(ids).sort());
    const out = await cliJson(['search', 'kubernetes', '--json'], { home: h });
    assert.match(out.degraded, /no embedder/);
    const human = await runCli(['search', 'kubernetes'], { home: h });
    assert.equal(human.code, 0);
    assert.match(human.stderr, /note: no embedder configured/);
  });

  test('positional words and --query are the same query', async () => {
    const positional = await cliJson(['search', 'logging', 'sidecar', '--json'], { home: h });
    const option = await cliJson(['search', '--query', 'logging sidecar', '--json'], { home: h });
    const short = await cliJson(['search', '-q', 'logging sidecar', '--json'], { home: h });
    assert.equal(positional.query, 'logging sidecar');
    assert.deepEqual(option, positional);
    assert.deepEqual(short, positional);
    assert.equal(positional.results[0].id, ids.month);
  });

  test('--limit caps the results', async () => {
    assert.equal((await search('kubernetes', '--limit', '1')).length, 1);
    assert.equal((await search('kubernetes', '-l', '2')).length, 2);
  });

  test('--since and --until filter on event time (ISO dates and ages)', async () => {
    assert.deepEqual((await search('kubernetes', '--since', '2021-01-01')).sort(), [ids.now, ids.month].sort());
    assert.deepEqual(await search('kubernetes', '--until', '2021-01-01'), [ids.old]);
    assert.deepEqual(await search('kubernetes', '--since', '7d'), [ids.now]);
    assert.deepEqual(await search('kubernetes', '--since', '60d', '--until', '7d'), [ids.month]);
    assert.deepEqual(await search('kubernetes', '--since', '2020-05-31', '--until', '2020-06-02'), [ids.old]);
  });

  test('--as-of searches as of a moment: later entries left out, ages counted from it', async () => {
    assert.deepEqual(await search('kubernetes', '--as-of', '2021-01-01'), [ids.old]);
    assert.deepEqual((await search('kubernetes', '--as-of', '7d')).sort(), [ids.month, ids.old].sort());
    // 60 days before "a week ago" still reaches the month-old entry; until cannot reach past as-of.
    assert.deepEqual(await search('kubernetes', '--as-of', '7d', '--since', '60d', '--until', '2099-01-01'), [ids.month]);
    const none = await runCli(['search', 'kubernetes', '--as-of', '2000-01-01'], { home: h });
    assert.match(none.stdout, /^No results in namespace default as of 2000-01-01T00:00:00\.000Z\.$/m);
    assert.equal((await cliJson(['search', 'kubernetes', '--as-of', '2021-01-01', '--json'], { home: h })).asOf, '2021-01-01T00:00:00.000Z');
  });

  test('--category filters, repeatable and comma-separated', async () => {
    assert.deepEqual(await search('kubernetes', '--category', 'plan'), [ids.old]);
    assert.deepEqual((await search('kubernetes', '-c', 'plan,decision')).sort(), [ids.old, ids.now].sort());
    assert.deepEqual((await search('kubernetes', '-c', 'plan', '-c', 'issue')).sort(), [ids.old, ids.month].sort());
    assert.deepEqual(await search('kubernetes', '-c', 'preference'), []);
  });

  test('--kind filters by layer', async () => {
    assert.equal((await search('kubernetes', '--kind', 'memory')).length, 3);
    assert.deepEqual(await search('kubernetes', '--kind', 'turn'), []);
    assert.deepEqual(await search('kubernetes', '-k', 'turn,document'), []);
  });

  test('--min-importance filters', async () => {
    assert.deepEqual(await search('kubernetes', '--min-importance', '6'), [ids.old]);
    assert.deepEqual((await search('kubernetes', '--min-importance', '5')).sort(), [ids.old, ids.month].sort());
    assert.equal((await search('kubernetes', '--min-importance', '1')).length, 3);
  });

  test('--explain prints a score line per result; no match says so', async () => {
    const out = ok(await runCli(['search', 'kubernetes', '--explain'], { home: h }));
    const scoreLines = out.split('\n').filter((l) => l.trim().startsWith('score = relevance'));
    assert.equal(scoreLines.length, 3);
    for (const l of scoreLines) assert.match(l, /\(bm25 \d\.\d{3}, vector 0\.000, neighbours 0\.000, speaker ×1\.00\) × importance \d\.\d{2} × recency \d\.\d{2} \((hot|warm|cold)\)/);
    assert.match(out, /\[memory\/plan\] 2020-06-01/);
    const none = ok(await runCli(['search', 'zebra'], { home: h }));
    assert.equal(none.trim(), 'No results in namespace default.');
  });
});

describe('store, get, history, supersede, list', { concurrency: 2 }, () => {
  test('store reads --text, positional words and stdin; an equal memory is counted, not duplicated', async () => {
    const h = home(NO_EMBEDDER);
    const a = await cliJson(['store', '--text', 'prefers tabs over spaces', '-t', 'style,editor', '-t', 'code', '--json'], { home: h });
    assert.deepEqual(a.memory.tags, ['style', 'editor', 'code']);
    assert.equal(a.memory.category, 'note');
    assert.equal(a.memory.importance, 5);
    assert.deepEqual(a.memory.provenance, [{ source: 'cli' }]);
    const b = await cliJson(['store', '-', '--json'], { home: h, input: 'Prefers tabs over spaces\n' });
    assert.equal(b.duplicate, true);
    assert.equal(b.memory.id, a.memory.id);
    assert.equal(b.memory.mentions, 2);
    const human = ok(await runCli(['store', 'the', 'build', 'uses', 'pnpm'], { home: h }));
    assert.match(human, /^Stored: m_[a-z0-9]+\n$/);
    const again = ok(await runCli(['store', 'the build uses pnpm'], { home: h }));
    assert.match(again, /^Already known \(mentions now 2\): m_/);
    const list = await cliJson(['list', '--json'], { home: h });
    assert.equal(list.length, 2);
  });

  test('get shows one memory; supersede keeps history; list --all includes superseded', async () => {
    const h = home(NO_EMBEDDER);
    const oldId = await storeId(h, ['the API runs on port 8080', '-c', 'fact', '-i', '7', '-t', 'api']);
    const other = await storeId(h, ['logs go to journald']);

    const got = await cliJson(['get', oldId, '--json'], { home: h });
    assert.equal(got.id, oldId);
    assert.equal(got.text, 'the API runs on port 8080');
    assert.equal(got.validTo, null);
    const gotHuman = ok(await runCli(['get', oldId], { home: h }));
    assert.match(gotHuman, new RegExp(`^${oldId}  \\[fact\\] importance 7  current\\n  the API runs on port 8080\\n`));
    assert.match(gotHuman, /tags api/);
    assert.match(gotHuman, /source: cli/);

    const sup = await cliJson(['supersede', oldId, 'the', 'API', 'runs', 'on', 'port', '9090', '--json'], { home: h });
    const newId = sup.current.id;
    assert.notEqual(newId, oldId);
    assert.equal(sup.previous.id, oldId);
    assert.equal(sup.previous.supersededBy, newId);
    assert.ok(sup.previous.validTo);
    assert.equal(sup.current.supersedes, oldId);
    assert.equal(sup.current.text, 'the API runs on port 9090');
    assert.equal(sup.current.category, 'fact', 'inherits category');
    assert.equal(sup.current.importance, 7, 'inherits importance');
    assert.deepEqual(sup.current.provenance, [{ source: 'cli' }]);

    const oldNow = await cliJson(['get', oldId, '--json'], { home: h });
    assert.equal(oldNow.supersededBy, newId);
    assert.match(ok(await runCli(['get', oldId], { home: h })), new RegExp(`superseded \\d{4}-\\d{2}-\\d{2} by ${newId}`));

    for (const start of [oldId, newId]) {
      const chain = await cliJson(['history', start, '--json'], { home: h });
      assert.deepEqual(
        chain.map((m: { id: string }) => m.id),
        [oldId, newId],
        `history from ${start}`,
      );
    }
    const historyHuman = ok(await runCli(['history', newId], { home: h }));
    assert.ok(historyHuman.indexOf(oldId) < historyHuman.indexOf(`${newId}  [fact]`), 'oldest first');

    const current = await cliJson(['list', '--json'], { home: h });
    assert.deepEqual(current.map((m: { id: string }) => m.id).sort(), [newId, other].sort());
    const all = await cliJson(['list', '--all', '--json'], { home: h });
    assert.deepEqual(all.map((m: { id: string }) => m.id).sort(), [oldId, newId, other].sort());
    const limited = await cliJson(['list', '--all', '--limit', '1', '--json'], { home: h });
    assert.equal(limited.length, 1);
    const listHuman = ok(await runCli(['list', '--all'], { home: h }));
    assert.ok(listHuman.includes(oldId) && listHuman.includes(newId) && listHuman.includes(other));

    const hits = await cliJson(['search', 'API', 'port', '--json'], { home: h });
    assert.deepEqual(hits.results.map((r: { id: string }) => r.id), [newId], 'superseded memories are hidden by default');
    const withOld = await cliJson(['search', 'API', 'port', '--include-superseded', '--json'], { home: h });
    assert.deepEqual(withOld.results.map((r: { id: string }) => r.id).sort(), [oldId, newId].sort());
    assert.equal(withOld.results.find((r: { id: string }) => r.id === oldId).current, false);
  });

  test('namespaces are separate: -n work sees only its own memories', async () => {
    const h = home(NO_EMBEDDER);
    const id = await storeId(h, ['-n', 'work', 'standup is at 9:30']);
    await storeId(h, ['lunch is at noon']);
    assert.deepEqual((await cliJson(['-n', 'work', 'list', '--json'], { home: h })).map((m: { id: string }) => m.id), [id]);
    assert.equal((await cliJson(['list', '--json'], { home: h })).length, 1);
    const miss = await runCli(['get', id], { home: h });
    assert.equal(miss.code, 4, 'not visible from the default namespace');
    assert.equal((await cliJson(['search', 'standup', '--json'], { home: h })).results.length, 0);
    assert.equal((await cliJson(['search', 'standup', '--json', '--namespace', 'work'], { home: h })).results.length, 1);
  });
});

describe('cairn status', { concurrency: 2 }, () => {
  test('human and --json output, exit 0 when healthy, counts per namespace', async () => {
    const h = home(NO_EMBEDDER);
    const a = await storeId(h, ['first default memory']);
    await storeId(h, ['second default memory']);
    ok(await runCli(['supersede', a, 'first default memory, revised'], { home: h }));
    await storeId(h, ['-n', 'work', 'a work memory']);

    const res = await runCli(['status', '--json'], { home: h });
    assert.equal(res.code, 0, res.stderr);
    const s = json(res.stdout);
    assert.equal(s.ok, true);
    assert.equal(s.home, h);
    assert.equal(s.database.backend, 'sqlite');
    assert.equal(s.database.location, join(h, 'cairn.db'));
    assert.deepEqual(s.database.problems, []);
    assert.deepEqual(s.embedder, { provider: 'none', model: null });
    const byNs = Object.fromEntries(s.namespaces.map((n: { namespace: string }) => [n.namespace, n]));
    assert.deepEqual(Object.keys(byNs).sort(), ['default', 'work']);
    assert.equal(byNs.default.memories, 3);
    assert.equal(byNs.default.currentMemories, 2);
    assert.equal(byNs.default.superseded, 1);
    assert.equal(byNs.work.memories, 1);
    assert.equal(byNs.work.currentMemories, 1);
    assert.equal(s.totals.memories, 4);
    assert.ok(s.warnings.some((w: string) => /no embedder/.test(w)));

    const human = await runCli(['status'], { home: h });
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, new RegExp(`^Cairn healthy · home ${h.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(human.stdout, /^default\s+3\s+2\s+1\s+0\s+0\s+0\s+0$/m);
    assert.match(human.stdout, /^work\s+1\s+1\s+0\s+0\s+0\s+0\s+0$/m);
    assert.match(human.stdout, /Embedder: none/);
  });

  test('an empty home is healthy and says how to start', async () => {
    const h = home(NO_EMBEDDER);
    const res = await runCli(['status'], { home: h });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /no namespaces yet/);
  });
});

describe('export and import', { concurrency: 2 }, () => {
  let src: string;
  let exported: string;
  before(async () => {
    src = home(NO_EMBEDDER);
    const a = await storeId(src, ['deploys happen on Thursdays', '-c', 'decision', '-i', '9', '-t', 'ops', '--event-time', '2025-03-02']);
    await storeId(src, ['the wiki lives at wiki.internal']);
    ok(await runCli(['supersede', a, 'deploys happen on Wednesdays'], { home: src }));
    ok(await runCli(['store', 'the wiki lives at wiki.internal'], { home: src })); // mentions 2
    exported = ok(await runCli(['export'], { home: src }));
  });

  test('export writes one memory per line to stdout, superseded history included', () => {
    const lines = parseJsonl(exported);
    assert.equal(lines.length, 3);
    assert.equal(lines.filter((m) => m.validTo !== null).length, 1);
    assert.equal(lines.find((m) => m.text === 'the wiki lives at wiki.internal').mentions, 2);
    for (const m of lines) assert.deepEqual(m.provenance[0], { source: 'cli' });
  });

  test('export -o writes the same to a file and never overwrites one', async () => {
    const dir = home();
    const file = join(dir, 'out.jsonl');
    const res = await runCli(['export', '-o', file], { home: src });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, /Exported 3 memories to /);
    assert.equal(readFileSync(file, 'utf8'), exported);
    writeFileSync(file, 'precious');
    const again = await runCli(['export', '--output', file], { home: src });
    assert.equal(again.code, 5, again.stderr);
    assert.match(again.stderr, /already exists/);
    assert.equal(readFileSync(file, 'utf8'), 'precious');
  });

  test('import of a file into a new home round-trips exactly; importing again changes nothing', async () => {
    const dir = home();
    const file = join(dir, 'dump.jsonl');
    writeFileSync(file, exported);
    const dst = home(NO_EMBEDDER);
    const report = await cliJson(['import', file, '--json'], { home: dst });
    assert.deepEqual(report, { lines: 3, imported: 3, existing: 0, merged: 0, errors: [], embedded: 0 });
    assert.equal(ok(await runCli(['export'], { home: dst })), exported);
    const again = await runCli(['import', file], { home: dst });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Read 3 lines: 0 imported, 3 already present, 0 merged into equal memories, 0 bad/);
    assert.equal(ok(await runCli(['export'], { home: dst })), exported);
    const chainEnd = parseJsonl(exported).find((m) => m.supersedes !== null);
    const chain = await cliJson(['history', chainEnd.id, '--json'], { home: dst });
    assert.equal(chain.length, 2);
  });

  test('import - reads stdin', async () => {
    const dst = home(NO_EMBEDDER);
    const res = await runCli(['import', '-'], { home: dst, input: exported });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /Read 3 lines: 3 imported/);
    assert.equal(ok(await runCli(['export'], { home: dst })), exported);
  });

  test('import --into gives fresh ids in another namespace and keeps the chain linked', async () => {
    const dst = home(NO_EMBEDDER);
    const report = await cliJson(['import', '-', '--into', 'copy', '--json'], { home: dst, input: exported });
    assert.equal(report.imported, 3);
    const copied = parseJsonl(ok(await runCli(['-n', 'copy', 'export'], { home: dst })));
    const original = parseJsonl(exported);
    assert.equal(copied.length, 3);
    for (const m of copied) {
      assert.equal(m.namespace, 'copy');
      assert.ok(!original.some((o) => o.id === m.id), 'fresh id');
    }
    const newer = copied.find((m) => m.supersedes !== null);
    assert.ok(copied.some((m) => m.id === newer.supersedes && m.supersededBy === newer.id));
    assert.equal(parseJsonl(ok(await runCli(['export'], { home: dst }))).length, 0, 'default namespace untouched');
  });
});

describe('cairn reembed', { concurrency: 2 }, () => {
  test('embeds what BM25-only stores left behind; --json shape; --force recomputes', async () => {
    const h = home(NO_EMBEDDER);
    await storeId(h, ['the on-call rotation changes on Mondays']);
    await storeId(h, ['our SLO for the API is 99.9 percent']);
    const noEmbedder = await runCli(['reembed', '--json'], { home: h });
    assert.equal(noEmbedder.code, 9, noEmbedder.stderr);
    assert.equal(json(noEmbedder.stderr.trim()).error.code, 'EMBEDDER');

    writeConfig(h, { embedder: { provider: 'use-lite' } });
    const before = await cliJson(['status', '--json'], { home: h });
    assert.equal(before.index.fresh, false);
    assert.equal(before.index.pending, 2);

    const res = await runCli(['reembed', '--json'], { home: h, nodeArgs: NO_NETWORK });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stderr, '', 'no progress bar or noise when stderr is not a terminal');
    const out = json(res.stdout);
    assert.deepEqual(Object.keys(out).sort(), ['cached', 'done', 'dropped', 'model', 'total']);
    assert.equal(out.model, 'use-lite@1');
    assert.equal(out.done, 2);
    assert.equal(out.cached, 0);
    assert.equal(out.dropped, 0);

    const after = await cliJson(['status', '--json'], { home: h });
    assert.equal(after.index.fresh, true);
    assert.equal(after.namespaces[0].vectors, 2);
    const search = await cliJson(['search', 'on-call', '--json'], { home: h, nodeArgs: NO_NETWORK });
    assert.equal(search.mode, 'hybrid');
    assert.equal(typeof search.results[0].parts.cosine, 'number');

    const idle = await cliJson(['reembed', '--json'], { home: h });
    assert.deepEqual(idle, { model: 'use-lite@1', done: 0, total: 0, cached: 0, dropped: 0 });
    const forced = await cliJson(['reembed', '--force', '--json'], { home: h });
    assert.equal(forced.done, 2);
    assert.equal(forced.cached, 2, 'unchanged texts come from the embedding cache');
    assert.equal(forced.dropped, 0, 'no vectors of other models existed');
    const human = ok(await runCli(['reembed'], { home: h }));
    assert.match(human, /^Embedded 0 entries with use-lite@1 \(0 from cache\); dropped 0 vectors of other models$/m);
  });
});

describe('help and version', { concurrency: 2 }, () => {
  const expected: Record<string, string[]> = {
    init: ['--json'],
    status: ['--json'],
    export: ['-o, --output <file>'],
    import: ['<file>', '--into <namespace>', '--json'],
    reembed: ['--force', '--json'],
    store: ['[text...]', '--text <text>', '-c, --category <category>', '-i, --importance <n>', '-t, --tag <tag>', '--event-time <time>', '--json'],
    get: ['<id>', '--json'],
    history: ['<id>', '--json'],
    supersede: ['<id>', '<text...>', '--json'],
    list: ['-l, --limit <n>', '--all', '--json'],
    search: [
      '[query...]',
      '-q, --query <text>',
      '-l, --limit <n>',
      '--since <time>',
      '--until <time>',
      '--as-of <time>',
      '-c, --category <category>',
      '-k, --kind <kind>',
      '--min-importance <n>',
      '--include-superseded',
      '--mode <mode>',
      '--explain',
      '--json',
    ],
  };

  test('every command --help exits 0 and lists its options', async () => {
    const h = home(NO_EMBEDDER);
    await Promise.all(
      Object.entries(expected).map(async ([cmd, options]) => {
        const res = await runCli([cmd, '--help'], { home: h });
        assert.equal(res.code, 0, `${cmd} --help: ${res.stderr}`);
        assert.match(res.stdout, new RegExp(`^Usage: cairn ${cmd} `), cmd);
        for (const o of options) assert.ok(res.stdout.includes(o), `${cmd} --help mentions ${o}`);
        assert.ok(res.stdout.includes('-h, --help'));
      }),
    );
    assert.deepEqual(readdirSync(h), ['config.json'], '--help opens no database');
  });

  test('top-level --help and help <cmd> list everything; no command at all is a usage error', async () => {
    const h = home(NO_EMBEDDER);
    const res = await runCli(['--help'], { home: h });
    assert.equal(res.code, 0);
    for (const o of ['--home <dir>', '-n, --namespace <ns>', '-V, --version']) assert.ok(res.stdout.includes(o), o);
    for (const cmd of Object.keys(expected)) assert.match(res.stdout, new RegExp(`^  ${cmd} `, 'm'), cmd);
    const viaHelp = await runCli(['help', 'search'], { home: h });
    assert.equal(viaHelp.code, 0);
    assert.match(viaHelp.stdout, /--min-importance <n>/);
    const bare = await runCli([], { home: h });
    assert.equal(bare.code, 2, 'no command is a usage error, not success');
    assert.match(bare.stderr, /Usage: cairn/);
  });

  test('--version prints the package version', async () => {
    const pkg = json(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-V']) {
      const res = await runCli([flag], { home: null });
      assert.equal(res.code, 0);
      assert.equal(res.stdout.trim(), pkg.version);
    }
  });
});

// Keeps the helpers honest: a failing child must fail `ok`, whatever the test around it expects.
test('ok() rejects a non-zero exit', async () => {
  const res = await runCli(['get', 'm_nope'], { home: home(NO_EMBEDDER) });
  assert.equal(res.code, 4);
  assert.throws(() => ok(res), /exited 4/);
});
