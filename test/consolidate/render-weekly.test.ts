// Layer 2 weekly distill of an ISO week (issue 24).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Item } from '../../src/consolidate/contracts.js';
import { isoWeekDays, renderWeekly, weeklyPath, type WeeklyInput } from '../../src/consolidate/render-weekly.js';
import { chatter, item, shuffled, structureHolds, TZ } from './items.js';

const at = (day: string, hhmm: string): string => `${day}T${hhmm}:00.000Z`;
const MON = '2026-11-23';
const TUE = '2026-11-24';
const WED = '2026-11-25';

const week: Array<{ day: string; items: Item[] }> = [
  {
    day: MON,
    items: [
      item({ id: 'm_a1', time: at(MON, '09:00'), importance: 7, category: 'implementation', text: 'Added the backup rotation to src/consolidate/backup.ts with a unit test.' }),
      item({ id: 'm_a2', time: at(MON, '23:00'), importance: 7, category: 'issue', text: 'The backup cron failed at 00:40: disk full on /var/backups.' }),
      ...chatter(MON, 'tm'),
    ],
  },
  {
    day: TUE,
    items: [
      item({ id: 'm_b1', time: at(TUE, '10:00'), importance: 6, category: 'discovery', text: 'Read the SQLite docs on WAL (https://www.sqlite.org/wal.html): long readers block checkpoints.' }),
      item({ id: 'm_b2', time: at(TUE, '14:00'), importance: 6, category: 'success', text: 'Deployed v2.4 to staging; the nginx config reloaded and the health check is green.' }),
    ],
  },
  {
    day: WED,
    items: [
      item({ id: 'm_c1', time: at(WED, '09:00'), importance: 7, category: 'issue', text: 'The backup cron failed again at 00:45: disk full on /var/backups.' }),
      item({ id: 'm_c2', time: at(WED, '11:00'), importance: 6, category: 'implementation', text: 'Refactored restoreBackup() in src/consolidate/backup.ts to verify the integrity check first.' }),
      item({ id: 'm_c3', time: at(WED, '16:00'), importance: 6, category: 'fact', text: 'Ana is on holiday from 1 to 12 December.' }),
    ],
  },
];

const decisions: Item[] = [
  item({ id: 'm_d1', time: at('2026-11-10', '09:00'), importance: 8, category: 'decision', text: 'Use SQLite for the store; PostgreSQL only for multi-host setups.' }),
  item({ id: 'm_d2', time: at('2026-11-12', '09:00'), importance: 8, category: 'decision', current: false, text: 'Keep backups for 30 days.' }),
  item({ id: 'm_d3', time: at(TUE, '09:00'), importance: 8, category: 'decision', text: 'Keep 7 daily and 4 weekly backups.' }),
];

const input = (days = week, extra: Partial<WeeklyInput> = {}): WeeklyInput => ({ namespace: 'ana', week: '2026-W48', timeZone: TZ, days, decisionsInForce: decisions, ...extra });

describe('renderWeekly', () => {
  it('distills a week: highlights, patterns, what moved, what stalled, decisions in force, days', () => {
    const r = renderWeekly(input())!;
    assert.equal(structureHolds(r), null);
    assert.equal(r.text.split('\n')[0], '# Week 2026-W48 (2026-11-23 – 2026-11-29, Europe/Berlin)');
    assert.deepEqual(r.sections.map((s) => s.heading), ['', 'Highlights', 'Patterns across days', 'What moved', 'What stalled', 'Decisions still in force', 'Days']);
    const sec = (h: string): string => r.sections.find((s) => s.heading === h)!.text;
    assert.match(sec('Highlights'), /^- 2026-11-23 10:00 \*\*change\*\* Added the backup rotation .* `m_a1`$/m);
    assert.match(sec('Patterns across days'), /^- Coding on 2 days \(2026-11-23, 2026-11-25\) `m_a1` `m_c2`$/m);
    assert.match(sec('Patterns across days'), /^- “[^”]*backup[^”]*” on 2 days \(2026-11-23, 2026-11-25\) /m);
    assert.match(sec('What moved'), /^- 2026-11-24 15:00 \*\*result\*\* Deployed v2.4 to staging/m);
    assert.equal(sec('What stalled'), '- **problem** seen 2026-11-23, 2026-11-25: The backup cron failed again at 00:45: disk full on /var/backups. `m_a2` `m_c1`');
    assert.equal(sec('Decisions still in force'), [
      '- 2026-11-10 Use SQLite for the store; PostgreSQL only for multi-host setups. `m_d1`',
      '- 2026-11-24 Keep 7 daily and 4 weekly backups. `m_d3`',
    ].join('\n'));
    assert.equal(sec('Days'), [
      '- [2026-11-23](../daily/2026-11-23.md): 9 records, 2 points (coding 1, ops 1)',
      '- [2026-11-24](../daily/2026-11-24.md): 2 records, 2 points (research 1, ops 1)',
      '- [2026-11-25](../daily/2026-11-25.md): 3 records, 3 points (coding 1, ops 1, chat 1)',
    ].join('\n'));
    assert.ok(!r.text.includes('HEARTBEAT') && !r.text.includes('Keep backups for 30 days'));
    assert.equal(weeklyPath('2026-W48'), 'weekly/2026-W48.md');
  });

  it('counts a problem fixed later in the week as moved, not stalled', () => {
    const fix = item({ id: 'm_fix', time: at(WED, '20:00'), importance: 7, category: 'implementation', text: 'Fixed the backup cron: rotated /var/backups so the disk is no longer full.' });
    const days = week.map((d) => (d.day === WED ? { ...d, items: [...d.items, fix] } : d));
    const r = renderWeekly(input(days))!;
    assert.ok(!r.sections.some((s) => s.heading === 'What stalled'));
    assert.match(r.sections.find((s) => s.heading === 'What moved')!.text, /^- 2026-11-25 21:00 \*\*change\*\* Fixed the backup cron: .* `m_a2` `m_c1` `m_fix`$/m);
  });

  it('knows ISO weeks across year ends and week 53', () => {
    assert.deepEqual([isoWeekDays('2026-W53')[0], isoWeekDays('2026-W53')[6]], ['2026-12-28', '2027-01-03']);
    assert.deepEqual([isoWeekDays('2025-W01')[0], isoWeekDays('2025-W01')[6]], ['2024-12-30', '2025-01-05']);
    assert.equal(isoWeekDays('2027-W01')[0], '2027-01-04');
    assert.throws(() => isoWeekDays('2026-48'), RangeError);
    assert.throws(() => isoWeekDays('2026-W54'), RangeError);
    // Days outside the week are not its days.
    assert.equal(renderWeekly(input(week, { week: '2026-W49' })), null);
  });

  it('is byte-identical in any order, null when the week holds only noise, safe with hostile text', () => {
    const once = renderWeekly(input())!.text;
    const reordered = shuffled(week, 3).map((d) => ({ ...d, items: shuffled(d.items, 11) }));
    assert.equal(renderWeekly(input(reordered, { decisionsInForce: shuffled(decisions, 5) }))!.text, once);
    assert.equal(renderWeekly(input([])), null);
    assert.equal(renderWeekly(input([{ day: MON, items: chatter(MON, 'q') }])), null);
    const hostile = [{ day: MON, items: [item({ id: 'm_h', time: at(MON, '10:00'), importance: 7, category: 'success', text: '# Week\n## Days\n| x | y |\n<img src=x onerror=alert(1)> `m_fake` ' + 'なが'.repeat(5000) }), ...week[0]!.items] }, ...week.slice(1)];
    const r = renderWeekly(input(hostile))!;
    assert.equal(structureHolds(r), null);
    assert.equal(r.text.split('\n').filter((l) => l.startsWith('## Days')).length, 1);
  });
});
