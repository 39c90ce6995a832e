// A daemon killed with -9 in the middle of its embedding backlog, then started again with no new
// transcript lines, finishes the backlog at start: every turn judged once, every entry embedded.
// The kill point is deterministic: the loopback embedding server holds a request, so the daemon
// is known to be waiting on vectors with its captures and judgments committed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { assertBuilt, cliJson, makeHome, removeHome } from '../helpers/cli.js';
import { eventually, startDaemon } from '../helpers/daemon.js';
import { FakeEmbeddingServer } from '../helpers/fake-embedder.js';

const NS = 'backlog';
const LINES = 400;

/** Counts of the namespace's work: turns, judgments, entries that should have a vector and lack one. */
// Captured records only: the daemon's catch-up consolidation at start adds digest entries (embedded
// too), which are not part of the backlog under test.
function progress(home: string, model: string): { turns: number; judged: number; memories: number; vectors: number; missing: number } {
  const db = new Database(join(home, 'cairn.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM turns WHERE namespace = @ns) AS turns,
                (SELECT COUNT(*) FROM judgments WHERE namespace = @ns) AS judged,
                (SELECT COUNT(*) FROM memories WHERE namespace = @ns) AS memories,
                (SELECT COUNT(*) FROM vectors v JOIN entries e ON e.seq = v.entry_seq
                   WHERE v.namespace = @ns AND v.model = @model AND e.kind != 'digest') AS vectors,
                (SELECT COUNT(*) FROM entries e WHERE e.namespace = @ns AND e.embed = 1 AND e.kind != 'digest'
                   AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.entry_seq = e.seq AND v.model = @model)) AS missing`,
      )
      .get({ ns: NS, model }) as { turns: number; judged: number; memories: number; vectors: number; missing: number };
  } finally {
    db.close();
  }
}

describe('cairn watch finishes a backlog left by kill -9, with no new lines', () => {
  let home: string;
  let fake: FakeEmbeddingServer;

  before(async () => {
    assertBuilt();
    fake = await FakeEmbeddingServer.start();
    home = makeHome({ embedder: fake.config(), capture: { batchLines: 100 } });
    const dir = join(home, 'transcripts');
    mkdirSync(dir);
    const lines = Array.from({ length: LINES }, (_, n) =>
      JSON.stringify({ id: `m${n}`, role: n % 2 ? 'assistant' : 'user', content: `We decided to move invoice batch ${n} to the staging queue on port ${5000 + n}.`, session: 's1', timestamp: new Date(Date.UTC(2026, 2, 2, 9, 0, n)).toISOString() }),
    );
    writeFileSync(join(dir, 'chat.jsonl'), lines.join('\n') + '\n');
    await cliJson(['-n', NS, 'sources', 'add', 'jsonl', dir, '--json'], { home });
  });

  after(async () => {
    await fake.close();
    removeHome(home);
  });

  it('embeds and judges everything pending at start', { timeout: 180_000 }, async () => {
    // The probe and two slices are answered; the third slice's request is held.
    fake.answerFirst = 3;
    const first = startDaemon(home, ['--debounce-ms', '20']);
    await eventually(async () => fake.requests.length > 3, 60_000, 20);
    first.child.kill('SIGKILL');
    assert.equal((await first.exited).signal, 'SIGKILL');
    const killed = progress(home, fake.modelId);
    assert.equal(killed.turns, LINES, 'capture came first');
    assert.equal(killed.judged, LINES, 'judging came before embedding');
    assert.ok(killed.vectors > 0 && killed.missing > 0, `killed mid-backlog: ${JSON.stringify(killed)}`);

    // No new line arrives: the backlog alone must get the second daemon working.
    fake.answerAll();
    const asked = fake.requests.length;
    const second = startDaemon(home, ['--debounce-ms', '20']);
    try {
      await second.waitFor(/cairn watch started/, 60_000);
      const done = await eventually(async () => {
        const p = progress(home, fake.modelId);
        return p.missing === 0 ? p : null;
      }, 90_000, 100);
      assert.ok(fake.requests.length > asked, 'the restarted daemon embedded');
      assert.equal(done.turns, LINES, 'nothing captured twice');
      assert.equal(done.judged, LINES, 'every turn judged once');
      assert.equal(done.vectors, killed.vectors + killed.missing, 'every entry has its vector, none twice');
      assert.equal(done.memories, killed.memories);
    } finally {
      second.child.kill('SIGTERM');
      assert.equal((await second.exited).code, 0);
    }
  });
});
