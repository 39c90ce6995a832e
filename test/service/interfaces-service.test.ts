// The service side of the agent interfaces: hot state (write-ahead, atomic file, validation), the
// token-budgeted context brief, readFile's allow-list, API tokens, and OpenClaw-shaped results.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { Cairn } from '../../src/service/cairn.js';
import { renderStateFile } from '../../src/service/hot-state.js';
import { dedupText } from '../../src/service/context.js';
import { tokenAllows } from '../../src/service/tokens.js';
import { toOpenClawResults } from '../../src/service/openclaw-compat.js';
import type { ContextBrief } from '../../src/service/context.js';
import { HashEmbedder, rejectsCode, tempDir } from '../helpers/store-fixtures.js';

const CATS = ['decision', 'fact', 'preference', 'plan', 'issue', 'discovery'] as const;

function allItems(brief: ContextBrief) {
  return brief.sections.flatMap((s) => s.items);
}

/** ~`words` words of varied text, so memories are long and distinct. */
function longText(i: number, words: number): string {
  const vocab = ['staging', 'database', 'deploy', 'billing', 'migration', 'latency', 'cache', 'retry', 'queue', 'schema', 'index', 'token', 'budget', 'review', 'release', 'rollback'];
  const out: string[] = [`Item ${i}:`];
  for (let w = 0; w < words; w++) out.push(vocab[(i * 7 + w * 3) % vocab.length]! + (w % 5 === 0 ? ` ${i * 31 + w}` : ''));
  return out.join(' ') + '.';
}

describe('interfaces service', () => {
  let tmp: ReturnType<typeof tempDir>;
  let cairn: Cairn;
  const extra: Array<() => Promise<void> | void> = [];

  beforeEach(async () => {
    tmp = tempDir();
    cairn = await Cairn.open({ home: tmp.dir, embedder: new HashEmbedder() });
  });
  afterEach(async () => {
    await cairn.close();
    while (extra.length) await extra.pop()!();
    tmp.cleanup();
  });

  describe('hot state', () => {
    it('starts empty, merges patches, and the file mirrors the store', async () => {
      assert.deepEqual(await cairn.getState(), { namespace: 'default', objective: null, blockers: [], nextActions: [], notes: null, updatedAt: null });
      assert.equal(existsSync(cairn.stateFilePath()), false);
      const first = await cairn.setState({ objective: '  Ship the MCP server  ', blockers: ['flaky test', ' CI is red '], nextActions: ['write docs'] });
      assert.equal(first.objective, 'Ship the MCP server');
      assert.deepEqual(first.blockers, ['flaky test', 'CI is red']);
      assert.equal(first.warning, undefined);
      assert.ok(first.updatedAt);
      const second = await cairn.setState({ notes: 'line one\nline two', blockers: [] });
      assert.equal(second.objective, 'Ship the MCP server', 'fields not in the patch stay');
      assert.deepEqual(second.blockers, []);
      assert.deepEqual(second.nextActions, ['write docs']);
      assert.equal(second.notes, 'line one\nline two');
      const { warning: _w, ...stored } = second;
      assert.deepEqual(await cairn.getState(), stored);
      assert.equal(cairn.stateFilePath(), join(tmp.dir, 'default', 'SESSION-STATE.md'));
      assert.equal(cairn.memoryFilePath('proj'), join(tmp.dir, 'proj', 'MEMORY.md'));
      const file = readFileSync(cairn.stateFilePath(), 'utf8');
      assert.equal(file, renderStateFile(await cairn.getState()).text);
      assert.match(file, /## Objective\n\nShip the MCP server\n/);
      assert.match(file, /## Next actions\n\n- write docs\n/);
      const cleared = await cairn.setState({ objective: null, notes: '' });
      assert.equal(cleared.objective, null);
      assert.equal(cleared.notes, null);
      assert.equal((await cairn.setState({ objective: '' })).objective, null, 'an empty string clears');
    });

    it('one line per item: line breaks and control characters are flattened', async () => {
      const s = await cairn.setState({ objective: 'a\nb\u0007c', blockers: ['x\r\ny'] });
      assert.equal(s.objective, 'a bc');
      assert.deepEqual(s.blockers, ['x y']);
    });

    it('write-ahead: the store row is committed even when the file cannot be written', async () => {
      mkdirSync(cairn.stateFilePath(), { recursive: true }); // SESSION-STATE.md is a directory now
      const s = await cairn.setState({ objective: 'durable first' });
      assert.equal(s.objective, 'durable first');
      assert.match(s.warning ?? '', /state saved, but SESSION-STATE\.md was not written/);
      // Another process (a fresh facade on the same home) sees the committed row.
      const other = await Cairn.open({ home: tmp.dir, embedder: null });
      extra.push(() => other.close());
      assert.equal((await other.getState()).objective, 'durable first');
      assert.ok(statSync(cairn.stateFilePath()).isDirectory(), 'the directory is left alone');
      assert.deepEqual(readdirSync(join(tmp.dir, 'default')), ['SESSION-STATE.md'], 'no temp file left behind');
    });

    it('the file is replaced atomically (a new file renamed over the old one), no temp files remain', async () => {
      await cairn.setState({ objective: 'one' });
      const before = statSync(cairn.stateFilePath()).ino;
      await cairn.setState({ objective: 'two' });
      assert.notEqual(statSync(cairn.stateFilePath()).ino, before, 'renamed into place, not rewritten in place');
      await Promise.all(Array.from({ length: 10 }, (_, i) => cairn.setState({ nextActions: [`step ${i}`] })));
      assert.deepEqual(readdirSync(join(tmp.dir, 'default')), ['SESSION-STATE.md']);
      assert.match(readFileSync(cairn.stateFilePath(), 'utf8'), /^- step \d$/m);
    });

    it('invalid patches are refused with INVALID_INPUT and store nothing', async () => {
      const bad: unknown[] = [
        {},
        { objective: 'x', extra: 1 },
        { objective: 'x'.repeat(501) },
        { blockers: Array.from({ length: 51 }, (_, i) => `b${i}`) },
        { blockers: ['y'.repeat(501)] },
        { nextActions: ['ok', '   '] },
        { notes: 'n'.repeat(4001) },
        { objective: 42 },
        { blockers: 'not a list' },
        null,
        ['objective'],
        'objective',
      ];
      for (const patch of bad) {
        await rejectsCode(cairn.setState(patch as never), 'INVALID_INPUT');
      }
      assert.equal(await cairn.store.getHotState('default'), null);
      assert.equal(existsSync(join(tmp.dir, 'default')), false, 'no folder, no file');
      assert.deepEqual(await cairn.store.namespaceStats(), []);
      const unknown = await rejectsCode(cairn.setState({ objective: 'x', foo: 1 } as never), 'INVALID_INPUT');
      assert.match(unknown.message, /unknown field "foo"/);
      // Limits themselves are accepted.
      const max = await cairn.setState({ objective: 'o'.repeat(500), blockers: Array.from({ length: 50 }, () => 'b'.repeat(500)), notes: 'n'.repeat(4000) });
      assert.equal(max.blockers.length, 50);
    });

    it('namespaces are separate; an invalid namespace is refused', async () => {
      await cairn.setState({ objective: 'alpha work' }, 'alpha');
      assert.equal((await cairn.getState('beta')).objective, null);
      assert.equal((await cairn.getState('alpha')).objective, 'alpha work');
      assert.ok(existsSync(join(tmp.dir, 'alpha', 'SESSION-STATE.md')));
      await rejectsCode(cairn.getState('../x'), 'INVALID_NAMESPACE');
      await rejectsCode(cairn.setState({ objective: 'x' }, 'config.json'), 'INVALID_NAMESPACE');
      assert.throws(() => cairn.stateFilePath('..'), /namespace/i);
    });
  });

  describe('context brief', () => {
    it('an empty store gives a short brief', async () => {
      const brief = await cairn.context();
      assert.deepEqual(brief.sections, []);
      assert.equal(brief.query, null);
      assert.equal(brief.budgetTokens, 800);
      assert.match(brief.text, /No hot state or memories yet/);
      assert.ok(brief.usedTokens < 30, `${brief.usedTokens} tokens`);
      assert.equal(brief.usedTokens, countTokens(brief.text));
      assert.match(brief.tokenizer, /o200k_base/);
      assert.equal(brief.truncated, false);
      const withQuery = await cairn.context({ query: 'anything at all' });
      assert.deepEqual(withQuery.sections, []);
    });

    it('orders hot state, MEMORY.md, important memories, then query hits; each with a source', async () => {
      await cairn.setState({ objective: 'Finish the billing migration', blockers: ['waiting on DBA'], nextActions: ['run the backfill'] });
      mkdirSync(join(tmp.dir, 'default'), { recursive: true });
      writeFileSync(cairn.memoryFilePath(), '# Memory\n\n## Team\n- Ana owns billing\n- We deploy on Fridays\n');
      const important = await cairn.remember({ text: 'Never run migrations without a backup', importance: 10, category: 'decision' });
      await cairn.remember({ text: 'We deploy on Fridays.', importance: 9, category: 'fact' }); // same as a MEMORY.md line
      for (let i = 0; i < 40; i++) await cairn.remember({ text: `Routine note ${i} about lunch and the weekly team sync`, importance: 3 });
      const relevant = await cairn.remember({ text: 'The kiwi service listens on port 7070', importance: 2 });

      const brief = await cairn.context({ query: 'kiwi service port' });
      assert.deepEqual(
        brief.sections.map((s) => s.title.replace(/ \(.*$/, '').replace(/ ".*"$/, '')),
        ['Hot state', 'MEMORY.md', 'Important memories', 'Relevant to'],
      );
      const [state, file, imp, rel] = brief.sections;
      assert.deepEqual(state!.items.map((i) => i.text), ['Objective: Finish the billing migration', 'Blocker: waiting on DBA', 'Next: run the backfill']);
      const stateLines = readFileSync(cairn.stateFilePath(), 'utf8').split('\n');
      for (const item of state!.items) {
        const [path, line] = item.source!.split(':');
        assert.equal(path, 'SESSION-STATE.md');
        assert.ok(item.text.endsWith(stateLines[Number(line) - 1]!.replace(/^- /, '')), `${item.source} → ${item.text}`);
      }
      assert.deepEqual(file!.items.map((i) => [i.text, i.source]), [
        ['# Memory', 'MEMORY.md:1'],
        ['## Team', 'MEMORY.md:3'],
        ['- Ana owns billing', 'MEMORY.md:4'],
        ['- We deploy on Fridays', 'MEMORY.md:5'],
      ]);
      assert.equal(imp!.items[0]!.id, important.memory.id);
      assert.equal(imp!.items[0]!.source, important.memory.id);
      assert.ok(imp!.items.every((i) => i.kind === 'memory' && i.source === i.id));
      assert.ok(!imp!.items.some((i) => /fridays/i.test(i.text)), 'the MEMORY.md line already says it');
      assert.ok(rel!.items.some((i) => i.id === relevant.memory.id), 'the query hit is in the query section');
      assert.ok(rel!.items.every((i) => typeof i.score === 'number'));
      // The Markdown follows the same order.
      const pos = ['## Hot state', '## MEMORY.md', '## Important memories', '## Relevant to'].map((h) => brief.text.indexOf(h));
      assert.ok(pos.every((p, i) => p >= 0 && (i === 0 || p > pos[i - 1]!)), `section order in text: ${pos}`);
      assert.match(brief.text, /^#### Team$/m, 'file headings move under the brief\'s');
      assert.match(brief.text, new RegExp(`Never run migrations without a backup \\[decision, ${important.memory.id}\\]`));
    });

    it('deduplicates by id and by normalised text across sections', async () => {
      mkdirSync(join(tmp.dir, 'default'), { recursive: true });
      writeFileSync(cairn.memoryFilePath(), '- The staging DB is on port 5433\n- the staging db is on port 5433.\n');
      await cairn.setState({ blockers: ['Staging DB is down'] });
      await cairn.remember({ text: 'The staging DB is on port 5433', importance: 9 });
      await cairn.remember({ text: 'staging db is down', importance: 9 });
      await cairn.remember({ text: 'The staging deploy uses blue/green', importance: 8 });
      const brief = await cairn.context({ query: 'staging db port' });
      const items = allItems(brief);
      const ids = items.filter((i) => i.id).map((i) => i.id);
      assert.equal(new Set(ids).size, ids.length, 'each id once');
      const texts = items.map((i) => dedupText(i.text.replace(/^(Objective|Blocker|Next|Notes): /, '')));
      assert.equal(new Set(texts).size, texts.length, `each text once: ${JSON.stringify(texts)}`);
      assert.equal(items.filter((i) => /5433/.test(i.text)).length, 1);
    });

    it('a MEMORY.md that links out of the namespace folder is not shown', async () => {
      const outside = join(tmp.dir, '..', `outside-memory-${process.pid}.md`);
      writeFileSync(outside, '- secret from outside\n');
      extra.push(() => rmSync(outside, { force: true }));
      mkdirSync(join(tmp.dir, 'default'), { recursive: true });
      symlinkSync(outside, cairn.memoryFilePath());
      const brief = await cairn.context();
      assert.doesNotMatch(brief.text, /secret/);
      assert.deepEqual(brief.sections, []);
    });

    it('the query section is present only with a query', async () => {
      await cairn.remember({ text: 'The kiwi service listens on port 7070' });
      const without = await cairn.context();
      assert.ok(!without.sections.some((s) => s.title.startsWith('Relevant to')));
      assert.doesNotMatch(without.text, /Relevant to/);
      assert.equal(without.query, null);
      const blank = await cairn.context({ query: '   ' });
      assert.equal(blank.query, null, 'a blank query is no query');
      const withQuery = await cairn.context({ query: 'kiwi port', budgetTokens: 400 });
      assert.equal(withQuery.query, 'kiwi port');
      // The only memory is shown once: in "Important memories", so the query section has nothing new.
      assert.equal(allItems(withQuery).filter((i) => i.kind === 'memory').length, 1);
    });

    it('cites turns and documents by path:line', async () => {
      const docPath = join(tmp.dir, 'vault', 'notes.md');
      mkdirSync(join(tmp.dir, 'vault'), { recursive: true });
      writeFileSync(docPath, '# Notes\n\nThe walrus cluster runs in eu-west.\n');
      await cairn.store.replaceDocument({ namespace: 'default', sourceId: null, path: docPath, fileHash: 'h1', time: new Date().toISOString(), chunks: [{ heading: 'Notes', text: 'The walrus cluster runs in eu-west.', startLine: 3, endLine: 3 }] });
      await cairn.store.addTurns([{ namespace: 'default', sessionId: 's1', messageId: 'm1', role: 'user', text: 'Is the walrus cluster healthy today?', timestamp: new Date().toISOString(), line: 42, meta: { path: '/transcripts/abc.jsonl' } }]);
      const brief = await cairn.context({ query: 'walrus cluster' });
      const items = allItems(brief);
      const doc = items.find((i) => i.kind === 'document');
      const turn = items.find((i) => i.kind === 'turn');
      assert.equal(doc?.source, `${docPath}:3`);
      assert.equal(turn?.source, '/transcripts/abc.jsonl:42');
      assert.match(brief.text, /\(\d{4}-\d{2}-\d{2}, user\) Is the walrus cluster healthy today\? \[abc\.jsonl:42\]/);
    });

    it('is never over budget, for budgets 50..5000, on a store with many long memories', async () => {
      const inputs = Array.from({ length: 300 }, (_, i) => ({ namespace: 'default', text: longText(i, 40 + (i % 7) * 30), importance: 1 + (i % 10), category: CATS[i % CATS.length]! }));
      await cairn.store.addMemories(inputs);
      await cairn.setState({ objective: 'x '.repeat(240).trim(), blockers: Array.from({ length: 50 }, (_, i) => longText(i, 60).slice(0, 480)), nextActions: Array.from({ length: 50 }, (_, i) => `Next ${i} ` + longText(i + 7, 40).slice(0, 300)), notes: longText(1, 600).slice(0, 4000) });
      mkdirSync(join(tmp.dir, 'default'), { recursive: true });
      writeFileSync(cairn.memoryFilePath(), Array.from({ length: 150 }, (_, i) => `- ${longText(i + 1000, 25)}`).join('\n') + '\n');
      const budgets = [50, 51, 57, 64, 80, 99, 128, 200, 256, 333, 500, 800, 1000, 1500, 2000, 3333, 5000];
      for (const budgetTokens of budgets) {
        for (const query of [undefined, 'staging database migration latency']) {
          const brief = await cairn.context({ budgetTokens, query });
          const real = countTokens(brief.text);
          assert.equal(brief.usedTokens, real, `reported = counted (budget ${budgetTokens})`);
          assert.ok(real <= budgetTokens, `budget ${budgetTokens}${query ? ' +query' : ''}: ${real} tokens`);
          assert.equal(brief.truncated, true);
          if (budgetTokens >= 200) assert.ok(real >= budgetTokens * 0.7, `budget ${budgetTokens}: only ${real} used`);
          if (budgetTokens >= 800) {
            const titles = brief.sections.map((s) => s.title.split(' ')[0]);
            assert.deepEqual(titles, query ? ['Hot', 'MEMORY.md', 'Important', 'Relevant'] : ['Hot', 'MEMORY.md', 'Important'], `every section gets room at ${budgetTokens}`);
          }
        }
      }
    });

    it('validates its options', async () => {
      for (const bad of [{ budgetTokens: 49 }, { budgetTokens: 20_001 }, { budgetTokens: 100.5 }, { query: 'q'.repeat(2001) }, { foo: 1 }, { budgetTokens: '800' }]) {
        await rejectsCode(cairn.context(bad as never), 'INVALID_INPUT');
      }
      await rejectsCode(cairn.context({ namespace: 'Bad NS' }), 'INVALID_NAMESPACE');
    });

    it('measures a typical brief: 200 memories + hot state at the default budget', async (t) => {
      await cairn.store.addMemories(
        Array.from({ length: 200 }, (_, i) => ({
          namespace: 'default',
          text: `${['Decided', 'Learned', 'Ana prefers', 'Fixed', 'Plan:'][i % 5]} ${longText(i, 12 + (i % 4) * 8)}`,
          importance: 3 + (i % 8),
          category: CATS[i % CATS.length]!,
        })),
      );
      await cairn.setState({ objective: 'Ship the REST API with token auth', blockers: ['OpenAPI generator fails on unions'], nextActions: ['add auth matrix tests', 'document cairn serve'], notes: 'Bind to 127.0.0.1 unless tokens exist.' });
      const plain = await cairn.context();
      const queried = await cairn.context({ query: 'deploy billing release' });
      t.diagnostic(`typical brief at the default budget: ${plain.usedTokens} tokens (no query), ${queried.usedTokens} (with a query), ${plain.tokenizer}`);
      assert.ok(plain.usedTokens <= 800 && queried.usedTokens <= 800);
      assert.ok(plain.usedTokens > 500, 'a realistic namespace fills most of the default budget');
    });
  });

  describe('readFile', () => {
    const nsDir = () => join(tmp.dir, 'default');

    it('reads allowed files of the namespace folder, with line windows', async () => {
      await cairn.setState({ objective: 'read me' });
      const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`);
      mkdirSync(join(nsDir(), 'raw'), { recursive: true });
      writeFileSync(join(nsDir(), 'raw', 'realtime-2026-01-01.md'), lines.join('\n') + '\n');
      writeFileSync(cairn.memoryFilePath(), '# Memory\n- one\n- two');

      const mem = await cairn.readFile({ path: 'MEMORY.md' });
      assert.deepEqual(mem, { path: 'MEMORY.md', text: '# Memory\n- one\n- two', from: 1, lines: 3, totalLines: 3 });
      const state = await cairn.readFile({ path: cairn.stateFilePath() });
      assert.equal(state.path, 'SESSION-STATE.md', 'an absolute path inside the folder is shown relative');
      assert.match(state.text, /read me/);
      const win = await cairn.readFile({ path: 'raw/realtime-2026-01-01.md', from: 10, lines: 3 });
      assert.deepEqual(win, { path: 'raw/realtime-2026-01-01.md', text: 'line 10\nline 11\nline 12', from: 10, lines: 3, totalLines: 2500 });
      const capped = await cairn.readFile({ path: 'raw/realtime-2026-01-01.md' });
      assert.equal(capped.lines, 2000, 'at most 2000 lines per call');
      assert.equal(capped.totalLines, 2500);
      const tail = await cairn.readFile({ path: 'raw/realtime-2026-01-01.md', from: 2499, lines: 10 });
      assert.equal(tail.text, 'line 2499\nline 2500');
      const past = await cairn.readFile({ path: 'raw/realtime-2026-01-01.md', from: 9999 });
      assert.deepEqual([past.text, past.lines], ['', 0]);
      const dotted = await cairn.readFile({ path: './raw/../MEMORY.md' });
      assert.equal(dotted.path, 'MEMORY.md', 'dots that stay inside are fine');
    });

    it('caps a call at 2 MB', async () => {
      mkdirSync(nsDir(), { recursive: true });
      writeFileSync(join(nsDir(), 'big.md'), 'x'.repeat(3 * 1024 * 1024) + '\nsecond\n');
      const big = await cairn.readFile({ path: 'big.md' });
      assert.ok(Buffer.byteLength(big.text) <= 2 * 1024 * 1024);
      assert.equal(big.lines, 1);
      assert.equal(big.totalLines, 2);
    });

    it('reads indexed documents of the namespace by their path, and memory:<id>', async () => {
      const docPath = join(tmp.dir, 'vault', 'notes.md');
      mkdirSync(join(tmp.dir, 'vault'), { recursive: true });
      writeFileSync(docPath, '# Notes\nalpha\nbeta\n');
      await cairn.store.replaceDocument({ namespace: 'default', sourceId: null, path: docPath, fileHash: 'h', time: new Date().toISOString(), chunks: [{ heading: '', text: 'alpha beta', startLine: 1, endLine: 3 }] });
      assert.deepEqual(await cairn.readFile({ path: docPath, from: 2, lines: 1 }), { path: docPath, text: 'alpha', from: 2, lines: 1, totalLines: 3 });
      await rejectsCode(cairn.readFile({ path: docPath }, 'other'), 'NOT_FOUND');
      const { memory } = await cairn.remember({ text: 'first line\nsecond line' });
      assert.deepEqual(await cairn.readFile({ path: `memory:${memory.id}`, from: 2 }), { path: `memory:${memory.id}`, text: 'second line', from: 2, lines: 1, totalLines: 2 });
      await rejectsCode(cairn.readFile({ path: `memory:${memory.id}` }, 'other'), 'NOT_FOUND');
      await rejectsCode(cairn.readFile({ path: 'memory:../../etc' }), 'NOT_FOUND');
    });

    it('refuses traversal, other namespaces, symlink escapes and everything else, without saying whether it exists', async () => {
      await cairn.setState({ objective: 'mine' });
      await cairn.setState({ objective: 'theirs' }, 'other');
      const outside = join(tmp.dir, '..', `outside-${process.pid}.md`);
      writeFileSync(outside, 'secret outside\n');
      extra.push(() => rmSync(outside, { force: true }));
      symlinkSync(outside, join(nsDir(), 'escape.md'));
      symlinkSync(join(tmp.dir, 'other', 'SESSION-STATE.md'), join(nsDir(), 'their-state.md'));
      symlinkSync(tmp.dir, join(nsDir(), 'home-link'));
      mkdirSync(join(nsDir(), 'raw'), { recursive: true });
      const refused = [
        '../other/SESSION-STATE.md',
        join(tmp.dir, 'other', 'SESSION-STATE.md'),
        '../config.json',
        '../cairn.db',
        join(tmp.dir, 'cairn.db'),
        'raw/../../cairn.db',
        '/etc/passwd',
        '/etc/hostname',
        outside,
        'escape.md',
        'their-state.md',
        'home-link/cairn.db',
        'home-link/other/SESSION-STATE.md',
        'raw',
        '.',
        'no-such-file.md',
        '../no-such-ns/MEMORY.md',
      ];
      const messages: string[] = [];
      for (const path of refused) {
        const err = await rejectsCode(cairn.readFile({ path }), 'NOT_FOUND');
        messages.push(err.message.replace(JSON.stringify(path), '<p>'));
        assert.doesNotMatch(err.message, /secret|theirs|permission|EACCES|ENOENT|directory/i);
      }
      assert.equal(new Set(messages).size, 1, `one message for every refusal: ${[...new Set(messages)].join(' | ')}`);
      for (const bad of [{ path: 'MEMORY.md\0.txt' }, { path: '' }, { path: 'x'.repeat(5000) }, { path: 'MEMORY.md', lines: 2001 }, { path: 'MEMORY.md', from: 0 }, { path: 'MEMORY.md', extra: 1 }, { path: 7 }]) {
        await rejectsCode(cairn.readFile(bad as never), 'INVALID_INPUT');
      }
    });
  });

  describe('API tokens', () => {
    it('create → verify → list → revoke', async () => {
      assert.equal(await cairn.hasTokens(), false);
      const { token, info } = await cairn.createToken({ namespaces: ['alpha', 'beta', 'alpha'], label: ' ci ' });
      assert.match(token, /^cairn_[A-Za-z0-9_-]{43}$/);
      assert.match(info.id, /^tok_/);
      assert.deepEqual(info.namespaces, ['alpha', 'beta']);
      assert.equal(info.label, 'ci');
      assert.equal(info.lastUsedAt, null);
      assert.equal(await cairn.hasTokens(), true);
      const verified = await cairn.verifyToken(token);
      assert.equal(verified?.id, info.id);
      assert.ok(verified?.lastUsedAt);
      const again = await cairn.verifyToken(token);
      assert.equal(again?.lastUsedAt, verified.lastUsedAt, 'last use is written at most once a minute');
      const listed = await cairn.listTokens();
      assert.deepEqual(listed.map((t) => t.id), [info.id]);
      assert.deepEqual(Object.keys(listed[0]!).sort(), ['createdAt', 'id', 'label', 'lastUsedAt', 'namespaces']);
      for (const wrong of ['', 'cairn_', token.slice(0, -1), token + 'x', token.toUpperCase(), 'Bearer ' + token, 'x'.repeat(10_000)]) {
        assert.equal(await cairn.verifyToken(wrong), null, wrong.slice(0, 20));
      }
      assert.equal(await cairn.revokeToken(info.id), true);
      assert.equal(await cairn.revokeToken(info.id), false);
      assert.equal(await cairn.revokeToken('tok_nope'), false);
      assert.equal(await cairn.verifyToken(token), null, 'a revoked token no longer verifies');
      assert.deepEqual(await cairn.listTokens(), []);
      assert.equal(await cairn.hasTokens(), false);
    });

    it('grants: listed namespaces only, "*" for all', async () => {
      const some = await cairn.createToken({ namespaces: ['alpha'] });
      const all = await cairn.createToken({ namespaces: ['alpha', '*'] });
      assert.deepEqual(all.info.namespaces, ['*']);
      assert.equal(tokenAllows(some.info, 'alpha'), true);
      assert.equal(tokenAllows(some.info, 'beta'), false);
      assert.equal(tokenAllows(all.info, 'anything-else'), true);
      assert.deepEqual((await cairn.verifyToken(all.token))?.namespaces, ['*']);
      for (const bad of [{ namespaces: [] }, { namespaces: ['../x'] }, { namespaces: ['Bad'] }, { namespaces: ['ok'], extra: 1 }, { namespaces: 'alpha' }, {}, { namespaces: ['a'], label: 'l'.repeat(201) }]) {
        await rejectsCode(cairn.createToken(bad as never), 'INVALID_INPUT');
      }
      assert.equal((await cairn.listTokens()).length, 2);
    });

    it('only the hash is stored: the token never appears in the database files', async () => {
      const { token } = await cairn.createToken({ namespaces: ['alpha'], label: 'disk check' });
      await cairn.verifyToken(token);
      await cairn.close();
      const bytes = Buffer.concat(readdirSync(tmp.dir).filter((f) => f.startsWith('cairn.db')).map((f) => readFileSync(join(tmp.dir, f))));
      assert.ok(bytes.includes(Buffer.from('disk check')), 'the files were read (the label is there)');
      assert.ok(bytes.includes(Buffer.from(createHash('sha256').update(token).digest('hex'))), 'the hash is there');
      assert.equal(bytes.includes(Buffer.from(token)), false, 'the token is not');
      assert.equal(bytes.includes(Buffer.from(token.slice('cairn_'.length))), false);
      cairn = await Cairn.open({ home: tmp.dir, embedder: null });
      assert.ok(await cairn.verifyToken(token), 'still verifies after reopening');
    });
  });

  describe('OpenClaw-shaped results', () => {
    it('maps memories, documents and turns to {path, startLine, endLine, score, snippet, source}', async () => {
      const docPath = join(tmp.dir, 'notes.md');
      writeFileSync(docPath, '# A\n\nThe otter pipeline\nspans lines\n');
      await cairn.store.replaceDocument({ namespace: 'default', sourceId: null, path: docPath, fileHash: 'h', time: new Date().toISOString(), chunks: [{ heading: 'A', text: 'The otter pipeline spans lines', startLine: 3, endLine: 4 }] });
      await cairn.store.addTurns([{ namespace: 'default', sessionId: 's', messageId: '1', role: 'user', text: 'how is the otter pipeline', timestamp: new Date().toISOString(), line: 9, meta: { path: '/t/s.jsonl' } }]);
      const { memory } = await cairn.remember({ text: 'The otter pipeline is owned by Ana' });
      const res = await cairn.search('otter pipeline', { limit: 10 });
      const mapped = toOpenClawResults(res.results);
      const byKind = Object.fromEntries(mapped.map((m) => [m.kind, m]));
      assert.deepEqual({ ...byKind.memory, score: 0 }, { path: `memory:${memory.id}`, startLine: 1, endLine: 1, score: 0, snippet: 'The otter pipeline is owned by Ana', source: 'memory', id: memory.id, kind: 'memory' });
      assert.deepEqual([byKind.document!.path, byKind.document!.startLine, byKind.document!.endLine, byKind.document!.source], [docPath, 3, 4, 'memory']);
      // A turn is fetched by id, never through its raw transcript (which may hold redacted secrets).
      assert.deepEqual([byKind.turn!.path, byKind.turn!.startLine, byKind.turn!.endLine, byKind.turn!.source], [`turn:${byKind.turn!.id}`, 1, 1, 'sessions']);
      assert.equal((await cairn.readFile({ path: byKind.turn!.path })).text, 'how is the otter pipeline');
      await assert.rejects(cairn.readFile({ path: '/t/s.jsonl' }), /No readable file/);
      await assert.rejects(cairn.readFile({ path: 'turn:t_doesnotexist' }), /No readable file/);
      for (const m of mapped) assert.equal(typeof m.score, 'number');
      // The memory path reads back through readFile (memory_get).
      assert.equal((await cairn.readFile({ path: byKind.memory!.path })).text, memory.text);
    });
  });
});
