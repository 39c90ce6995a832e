// The redaction gate of the service layer (issue 30 item 2): every way in through the facade —
// remember, supersede, import, hot state, judged promotions, feedback — stores no secret, and
// nothing read back (files, the brief, search, export) or logged shows one. Real SQLite files:
// "never lands" is checked on the bytes of every file under the home.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { createLogger } from '../../src/daemon/logger.js';
import { HashEmbedder, readableOf, sink, tempDir } from '../helpers/store-fixtures.js';
import { GITHUB_TOKEN, OPENAI_KEY, assertNowhereOnDisk, filesContaining } from '../helpers/secrets.js';

describe('redaction gate (service)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let outside: ReturnType<typeof tempDir>;
  let home: string;
  let cairn: Cairn;

  beforeEach(async () => {
    tmp = tempDir();
    outside = tempDir();
    home = join(tmp.dir, 'home');
    cairn = await Cairn.open({ home, embedder: new HashEmbedder() });
  });
  afterEach(async () => {
    await cairn.close();
    tmp.cleanup();
    outside.cleanup();
  });

  it('remember and supersede store the text, tags, entities and provenance redacted, and say how many', async () => {
    const stored = await cairn.remember({
      text: `The staging deploy key is ${OPENAI_KEY}`,
      tags: ['infra', `tok ${GITHUB_TOKEN}`],
      entities: ['staging'],
      provenance: [{ source: 'cli', sessionId: `s ${GITHUB_TOKEN}` }],
    });
    assert.equal(stored.memory.text, 'The staging deploy key is [REDACTED:openai-key]');
    assert.deepEqual(stored.memory.tags, ['infra', 'tok [REDACTED:github-token]']);
    assert.equal(stored.memory.provenance[0]!.sessionId, 's [REDACTED:github-token]');
    assert.deepEqual(stored.redactions, { 'openai-key': 1, 'github-token': 2 });
    const again = await cairn.remember({ text: 'nothing secret here' });
    assert.equal(again.redactions, undefined, 'no redactions field when nothing was redacted');
    const next = await cairn.supersede(stored.memory.id, { text: `Rotated: the staging key is now ${GITHUB_TOKEN}` });
    assert.equal(next.current.text, 'Rotated: the staging key is now [REDACTED:github-token]');
    assert.deepEqual(next.redactions, { 'github-token': 1 });
    await cairn.close();
    cairn = await Cairn.open({ home, embedder: new HashEmbedder() });
    assertNowhereOnDisk(home, OPENAI_KEY);
    assertNowhereOnDisk(home, GITHUB_TOKEN);
  });

  it('hot state is stored and rendered to SESSION-STATE.md redacted', async () => {
    const state = await cairn.setState({ objective: `Rotate ${OPENAI_KEY}`, blockers: [`old token ${GITHUB_TOKEN} still live`], notes: `export OPENAI_API_KEY=${OPENAI_KEY}\nthen redeploy` });
    assert.equal(state.objective, 'Rotate [REDACTED:openai-key]');
    assert.deepEqual(state.redactions, { 'openai-key': 2, 'github-token': 1 });
    const file = readFileSync(cairn.stateFilePath(), 'utf8');
    assert.ok(!file.includes(OPENAI_KEY) && !file.includes(GITHUB_TOKEN), file);
    assert.match(file, /\[REDACTED:openai-key\]/);
    assert.equal((await cairn.getState()).blockers[0], 'old token [REDACTED:github-token] still live');
    await cairn.close();
    cairn = await Cairn.open({ home, embedder: new HashEmbedder() });
    assertNowhereOnDisk(home, OPENAI_KEY);
    assertNowhereOnDisk(home, GITHUB_TOKEN);
  });

  it('import stores records redacted and reports the count; export, search and context then show no secret', async () => {
    const record = {
      id: 'm_01import0000000000000000a', namespace: 'default', text: `The billing webhook signs with ${OPENAI_KEY}`, category: 'fact', importance: 7,
      tags: [GITHUB_TOKEN], entities: [], eventTime: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
      validFrom: '2026-01-01T00:00:00.000Z', validTo: null, supersededBy: null, supersedes: null, mentions: 1, provenance: [{ source: 'import' }],
    };
    const report = await cairn.importJsonl(readableOf(JSON.stringify(record) + '\n'));
    assert.equal(report.imported, 1);
    assert.deepEqual(report.redactions, { 'openai-key': 1, 'github-token': 1 });
    const out = sink();
    await cairn.exportJsonl(out.stream);
    out.stream.end();
    const exported = await out.done();
    assert.ok(!exported.includes(OPENAI_KEY) && !exported.includes(GITHUB_TOKEN), exported);
    const found = await cairn.search('billing webhook signs');
    assert.equal(found.results[0]?.text, 'The billing webhook signs with [REDACTED:openai-key]');
    const brief = await cairn.context({ query: 'billing webhook' });
    assert.ok(!brief.text.includes(OPENAI_KEY), brief.text);
    assert.match(brief.text, /\[REDACTED:openai-key\]/);
    await cairn.close();
    cairn = await Cairn.open({ home, embedder: new HashEmbedder() });
    assertNowhereOnDisk(home, OPENAI_KEY);
    assertNowhereOnDisk(home, GITHUB_TOKEN);
  });

  it("reading a user's Markdown note (and MEMORY.md) shows it redacted, as search does", async () => {
    const note = join(outside.dir, 'vault', 'infra.md');
    mkdirSync(join(outside.dir, 'vault'), { recursive: true });
    writeFileSync(note, `# Infra\n\nThe prod DB password is in the vault.\nOPENAI_API_KEY=${OPENAI_KEY}\n`);
    // What capture stores for the note: its chunks, redacted (the file itself is the user's).
    await cairn.store.replaceDocument({ namespace: 'default', sourceId: null, path: note, fileHash: 'h1', time: new Date().toISOString(), chunks: [{ heading: 'Infra', text: `The prod DB password is in the vault.\nOPENAI_API_KEY=${OPENAI_KEY}`, startLine: 1, endLine: 4 }] });
    const read = await cairn.readFile({ path: note });
    assert.ok(!read.text.includes(OPENAI_KEY), read.text);
    assert.match(read.text, /OPENAI_API_KEY=\[REDACTED:[a-z-]+\]/);
    assert.equal(read.totalLines, 4);
    const window = await cairn.readFile({ path: note, from: 4, lines: 1 });
    assert.ok(!window.text.includes(OPENAI_KEY), window.text);

    mkdirSync(join(home, 'default'), { recursive: true });
    writeFileSync(join(home, 'default', 'MEMORY.md'), `# Memory\n\n- deploy token ${GITHUB_TOKEN}\n`);
    const brief = await cairn.context({});
    assert.ok(!brief.text.includes(GITHUB_TOKEN), brief.text);
    assert.match(brief.text, /deploy token \[REDACTED:github-token\]/);
    const mem = await cairn.readFile({ path: 'MEMORY.md' });
    assert.ok(!mem.text.includes(GITHUB_TOKEN), mem.text);
  });

  it('a search query is gated before it is searched, echoed or embedded', async () => {
    const res = await cairn.search(`where did I use ${OPENAI_KEY}`);
    assert.equal(res.query, 'where did I use [REDACTED:openai-key]');
    const brief = await cairn.context({ query: `key ${OPENAI_KEY}` });
    assert.ok(!brief.text.includes(OPENAI_KEY), brief.text);
    assert.equal(brief.query, 'key [REDACTED:openai-key]');
  });

  it('writes through cairn.store (feedback, judged promotions, library turns) pass the gate too', async () => {
    const { inserted } = await cairn.store.addTurns([{ namespace: 'default', sessionId: 's1', messageId: 'm1', role: 'user', text: `remember: the key is ${OPENAI_KEY}`, timestamp: new Date().toISOString() }]);
    assert.equal(inserted[0]!.text, 'remember: the key is [REDACTED:openai-key]');
    await cairn.store.applyJudgments([{ turnId: inserted[0]!.id, importance: 8, category: 'fact', judge: 'test', reason: `mentions ${GITHUB_TOKEN}`, statement: `The key is ${GITHUB_TOKEN}`, needsRejudge: false, memory: { namespace: 'default', text: `The key is ${GITHUB_TOKEN}` } }]);
    await cairn.feedback(inserted[0]!.id, true);
    await cairn.close();
    cairn = await Cairn.open({ home, embedder: new HashEmbedder() });
    assertNowhereOnDisk(home, OPENAI_KEY);
    assertNowhereOnDisk(home, GITHUB_TOKEN);
  });

  it('a digest through cairn.store is stored redacted: its file text and every section heading and text', async () => {
    const day = '2026-01-10T06:00:00.000Z';
    const { digest } = await cairn.store.putDigest({
      namespace: 'default', kind: 'daily', path: 'daily/2026-01-10.md', periodStart: day, periodEnd: '2026-01-10T21:00:00.000Z',
      text: `# Day\n## Keys ${GITHUB_TOKEN}\n- rotated ${OPENAI_KEY}\n`,
      sections: [{ heading: `Keys ${GITHUB_TOKEN}`, text: `- rotated ${OPENAI_KEY}`, sources: [] }],
      inputsHash: 'h', generator: 'llm:test/model@1',
    });
    assert.equal(digest.text, '# Day\n## Keys [REDACTED:github-token]\n- rotated [REDACTED:openai-key]\n');
    assert.deepEqual(digest.sections, [{ heading: 'Keys [REDACTED:github-token]', text: '- rotated [REDACTED:openai-key]', sources: [] }]);
    const hits = await cairn.search('rotated', { kinds: ['digest'] });
    assert.equal(hits.results[0]!.text, 'Keys [REDACTED:github-token]\n- rotated [REDACTED:openai-key]');
    await cairn.close();
    cairn = await Cairn.open({ home, embedder: new HashEmbedder() });
    assertNowhereOnDisk(home, OPENAI_KEY);
    assertNowhereOnDisk(home, GITHUB_TOKEN);
  });

  it('log lines carry no secret: fields, messages and errors pass the gate', async () => {
    const logDir = join(tmp.dir, 'logs');
    const log = createLogger(logDir, { quiet: true });
    log.error({ err: `cannot parse ${OPENAI_KEY}`, nested: { list: [GITHUB_TOKEN] } }, 'capture job failed');
    log.warn(`message with ${GITHUB_TOKEN}`);
    log.error(new Error(`boom near ${OPENAI_KEY}`));
    log.info({ err: new Error(`inner ${GITHUB_TOKEN}`) }, 'wrapped');
    const lines = readFileSync(join(logDir, 'cairn.log'), 'utf8').trim().split('\n');
    assert.equal(lines.length, 4);
    for (const line of lines) JSON.parse(line);
    assert.deepEqual(filesContaining(logDir, OPENAI_KEY), []);
    assert.deepEqual(filesContaining(logDir, GITHUB_TOKEN), []);
    assert.match(lines.join('\n'), /\[REDACTED:openai-key\]/);
    assert.match(lines[2]!, /"msg":"boom near \[REDACTED:openai-key\]"/);
  });
});
