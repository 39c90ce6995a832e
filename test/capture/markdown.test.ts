// Markdown as a read-only source: the chunker's edge cases (headings, fences, front matter, CRLF,
// long paragraphs, empty files) with exact line numbers, then syncing real trees into a real
// SQLite store: first index, no-op re-runs, edits, deletions, layouts, hostile trees, secrets.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chunkMarkdown, type MarkdownChunk } from '../../src/capture/markdown/chunk.js';
import { inMarkdownScope, isMarkdownPath, listMarkdownFiles, syncMarkdown, type SyncMarkdownOptions } from '../../src/capture/markdown/sync.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { IndexEntry } from '../../src/store/store.js';
import { indexTerms } from '../helpers/index-terms.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { HANG_GUARD_MS, ROOT, assertBuilt } from '../helpers/cli.js';
import { unprivileged } from '../helpers/cli-as.js';

const NS = 'notes';
/** One sync through the built library in a child process (see the unreadable-file test). */
const SYNC_SCRIPT = join(ROOT, 'test', 'capture', 'fixtures', 'markdown-sync.mjs');
const tmp = tempDir('cairn-markdown-');
after(() => tmp.cleanup());
let n = 0;

/** Every chunk's text lies within lines startLine..endLine of the file (CR and BOM aside). */
function assertLines(file: string, chunks: readonly MarkdownChunk[]): void {
  const lines = file.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const c of chunks) {
    assert.ok(c.startLine >= 1 && c.endLine >= c.startLine && c.endLine <= lines.length, `lines ${c.startLine}..${c.endLine}`);
    const span = lines.slice(c.startLine - 1, c.endLine).join('\n');
    assert.ok(span.includes(c.text), `chunk not within lines ${c.startLine}..${c.endLine}:\n${c.text}\n---\n${span}`);
    assert.ok(span.startsWith(c.text.slice(0, 20)) || c.startLine === c.endLine, 'a chunk starts where its first line starts');
    assert.notEqual(c.text.trim(), '');
  }
}

function chunks(file: string, maxChars?: number): MarkdownChunk[] {
  const out = chunkMarkdown(file, maxChars === undefined ? {} : { maxChars });
  assertLines(file, out);
  return out;
}

const words = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `word${from + i}`).join(' ');

describe('chunkMarkdown', () => {
  it('splits at ATX headings, keeps the heading trail, starts each section at its heading line', () => {
    const file = [
      'Intro before any heading.',
      '',
      '# Projects',
      '',
      '## Staging ##',
      'The staging database listens on port 5433.',
      '',
      '### Access',
      'Ask Ana for credentials.',
      '## Production',
      'Port 5432.',
      '# Pets',
      'A cat named Marmalade.',
      '#hashtag is not a heading',
      '    # indented four: code, not a heading',
    ].join('\n');
    const out = chunks(file);
    assert.deepEqual(
      out.map((c) => [c.heading, c.startLine, c.endLine]),
      [
        ['', 1, 1],
        ['Projects > Staging', 5, 6],
        ['Projects > Staging > Access', 8, 9],
        ['Projects > Production', 10, 11],
        ['Pets', 12, 15],
      ],
    );
    assert.equal(out[1]!.text, '## Staging ##\nThe staging database listens on port 5433.');
    assert.match(out[4]!.text, /#hashtag is not a heading/);
  });

  it('never splits inside fenced code, and a # inside a fence is not a heading', () => {
    const code = Array.from({ length: 40 }, (_, i) => `# comment ${i}\nrun step ${i}`).join('\n\n');
    const file = ['# Setup', 'Before the code.', '', '```sh', code, '```', '', 'After the code.', '', '~~~~', '# tilde fenced', '~~~', 'still inside', '~~~~', '## Next', 'done'].join(
      '\n',
    );
    const out = chunks(file, 200);
    assert.ok(out.every((c) => !c.heading.includes('comment') && !c.heading.includes('tilde')));
    const fenced = out.find((c) => c.text.includes('# comment 0'))!;
    assert.ok(fenced.text.startsWith('```sh') && fenced.text.endsWith('```'), 'the whole fence is one chunk');
    assert.ok(fenced.text.includes('# comment 39'));
    assert.ok(out.some((c) => c.text.includes('# tilde fenced') && c.text.includes('still inside')));
    assert.equal(out[out.length - 1]!.heading, 'Setup > Next');
    // An unclosed fence runs to the end of the file: no headings after it.
    const unclosed = chunks('# A\ntext\n```\n# B\nmore');
    assert.deepEqual(unclosed.map((c) => c.heading), ['A']);
  });

  it('front matter is metadata: not a chunk; its title and tags lead the first heading', () => {
    const file = ['---', 'title: "Staging notes"', 'tags:', '  - infra', '  - "#db"', 'secret_thing: ignored', '---', 'The port is 5433.', '# Details', 'More.'].join('\n');
    const out = chunks(file);
    assert.deepEqual(out.map((c) => [c.heading, c.text, c.startLine]), [
      ['Staging notes #infra #db', 'The port is 5433.', 8],
      ['Details', '# Details\nMore.', 9],
    ]);
    // Inline tags; a first heading equal to the title is not repeated.
    assert.equal(chunks('---\ntitle: Plan\ntags: [a, b]\n---\n# Plan\nx')[0]!.heading, '#a #b > Plan');
    // Only front matter: nothing to index.
    assert.deepEqual(chunks('---\ntitle: Empty\n---\n'), []);
    // A leading thematic break around prose is content, and so is an unclosed block.
    assert.equal(chunks('---\nJust some prose here, not YAML at all.\n---\nmore')[0]!.startLine, 1);
    assert.equal(chunks('---\ntitle: x\nno end')[0]!.startLine, 1);
  });

  it('CRLF files give the same chunks and lines as LF, without carriage returns', () => {
    const lf = '\uFEFF# A\r\nalpha\r\n\r\n## B\r\nbeta\r\n```\r\n# c\r\n```\r\n'.replace(/\r/g, '');
    const crlf = lf.replace(/\n/g, '\r\n');
    const a = chunks(lf);
    const b = chunks(crlf);
    assert.deepEqual(b, a);
    assert.ok(b.every((c) => !c.text.includes('\r') && !c.heading.includes('\r')));
    assert.equal(a[0]!.text, '# A\nalpha');
  });

  it('packs paragraphs of a long section up to maxChars; a huge paragraph is cut at word boundaries', () => {
    const paras = Array.from({ length: 12 }, (_, i) => words(8, i * 10));
    const file = ['# Long', '', ...paras.flatMap((p) => [p, ''])].join('\n');
    const out = chunks(file, 200);
    assert.ok(out.length > 1);
    assert.ok(out.every((c) => c.heading === 'Long'));
    assert.ok(out.slice(1).every((c) => c.text.length <= 200), 'packed chunks fit');
    assert.ok(out[0]!.text.startsWith('# Long'));
    // Every paragraph lands whole in exactly one chunk.
    for (const p of paras) assert.equal(out.filter((c) => c.text.includes(p)).length, 1, p);

    const long = words(400); // one line of ~3.1k characters
    const cut = chunks(`# One\n${long}\n`, 300);
    assert.ok(cut.length >= 10);
    assert.ok(cut.every((c) => c.startLine <= 2 && c.endLine === 2));
    assert.ok(cut.slice(1).every((c) => c.text.length <= 300));
    const rejoined = cut.map((c) => c.text.replace(/^# One\n/, '')).join(' ');
    assert.equal(rejoined, long, 'no word lost or split');
    // A single word longer than the limit is cut mid-word as a last resort.
    const blob = chunks('x'.repeat(50), 20);
    assert.deepEqual(blob.map((c) => c.text.length), [20, 20, 10]);
  });

  it('keeps an armoured key block in one chunk so redaction sees it whole', () => {
    const body = Array.from({ length: 30 }, () => 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7').join('\n');
    const file = `# Keys\nnotes before\n-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\nnotes after`;
    const out = chunks(file, 300);
    const key = out.find((c) => c.text.includes('BEGIN PRIVATE KEY'))!;
    assert.ok(key.text.includes('END PRIVATE KEY'));
  });

  it('empty, blank and heading-only files give no chunks', () => {
    assert.deepEqual(chunkMarkdown(''), []);
    assert.deepEqual(chunkMarkdown('\n\n   \r\n\t\n'), []);
    assert.deepEqual(chunkMarkdown('# A\n## B\n\n### C\n# D'), []);
    // An empty section between two full ones leaves no hole in the trail.
    assert.deepEqual(chunks('# A\n## B\n## C\ntext').map((c) => c.heading), ['A > C']);
  });
});

/** A temp tree with a fresh store; `write` creates files (folders too) under the root. */
function setup(layout?: SyncMarkdownOptions['layout']) {
  const dir = join(tmp.dir, `case-${n++}`);
  const root = join(dir, 'vault');
  mkdirSync(root, { recursive: true });
  const store = new SqliteStore(join(dir, 'cairn.db'));
  const write = (rel: string, content: string | Buffer) => {
    const path = join(root, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
    return path;
  };
  const sync = (over: Partial<SyncMarkdownOptions> = {}) => syncMarkdown(store, { root, namespace: NS, sourceId: null, layout, ...over });
  const search = async (word: string): Promise<IndexEntry[]> => {
    const hits = await store.keywordSearch(NS, indexTerms([word]), 50, { kinds: ['document'] });
    return store.getEntries(NS, hits.map((h) => h.seq));
  };
  const files = async () => (await store.documentFiles(NS)).map((f) => relative(root, f.path));
  return { dir, root, store, write, sync, search, files };
}

describe('syncMarkdown', () => {
  it('indexes a tree, then a re-run changes nothing, an edit re-indexes one file, a deletion drops one', async () => {
    const s = setup();
    const memory = s.write('MEMORY.md', '# Projects\n\n## Staging\nThe staging database listens on port 5433.\n');
    s.write('daily/2026-01-10.md', 'Walked the dog.\n\n# Evening\nRead about the walrus.\n');
    s.write('daily/2026-01-11.md', 'Fed the walrus at the zoo.\n');
    const past = new Date('2025-06-01T10:00:00.000Z');
    utimesSync(memory, past, past);

    const first = await s.sync();
    assert.deepEqual({ ...first, redactions: undefined }, { files: 3, changed: 3, unchanged: 0, removed: 0, chunks: 4, redactions: undefined, errors: [] });
    const [staging] = await s.search('staging');
    assert.equal(staging!.text, '## Staging\nThe staging database listens on port 5433.');
    assert.equal(staging!.time, past.toISOString(), "the file's mtime is the chunk's time");
    assert.deepEqual(staging!.provenance, [{ source: 'markdown', path: memory, line: 3, endLine: 4, heading: 'Projects > Staging' }]);
    assert.equal((await s.search('walrus')).length, 2);
    assert.equal((await s.store.namespaceStats())[0]!.documents, 4);

    const seqs = (await s.store.filterEntries(NS, {}, 100)).sort();
    const again = await s.sync();
    assert.deepEqual([again.files, again.changed, again.unchanged, again.removed, again.chunks], [3, 0, 3, 0, 0]);
    assert.deepEqual((await s.store.filterEntries(NS, {}, 100)).sort(), seqs, 'nothing rewritten');

    s.write('daily/2026-01-11.md', 'Fed the penguins instead.\n');
    const edited = await s.sync();
    assert.deepEqual([edited.changed, edited.unchanged, edited.removed, edited.chunks], [1, 2, 0, 1]);
    assert.equal((await s.search('walrus')).length, 1);
    assert.equal((await s.search('penguins')).length, 1);

    unlinkSync(join(s.root, 'daily/2026-01-10.md'));
    const removed = await s.sync();
    assert.deepEqual([removed.files, removed.changed, removed.unchanged, removed.removed], [2, 0, 2, 1]);
    assert.deepEqual(await s.search('walrus'), []);
    assert.deepEqual(await s.files(), ['MEMORY.md', 'daily/2026-01-11.md']);
    await s.store.close();
  });

  it("openclaw-workspace layout: MEMORY.md and memory/**/*.md only", async () => {
    const s = setup('openclaw-workspace');
    for (const rel of ['MEMORY.md', 'memory/2026-01-10.md', 'memory/topics/db.md', 'memory/.drafts/x.md', 'README.md', 'notes/other.md', 'AGENTS.md', 'memory/notes.txt']) {
      s.write(rel, `content of ${rel}\n`);
    }
    const report = await s.sync();
    assert.equal(report.files, 3);
    assert.deepEqual(await s.files(), ['MEMORY.md', 'memory/2026-01-10.md', 'memory/topics/db.md']);
    // The same root as a tree would take everything; switching back drops what the layout excludes.
    await s.sync({ layout: 'tree' });
    assert.equal((await s.files()).length, 6);
    const back = await s.sync();
    assert.equal(back.removed, 3);
    assert.deepEqual(await s.files(), ['MEMORY.md', 'memory/2026-01-10.md', 'memory/topics/db.md']);
    // Lower-case memory.md counts too.
    const t = setup('openclaw-workspace');
    t.write('memory.md', 'lower case\n');
    await t.sync();
    assert.deepEqual(await t.files(), ['memory.md']);
    await s.store.close();
    await t.store.close();
  });

  it('skips dot folders and node_modules, follows no directory symlink (a loop cannot hang), reads linked files', { timeout: HANG_GUARD_MS }, async () => {
    const s = setup();
    s.write('note.md', 'kept note\n');
    s.write('.obsidian/workspace.md', 'tool state\n');
    s.write('.git/x.md', 'git\n');
    s.write('.trash/old.md', 'trash\n');
    s.write('node_modules/pkg/README.md', 'dependency\n');
    s.write('sub/deeper/n.md', 'deep note\n');
    s.write('sub/picture.png', 'not markdown');
    symlinkSync(s.root, join(s.root, 'sub/loop'));
    symlinkSync(join(s.root, 'sub'), join(s.root, 'sub/deeper/up'));
    const outside = join(s.dir, 'outside.md');
    writeFileSync(outside, 'linked from outside\n');
    symlinkSync(outside, join(s.root, 'linked.md'));
    symlinkSync(join(s.dir, 'missing.md'), join(s.root, 'dangling.md'));
    const report = await s.sync();
    assert.deepEqual(report.errors, []);
    assert.deepEqual(await s.files(), ['linked.md', 'note.md', 'sub/deeper/n.md']);
    assert.equal((await s.search('outside'))[0]!.text, 'linked from outside');
    await s.store.close();
  });

  it('an oversized file is reported and skipped; the others are indexed; its old chunks stay', async () => {
    const s = setup();
    s.write('small.md', 'small note about otters\n');
    const big = s.write('big.md', 'big note about otters\n');
    assert.equal((await s.sync()).chunks, 2);
    s.write('big.md', ('otters ' + 'x'.repeat(90) + '\n\n').repeat(64 * 1024)); // ~6.3 MB
    s.write('small.md', 'small note about otters, edited\n');
    const report = await s.sync();
    assert.equal(report.errors.length, 1);
    assert.equal(report.errors[0]!.path, big);
    assert.match(report.errors[0]!.message, /larger than 5 MB/);
    assert.deepEqual([report.files, report.changed, report.removed], [1, 1, 0]);
    assert.deepEqual((await s.search('otters')).map((e) => e.text).sort(), ['big note about otters', 'small note about otters, edited']);
    await s.store.close();
  });

  it('never writes into the root: bytes, mtimes and the listing are identical after syncing', async () => {
    const s = setup();
    s.write('a.md', '# A\nalpha\n');
    s.write('b/c.md', 'gamma\r\n');
    s.write('b/d.txt', 'not markdown');
    const snapshot = () => {
      const out: Record<string, { bytes: string; mtime: number }> = {};
      const walk = (dir: string) => {
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          const p = join(dir, e.name);
          if (e.isDirectory()) walk(p);
          else out[relative(s.root, p)] = { bytes: readFileSync(p).toString('base64'), mtime: statSync(p).mtimeMs };
        }
        out[relative(s.root, dir) + '/'] = { bytes: '', mtime: statSync(dir).mtimeMs };
      };
      walk(s.root);
      return out;
    };
    const before = snapshot();
    await s.sync();
    s.write('a.md', '# A\nalpha, edited\n');
    const edited = snapshot();
    await s.sync();
    await s.sync();
    assert.deepEqual(snapshot(), edited);
    assert.notDeepEqual(before, edited);
    await s.store.close();
  });

  it('redacts secrets inside notes before they are stored', async () => {
    const s = setup();
    const token = 'ghp_Q7x9Lm2Kp4Vt8Rz1Bn6Cw3Dy5Fh0Gj8Hk2M';
    s.write('ops.md', `# Deploy\nThe walrus bot uses ${token} to push.\n\n## Db\npassword: hunter2hunter2\n`);
    const report = await s.sync();
    assert.deepEqual(report.redactions, { 'github-token': 1, 'env-secret': 1 });
    const [e] = await s.search('walrus');
    assert.equal(e!.text, '# Deploy\nThe walrus bot uses [REDACTED:github-token] to push.');
    const all = await s.store.getEntries(NS, await s.store.filterEntries(NS, {}, 10));
    assert.ok(all.every((x) => !x.text.includes(token) && !x.text.includes('hunter2')));
    const missing = await s.store.entriesMissingVector('m', 10, NS);
    assert.ok(missing.every((x) => !x.text.includes(token) && !x.text.includes('hunter2')), 'what gets embedded is redacted too');
    await s.store.close();
  });

  it('a single-file root, invalid UTF-8 decoded lossily, and deleting the file drops it', async () => {
    const s = setup();
    const path = s.write('only.md', Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' au lait, with narwhals\n')]));
    s.write('ignored.md', 'not under the single-file root\n');
    const report = await s.sync({ root: path });
    assert.deepEqual([report.files, report.chunks, report.errors.length], [1, 1, 0]);
    assert.equal((await s.search('narwhals'))[0]!.text, 'caf\uFFFD au lait, with narwhals');
    assert.deepEqual(await s.files(), ['only.md']);
    rmSync(path);
    const gone = await s.sync({ root: path });
    assert.equal(gone.removed, 1);
    assert.equal(gone.errors.length, 1, 'the missing root is reported');
    assert.deepEqual(await s.files(), []);
    await s.store.close();
  });

  it('sources are separate: syncing one never removes another source\'s files', async () => {
    const s = setup();
    const a = await s.store.addSource(NS, 'markdown', join(s.root, 'a'));
    const b = await s.store.addSource(NS, 'markdown', join(s.root, 'b'));
    s.write('a/one.md', 'one\n');
    s.write('b/two.md', 'two\n');
    await s.sync({ root: join(s.root, 'a'), sourceId: a.id });
    await s.sync({ root: join(s.root, 'b'), sourceId: b.id });
    await s.sync({ root: s.root, sourceId: null, layout: 'openclaw-workspace' }); // nothing of its own
    assert.deepEqual(await s.files(), ['a/one.md', 'b/two.md']);
    rmSync(join(s.root, 'b'), { recursive: true });
    const r = await s.sync({ root: join(s.root, 'a'), sourceId: a.id });
    assert.equal(r.removed, 0);
    assert.equal((await s.sync({ root: join(s.root, 'b'), sourceId: b.id })).removed, 1);
    assert.deepEqual(await s.files(), ['a/one.md']);
    await s.store.close();
  });

  it('a FIFO named .md does not hang the sync', { skip: process.platform === 'win32', timeout: HANG_GUARD_MS }, async () => {
    const s = setup();
    s.write('real.md', 'real\n');
    try {
      execFileSync('mkfifo', [join(s.root, 'pipe.md')]);
    } catch {
      return; // no mkfifo here
    }
    const report = await s.sync();
    assert.deepEqual(await s.files(), ['real.md']);
    assert.deepEqual(report.errors, []);
    await s.store.close();
  });

  // Root reads everything, so the second sync runs in a child that mode bits apply to (as nobody,
  // or as root without the capabilities that bypass them): never skipped, CI runs as root.
  it('an unreadable file or folder is reported, the rest indexed, and its old chunks kept', { timeout: HANG_GUARD_MS }, async () => {
    assertBuilt();
    const runner = unprivileged();
    assert.ok(runner, 'no way to run a child that file mode bits apply to (not root, nobody, or setpriv)');
    const s = setup();
    const locked = s.write('locked.md', 'locked note about lynxes\n');
    s.write('private/inner.md', 'private note about lynxes\n');
    s.write('open.md', 'open note\n');
    await s.sync();
    s.write('locked.md', 'changed');
    s.write('open.md', 'open note about lynxes\n');
    const privateDir = join(s.root, 'private');
    runner.grant(s.dir);
    chmodSync(locked, 0o000);
    chmodSync(privateDir, 0o000);
    try {
      const child = spawnSync(runner.command, [...runner.prefix, SYNC_SCRIPT, join(s.dir, 'cairn.db'), s.root, NS], {
        encoding: 'utf8',
        timeout: HANG_GUARD_MS,
        ...(runner.uid !== undefined ? { uid: runner.uid, gid: runner.gid } : {}),
      });
      assert.equal(child.status, 0, `sync as ${runner.who}: ${child.stderr}`);
      const report = JSON.parse(child.stdout) as Awaited<ReturnType<typeof s.sync>>;
      assert.deepEqual(report.errors.map((e) => e.path).sort(), [locked, privateDir]);
      assert.deepEqual([report.files, report.changed, report.removed], [1, 1, 0]);
      assert.deepEqual((await s.search('lynxes')).map((e) => e.text).sort(), ['locked note about lynxes', 'open note about lynxes', 'private note about lynxes']);
    } finally {
      chmodSync(locked, 0o644);
      chmodSync(privateDir, 0o755);
    }
    await s.store.close();
  });
});

describe('walk helpers', () => {
  it('isMarkdownPath and inMarkdownScope agree with the walk', async () => {
    assert.ok(isMarkdownPath('/a/B.MD') && isMarkdownPath('x.markdown') && !isMarkdownPath('/a.md/x.txt'));
    const root = '/ws';
    assert.ok(inMarkdownScope(root, '/ws/MEMORY.md', 'openclaw-workspace'));
    assert.ok(inMarkdownScope(root, '/ws/memory/a/b.md', 'openclaw-workspace'));
    assert.ok(!inMarkdownScope(root, '/ws/notes/b.md', 'openclaw-workspace'));
    assert.ok(!inMarkdownScope(root, '/ws/README.md', 'openclaw-workspace'));
    assert.ok(!inMarkdownScope(root, '/ws/memory/.x/b.md', 'openclaw-workspace'));
    assert.ok(inMarkdownScope(root, '/ws/notes/b.md'));
    assert.ok(!inMarkdownScope(root, '/ws/.obsidian/b.md'));
    assert.ok(!inMarkdownScope(root, '/ws/x/node_modules/b.md'));
    assert.ok(!inMarkdownScope(root, '/other/b.md'));
    assert.ok(!inMarkdownScope(root, '/ws/b.txt'));
    assert.ok(inMarkdownScope('/ws/one.md', '/ws/one.md'));
    assert.ok(!inMarkdownScope('/ws/one.md', '/ws/two.md'));
    const listing = await listMarkdownFiles(join(tmp.dir, 'does-not-exist'));
    assert.deepEqual([listing.files, listing.unreadable, listing.errors.length], [[], [], 1]);
  });
});
