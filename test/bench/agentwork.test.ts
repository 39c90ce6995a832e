// The agent-work dev set: generated deterministically, read by real capture into the turns the
// set lists (same messageIds), every question's evidence captured and holding its answer, and no
// question that merely repeats its evidence's words.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Cairn } from '../../src/service/cairn.js';
import { isStopWord, tokenize } from '../../src/search/query-terms.js';
import { loadAgentWork } from '../../bench/agentwork/devset.js';
import { namespaceOf } from '../../bench/eval/devset.js';
import { generate, generateProject } from '../../bench/agentwork/generate.js';
import { a, u, type Project } from '../../bench/agentwork/script.js';
import { PROJECTS } from '../../bench/agentwork/projects.js';

const CATEGORIES = ['decision', 'root-cause', 'config-value', 'command', 'location', 'preference', 'temporal', 'multi-hop', 'changed-value'];
interface CapturedTurn {
  role: string;
  text: string;
  session: string;
}

const contentWords = (text: string) => new Set(tokenize(text).filter((w) => !isStopWord(w) && (w.length > 2 || /\d/.test(w))));

describe('agent-work dev set', () => {
  const set = loadAgentWork();
  const find = generate().conversations.map((c) => c.find);
  let dir: string;
  let captured: Map<string, Map<string, CapturedTurn>>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-agentwork-'));
    const transcripts = set.writeTranscripts(join(dir, 'transcripts'));
    const cairn = await Cairn.open({ home: join(dir, 'home'), config: { embedder: { provider: 'none' } } });
    try {
      for (const c of set.conversations) {
        const t = transcripts.get(c.id)!;
        assert.equal(t.format, 'claude-code');
        // As the evaluation ingests (no final flush): every response must be complete without one.
        assert.equal(namespaceOf(c), c.id, 'conversation ids are namespaces as they are');
        const res = await cairn.ingest([t.path], { format: t.format, namespace: c.id });
        assert.deepEqual(res.files[0]?.report?.issues ?? [], [], `${c.id}: capture found malformed lines`);
      }
    } finally {
      await cairn.close();
    }
    const db = new Database(join(dir, 'home', 'cairn.db'), { readonly: true });
    captured = new Map();
    for (const row of db.prepare('SELECT namespace, session_id, message_id, role, text FROM turns').all() as Array<Record<string, string>>) {
      const ns = captured.get(row.namespace!) ?? new Map<string, CapturedTurn>();
      ns.set(row.message_id!, { role: row.role!, text: row.text!, session: row.session_id! });
      captured.set(row.namespace!, ns);
    }
    db.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('has the size and shape the brief asks for', () => {
    const turns = set.conversations.reduce((n, c) => n + c.turns.length, 0);
    const questions = set.conversations.flatMap((c) => c.questions);
    assert.ok(set.conversations.length >= 6 && set.conversations.length <= 8, `${set.conversations.length} conversations`);
    assert.ok(turns >= 1500 && turns <= 3000, `${turns} turns`);
    assert.ok(questions.length >= 120, `${questions.length} questions`);
    for (const q of questions) {
      assert.ok(CATEGORIES.includes(q.category), q.category);
      assert.ok(q.evidence.length > 0 && q.answer, q.question);
    }
    for (const cat of CATEGORIES) assert.ok(questions.filter((q) => q.category === cat).length >= 5, `few ${cat} questions`);
    for (const c of set.conversations) {
      assert.ok(new Set(c.turns.map((t) => t.sessionId)).size >= 5, `${c.id}: few sessions`);
      const days = c.turns.map((t) => Date.parse(t.timestamp));
      assert.ok(Math.max(...days) - Math.min(...days) > 21 * 86_400_000, `${c.id} spans less than three weeks`);
    }
    const long = set.conversations.flatMap((c) => c.turns).filter((t) => t.role === 'assistant' && t.text.length >= 1000);
    assert.ok(long.length >= 40, `${long.length} assistant messages of 1k+ characters`);
  });

  it('is deterministic: the same seed gives the same bytes, another seed other ids', () => {
    assert.equal(loadAgentWork().sha256, set.sha256);
    assert.match(set.sha256, /^[0-9a-f]{64}$/);
    assert.notEqual(loadAgentWork(30).sha256, set.sha256);
    assert.match(set.source, /generate\.ts seed 29/);
  });

  it('capture makes exactly the turns the set lists, with the same ids, sessions, roles and text', () => {
    for (const c of set.conversations) {
      const got = captured.get(c.id);
      assert.ok(got, `${c.id}: nothing captured`);
      assert.deepEqual([...got.keys()].sort(), c.turns.map((t) => t.id).sort(), `${c.id}: captured ids differ`);
      for (const t of c.turns) {
        const row: CapturedTurn = got.get(t.id)!;
        assert.equal(row.role, t.role, t.id);
        assert.equal(row.session, t.sessionId, t.id);
        assert.equal(row.text, t.text, `${c.id} ${t.id}: the set's text is not what capture made`);
      }
    }
  });

  it("every question's evidence is a captured turn that still holds the answer's key strings", () => {
    set.conversations.forEach((c, ci) => {
      const got = captured.get(c.id)!;
      c.questions.forEach((q, qi) => {
        for (const id of q.evidence) assert.ok(got.has(id), `${c.id}: evidence ${id} of "${q.question}" was not captured`);
        const text = q.evidence.map((id) => got.get(id)!.text).join('\n');
        for (const literal of find[ci]![qi]!) assert.ok(text.includes(literal), `${c.id}: "${q.question}": captured evidence lacks "${literal}"`);
      });
    });
  });

  it('no question is answered by word overlap alone: each has content words its evidence lacks', () => {
    for (const c of set.conversations) {
      const got = captured.get(c.id)!;
      for (const q of c.questions) {
        const evidence = contentWords(q.evidence.map((id) => got.get(id)!.text).join('\n'));
        const missing = [...contentWords(q.question)].filter((w) => !evidence.has(w));
        assert.ok(missing.length > 0, `${c.id}: every word of "${q.question}" is in its evidence`);
      }
    }
  });

  it('rejects a scenario whose question names an unknown step or reuses a key', () => {
    const base: Project = { ...PROJECTS[0]!, sessions: [{ day: 0, hour: 9, steps: [u('hello', 'k1'), a('hi', undefined, 'k2')] }], questions: [] };
    assert.doesNotThrow(() => generateProject({ ...base, questions: [{ question: 'q', category: 'decision', evidence: ['k1', 'k2'], answer: 'x', find: [] }] }, 1));
    assert.throws(() => generateProject({ ...base, questions: [{ question: 'q', category: 'decision', evidence: ['nope'], answer: 'x', find: [] }] }, 1), /unknown key nope/);
    const twice: Project = { ...base, sessions: [{ day: 0, hour: 9, steps: [u('hello', 'k1'), a('hi', undefined, 'k1')] }] };
    assert.throws(() => generateProject(twice, 1), /key k1 is used twice/);
  });
});
