// Layer 3 daily and last-night notes rendered from a window's records (issue 24).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Item } from '../../src/consolidate/contracts.js';
import { dailyNotePath, renderDailyNote, type DailyNoteInput } from '../../src/consolidate/render-daily.js';
import { chatter, item, shuffled, structureHolds, TZ } from './items.js';

const DAY = '2026-11-25';
const bounds = { dayStart: '07:00', nightStart: '22:00' };
// Berlin is UTC+1 in November: 09:05Z is 10:05 local.
const at = (hhmm: string, day = DAY): string => `${day}T${hhmm}:00.000Z`;

const codingDay: Item[] = [
  item({ id: 'm_dec', time: at('07:12'), importance: 8, category: 'decision', text: "Decided to use SQLite's online backup API for the nightly copy instead of copying the database file." }),
  item({ id: 't_err', time: at('08:30'), role: 'tool', importance: 5, category: 'issue', text: "TypeError: Cannot read properties of undefined (reading 'source')\n    at renderTurn (src/consolidate/realtime-view.ts:61:20)" }),
  item({ id: 'm_fix1', time: at('09:05'), importance: 7, category: 'implementation', text: 'Fixed the crash in renderTurn: meta can be missing on imported turns; added a guard and a test in test/consolidate/realtime.test.ts.' }),
  item({ id: 'm_fix2', time: at('09:06'), importance: 6, category: 'implementation', text: 'Fixed the renderTurn crash: meta can be missing on imported turns, added a guard and a test in test/consolidate/realtime.test.ts' }),
  item({ id: 'm_wal', time: at('13:20'), importance: 6, category: 'discovery', text: 'Read the SQLite docs on WAL (https://www.sqlite.org/wal.html): a long-lived reader blocks checkpoints, so the backup must not hold a read transaction for minutes.' }),
  item({ id: 'm_bday', time: at('17:40'), importance: 6, category: 'fact', text: "Ana's birthday is on 3 December; she would like a book about birds." }),
  item({ id: 'm_de', time: at('15:00'), importance: 7, category: 'decision', text: 'Wir haben beschlossen, die Sicherungen sieben Tage lang aufzubewahren. Danach werden sie gelöscht.' }),
  item({ id: 'm_ja', time: at('16:00'), importance: 6, category: 'plan', text: 'テストが不安定なので、関数のリファクタは金曜日に延期した。' + '理由はまだ調査中。'.repeat(40) }),
  ...chatter(DAY, 't'),
];

const opsNight: Item[] = [
  item({ id: 'm_dep', time: at('22:30'), importance: 6, category: 'success', text: 'Deployed v2.4 to staging; nginx config reloaded and the health check is green.' }),
  item({ id: 'm_disk', time: at('23:45'), importance: 7, category: 'issue', text: 'The backup cron failed at 00:40: disk full on /var/backups (No space left on device).' }),
  item({ id: 'm_rot', time: at('01:10', '2026-11-26'), importance: 6, category: 'implementation', text: 'Rotated the old backups and freed 40 GB; the backup cron ran fine on the second try.' }),
  item({ id: 't_hb', time: at('02:00', '2026-11-26'), role: 'assistant', text: 'HEARTBEAT_OK' }),
  item({ id: 't_gn', time: at('02:05', '2026-11-26'), text: 'good night', role: 'user' }),
];

const dayInput = (items: readonly Item[], extra: Partial<DailyNoteInput> = {}): DailyNoteInput => ({ namespace: 'ana', day: DAY, part: 'day', timeZone: TZ, bounds, items, ...extra });

describe('renderDailyNote', () => {
  it('writes a coding day grouped by activity, by time, each line citing its records', () => {
    const r = renderDailyNote(dayInput(codingDay))!;
    assert.equal(structureHolds(r), null);
    const lines = r.text.split('\n');
    assert.equal(lines[0], '# 2026-11-25 · day (07:00–22:00, Europe/Berlin)');
    assert.deepEqual(r.sections.map((s) => s.heading), ['', 'Coding', 'Research', 'Ops', 'Chat']);
    const coding = r.sections.find((s) => s.heading === 'Coding')!.text.split('\n');
    assert.match(coding[0]!, /^- 09:30 \*\*problem\*\* TypeError: Cannot read properties of undefined \(reading 'source'\) at renderTurn \(src\/consolidate\/realtime-view\.ts:61:20\) `t_err`$/);
    assert.match(coding[1]!, /^- 10:05 \*\*change\*\* Fixed the crash in renderTurn: .* `m_fix1` `m_fix2`$/);
    assert.match(coding[2]!, /^- 17:00 \*\*plan\*\* テストが不安定なので、関数のリファクタは金曜日に延期した。理由はまだ調査中。.*。 `m_ja`$/);
    assert.ok(coding[2]!.length < 260);
    assert.match(r.text, /^- 08:12 \*\*decision\*\* Decided to use SQLite's online backup API .* `m_dec`$/m);
    assert.match(r.text, /^- 16:00 \*\*decision\*\* Wir haben beschlossen, die Sicherungen sieben Tage lang aufzubewahren\. Danach werden sie gelöscht\. `m_de`$/m);
    assert.match(r.sections.find((s) => s.heading === 'Research')!.text, /^- 14:20 \*\*finding\*\* Read the SQLite docs on WAL/);
    assert.match(r.sections.find((s) => s.heading === 'Chat')!.text, /^- 18:40 Ana's birthday is on 3 December/);
    for (const noise of ['HEARTBEAT', 'ok thanks', '👍', 'Let me check', '→ tool', 'helpful coding agent']) assert.ok(!r.text.includes(noise), noise);
    assert.deepEqual(r.sections.find((s) => s.heading === 'Coding')!.sources.map((s) => s.id), ['t_err', 'm_fix1', 'm_fix2', 'm_ja']);
    assert.ok(!r.text.includes('more record'));
    assert.equal(dailyNotePath(DAY, 'day'), 'daily/2026-11-25.md');
  });

  it('writes an ops night that runs past midnight in time order', () => {
    const r = renderDailyNote(dayInput(opsNight, { part: 'night' }))!;
    assert.equal(structureHolds(r), null);
    assert.equal(r.text.split('\n')[0], '# 2026-11-25 · last night (22:00 → 07:00 on 2026-11-26, Europe/Berlin)');
    assert.deepEqual(r.sections.map((s) => s.heading), ['', 'Ops']);
    const times = r.sections[1]!.text.split('\n').map((l) => l.slice(2, 7));
    assert.deepEqual(times, ['23:30', '00:45', '02:10']);
    assert.ok(!r.text.includes('good night') && !r.text.includes('HEARTBEAT'));
    assert.equal(dailyNotePath(DAY, 'night'), 'daily/2026-11-25-last-night.md');
  });

  it('caps the note and says how many more records the window holds and where', () => {
    const many = Array.from({ length: 60 }, (_, k) =>
      item({ id: `m_n${String(k).padStart(2, '0')}`, time: new Date(Date.parse(at('07:00')) + k * 10 * 60_000).toISOString(), importance: 5 + (k % 4), category: 'fact', text: `Note ${k}: the ${['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'][k % 10]} subsystem ${k} reports ${k * 7} items in queue q${k}.` }),
    );
    const r = renderDailyNote(dayInput([...many, ...chatter(DAY, 't')]))!;
    assert.equal(structureHolds(r), null);
    assert.equal(r.text.split('\n').filter((l) => /^- \d\d:\d\d /.test(l)).length, 40);
    const more = r.sections.at(-1)!;
    assert.equal(more.heading, 'More in this window');
    assert.equal(more.text, '- 27 more records in this window (routine turns and lesser points): `cairn search -n ana --since 2026-11-25T07:00:00.000Z --until 2026-11-25T16:50:00.000Z <words>`, or [raw/realtime-2026-11-25.md](../raw/realtime-2026-11-25.md)');
    const small = renderDailyNote(dayInput(many, { maxLines: 5 }))!;
    assert.equal(small.text.split('\n').filter((l) => /^- \d\d:\d\d /.test(l)).length, 5);
  });

  it('keeps hostile text from breaking the page', () => {
    const hostile = [
      '# Injected heading\n## Another\n---\nText after a rule',
      '<details><summary>click</summary> everything after this would fold <!-- and hide',
      '| a | b |\n|---|---|\n| 1 | 2 |',
      'unbalanced ` backtick and ``` fence ```js',
      'Z'.repeat(10_000),
      'bell \u0007 escape \u001b[31m nul \u0000 bidi \u202Eevil\u202C line\u2028sep',
      '> quoted\n- listed\n1. numbered\n    indented code',
      '[link](javascript:alert(1)) and ![img](x) and \\ backslash at end \\',
    ].map((text, k) => item({ id: `m_h${k}`, time: at(`1${k}:00`), importance: 6, category: 'fact', text }));
    const r = renderDailyNote(dayInput(hostile))!;
    assert.equal(structureHolds(r), null);
    const body = r.text.split('\n').filter((l) => l.startsWith('- '));
    assert.equal(body.length, hostile.length);
    for (const line of body) {
      assert.match(line, / `m_h\d`$/);
      assert.ok(line.length < 320, `${line.length}`);
      assert.ok(!/<[a-z!/]/i.test(line), line);
    }
    assert.ok(!r.text.includes('\u202E') && !r.text.includes('\u0007'));
  });

  it('is byte-identical for the same records in any order', () => {
    const all = [...codingDay, ...opsNight.map((i) => ({ ...i, time: i.time.replace('2026-11-26', DAY) }))];
    const once = renderDailyNote(dayInput(all))!.text;
    assert.equal(renderDailyNote(dayInput(all))!.text, once);
    assert.equal(renderDailyNote(dayInput(shuffled(all, 3)))!.text, once);
    assert.equal(renderDailyNote(dayInput(shuffled(all, 9).reverse()))!.text, once);
  });

  it('returns null for an empty window or one holding only noise', () => {
    assert.equal(renderDailyNote(dayInput([])), null);
    assert.equal(renderDailyNote(dayInput(chatter(DAY, 't'))), null);
    assert.equal(renderDailyNote(dayInput([], { part: 'night' })), null);
  });
});
