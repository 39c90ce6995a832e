// Rotation of nightly backups (keepDaily newest local days, then keepWeekly newest ISO weeks of the
// older ones) with an injected clock: local day boundaries in the home's time zone, ISO week 53
// and the week that starts in the old year; manual and pre-restore backups are never rotated.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { backupsDir, type BackupKind } from '../../src/consolidate/backup.js';
import { isoWeekOf, rotateBackups, selectRotation } from '../../src/consolidate/backup-rotation.js';
import { tempDir } from '../helpers/store-fixtures.js';

const info = (createdAt: string, kind: BackupKind = 'daily') => ({ id: `${createdAt}-${kind}`, kind, createdAt });

// Berlin is UTC+1 in winter: E is Monday 00:30 there, still Sunday in UTC.
const A = info('2025-12-28T21:00:00.000Z'); // Sun 28 Dec, 2025-W52
const B = info('2025-12-29T21:00:00.000Z'); // Mon 29 Dec, 2026-W01 (the week starts in the old year)
const C = info('2026-01-01T21:00:00.000Z'); // Thu 1 Jan, 2026-W01
const D = info('2026-01-04T22:30:00.000Z'); // Sun 4 Jan 23:30, 2026-W01
const E = info('2026-01-04T23:30:00.000Z'); // Mon 5 Jan 00:30 Berlin (Sun 4 Jan UTC)
const F = info('2026-01-05T21:00:00.000Z'); // Mon 5 Jan 22:00, 2026-W02
const G = info('2026-01-06T21:00:00.000Z'); // Tue 6 Jan, 2026-W02
const MANUAL = info('2025-06-01T10:00:00.000Z', 'manual');
const UNDO = info('2025-06-02T10:00:00.000Z', 'pre-restore');
const ALL = [MANUAL, A, B, C, D, E, F, G, UNDO];
const ids = (xs: ReadonlyArray<{ id: string }>) => xs.map((x) => x.id);

describe('backup rotation', () => {
  it('ISO weeks: week 53, New Year, the week that begins in December', () => {
    assert.equal(isoWeekOf('2026-12-31'), '2026-W53');
    assert.equal(isoWeekOf('2027-01-01'), '2026-W53');
    assert.equal(isoWeekOf('2027-01-04'), '2027-W01');
    assert.equal(isoWeekOf('2021-01-03'), '2020-W53');
    assert.equal(isoWeekOf('2025-12-29'), '2026-W01');
    assert.equal(isoWeekOf('2025-12-28'), '2025-W52');
  });

  it('keeps the newest of each local day, then the newest of each older ISO week, in the home time zone', () => {
    const berlin = selectRotation(ALL, { keepDaily: 2, keepWeekly: 2, timeZone: 'Europe/Berlin' });
    // Days kept: 6 Jan (G) and 5 Jan (F, newer than E that day); weeks before: W01 (D), W52 (A).
    assert.deepEqual(ids(berlin.keep), ids([G, F, D, A]));
    assert.deepEqual(ids(berlin.remove), ids([E, C, B]));
    // In UTC, E is Sunday 4 January: the newest of 2026-W01 instead of D.
    const utc = selectRotation(ALL, { keepDaily: 2, keepWeekly: 2, timeZone: 'UTC' });
    assert.deepEqual(ids(utc.keep), ids([G, F, E, A]));
    assert.deepEqual(ids(utc.remove), ids([D, C, B]));
  });

  it('never removes manual or pre-restore backups; zero keeps removes every nightly one', () => {
    const none = selectRotation(ALL, { keepDaily: 0, keepWeekly: 0, timeZone: 'UTC' });
    assert.deepEqual(none.keep, []);
    assert.deepEqual(ids(none.remove), ids([G, F, E, D, C, B, A]));
    const weeklyOnly = selectRotation(ALL, { keepDaily: 0, keepWeekly: 1, timeZone: 'UTC' });
    assert.deepEqual(ids(weeklyOnly.keep), ids([G]));
    const plenty = selectRotation(ALL, { keepDaily: 30, keepWeekly: 30, timeZone: 'UTC' });
    assert.deepEqual(ids(plenty.remove), ids([D]), 'only the older of two on one day goes');
    assert.deepEqual(selectRotation([], { keepDaily: 7, keepWeekly: 4, timeZone: 'UTC' }), { keep: [], remove: [] });
  });

  describe('on disk, with the config', () => {
    let tmp: ReturnType<typeof tempDir>;
    let cairn: Cairn;
    beforeEach(async () => {
      tmp = tempDir();
      cairn = await Cairn.open({ home: join(tmp.dir, 'home'), embedder: null, config: { timezone: 'Europe/Berlin', consolidation: { backups: { keepDaily: 2, keepWeekly: 2 } } } });
    });
    afterEach(async () => {
      await cairn.close();
      tmp.cleanup();
    });

    it('nightly backups made over two weeks are rotated by consolidation.backups; manual ones stay', async () => {
      await cairn.remember({ text: 'something to back up' });
      const made = new Map<string, string>();
      for (const b of ALL) made.set(b.id, (await cairn.backupCreate({ kind: b.kind, now: new Date(b.createdAt) })).id);
      const report = await cairn.backupRotate();
      assert.deepEqual(report.removed, [E, C, B].map((b) => made.get(b.id)));
      assert.deepEqual(report.kept, [G, F, D, A].map((b) => made.get(b.id)));
      const left = (await cairn.backupList()).map((b) => b.id);
      assert.deepEqual(left, [G, F, D, A, UNDO, MANUAL].map((b) => made.get(b.id)));
      for (const id of [E, C, B].map((b) => made.get(b.id)!)) assert.equal(existsSync(join(backupsDir(cairn.paths), `cairn-${id}.db`)), false);
      assert.equal(readdirSync(backupsDir(cairn.paths)).length, 6);
      assert.deepEqual((await cairn.backupRotate()).removed, [], 'rotating again removes nothing more');
    });
  });
});
