// Consolidation end to end through the service facade, on a real SQLite home with turns captured by
// the real ingest path and judged by the heuristic: the files of each layer exist with content from
// the turns, every cited id resolves, the night belongs to the day it started, a second run changes
// nothing, a late turn updates only its day, the person's section of MEMORY.md survives, jobs not
// due yet wait, and the digests are found by search (layer filter).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { citedIds, jsonl, namespaceFiles, SEVERAL_DAYS, type Line } from '../helpers/consolidation.js';

const tmp = tempDir('cairn-consolidate-');
after(() => tmp.cleanup());
let serial = 0;

// The first two days of SEVERAL_DAYS: 23:30 and 02:00 local of one working night both belong to
// 2026-03-02's night (Berlin is UTC+1 in March 2026, before the switch on the 29th).
const LINES: Line[] = SEVERAL_DAYS.filter((l) => /^[abn]/.test(l.id));

async function setup(timezone = 'Europe/Berlin') {
  const home = join(tmp.dir, `home-${serial++}`);
  mkdirSync(home);
  const cairn = await Cairn.open({ home, config: { timezone, embedder: { provider: 'none' } }, embedder: null });
  const file = join(home, 'session.jsonl');
  writeFileSync(file, '');
  const ingest = async (lines: readonly Line[]) => {
    appendFileSync(file, jsonl(lines));
    const res = await cairn.ingest([file], { format: 'jsonl', namespace: 'work' });
    assert.equal(res.warning, undefined, res.warning);
  };
  const nsDir = join(home, 'work');
  const read = (rel: string) => readFileSync(join(nsDir, rel), 'utf8');
  return { home, cairn, ingest, nsDir, read };
}

const allFiles = (dir: string) => namespaceFiles(dir);

describe('cairn consolidate (service)', () => {
  it('writes the daily, last-night, review, weekly and MEMORY.md files from the turns, each line traceable', async () => {
    const s = await setup();
    try {
      await s.ingest(LINES);
      const result = await s.cairn.consolidate({ namespace: 'work', at: '2026-03-04T08:00:00Z' });
      const paths = result.namespaces[0]!.files.map((f) => f.path);
      for (const p of ['daily/2026-03-02.md', 'daily/2026-03-02-last-night.md', 'reviews/2026-03-02.md', 'daily/2026-03-03.md', 'weekly/2026-W10.md', 'MEMORY.md']) {
        assert.ok(paths.includes(p), `${p} in ${paths.join(', ')}`);
        assert.ok(existsSync(join(s.nsDir, p)), p);
      }
      const day = s.read('daily/2026-03-02.md');
      assert.match(day, /port 6543/);
      assert.doesNotMatch(day, /^- .*\bok\b `/m, 'an acknowledgement is not a point of the day');
      assert.doesNotMatch(day, /reconnect/, 'the night is not in the day file');
      const night = s.read('daily/2026-03-02-last-night.md');
      assert.match(night, /reconnect loop|heartbeat timeout/);
      assert.match(night, /30 second heartbeat/, 'the 02:00 turn belongs to the night that started the day before');
      assert.ok(!existsSync(join(s.nsDir, 'daily/2026-03-03-last-night.md')) || !/30 second heartbeat/.test(s.read('daily/2026-03-03-last-night.md')));
      // Every cited id resolves to a stored memory or turn of the namespace.
      for (const [path, text] of allFiles(s.nsDir)) {
        for (const id of citedIds(text)) {
          const found = id.startsWith('m_') ? await s.cairn.store.getMemory('work', id) : await s.cairn.store.getTurn('work', id);
          assert.ok(found, `${path} cites ${id}, which does not exist`);
        }
      }
      assert.ok(citedIds(day).length >= 2, day);
      const memoryMd = s.read('MEMORY.md');
      assert.ok(memoryMd.split('\n').length <= 151, 'MEMORY.md stays within 150 lines');
      assert.match(memoryMd, /weekly\/2026-W10\.md/);
    } finally {
      await s.cairn.close();
    }
  });

  it('is idempotent: a second run writes nothing and leaves every byte as it was', async () => {
    const s = await setup();
    try {
      await s.ingest(LINES);
      await s.cairn.consolidate({ namespace: 'work', at: '2026-03-04T08:00:00Z' });
      const before = allFiles(s.nsDir);
      const again = await s.cairn.consolidate({ namespace: 'work', at: '2026-03-04T08:00:00Z' });
      assert.deepEqual(again.namespaces[0]!.files.filter((f) => f.changed), []);
      const forced = await s.cairn.consolidate({ namespace: 'work', at: '2026-03-04T08:00:00Z', date: '2026-03-02', force: true });
      assert.ok(forced.namespaces[0]!.files.length > 0);
      assert.deepEqual(allFiles(s.nsDir), before, 'same material → byte-identical files, even when forced');
    } finally {
      await s.cairn.close();
    }
  });

  it('a turn captured late updates the files of its own day only', async () => {
    const s = await setup();
    try {
      await s.ingest(LINES);
      await s.cairn.consolidate({ namespace: 'work', at: '2026-03-04T08:00:00Z' });
      const before = allFiles(s.nsDir);
      await s.ingest([{ id: 'late', session: 's2', timestamp: '2026-03-02T15:00:00Z', content: 'We decided to rotate the staging database password every month from now on, starting with the March release.' }]);
      const run = await s.cairn.consolidate({ namespace: 'work', at: '2026-03-04T09:00:00Z' });
      const changed = run.namespaces[0]!.files.filter((f) => f.changed).map((f) => f.path);
      assert.ok(changed.includes('daily/2026-03-02.md'), changed.join(', '));
      assert.ok(!changed.includes('daily/2026-03-03.md'), changed.join(', '));
      assert.match(s.read('daily/2026-03-02.md'), /rotate the staging database password/);
      assert.equal(s.read('daily/2026-03-03.md'), before.get('daily/2026-03-03.md'));
    } finally {
      await s.cairn.close();
    }
  });

  it('jobs wait until due: no night file before the night, the review once the day is over', async () => {
    const s = await setup();
    try {
      await s.ingest(LINES.filter((l) => l.id.startsWith('a')));
      // 12:00 local on the 2nd: only the day file so far.
      const noon = await s.cairn.consolidate({ namespace: 'work', at: '2026-03-02T11:00:00Z' });
      const paths = noon.namespaces[0]!.files.map((f) => f.path);
      assert.ok(paths.includes('daily/2026-03-02.md'));
      assert.ok(!paths.some((p) => p.startsWith('reviews/') || p.includes('last-night')), paths.join(', '));
      // 22:30 local: nothing new was captured, yet the review is due now (the day stayed pending).
      const evening = await s.cairn.consolidate({ namespace: 'work', at: '2026-03-02T21:30:00Z' });
      assert.ok(evening.namespaces[0]!.files.some((f) => f.path === 'reviews/2026-03-02.md'));
    } finally {
      await s.cairn.close();
    }
  });

  it('keeps the person\'s own section of MEMORY.md byte for byte', async () => {
    const s = await setup();
    try {
      await s.ingest(LINES);
      await s.cairn.consolidate({ namespace: 'work', at: '2026-03-04T08:00:00Z' });
      const md = s.read('MEMORY.md');
      const begin = '<!-- cairn:person:begin -->';
      const end = '<!-- cairn:person:end -->';
      assert.ok(md.includes(begin) && md.includes(end), md);
      const mine = '\nMy own notes: call Ana about the *budget* on Monday.\n| not | a | table |\n';
      writeFileSync(join(s.nsDir, 'MEMORY.md'), md.replace(/<!-- cairn:person:begin -->[\s\S]*?<!-- cairn:person:end -->/, `${begin}${mine}${end}`));
      await s.ingest([{ id: 'c1', session: 's3', timestamp: '2026-03-03T12:00:00Z', content: 'We decided to ship the migration guide on Thursday after the staging port change is verified.' }]);
      await s.cairn.consolidate({ namespace: 'work', at: '2026-03-04T09:00:00Z' });
      assert.ok(s.read('MEMORY.md').includes(`${begin}${mine}${end}`));
    } finally {
      await s.cairn.close();
    }
  });

  it('rejects malformed requests with clear errors and changes nothing', async () => {
    const s = await setup();
    try {
      await s.ingest(LINES);
      for (const bad of [{ date: '2026-02-31' }, { date: 'yesterday' }, { week: '2026-W54' }, { week: '2025-W53' }, { at: 'soon' }, { date: '2026-03-02', week: '2026-W10' }]) {
        await assert.rejects(s.cairn.consolidate({ namespace: 'work', ...bad }), (err: Error & { code?: string }) => err.code === 'INVALID_INPUT', JSON.stringify(bad));
      }
      await assert.rejects(s.cairn.consolidate({ namespace: '../etc' }), (err: Error & { code?: string }) => err.code === 'INVALID_NAMESPACE');
      assert.equal(allFiles(s.nsDir).size, 0);
    } finally {
      await s.cairn.close();
    }
  });
});
