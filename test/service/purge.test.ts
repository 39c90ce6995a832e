// `Cairn.purge` (issue 30 item 5) over real homes: a literal, records by id and stored history
// redacted again leave no byte of what they removed in any file under the home — the database and
// its log, backups, raw logs, SESSION-STATE.md, MEMORY.md, logs, saved indexes — nor in search, the
// brief or the embedding cache; the audit says what and when, never the text; a dry run changes
// nothing; namespaces are walls unless every namespace is asked for.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { sha256 } from '../../src/core/text.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { VectorIndex } from '../../src/search/vector-index.js';
import { PURGED_MARKER } from '../../src/store/store.js';
import { HashEmbedder, rejectsCode, tempDir } from '../helpers/store-fixtures.js';
import { OPENAI_KEY, assertNowhereOnDisk, filesContaining } from '../helpers/secrets.js';

const LITERAL = 'Zanzibar-7741-lighthouse';

describe('purge (service)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let home: string;
  let cairn: Cairn;
  const open = () => Cairn.open({ home, embedder: new HashEmbedder(), config: { timezone: 'UTC' } });

  beforeEach(async () => {
    tmp = tempDir();
    home = join(tmp.dir, 'home');
    cairn = await open();
  });
  afterEach(async () => {
    await cairn.close();
    tmp.cleanup();
  });

  /** A transcript outside the home, captured through ingest (raw log included). */
  async function ingestChat(lines: Array<{ id: string; content: string; role?: string }>, ns = 'default'): Promise<string> {
    const file = join(tmp.dir, `chat-${ns}.jsonl`);
    writeFileSync(file, lines.map((l) => JSON.stringify({ role: l.role ?? 'user', content: l.content, id: l.id, session: 's1', timestamp: '2026-02-01T10:00:00.000Z' }) + '\n').join(''));
    await cairn.ingest([file], { format: 'jsonl', namespace: ns, final: true });
    return file;
  }

  it('a literal goes from every table, index, cache, Markdown file, log and backup; a dry run changed nothing first', async () => {
    await cairn.remember({ text: `The lighthouse code word is ${LITERAL}`, tags: ['ops'] });
    await ingestChat([{ id: 'm1', content: `Remember the code word ${LITERAL} for the gate` }, { id: 'm2', content: 'The gate opens at nine' }]);
    await cairn.setState({ objective: `Open the gate with ${LITERAL}` });
    writeFileSync(join(home, 'default', 'MEMORY.md'), `# Memory\n\n- code word: ${LITERAL}\n`);
    mkdirSync(join(home, 'logs'), { recursive: true });
    writeFileSync(join(home, 'logs', 'cairn.log'), `{"msg":"saw ${LITERAL}"}\n`);
    mkdirSync(join(home, 'backups'), { recursive: true });
    (cairn.store as SqliteStore).db.exec(`VACUUM INTO '${join(home, 'backups', 'cairn-2026-02-01.db')}'`);
    writeFileSync(join(home, 'backups', 'notes.tar'), 'opaque');
    mkdirSync(join(home, 'index', 'test-hash_1'), { recursive: true });
    writeFileSync(join(home, 'index', 'test-hash_1', 'default.64d.9.100b.usearch'), 'saved index');
    const cachedBefore = await cairn.store.cacheGet('test-hash@1', [sha256(`The lighthouse code word is ${LITERAL}`)]);
    assert.equal(cachedBefore.size, 1, 'the memory was embedded through the cache, by its own text (not its tags)');
    assert.ok(filesContaining(home, LITERAL).length >= 5);

    const dry = await cairn.purge({ text: LITERAL, dryRun: true });
    assert.equal(dry.dryRun, true);
    assert.equal(dry.auditId, null);
    // The turn's memory (the judge promoted it) is one of the two memories; the literal reads as a
    // name, so the knowledge pass made it an entity (with its alias): it goes from there too.
    assert.deepEqual(dry.rewritten, { turns: 1, memories: 2, hot_state: 1, entities: 1, entity_aliases: 1 });
    assert.ok(dry.files.includes(join('default', 'MEMORY.md')) && dry.files.includes(join('logs', 'cairn.log')), dry.files.join(', '));
    assert.deepEqual(dry.backups.purged, [join('backups', 'cairn-2026-02-01.db')]);
    assert.deepEqual(await cairn.purgeLog(), [], 'a dry run leaves no audit entry');
    assert.ok(filesContaining(home, LITERAL).length >= 5, 'a dry run changes nothing');

    const res = await cairn.purge({ text: LITERAL, via: 'test' });
    assert.deepEqual(res.rewritten, dry.rewritten);
    assert.equal(res.entries.rewritten, dry.entries.rewritten);
    assert.ok(res.auditId);
    assert.equal(res.scrubbed, true);
    assert.ok(res.cachedVectors >= 1);
    assert.deepEqual(res.indexFiles, [join('test-hash_1', 'default.64d.9.100b.usearch')]);
    assert.deepEqual(res.backups.skipped.map((s) => s.path), [join('backups', 'notes.tar')]);
    assert.ok(res.reembedded >= 2, 'changed entries get new vectors');
    assert.equal((await cairn.store.cacheGet('test-hash@1', [sha256(`The lighthouse code word is ${LITERAL}`)])).size, 0);
    assert.ok(!existsSync(join(home, 'index', 'test-hash_1', 'default.64d.9.100b.usearch')));

    const found = await cairn.search('lighthouse code word');
    assert.match(found.results[0]!.text, /The lighthouse code word is \[REDACTED:purged\]/);
    assert.equal((await cairn.search(LITERAL)).results.filter((r) => r.text.includes('Zanzibar')).length, 0);
    const brief = await cairn.context({ query: 'gate code word' });
    assert.ok(!brief.text.includes(LITERAL), brief.text);
    assert.match(readFileSync(join(home, 'default', 'SESSION-STATE.md'), 'utf8'), /Open the gate with \[REDACTED:purged\]/);
    assert.match(readFileSync(join(home, 'default', 'raw', 'realtime-2026-02-01.md'), 'utf8'), /Remember the code word \[REDACTED:purged\] for the gate/);

    const [entry] = await cairn.purgeLog();
    assert.equal(entry!.id, res.auditId);
    assert.equal(entry!.via, 'test');
    assert.deepEqual(entry!.rule, { kind: 'text', chars: LITERAL.length });
    assert.ok(entry!.finishedAt);
    assert.ok(!JSON.stringify(entry).includes(LITERAL), 'the audit never holds the removed text');
    const backup = new SqliteStore(join(home, 'backups', 'cairn-2026-02-01.db'));
    assert.equal((await backup.listPurges())[0]!.rule.kind, 'text', 'a restored backup shows the purge too');
    await backup.close();
    await cairn.close();
    cairn = await open();
    assertNowhereOnDisk(home, LITERAL, 'the purged literal');
  });

  it('records by id: a turn becomes a tombstone with its memory gone, its raw-log block removed, and it is never captured again', async () => {
    const chat = await ingestChat([{ id: 'm1', content: `My home address is 12 ${LITERAL} Road, please remember it` }, { id: 'm2', content: 'We moved the standup to ten' }]);
    const hit = (await cairn.search('home address road', { kinds: ['turn'] })).results[0]!;
    assert.equal(hit.kind, 'turn');
    const made = (await cairn.store.getJudgment(hit.id))!.memoryId;
    assert.ok(made, 'the judge made a memory of it');
    const keep = await cairn.remember({ text: 'The office plant needs water on Mondays' });

    const res = await cairn.purge({ ids: [hit.id] });
    assert.deepEqual(res.removed.map((r) => `${r.kind}:${r.id}`).sort(), [`memory:${made}`, `turn:${hit.id}`].sort());
    assert.deepEqual(res.userFiles, [chat], 'the transcript still holds it: the person is told');
    assert.equal((await cairn.store.getTurn('default', hit.id))!.text, PURGED_MARKER);
    await rejectsCode(cairn.get(made!), 'NOT_FOUND');
    assert.ok(await cairn.get(keep.memory.id));
    const raw = readFileSync(join(home, 'default', 'raw', 'realtime-2026-02-01.md'), 'utf8');
    assert.ok(!raw.includes('home address') && raw.includes('We moved the standup to ten'), raw);
    assert.deepEqual(JSON.parse(JSON.stringify((await cairn.purgeLog())[0]!.rule)), { kind: 'ids', ids: [hit.id] });

    // The transcript is read again from the top (a replaced file): the message is not taken in again.
    await cairn.store.putCheckpoint({ sourceId: (await cairn.store.listSources('default'))[0]!.id, key: chat, state: {} });
    writeFileSync(chat, readFileSync(chat, 'utf8'));
    await cairn.ingest([chat], { format: 'jsonl', final: true });
    assert.equal((await cairn.search('home address road')).results.filter((r) => r.text.includes('address')).length, 0);
    await cairn.close();
    cairn = await open();
    assertNowhereOnDisk(home, LITERAL, 'the purged turn');
  });

  it('--secrets redacts history stored before the gate (or older rules) everywhere, and re-embeds it', async () => {
    await cairn.close();
    const legacy = new SqliteStore(join(home, 'cairn.db'));
    await legacy.addMemory({ namespace: 'default', text: `Old note: the API key is ${OPENAI_KEY}` });
    await legacy.addTurns([{ namespace: 'default', sessionId: 's', messageId: 'x1', role: 'user', text: `export OPENAI_API_KEY=${OPENAI_KEY}`, timestamp: '2026-02-01T10:00:00.000Z' }]);
    await legacy.mergeHotState('default', { notes: `key ${OPENAI_KEY}` });
    await legacy.close();
    mkdirSync(join(home, 'default'), { recursive: true });
    writeFileSync(join(home, 'default', 'SESSION-STATE.md'), `notes: key ${OPENAI_KEY}\n`);
    cairn = await open();
    await cairn.reembed();
    const res = await cairn.purge({ secrets: true });
    assert.deepEqual(res.rule, { kind: 'secrets' });
    assert.equal(res.redactions['openai-key'], 3, 'counted once per stored text, not again for the index');
    assert.deepEqual(res.rewritten, { turns: 1, memories: 1, hot_state: 1 });
    const status = await cairn.status();
    assert.equal(status.namespaces.find((n) => n.namespace === 'default')?.missingVectors, 0, 'rewritten entries have vectors again');
    assert.match((await cairn.search('old note api key')).results[0]!.text, /\[REDACTED:openai-key\]/);
    assert.deepEqual((await cairn.purge({ secrets: true })).rewritten, {}, 'nothing left to redact');
    await cairn.close();
    cairn = await open();
    assertNowhereOnDisk(home, OPENAI_KEY);
  });

  it('is scoped to one namespace unless every namespace is asked for', async () => {
    await cairn.remember({ text: `alpha knows ${LITERAL}`, namespace: 'alpha' });
    await cairn.remember({ text: `beta knows ${LITERAL}`, namespace: 'beta' });
    const one = await cairn.purge({ text: LITERAL, namespace: 'alpha' });
    assert.deepEqual(one.rewritten, { memories: 1, entities: 1, entity_aliases: 1 });
    assert.match((await cairn.list({ namespace: 'beta' }))[0]!.text, /Zanzibar/);
    const other = (await cairn.list({ namespace: 'beta' }))[0]!;
    await rejectsCode(cairn.purge({ ids: [other.id], namespace: 'alpha' }), 'NOT_FOUND');
    const all = await cairn.purge({ text: LITERAL, allNamespaces: true });
    assert.equal(all.namespace, null);
    assert.deepEqual(all.rewritten, { memories: 1, entities: 1, entity_aliases: 1 });
    assert.equal((await cairn.purgeLog({ namespace: 'alpha' })).length, 1);
    assert.equal((await cairn.purgeLog()).length, 2);
  });

  it('refuses unclear requests, and a missing id purges nothing and leaves no audit entry', async () => {
    const { memory } = await cairn.remember({ text: 'a fact worth keeping' });
    await rejectsCode(cairn.purge({}), 'INVALID_INPUT', /exactly one rule/);
    await rejectsCode(cairn.purge({ text: 'abcd-efgh', secrets: true }), 'INVALID_INPUT', /exactly one rule/);
    await rejectsCode(cairn.purge({ text: 'abc' }), 'INVALID_INPUT', /at least 4/);
    await rejectsCode(cairn.purge({ text: 'REDACTED' }), 'INVALID_INPUT', /marker/);
    await rejectsCode(cairn.purge({ ids: ['not an id'] }), 'INVALID_INPUT');
    await rejectsCode(cairn.purge({ ids: [] }), 'INVALID_INPUT');
    await rejectsCode(cairn.purge({ text: LITERAL, namespace: 'a', allNamespaces: true }), 'INVALID_INPUT');
    await rejectsCode(cairn.purge(null as never), 'INVALID_INPUT');
    const err = await rejectsCode(cairn.purge({ ids: [memory.id, 'm_01nosuchrecord0000000000'] }), 'NOT_FOUND');
    assert.doesNotMatch(err.message, /worth keeping/);
    assert.ok(await cairn.get(memory.id));
    assert.deepEqual(await cairn.purgeLog(), []);
    const secretErr = await rejectsCode(cairn.purge({ text: OPENAI_KEY.slice(0, 3) }), 'INVALID_INPUT');
    assert.ok(!secretErr.message.includes(OPENAI_KEY.slice(0, 3)), 'errors never echo the literal');
  });

  it('a process that searched before the purge drops the vectors it holds in memory', async () => {
    const store = new SqliteStore(join(tmp.dir, 'other.db'));
    try {
      const embedder = new HashEmbedder();
      const a = (await store.addMemory({ namespace: 'n', text: 'purple walrus secret' })).memory;
      await store.addMemory({ namespace: 'n', text: 'green lizard fact' });
      for (const e of await store.entriesMissingVector(embedder.modelId, 10)) await store.putVectors(embedder.modelId, [{ seq: e.seq, vector: embedder.vector(e.text) }]);
      const index = new VectorIndex(store, embedder.modelId, null);
      const seqA = (await store.entryFor('memory', a.id))!.seq;
      assert.ok((await index.search('n', embedder.vector('purple walrus secret'), 2)).some((h) => h.seq === seqA));
      const audit = await store.startPurge({ namespace: 'n', via: 'test', rule: { kind: 'ids' } });
      await store.purgeRecords('n', [a.id]);
      await store.finishPurge(audit.id, {});
      const hits = await index.search('n', embedder.vector('purple walrus secret'), 2);
      assert.ok(!hits.some((h) => h.seq === seqA), 'the purged vector is gone from memory too');
      assert.equal(index.size('n'), 1);
    } finally {
      await store.close();
    }
  });
});
