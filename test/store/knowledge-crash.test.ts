// kill -9 in the middle of a knowledge batch (store applyKnowledge): a child process applies a batch
// and stops itself at the crash point 'knowledge-mid-batch' (src/core/crash-points.ts), half of the
// batch written inside its transaction; the test kills it there. Nothing of the batch may remain —
// no entity, alias, mention, name, fact, retirement, and the cursor where it was — and the same
// batch applied afterwards is written whole. Runs the built store (npm run build) like the CLI tests.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { KnowledgeBatch } from '../../src/store/store.js';
import { childEnv, HANG_GUARD_MS, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/store-fixtures.js';

const tmp = tempDir('cairn-knowledge-crash-');
after(() => tmp.cleanup());
const NS = 'work';
const NOW = '2026-02-01T00:00:00.000Z';
const STORE_JS = pathToFileURL(join(ROOT, 'dist', 'store', 'sqlite', 'sqlite-store.js')).href;

/** The child: opens the store, applies the batch given as JSON in argv, prints the result. */
const CHILD = `
const { SqliteStore } = await import(process.argv[1]);
const store = new SqliteStore(process.argv[2]);
const res = await store.applyKnowledge(JSON.parse(process.argv[3]));
await store.close();
process.stdout.write(JSON.stringify(res));
`;

function runChild(dbPath: string, batch: KnowledgeBatch, pause: string | undefined): Promise<{ killed: boolean; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, STORE_JS, dbPath, JSON.stringify(batch)], {
      cwd: ROOT,
      env: childEnv(null, { CAIRN_TEST_PAUSE: pause }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    let out = '';
    const guard = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (pause && err.includes(`cairn-test-pause ${pause.replace(':', ' ')}\n`)) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      if (pause && signal === 'SIGKILL' && err.includes('cairn-test-pause')) resolve({ killed: true, out });
      else if (!pause && code === 0) resolve({ killed: false, out });
      else reject(new Error(`child ended (${code}, ${signal})\n${err}`));
    });
  });
}

describe('kill -9 during a knowledge batch', () => {
  it('leaves nothing of the batch; the same batch applied again is written whole', async () => {
    const dbPath = join(tmp.dir, 'cairn.db');
    const store = new SqliteStore(dbPath);
    const { inserted } = await store.addTurns([{ namespace: NS, sessionId: 's', messageId: '1', role: 'user', text: 'staging is on port 5433', timestamp: NOW }]);
    const old = (await store.addMemory({ namespace: NS, text: 'Staging runs on port 5433', provenance: [{ turnIds: [inserted[0]!.id] }] })).memory;
    const next = (await store.addMemory({ namespace: NS, text: 'Staging moved to port 6543' })).memory;
    const dup = (await store.addMemory({ namespace: NS, text: 'Staging now listens on 6543' })).memory;
    const memoriesBefore = await store.listMemories({ namespace: NS, includeSuperseded: true });
    const currentBefore = await store.filterEntries(NS, {}, 100);
    await store.close();

    const batch: KnowledgeBatch = {
      namespace: NS, expectCursor: 0, cursor: 3, now: NOW,
      entities: [{ id: 'e_staging', name: 'Staging', slug: 'staging', type: 'project', relation: null }],
      entityUpdates: [],
      aliases: [{ key: 'staging', entityId: 'e_staging', display: 'Staging' }],
      mentions: [old, next, dup].map((m) => ({ entityId: 'e_staging', memoryId: m.id })),
      memoryEntities: [old, next, dup].map((m) => ({ memoryId: m.id, entities: ['Staging'] })),
      facts: [
        { id: 'f_old', namespace: NS, subject: 'staging', subjectName: 'Staging', entityId: 'e_staging', attribute: 'port', value: '5433', memoryId: old.id,
          validFrom: NOW, validTo: NOW, recordedAt: NOW, confidence: 0.9, supersededBy: 'f_new', mentions: 1, extractor: 'offline@1', provenance: [] },
        { id: 'f_new', namespace: NS, subject: 'staging', subjectName: 'Staging', entityId: 'e_staging', attribute: 'port', value: '6543', memoryId: next.id,
          validFrom: NOW, validTo: null, recordedAt: NOW, confidence: 0.9, supersededBy: null, mentions: 1, extractor: 'offline@1', provenance: [] },
      ],
      factUpdates: [],
      retirements: [
        { memoryId: old.id, by: next.id, validTo: NOW, reason: 'superseded' },
        { memoryId: dup.id, by: next.id, validTo: NOW, reason: 'duplicate' },
      ],
    };

    const killed = await runChild(dbPath, batch, 'knowledge-mid-batch:1');
    assert.equal(killed.killed, true);
    const after1 = new SqliteStore(dbPath);
    try {
      assert.equal(await after1.knowledgeCursor(NS), 0);
      assert.deepEqual(await after1.listEntities(NS), []);
      assert.equal((await after1.entitiesByAliasKeys(NS, ['staging'])).size, 0);
      assert.deepEqual(await after1.listFacts(NS, { includeSuperseded: true }), []);
      assert.deepEqual(await after1.listMemories({ namespace: NS, includeSuperseded: true }), memoriesBefore, 'no name, retirement or merged mention');
      assert.deepEqual(await after1.filterEntries(NS, {}, 100), currentBefore, 'every entry still current');
      assert.equal((await after1.health({ integrity: true })).ok, true);
    } finally {
      await after1.close();
    }

    const redo = await runChild(dbPath, batch, undefined);
    assert.deepEqual(JSON.parse(redo.out), { applied: true, cursor: 3 });
    const after2 = new SqliteStore(dbPath);
    try {
      assert.equal(await after2.knowledgeCursor(NS), 3);
      assert.deepEqual((await after2.listEntities(NS)).map((e) => [e.entity.id, e.stats.memories]), [['e_staging', 3]]);
      assert.deepEqual((await after2.listFacts(NS, { includeSuperseded: true })).map((f) => f.id).sort(), ['f_new', 'f_old']);
      const survivor = (await after2.getMemory(NS, next.id))!;
      assert.deepEqual([survivor.mentions, survivor.entities, survivor.supersedes], [2, ['Staging'], old.id]);
      assert.deepEqual(await after2.filterEntries(NS, {}, 100), [(await after2.entryFor('memory', next.id))!.seq]);
    } finally {
      await after2.close();
    }
  });
});
