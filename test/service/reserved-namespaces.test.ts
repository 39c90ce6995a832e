// Reserved namespaces (issue 30 item 15): no namespace takes the name of one of the data
// directory's own files or folders (a namespace "cairn.sock" would stop the daemon's socket, one
// named "cache" would share the model cache's folder), and one stored under such a name by an
// older Cairn is renamed on open with its files.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { RESERVED_NAMESPACES, namespaceFromName, parseNamespace } from '../../src/core/namespace.js';
import { rejectsCode } from '../helpers/store-fixtures.js';
import { cliJson, runCli, tempHomes } from '../helpers/cli.js';

describe('reserved namespaces', () => {
  it('every name the data directory uses for itself is reserved, and names made from outside avoid them', async () => {
    for (const name of ['cairn.sock', 'cache', 'backups', 'index', 'logs', 'run', 'cairn.db', 'cairn.db-wal', 'config.json', 'cairn.lock']) {
      await rejectsCode(() => parseNamespace(name), 'INVALID_NAMESPACE', /reserved/);
      const made = namespaceFromName(name);
      assert.ok(made !== null && !RESERVED_NAMESPACES.has(made), `${name} → ${made}`);
      assert.equal(parseNamespace(made), made);
    }
    assert.equal(namespaceFromName('cache'), 'cache-ns');
    assert.equal(namespaceFromName('cairn.sock'), 'cairn.sock-ns');
    for (const fine of ['caches', 'my-cache', 'cairn', 'cairnsock', 'backup', 'runs', 'cache-ns', 'cairn.sock-ns']) assert.equal(parseNamespace(fine), fine);
  });
});

describe('reserved namespaces: CLI and existing homes', () => {
  const home = tempHomes();

  it('-n cairn.sock / -n cache is refused with exit 3 and a message naming the reserved name', async () => {
    const h = home();
    for (const ns of ['cairn.sock', 'cache', 'backups']) {
      const res = await runCli(['-n', ns, 'store', 'hello there'], { home: h });
      assert.equal(res.code, 3, res.stderr);
      assert.match(res.stderr, new RegExp(`Namespace "${ns.replace('.', '\\.')}" is reserved`));
    }
    assert.ok(!existsSync(join(h, 'cache')) && !existsSync(join(h, 'cairn.sock')), 'nothing made on disk');
  });

  it('a namespace an older Cairn stored under a now reserved name is renamed on open, its files moved, once', async () => {
    const h = home();
    await cliJson(['-n', 'work', 'store', 'the work memory', '--json'], { home: h });
    await cliJson(['-n', 'work', 'state', 'set', '--objective', 'keep working', '--json'], { home: h });
    // What an older Cairn could write: namespaces named cache and cairn.sock, with their folders.
    const db = new Database(join(h, 'cairn.db'));
    for (const ns of ['cache', 'cairn.sock']) {
      db.prepare("INSERT INTO namespaces (id, created_at) VALUES (?, '2026-01-01T00:00:00.000Z')").run(ns);
      db.prepare('INSERT INTO hot_state (namespace, state, updated_at) VALUES (?, ?, ?)').run(ns, JSON.stringify({ objective: `obj ${ns}` }), '2026-01-01T00:00:00.000Z');
      db.prepare("INSERT INTO memories (id, namespace, text, dedup_key, category, importance, created_at, updated_at, valid_from) VALUES (?, ?, ?, ?, 'fact', 5, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')").run(`m_old${ns.replace('.', '')}`, ns, `memory of ${ns}`, `k-${ns}`);
      mkdirSync(join(h, ns, 'raw'), { recursive: true });
      writeFileSync(join(h, ns, 'SESSION-STATE.md'), `# state of ${ns}\n`);
      writeFileSync(join(h, ns, 'raw', 'realtime-2026-01-01.md'), `# raw ${ns}\n`);
    }
    db.prepare('INSERT INTO api_tokens (id, hash, namespaces, created_at) VALUES (?, ?, ?, ?)').run('tok_a', 'h'.repeat(64), JSON.stringify(['cache', 'work']), '2026-01-01T00:00:00.000Z');
    db.close();
    writeFileSync(join(h, 'cache', 'use-lite-graph.onnx'), 'model cache file');

    const first = await runCli(['status', '--json'], { home: h });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /namespace "cache" .*renamed to "cache-ns"/);
    assert.match(first.stderr, /namespace "cairn\.sock" .*renamed to "cairn\.sock-ns"/);
    const names = (JSON.parse(first.stdout) as { namespaces: Array<{ namespace: string }> }).namespaces.map((n) => n.namespace);
    assert.deepEqual(names.sort(), ['cache-ns', 'cairn.sock-ns', 'work']);
    const second = await runCli(['status', '--json'], { home: h });
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stderr, /renamed/, 'said once');

    for (const ns of ['cache', 'cairn.sock']) {
      const moved = `${ns}-ns`;
      const list = await cliJson<Array<{ text: string }>>(['-n', moved, 'list', '--json'], { home: h });
      assert.deepEqual(list.map((m) => m.text).sort(), [`memory of ${ns}`]);
      const state = await cliJson<{ objective: string }>(['-n', moved, 'state', 'get', '--json'], { home: h });
      assert.equal(state.objective, `obj ${ns}`);
      assert.equal(readFileSync(join(h, moved, 'SESSION-STATE.md'), 'utf8'), `# state of ${ns}\n`);
      assert.equal(readFileSync(join(h, moved, 'raw', 'realtime-2026-01-01.md'), 'utf8'), `# raw ${ns}\n`);
    }
    assert.ok(!existsSync(join(h, 'cairn.sock')), 'the folder that blocked the socket is gone');
    assert.equal(readFileSync(join(h, 'cache', 'use-lite-graph.onnx'), 'utf8'), 'model cache file', 'the model cache stays');
    assert.ok(!existsSync(join(h, 'cache', 'SESSION-STATE.md')));
    const tokens = await cliJson<Array<{ id: string; namespaces: string[] }>>(['tokens', 'list', '--json'], { home: h });
    assert.deepEqual(tokens.find((t) => t.id === 'tok_a')?.namespaces, ['cache-ns', 'work']);
  });
});
