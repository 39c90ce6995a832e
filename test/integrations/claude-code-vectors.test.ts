// A user with Claude Code hooks and no daemon gets vectors: the capture hooks embed the session
// namespace's pending entries in bounded steps (Stop only once enough wait; PreCompact and
// SessionEnd whatever waits), and leave them to a running daemon. Real CLI processes fed hook
// JSON, a loopback embedding server, the SQLite file read directly.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { HOOK_EMBED_LIMIT, STOP_EMBED_MIN } from '../../src/integrations/claude-code/hook.js';
import { assertBuilt, makeHome, removeHome, runCli } from '../helpers/cli.js';
import { FakeEmbeddingServer } from '../helpers/fake-embedder.js';

const SESSION = '9d2f0c1e-5b7a-4c3e-8f61-2a4b6c8d0e1f';
const CWD = '/tmp/vecproj';
const NS = 'tmp-vecproj';

let uuid = 0;
/** A user line as Claude Code writes it (captured at once: nothing is held open for it). */
function userLine(text: string): string {
  uuid++;
  return JSON.stringify({ parentUuid: null, isSidechain: false, userType: 'external', cwd: CWD, sessionId: SESSION, version: '2.1.37', uuid: `u-${uuid}`, timestamp: new Date(Date.UTC(2026, 1, 18, 11, 0, uuid)).toISOString(), type: 'user', message: { role: 'user', content: text } }) + '\n';
}

function userLines(count: number, topic: string): string {
  return Array.from({ length: count }, (_, i) => userLine(`We decided the ${topic} job ${i} runs on port ${6000 + i} from Monday.`)).join('');
}

describe('Claude Code hooks without a daemon: captured turns get vectors', () => {
  let home: string;
  let fake: FakeEmbeddingServer;
  let transcript: string;
  let env: Record<string, string>;

  const vectors = (): { vectors: number; missing: number } => {
    const db = new Database(join(home, 'cairn.db'), { readonly: true, fileMustExist: true });
    try {
      return db
        .prepare(
          `SELECT (SELECT COUNT(*) FROM vectors WHERE namespace = @ns AND model = @model) AS vectors,
                  (SELECT COUNT(*) FROM entries e WHERE e.namespace = @ns AND e.embed = 1
                     AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.entry_seq = e.seq AND v.model = @model)) AS missing`,
        )
        .get({ ns: NS, model: fake.modelId }) as { vectors: number; missing: number };
    } finally {
      db.close();
    }
  };

  async function hook(event: string, args: string[] = []): Promise<string> {
    const input = JSON.stringify({ session_id: SESSION, transcript_path: transcript, cwd: CWD, hook_event_name: event });
    const res = await runCli(['hook', 'claude-code', '--verbose', ...args], { home, env, input, timeoutMs: 60_000 });
    assert.equal(res.code, 0);
    assert.doesNotMatch(res.stderr, /warning|error/i, res.stderr);
    return res.stderr;
  }

  before(async () => {
    assertBuilt();
    fake = await FakeEmbeddingServer.start();
    home = makeHome({ embedder: fake.config() });
    const projects = join(home, 'claude', 'projects', '-tmp-vecproj');
    mkdirSync(projects, { recursive: true });
    transcript = join(projects, `${SESSION}.jsonl`);
    env = { HOME: join(home, 'fake-home'), CLAUDE_CONFIG_DIR: join(home, 'claude') };
  });
  after(async () => {
    await fake.close();
    removeHome(home);
  });

  it('Stop leaves a few entries for later; SessionEnd embeds them', async () => {
    writeFileSync(transcript, userLines(3, 'invoice'));
    const stop = await hook('Stop');
    assert.match(stop, /Stop: 3 new turns .* in namespace tmp-vecproj\n$/, 'no embedding clause');
    assert.equal(fake.requests.length, 0, 'fewer than STOP_EMBED_MIN entries wait: the model is not loaded after a response');
    const waiting = vectors();
    assert.ok(waiting.missing > 0 && waiting.missing < STOP_EMBED_MIN, JSON.stringify(waiting));

    const end = await hook('SessionEnd');
    assert.match(end, new RegExp(`SessionEnd: 0 new turns .*\\(final\\); embedded ${waiting.missing}\\n$`));
    assert.deepEqual(vectors(), { vectors: waiting.missing, missing: 0 });
  });

  it(`Stop embeds once ${STOP_EMBED_MIN} entries wait, at most ${HOOK_EMBED_LIMIT} per hook; the next capture hook goes on`, async () => {
    appendFileSync(transcript, userLines(HOOK_EMBED_LIMIT, 'ledger'));
    const before = vectors();
    const stop = await hook('Stop');
    const after1 = vectors();
    assert.equal(after1.vectors - before.vectors, HOOK_EMBED_LIMIT, 'one bounded step');
    assert.ok(after1.missing > 0, 'more waited than one step takes');
    assert.match(stop, new RegExp(`Stop: ${HOOK_EMBED_LIMIT} new turns .*; embedded ${HOOK_EMBED_LIMIT} \\(${after1.missing} still without vectors\\)\\n$`));

    const compact = await hook('PreCompact');
    assert.match(compact, /PreCompact: 0 new turns .*; embedded \d+\n$/);
    assert.equal(vectors().missing, 0);
  });

  it('leaves vectors to a running daemon, unless --embed', async () => {
    // A live process holds the daemon's lock (this test's own pid: certainly alive).
    const lock = join(home, 'run', 'daemon.lock');
    mkdirSync(join(home, 'run'), { recursive: true });
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString() }) + '\n');
    try {
      appendFileSync(transcript, userLines(2, 'refund'));
      const asked = fake.requests.length;
      await hook('SessionEnd');
      assert.equal(fake.requests.length, asked, 'the daemon embeds them at its next rescan');
      assert.ok(vectors().missing > 0);

      const forced = await hook('SessionEnd', ['--embed']);
      assert.match(forced, /; embedded \d+\n$/);
      assert.equal(vectors().missing, 0);
    } finally {
      rmSync(lock, { force: true });
    }
  });
});
