// `cairn ingest` killed with -9 mid-run and run again: the second run finds no new lines but
// finishes what the first left (turns not judged, entries without vectors) and says so. Kill
// points are deterministic: a loopback LLM judge or embedding server holds a request, so the
// first run is known to be waiting on judging or on vectors with everything before committed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CLI, ROOT, assertBuilt, childEnv, cliJson, makeHome, ok, removeHome, runCli } from '../helpers/cli.js';
import { eventually } from '../helpers/daemon.js';
import { FakeEmbeddingServer } from '../helpers/fake-embedder.js';
import { FakeLlmServer, reply } from '../helpers/fake-llm.js';
import { judgePrompt, judgmentsJson } from '../helpers/fake-judge.js';

const LINES = 200;

function writeTranscript(path: string): void {
  const lines = Array.from({ length: LINES }, (_, n) =>
    JSON.stringify({ id: `m${n}`, role: n % 2 ? 'assistant' : 'user', content: `We decided to move invoice batch ${n} to the staging queue on port ${5000 + n}.`, session: 's1', timestamp: new Date(Date.UTC(2026, 2, 2, 9, 0, n)).toISOString() }),
  );
  writeFileSync(path, lines.join('\n') + '\n');
}

function progress(home: string, ns: string, model: string): { turns: number; judged: number; missing: number } {
  const db = new Database(join(home, 'cairn.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM turns WHERE namespace = @ns) AS turns,
                (SELECT COUNT(*) FROM judgments WHERE namespace = @ns) AS judged,
                (SELECT COUNT(*) FROM entries e WHERE e.namespace = @ns AND e.embed = 1
                   AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.entry_seq = e.seq AND v.model = @model)) AS missing`,
      )
      .get({ ns, model }) as { turns: number; judged: number; missing: number };
  } finally {
    db.close();
  }
}

/** Starts `cairn ingest`, waits until `killPoint` holds, kills it with -9. */
async function ingestKilledAt(home: string, args: string[], killPoint: () => boolean): Promise<void> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: childEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
  try {
    await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`ingest exited ${child.exitCode} before the kill point: ${output}`);
      return killPoint();
    }, 60_000, 10);
  } finally {
    child.kill('SIGKILL');
  }
  assert.equal(await exited, 'SIGKILL', output);
}

describe('cairn ingest finishes the backlog an earlier, killed run left', () => {
  let embedder: FakeEmbeddingServer;
  let llm: FakeLlmServer;
  const homes: string[] = [];

  before(async () => {
    assertBuilt();
    embedder = await FakeEmbeddingServer.start();
    llm = await FakeLlmServer.start();
  });
  after(async () => {
    await embedder.close();
    await llm.close();
    for (const h of homes) removeHome(h);
  });

  it('killed while an LLM judges: the re-run judges and embeds what is pending ("0 new turns; judged … pending")', { timeout: 120_000 }, async () => {
    const home = makeHome({
      embedder: embedder.config(),
      judge: { llm: { provider: 'openai', baseUrl: llm.baseUrl('openai'), model: 'fake-judge', maxRetries: 0, timeoutMs: 120_000 }, batchSize: 20 },
    });
    homes.push(home);
    const file = join(home, 'chat.jsonl');
    writeTranscript(file);
    let answered = 0;
    llm.respond = (req) => {
      if (answered >= 3) return reply.hang();
      answered++;
      return reply.answer(judgmentsJson(judgePrompt(req).turns.map(() => ({ importance: 7, category: 'decision', statement: null }))));
    };
    const args = ['-n', 'killed-judging', 'ingest', file, '-f', 'jsonl'];
    await ingestKilledAt(home, args, () => llm.requests.length > 3);
    const killed = progress(home, 'killed-judging', embedder.modelId);
    assert.equal(killed.turns, LINES, 'capture committed before judging');
    assert.ok(killed.judged > 0 && killed.judged < LINES, `killed mid-judging: ${JSON.stringify(killed)}`);
    assert.ok(killed.missing > 0);

    answered = -Infinity; // the LLM answers everything from now on
    const again = await runCli(args, { home, timeoutMs: 120_000 });
    const out = ok(again);
    const pendingTurns = LINES - killed.judged;
    assert.match(out, new RegExp(`^0 new turns in namespace killed-judging; judged ${pendingTurns} pending, embedded \\d+ pending$`, 'm'), out);
    const done = progress(home, 'killed-judging', embedder.modelId);
    assert.deepEqual(done, { turns: LINES, judged: LINES, missing: 0 });

    // Nothing left: a third run has nothing to report beyond its (zero) new turns.
    const third = await cliJson([...args, '--json'], { home });
    assert.deepEqual([third.turnsInserted, third.judged, third.embedded, third.backlog], [0, 0, 0, { judged: 0, embedded: 0 }]);
  });

  it('killed while embedding: the re-run embeds what is pending and reports it in --json', { timeout: 120_000 }, async () => {
    const home = makeHome({ embedder: embedder.config() });
    homes.push(home);
    const file = join(home, 'chat.jsonl');
    writeTranscript(file);
    // The probe and one batch answered; the next batch is held.
    const before = embedder.requests.length;
    embedder.answerFirst = before + 2;
    const args = ['-n', 'killed-embedding', 'ingest', file, '-f', 'jsonl'];
    await ingestKilledAt(home, args, () => embedder.requests.length > before + 2);
    const killed = progress(home, 'killed-embedding', embedder.modelId);
    assert.equal(killed.turns, LINES);
    assert.equal(killed.judged, LINES, 'the heuristic judged everything before embedding began');
    assert.ok(killed.missing > 0, JSON.stringify(killed));

    embedder.answerAll();
    const res = await cliJson([...args, '--json'], { home, timeoutMs: 120_000 });
    assert.equal(res.turnsInserted, 0);
    assert.equal(res.judged, 0);
    assert.deepEqual(res.backlog, { judged: 0, embedded: killed.missing });
    assert.equal(res.embedded, killed.missing);
    assert.equal(progress(home, 'killed-embedding', embedder.modelId).missing, 0);
  });
});
