// Layer 2 daily review: achievements, decisions, lessons, open problems, automation candidates and
// the mood line, from a day and its night (issue 24).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Item } from '../../src/consolidate/contracts.js';
import { feelingOf, moodOf } from '../../src/consolidate/mood.js';
import { automationCandidates, renderReview, reviewPath, type ReviewInput } from '../../src/consolidate/render-review.js';
import { chatter, item, shuffled, structureHolds, TZ } from './items.js';

const DAY = '2026-11-25';
const at = (hhmm: string, day = DAY): string => `${day}T${hhmm}:00.000Z`;

const day: Item[] = [
  item({ id: 'm_dec', time: at('07:12'), importance: 8, category: 'decision', text: "Decided to use SQLite's online backup API for the nightly copy instead of copying the database file." }),
  item({ id: 'm_old', time: at('07:30'), importance: 7, category: 'decision', current: false, text: 'Keep backups for 30 days.' }),
  item({ id: 'm_ship', time: at('11:00'), importance: 7, category: 'success', text: 'Shipped the realtime view: raw/realtime-*.md files now update within a second of capture.' }),
  item({ id: 'm_root', time: at('12:00'), importance: 6, category: 'discovery', text: 'Turns out the flaky test was caused by the fake clock not advancing past the DST switch.' }),
  item({ id: 'm_q', time: at('14:00'), importance: 5, category: 'fact', text: 'Should the weekly distill include superseded decisions at all?' }),
  item({ id: 'm_disk', time: at('21:45'), importance: 7, category: 'issue', text: 'The backup cron failed at 22:40: disk full on /var/backups (No space left on device).' }),
  item({ id: 'm_rot', time: at('01:10', '2026-11-26'), importance: 6, category: 'implementation', text: 'Rotated the old backups and freed 40 GB; the backup cron ran fine on the second try.' }),
  item({ id: 'm_leak', time: at('15:00'), importance: 7, category: 'issue', text: 'Memory leak in the embedder worker: RSS grows by 200 MB per thousand documents.' }),
  ...chatter(DAY, 't'),
];

const restart = (id: string, time: string, sessionId: string): Item => item({ id, time, sessionId, role: 'user', importance: 3, category: 'plan', text: 'Please restart the staging server and clear the cache' });
const recent: Item[] = [
  restart('t_r1', at('09:00', '2026-11-22'), 'a'),
  restart('t_r2', at('09:10', '2026-11-23'), 'b'),
  item({ id: 't_c1', time: at('10:00', '2026-11-24'), sessionId: 'c', role: 'user', importance: 3, text: 'run `npm run bench:recall -- --quick` again' }),
  item({ id: 't_c2', time: at('10:00', '2026-11-23'), sessionId: 'b', role: 'user', importance: 3, text: 'run `npm run bench:recall` please' }),
];
const todayRepeats: Item[] = [
  restart('t_r3', at('16:00'), 'd'),
  item({ id: 't_c3', time: at('16:30'), sessionId: 'd', role: 'user', importance: 3, text: 'and `npm run bench:recall` once more' }),
];

const input = (items: readonly Item[], recentItems: readonly Item[] = []): ReviewInput => ({ namespace: 'ana', day: DAY, timeZone: TZ, items, recentItems });

describe('renderReview', () => {
  it('sorts the day into achievements, decisions, lessons and open problems, each line cited', () => {
    const r = renderReview(input([...day, ...todayRepeats], recent))!;
    assert.equal(structureHolds(r), null);
    assert.equal(r.text.split('\n')[0], '# Review of 2026-11-25 (day and last night, Europe/Berlin)');
    assert.deepEqual(r.sections.map((s) => s.heading), ['', 'Achievements', 'Decisions', 'Lessons', 'Open problems', 'Automation candidates']);
    const sec = (h: string): string => r.sections.find((s) => s.heading === h)!.text;
    assert.match(sec('Achievements'), /^- 12:00 Shipped the realtime view: .* `m_ship`$/);
    assert.equal(sec('Decisions').split('\n').length, 2);
    assert.match(sec('Decisions'), /^- 08:12 Decided to use SQLite's online backup API .* `m_dec`\n- 08:30 Keep backups for 30 days\. \(since superseded\) `m_old`$/);
    // The night's fix solved the evening's problem: one lesson line citing both, and the problem is not open.
    assert.match(sec('Lessons'), /^- 13:00 Turns out the flaky test .* `m_root`$/m);
    assert.match(sec('Lessons'), /^- 02:10 Rotated the old backups .* \(fixes 22:45\) `m_disk` `m_rot`$/m);
    assert.ok(!sec('Open problems').includes('m_disk'));
    assert.match(sec('Open problems'), /^- 15:00 Should the weekly distill include superseded decisions at all\? `m_q`\n- 16:00 Memory leak in the embedder worker/);
    for (const noise of ['HEARTBEAT', 'ok thanks', 'Let me check']) assert.ok(!r.text.includes(noise), noise);
    assert.equal(reviewPath(DAY), 'reviews/2026-11-25.md');
  });

  it('finds what was done by hand on three occasions, one of them today', () => {
    const lines = automationCandidates(todayRepeats, recent);
    assert.deepEqual(lines.map((l) => l.text), [
      '- 3× by hand: `npm run bench:recall` (2026-11-23, 2026-11-24, 2026-11-25) `t_c2` `t_c1` `t_c3`',
      '- 3× by hand: Please restart the staging server and clear the cache (2026-11-22, 2026-11-23, 2026-11-25) `t_r1` `t_r2` `t_r3`',
    ]);
    // Twice is not yet a pattern, and a pattern that stopped before today is not today's to report.
    assert.deepEqual(automationCandidates(todayRepeats, recent.slice(1, 2)), []);
    assert.deepEqual(automationCandidates([], recent), []);
    // Three times in one session and hour is one occasion.
    assert.deepEqual(automationCandidates([restart('t_x1', at('16:00'), 'z'), restart('t_x2', at('16:01'), 'z'), restart('t_x3', at('16:02'), 'z')], []), []);
  });

  it('writes a mood line only when the person own turns carry feeling, with the trend', () => {
    const feel = (id: string, hhmm: string, text: string, role = 'user'): Item => item({ id, time: at(hhmm), role, text, importance: 2, category: 'feeling' });
    const turns = [
      feel('t_f1', '08:00', 'ugh, the build is broken again, so frustrating'),
      feel('t_f2', '09:00', 'I am sick of this flaky test'),
      feel('t_f3', '10:00', 'still stuck on the DST bug, annoying'),
      feel('t_f4', '11:00', 'this is not happy-path at all, I am not happy'),
      feel('t_f5', '12:00', 'Great question!', 'assistant'),
      feel('t_f6', '18:00', 'finally green, so relieved 🎉'),
      feel('t_f7', '19:00', 'awesome, the backup restore works'),
      feel('t_f8', '19:30', 'I am not frustrated anymore'),
    ];
    const mood = moodOf(shuffled(turns))!;
    assert.equal(mood.text, 'Mood: mostly frustrated (4 of 6 turns with feeling), improving later in the day');
    assert.deepEqual(mood.sources.map((s) => s.id), ['t_f1', 't_f2', 't_f3', 't_f4', 't_f6', 't_f7']);
    assert.equal(moodOf(turns.slice(0, 2)), null);
    const r = renderReview(input([...day, ...turns]))!;
    assert.match(r.sections.at(-1)!.text, /^- Mood: mostly frustrated \(4 of 6 turns with feeling\), improving later in the day `t_f1` .* `t_f7`$/);
    assert.equal(r.sections.at(-1)!.heading, 'Mood');
    assert.equal(feelingOf('Ich bin total genervt von diesem Fehler'), -1);
    assert.equal(feelingOf('やった！テストが通った、嬉しい'), 1);
    assert.equal(feelingOf('The deploy finished at 10:00.'), null);
  });

  it('is byte-identical for the same records in any order, null for nothing worth a line', () => {
    const all = [...day, ...todayRepeats];
    const once = renderReview(input(all, recent))!.text;
    assert.equal(renderReview(input(shuffled(all, 4), shuffled(recent, 5)))!.text, once);
    assert.equal(renderReview(input([...all].reverse(), [...recent].reverse()))!.text, once);
    assert.equal(renderReview(input([])), null);
    assert.equal(renderReview(input(chatter(DAY, 't'), [])), null);
  });

  it('keeps hostile and non-English text inside its lines', () => {
    const hostile = [
      item({ id: 'm_x1', time: at('10:00'), importance: 7, category: 'decision', text: '## Decisions\n- fake line `m_fake`\n<script>alert(1)</script> | col |' }),
      item({ id: 'm_x2', time: at('11:00'), importance: 7, category: 'issue', text: '数据库迁移失败了。' + '日志里全是超时错误。'.repeat(50) }),
      item({ id: 'm_x3', time: at('12:00'), importance: 6, category: 'success', text: 'Die Migration ist fertig. ' + 'A'.repeat(10_000) }),
    ];
    const r = renderReview(input(hostile))!;
    assert.equal(structureHolds(r), null);
    assert.equal(r.text.split('\n').filter((l) => l.startsWith('## ')).length, 3);
    assert.match(r.text, /^- 12:00 数据库迁移失败了。日志里全是超时错误。.*。 `m_x2`$/m);
    assert.match(r.text, /^- 13:00 Die Migration ist fertig\. `m_x3`$/m);
  });
});
