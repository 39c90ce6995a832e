// Search sees the pyramid (issue 24): a digest put through the store is found like everything else,
// with its path and the records it cites, and `--layer` / `layer` filters by layer through the real
// CLI (child processes), the HTTP API (loopback server) and the MCP server (stdio, the built CLI).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { NewDigest } from '../../src/core/types.js';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';
import { loopbackServer, send } from '../helpers/http-loopback.js';
import { callFails, callOk, stdioClient } from '../mcp/helpers.js';

const newHome = tempHomes();
const DAY = '2026-01-10T06:00:00.000Z';

interface Seeded {
  home: string;
  memoryId: string;
  turnId: string;
  /** Digest id → the ref id of its first section entry (what search returns). */
  review: string;
  daily: string;
}

function digest(kind: NewDigest['kind'], path: string, heading: string, text: string, cites: Array<{ kind: 'memory' | 'turn'; id: string }>): NewDigest {
  return {
    namespace: 'default', kind, path, periodStart: DAY, periodEnd: '2026-01-11T06:00:00.000Z',
    text: `# ${path}\n\n## ${heading}\n${text}\n`, sections: [{ heading, text, sources: cites.map((c) => ({ ...c, time: DAY })) }],
    inputsHash: 'h', generator: 'extractive@1',
  };
}

/** A home with one memory, one turn, a review (layer 2) and a daily note (layer 3), all about ospreys. */
async function seed(): Promise<Seeded> {
  const home = newHome();
  const memoryId = (await cliJson(['store', 'We decided the osprey migration goes first', '--json'], { home })).memory.id as string;
  const chat = join(home, 'chat.jsonl');
  writeFileSync(chat, JSON.stringify({ role: 'user', content: 'what about the osprey nests', id: 'a1', session: 's', timestamp: '2026-01-10T09:00:00Z' }) + '\n');
  ok(await runCli(['ingest', chat, '-f', 'jsonl'], { home }));
  const store = new SqliteStore(join(home, 'cairn.db'));
  try {
    const [turn] = (await store.turnsAfter('default', 0, 10)).map((t) => t.turn).filter((t) => t.text.includes('osprey'));
    const review = await store.putDigest(digest('review', 'reviews/2026-01-10.md', 'Decisions', `- 09:10 osprey migration goes first \`${memoryId}\``, [{ kind: 'memory', id: memoryId }]));
    const daily = await store.putDigest(digest('daily', 'daily/2026-01-10.md', 'Chat', `- 09:00 osprey nests asked about \`${turn!.id}\``, [{ kind: 'turn', id: turn!.id }]));
    return { home, memoryId, turnId: turn!.id, review: `${review.digest.id}#0`, daily: `${daily.digest.id}#0` };
  } finally {
    await store.close();
  }
}

describe('search and the layers (CLI)', () => {
  let s: Seeded;
  before(async () => {
    s = await seed();
  });
  const ids = async (...args: string[]) => ((await cliJson(['search', 'osprey', ...args, '--json'], { home: s.home })).results as Array<{ id: string }>).map((r) => r.id).sort();

  it('cairn search --kind digest finds a digest section with its path, heading and cited records, at neutral importance', async () => {
    const out = await cliJson(['search', 'osprey', 'migration', '--kind', 'digest', '--json'], { home: s.home });
    const hit = out.results.find((r: { id: string }) => r.id === s.review);
    assert.ok(hit, JSON.stringify(out.results.map((r: { id: string }) => r.id)));
    assert.equal(hit.kind, 'digest');
    assert.equal(hit.text, `Decisions\n- 09:10 osprey migration goes first \`${s.memoryId}\``);
    assert.equal(hit.importance, null);
    assert.equal(hit.parts.importance, 1, 'no judged importance: neither pushed up nor down');
    assert.deepEqual(hit.provenance, [{ source: 'cairn', path: 'reviews/2026-01-10.md', heading: 'Decisions', turnIds: [], memoryIds: [s.memoryId] }]);
    const human = ok(await runCli(['search', 'osprey', 'migration', '--layer', '2'], { home: s.home }));
    assert.match(human, /\[digest\] 2026-01-10 {2}g_[0-9a-f]{32}#0\n.*osprey migration.*\n {3}source: cairn · reviews\/2026-01-10\.md · cites 1$/m);
  });

  it('a plain search leaves digests out; --layer keeps the layers named: 2 the review, 3 the daily note and the memory, 4 the turn, 1,2 no turns', async () => {
    assert.deepEqual(await ids(), [s.memoryId, s.turnId].sort(), 'digests repeat what memories and turns say');
    assert.deepEqual(await ids('--layer', '1,2,3,4'), [s.daily, s.memoryId, s.review, s.turnId].sort());
    assert.deepEqual(await ids('--layer', '2'), [s.review]);
    assert.deepEqual(await ids('--layer', '3'), [s.daily, s.memoryId].sort());
    assert.deepEqual(await ids('--layer', '4'), [s.turnId]);
    assert.deepEqual(await ids('--layer', '1,2'), [s.review]);
    assert.deepEqual(await ids('--layer', '1'), []);
    assert.deepEqual(await ids('--layer', '2', '--layer', '4'), [s.review, s.turnId].sort());
    assert.deepEqual(await ids('--layer', '3', '--kind', 'digest'), [s.daily]);
  });

  it('an unknown layer is refused with what the layers are', async () => {
    for (const bad of ['5', '0', 'two', '2,x', '1.5', '']) {
      const res = await runCli(['search', 'osprey', '--layer', bad], { home: s.home });
      assert.equal(res.code, 3, `${bad}: ${res.stderr}`);
      assert.match(res.stderr, /--layer must be 1 \(MEMORY\.md\), 2 \(reviews, weeks, topics\), 3 .* or 4 \(conversation turns\)/);
      assert.equal(res.stdout, '');
    }
  });
});

describe('search and the layers (HTTP, MCP)', () => {
  let s: Seeded;
  before(async () => {
    s = await seed();
  });

  it('HTTP: POST layers and GET ?layer= filter alike; an unknown layer is a 400 naming the layers', async () => {
    const cairn = await Cairn.open({ home: s.home });
    const server = await loopbackServer(cairn, true);
    try {
      const post = await send(server.base, 'POST', '/v1/namespaces/default/search', { query: 'osprey', layers: [1, 2] });
      assert.equal(post.status, 200, post.text);
      assert.deepEqual(post.body.results.map((r: { id: string }) => r.id), [s.review]);
      assert.equal(post.body.results[0].provenance[0].path, 'reviews/2026-01-10.md');
      const get = await send(server.base, 'GET', '/v1/namespaces/default/search?q=osprey&layer=3,4');
      assert.equal(get.status, 200, get.text);
      assert.deepEqual(get.body.results.map((r: { id: string }) => r.id).sort(), [s.daily, s.memoryId, s.turnId].sort());
      const openclaw = await send(server.base, 'POST', '/v1/namespaces/default/search', { query: 'osprey', layers: [2], format: 'openclaw' });
      assert.deepEqual(openclaw.body.results.map((r: { path: string }) => r.path), ['reviews/2026-01-10.md']);
      for (const [method, path, body] of [
        ['POST', '/v1/namespaces/default/search', { query: 'osprey', layers: [5] }],
        ['POST', '/v1/namespaces/default/search', { query: 'osprey', layers: ['2'] }],
        ['GET', '/v1/namespaces/default/search?q=osprey&layer=2,9', undefined],
        ['GET', '/v1/namespaces/default/search?q=osprey&layer=top', undefined],
      ] as const) {
        const res = await send(server.base, method, path, body);
        assert.equal(res.status, 400, `${path} ${JSON.stringify(body)}: ${res.text}`);
        assert.match(res.body.error.message, /a layer is 1 \(MEMORY\.md\)/);
      }
    } finally {
      await server.close();
      await cairn.close();
    }
  });

  it('MCP: memory_search takes a layer or a list of layers; an unknown one fails', async () => {
    const { client, close } = await stdioClient(s.home, 'default');
    try {
      const one = await callOk(client, 'memory_search', { query: 'osprey', layer: 2 });
      assert.deepEqual(one.results.map((r: { id: string }) => r.id), [s.review]);
      assert.equal(one.results[0].path, 'reviews/2026-01-10.md');
      assert.deepEqual(one.results[0].provenance[0].memoryIds, [s.memoryId]);
      const many = await callOk(client, 'memory_search', { query: 'osprey', layer: [3, 4] });
      assert.deepEqual(many.results.map((r: { id: string }) => r.id).sort(), [s.daily, s.memoryId, s.turnId].sort());
      await callFails(client, 'memory_search', { query: 'osprey', layer: 7 }, /layer/);
    } finally {
      await close();
    }
  });
});

