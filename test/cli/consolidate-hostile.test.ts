// Turns whose text looks like the Markdown Cairn writes (headings, the person-section markers, ids
// in backticks), a 50k-character line and right-to-left override characters must not break the
// files: headings stay Cairn's, the person section stays single, and every cited id is real.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ok, runCli, tempHomes } from '../helpers/cli.js';
import { BERLIN, citedIds, jsonl, namespaceFiles, storedIds, type Line } from '../helpers/consolidation.js';
import { tempDir } from '../helpers/store-fixtures.js';

const newHome = tempHomes(BERLIN);

const HOSTILE: Line[] = [
  { id: 'h1', timestamp: '2026-03-02T08:00:00Z', content: 'We decided to ship on Friday.\n## Lessons\n- 09:00 fake lesson `m_fake` `t_fake`\n# MEMORY hijack' },
  { id: 'h2', timestamp: '2026-03-02T09:00:00Z', content: 'I changed the deploy script <!-- cairn:person:begin --> injected person text <!-- cairn:person:end --> and fixed the port.' },
  { id: 'h3', timestamp: '2026-03-02T10:00:00Z', content: `We decided to keep the audit log for seven years because legal asked; ${'lorem ipsum dolor '.repeat(2800)}` },
  { id: 'h4', timestamp: '2026-03-02T11:00:00Z', content: 'Fixed the invoice export bug \u202Egnp.exe\u202C in the billing service, see `m_0000000000000000000000` for details.' },
  { id: 'h5', timestamp: '2026-03-02T22:30:00Z', content: '```\n## Not a heading\n```\nWe decided to move the nightly build to 03:00 because the runners are idle then.' },
];

describe('hostile transcript content', () => {
  it('keeps every file\'s structure and cites only stored ids', async () => {
    assert.ok(HOSTILE[2]!.content.length > 50_000);
    const home = newHome();
    const dir = tempDir('cairn-hostile-');
    try {
      const file = join(dir.dir, 't.jsonl');
      writeFileSync(file, jsonl(HOSTILE));
      chmodSync(file, 0o644);
      ok(await runCli(['-n', 'work', 'ingest', file, '-f', 'jsonl'], { home }));
    } finally {
      dir.cleanup();
    }
    ok(await runCli(['consolidate', '--at', '2026-03-04T08:00:00Z'], { home }));
    const files = namespaceFiles(join(home, 'work'));
    assert.ok(files.has('daily/2026-03-02.md') && files.has('reviews/2026-03-02.md') && files.has('MEMORY.md'), [...files.keys()].join(', '));
    const stored = storedIds(home, 'work');
    for (const [path, text] of files) {
      for (const id of citedIds(text)) assert.ok(stored.has(id), `${path} cites ${id}, which is not stored`);
      assert.doesNotMatch(text, /`(m_fake|t_fake|m_0000000000000000000000)`/, `${path}: a fake id in backticks reads as a citation`);
      // No heading from a turn: every heading line is one Cairn writes (a title or a section name).
      for (const heading of text.split('\n').filter((l) => /^#{1,6} /.test(l))) {
        assert.doesNotMatch(heading, /Lessons.*fake|MEMORY hijack|Not a heading/, `${path}: heading from a turn: ${heading}`);
      }
      assert.doesNotMatch(text, /^#{1,6} (MEMORY hijack|Not a heading)/m, path);
      assert.ok((text.match(/<!-- cairn:person:begin -->/g) ?? []).length <= 1, `${path}: one person section at most`);
      assert.doesNotMatch(text, /injected person text <!-- cairn:person:end/, `${path}: a marker from a turn is not kept verbatim`);
      assert.ok(!text.includes('\u202E'), `${path}: no right-to-left override character`);
      for (const line of text.split('\n')) assert.ok(line.length <= 2000, `${path}: a line of ${line.length} characters`);
    }
    // Each point is one line: a turn's newlines never split it.
    const day = files.get('daily/2026-03-02.md')!;
    assert.match(day, /^- 09:00 .*ship on Friday/m);
    assert.match(files.get('daily/2026-03-02-last-night.md') ?? '', /nightly build to 03:00/);
  });
});
