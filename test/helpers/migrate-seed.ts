// A SQLite home with a row in every table of the store, written through the Store interface (and
// the knowledge seed's facade), so a migration test moves what Cairn itself writes.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { seedKnowledge, SEED_NS } from './knowledge-seed.js';

const T = (d: number): string => new Date(Date.parse('2026-02-01T09:00:00.000Z') + d * 3_600_000).toISOString();

/** A unit vector with a deterministic, non-trivial pattern (its int8 bytes differ per seed). */
export function vectorOf(seed: number, dims = 16): Float32Array {
  const v = new Float32Array(dims);
  for (let i = 0; i < dims; i++) v[i] = Math.sin(seed * 7.31 + i * 1.7) + (i === seed % dims ? 0.5 : 0);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

export const OTHER_NS = 'team-b';

/**
 * Fills `<home>/cairn.db`: knowledge (entities, aliases, mentions, facts), memories incl. a
 * superseded one and texts in several scripts, turns from a source with its checkpoint, judgments,
 * a document, a digest with sections, vectors for every entry, embedding cache, hot and
 * consolidation state, usage, feedback, API tokens, a purge log entry and a lease. `extraMemories` adds
 * that many more (to make several batches). Returns the database path.
 */
export async function seedMigrationHome(home: string, extraMemories = 0): Promise<string> {
  await seedKnowledge(home);
  const path = join(home, 'cairn.db');
  const store = new SqliteStore(path);
  try {
    const ns = SEED_NS;
    await store.ensureNamespace(OTHER_NS);
    const old = (await store.addMemory({ namespace: ns, text: 'The deploy window is Tuesday', category: 'decision', importance: 7, tags: ['deploy'], eventTime: T(1) })).memory;
    await store.supersedeMemory(ns, old.id, { namespace: ns, text: 'The deploy window moved to Thursday', category: 'decision', importance: 8, tags: ['deploy'] });
    await store.addMemory({ namespace: OTHER_NS, text: 'Zürich café: ünïcödé, 日本語のメモ, emoji 🪨 and a "quote" \\ backslash', importance: 5, provenance: [{ source: 'test', sessionId: 's9', line: 3 }] });
    for (let i = 0; i < extraMemories; i++) await store.addMemory({ namespace: i % 3 === 0 ? OTHER_NS : ns, text: `Filler memory number ${i} about the kestrel ${i % 7} rollout`, importance: 1 + (i % 10) });

    const source = await store.addSource(ns, 'jsonl', '/logs/session.jsonl', { follow: true });
    const turns = await store.addTurns(
      [
        { namespace: ns, sourceId: source.id, sessionId: 's1', messageId: 'm1', role: 'user', speaker: 'Ana', text: 'Remember that the staging password rotates monthly', timestamp: T(2), line: 1, meta: { model: 'x' } },
        { namespace: ns, sourceId: source.id, sessionId: 's1', messageId: 'm2', role: 'assistant', text: 'Noted: rotation every month', timestamp: T(3), line: 2 },
        { namespace: ns, sourceId: null, sessionId: 's2', messageId: 'm1', role: 'user', text: 'An orphan turn with no source', timestamp: T(4) },
      ],
      { sourceId: source.id, key: 'offset', state: { bytes: 2048, lines: 2 } },
    );
    await store.putCheckpoint({ sourceId: source.id, key: 'inode', state: { ino: 42 } });
    const [t1, t2] = turns.inserted;
    await store.applyJudgments([
      { turnId: t1!.id, importance: 8, category: 'fact', judge: 'heuristic@1', reason: 'a rule', statement: 'The staging password rotates monthly', needsRejudge: false, memory: { namespace: ns, text: 'The staging password rotates monthly', importance: 8, category: 'fact' } },
      { turnId: t2!.id, importance: 2, category: 'noise', judge: 'heuristic@1', reason: 'chatter', statement: null, needsRejudge: true },
    ]);

    await store.replaceDocument({ namespace: ns, sourceId: source.id, path: '/notes/plan.md', fileHash: 'abc', time: T(5), chunks: [
      { heading: 'Plan', text: 'The heron migration starts in March', startLine: 1, endLine: 4 },
      { heading: 'Risks', text: 'Budget for the heron migration is tight', startLine: 5, endLine: 9 },
    ] });
    const section = (heading: string, text: string, sources: string[]) => ({ heading, text, sources: sources.map((id) => ({ kind: 'memory' as const, id, time: T(1) })) });
    await store.putDigest({
      namespace: ns, kind: 'daily', path: 'daily/2026-02-01.md', periodStart: T(0), periodEnd: T(20),
      text: '# 2026-02-01\n## Decisions\n- deploy on Thursday\n', sections: [section('Decisions', `- deploy on Thursday \`${old.id}\``, [old.id])],
      inputsHash: 'h1', generator: 'extractive@1',
    }, { now: T(21) });
    await store.putConsolidationState(ns, { lastSeq: 3, done: { 'daily/2026-02-01.md': 'h1' } });

    // Vectors for every entry under two models, and a vector removed so the AUTOINCREMENT counter runs ahead of the rows.
    const entries = await store.entriesMissingVector('m-one', 1000);
    await store.putVectors('m-one', entries.map((e, i) => ({ seq: e.seq, vector: vectorOf(i) })));
    await store.putVectors('m-gone', entries.slice(0, 2).map((e, i) => ({ seq: e.seq, vector: vectorOf(100 + i, 8) })));
    await store.dropVectorsExcept(['m-one']);
    await store.cachePut('m-one', [0, 1, 2].map((i) => ({ textHash: createHash('sha256').update(`t${i}`).digest('hex'), vector: vectorOf(200 + i) })));

    await store.mergeHotState(ns, { focus: 'heron migration', open: ['budget'] }, { now: T(6) });
    await store.usageAdd(ns, '2026-02-01', { calls: 3, failures: 1, tokensIn: 1200, tokensOut: 340, costUsd: 0.0123 });
    await store.addFeedback({ namespace: ns, refId: old.id, text: 'useful', category: 'decision', important: true });
    await store.addApiToken({ id: 'tok_a', hash: 'h'.repeat(64), label: 'laptop', namespaces: [ns], createdAt: T(7) });
    await store.addApiToken({ id: 'tok_b', hash: 'g'.repeat(64), label: null, namespaces: ['*'], createdAt: T(8) });
    await store.revokeApiToken('tok_b', { now: T(9) });
    const purge = await store.startPurge({ namespace: ns, via: 'cli', rule: { older: '90d' }, startedAt: T(10) });
    await store.finishPurge(purge.id, { removed: 0 }, { finishedAt: T(11) });
    await store.acquireLease('source:1', 'host-a:123', 60_000, T(12));
    return path;
  } finally {
    await store.close();
  }
}
