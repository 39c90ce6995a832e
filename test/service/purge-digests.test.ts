// Purge and digests (issue 24): purging a memory removes the digests citing it from the store and
// their generated files from the namespace folder; MEMORY.md and topic pages keep a person's lines
// and lose only the lines citing it; a literal purge rewrites digest rows and files alike. Real
// SQLite file, real files under a temporary home.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import type { NewDigest } from '../../src/core/types.js';
import { PURGED_MARKER } from '../../src/store/store.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';
import { formatPurge } from '../../src/interfaces/cli/commands/purge.js';

const DAY = '2026-01-10T06:00:00.000Z';

describe('purge and digests (service)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let cairn: Cairn;
  let nsDir: string;

  beforeEach(async () => {
    tmp = tempDir();
    cairn = await Cairn.open({ home: join(tmp.dir, 'home'), embedder: new HashEmbedder() });
    nsDir = join(cairn.paths.root, 'default');
  });
  afterEach(async () => {
    await cairn.close();
    tmp.cleanup();
  });

  /** Stores a digest and writes its file as the consolidation would (from what putDigest returns). */
  async function written(kind: NewDigest['kind'], path: string, line: string, ids: string[], extra = ''): Promise<string> {
    const { digest } = await cairn.store.putDigest({
      namespace: 'default', kind, path, periodStart: DAY, periodEnd: '2026-01-11T06:00:00.000Z',
      text: `# ${path}\n\n## Points\n${line}\n${extra}`, sections: [{ heading: 'Points', text: line, sources: ids.map((id) => ({ kind: 'memory', id, time: DAY })) }],
      inputsHash: 'h', generator: 'extractive@1',
    });
    const file = join(nsDir, ...path.split('/'));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, digest.text);
    return file;
  }

  it('purging a memory by id removes the digests citing it and their generated files; MEMORY.md keeps the person\'s lines', async () => {
    const gone = (await cairn.remember({ text: 'The lockbox combination moved to the blue binder on Tuesday' })).memory;
    const kept = (await cairn.remember({ text: 'The ferry leaves at seven' })).memory;
    const daily = await written('daily', 'daily/2026-01-10.md', `- 09:10 The lockbox combination moved to the blue binder \`${gone.id}\``, [gone.id]);
    const weekly = await written('weekly', 'weekly/2026-W02.md', `- ferry leaves at seven \`${kept.id}\``, [kept.id]);
    const memoryMd = await written('memory', 'MEMORY.md', `- lockbox moved \`${gone.id}\``, [gone.id], `\n<!-- my notes -->\n- my own line about the garden\n- ferry at seven \`${kept.id}\`\n`);

    const dry = await cairn.purge({ ids: [gone.id], dryRun: true });
    assert.deepEqual(dry.digests.map((d) => d.path).sort(), ['MEMORY.md', 'daily/2026-01-10.md']);
    assert.deepEqual(dry.deletedFiles, [join('default', 'daily', '2026-01-10.md')]);
    assert.ok(existsSync(daily) && readFileSync(memoryMd, 'utf8').includes(gone.id), 'a dry run changes nothing');

    const report = await cairn.purge({ ids: [gone.id] });
    assert.deepEqual(report.digests, [
      { namespace: 'default', kind: 'memory', path: 'MEMORY.md' },
      { namespace: 'default', kind: 'daily', path: 'daily/2026-01-10.md' },
    ]);
    assert.deepEqual(report.deletedFiles, [join('default', 'daily', '2026-01-10.md')]);
    assert.equal(existsSync(daily), false, 'a generated digest file is deleted');
    assert.ok(report.files.includes(join('default', 'MEMORY.md')), report.files.join(', '));
    const md = readFileSync(memoryMd, 'utf8');
    assert.ok(!md.includes(gone.id) && !md.includes('lockbox'), md);
    assert.match(md, /- my own line about the garden\n- ferry at seven `m_/);
    assert.equal(await cairn.store.getDigest('default', 'daily/2026-01-10.md'), null);
    assert.ok(await cairn.store.getDigest('default', 'weekly/2026-W02.md'));
    assert.ok(existsSync(weekly), 'a digest not citing it stays');
    assert.deepEqual((await cairn.search('lockbox', { mode: 'bm25' })).results, []);
    assert.match(formatPurge(report), /removed digests citing it \(written again by the next consolidation\): MEMORY\.md, daily\/2026-01-10\.md\n.*\n {2}deleted files: default\/daily\/2026-01-10\.md/);
  });

  it('purging a memory an entity page cites deletes its summary.md and items.json; a person\'s file in the folder stays', async () => {
    const gone = (await cairn.remember({ text: 'Ana moved to Lisbon in March' })).memory;
    const summary = await written('entity', 'life/areas/ana/summary.md', `- lives in: Lisbon \`${gone.id}\``, [gone.id]);
    const items = join(dirname(summary), 'items.json');
    const notes = join(dirname(summary), 'notes.md');
    writeFileSync(items, JSON.stringify({ facts: [{ value: 'Lisbon', memoryId: gone.id }] }));
    writeFileSync(notes, 'my own notes\n');
    const report = await cairn.purge({ ids: [gone.id] });
    assert.deepEqual(report.deletedFiles.sort(), [join('default', 'life', 'areas', 'ana', 'items.json'), join('default', 'life', 'areas', 'ana', 'summary.md')]);
    assert.ok(!existsSync(summary) && !existsSync(items));
    assert.equal(readFileSync(notes, 'utf8'), 'my own notes\n');
  });

  it('a literal purge rewrites the digest rows, their search entries and their files', async () => {
    const literal = 'Kestrel-5512-harbour';
    const file = await written('review', 'reviews/2026-01-10.md', `- gate code ${literal} \`m_aaaa\``, ['m_aaaa']);
    const report = await cairn.purge({ text: literal });
    assert.deepEqual(report.rewritten, { digests: 1 });
    assert.deepEqual(report.digests, []);
    assert.equal((await cairn.store.getDigest('default', 'reviews/2026-01-10.md'))!.sections[0]!.text, `- gate code ${PURGED_MARKER} \`m_aaaa\``);
    assert.equal(readFileSync(file, 'utf8').includes(literal), false);
    assert.deepEqual((await cairn.search('Kestrel', { mode: 'bm25' })).results, []);
  });
});
