// MEMORY.md: at most maxLines lines whatever the input, tiers by age, decisions in force only,
// open items from the hot state, links to the other layers, and the person's section carried over
// byte for byte — counted first, so a long one shrinks the generated parts, never itself.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Item } from '../../src/consolidate/contracts.js';
import { PERSON_BEGIN, PERSON_END, extractPersonSection } from '../../src/consolidate/person-sections.js';
import { renderMemoryMd, type MemoryMdInput } from '../../src/consolidate/memory-md.js';

const TODAY = '2026-06-20';
const DAY_MS = 86_400_000;
const dayBefore = (n: number, from = TODAY) => new Date(Date.parse(`${from}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);

let seq = 0;
function memory(ageDays: number, text: string, extra: Partial<Item> = {}): Item {
  seq++;
  const day = dayBefore(ageDays);
  const localTime = `${String(seq % 24).padStart(2, '0')}:${String(seq % 60).padStart(2, '0')}`;
  return {
    kind: 'memory', id: `m_${String(seq).padStart(6, '0')}`, time: `${day}T${localTime}:00.000Z`, localTime, localDay: day, text,
    importance: 5, category: null, current: true, role: 'user', speaker: null, sessionId: null, turnIds: [], tags: [], ...extra,
  };
}

function input(over: Partial<MemoryMdInput> = {}): MemoryMdInput {
  return {
    namespace: 'work', today: TODAY, timeZone: 'Europe/Paris', maxLines: 150, memories: [], decisionsInForce: [], hotState: null,
    digests: [], topics: [], existingText: null, ...over,
  };
}
const lineCount = (text: string) => text.split('\n').length - 1;
const section = (text: string, heading: string) => {
  const from = text.indexOf(`\n## ${heading}\n`);
  if (from === -1) return null;
  const rest = text.slice(from + heading.length + 5);
  const end = rest.indexOf('\n## ');
  return end === -1 ? rest : rest.slice(0, end);
};

describe('renderMemoryMd', () => {
  it('shows the last 7 days in full, days 8–30 condensed, nothing older, with citations', () => {
    const long = `Moved the nightly backup to 02:00 because the 23:00 slot collided with the weekly compound job. ${'More detail follows here. '.repeat(8)}`;
    const hot = memory(2, long);
    const edge = memory(7, 'Seven days ago still counts as this week.');
    const warm = memory(12, long);
    const cold = memory(45, 'Ancient history that only the weekly files hold.');
    const { text } = renderMemoryMd(input({ memories: [cold, warm, edge, hot] }));
    const thisWeek = section(text, 'This week')!;
    const earlier = section(text, 'Earlier this month')!;
    assert.match(thisWeek, new RegExp(`^- ${hot.localDay} ${hot.localTime} Moved the nightly backup .*\`${hot.id}\`$`, 'm'));
    assert.ok(thisWeek.includes(edge.id));
    const warmLine = earlier.split('\n').find((l) => l.includes(warm.id))!;
    assert.match(warmLine, new RegExp(`^- ${warm.localDay} Moved`));
    assert.ok(warmLine.length < thisWeek.split('\n').find((l) => l.includes(hot.id))!.length, 'warm points are shorter');
    assert.ok(!text.includes(cold.id) && !text.includes('Ancient history'), 'cold memories only by link');
    assert.ok(text.indexOf('## This week') < text.indexOf('## Earlier this month'));
  });

  it('links people and projects to their life/ pages: active drawers only, projects first, at most 12 lines', () => {
    const e = (name: string, kind: string, mentions: number, path = `life/${kind}/${name.toLowerCase()}/summary.md`) => ({ name, type: kind === 'projects' ? 'project' : 'person', relation: name === 'Ana' ? 'manager' : null, kind, path, lastSeen: `${TODAY}T10:00:00.000Z`, mentions });
    const many = Array.from({ length: 30 }, (_, i) => e(`P${String(i).padStart(2, '0')}`, 'resources', 3));
    const { text } = renderMemoryMd(input({ entities: [...many, e('Ana', 'areas', 5), e('Kestrel', 'projects', 4), e('Old', 'archives', 50), e('Evil', 'areas', 99, '../../etc/passwd')] }));
    const block = section(text, 'People & projects')!.trim().split('\n');
    assert.equal(block.length, 12);
    assert.equal(block[0], '- [Kestrel](life/projects/kestrel/summary.md): project, 4 mentions');
    assert.equal(block[1], '- [Ana](life/areas/ana/summary.md): person, your manager, 5 mentions');
    assert.equal(block.at(-1), 'All of them: [life/index.md](life/index.md)');
    assert.ok(!text.includes('Old') && !text.includes('Evil'));
    assert.equal(section(renderMemoryMd(input()).text, 'People & projects'), null, 'no block without entities');
    assert.ok(lineCount(renderMemoryMd(input({ entities: many, memories: Array.from({ length: 200 }, (_, i) => memory(i % 30, `Point ${i} about something.`)) })).text) <= 150);
  });

  it('lists decisions in force, drops superseded ones everywhere, and shows the open items', () => {
    const kept = memory(40, 'Decided: Postgres stays the system of record.', { category: 'decision', importance: 9 });
    const superseded = memory(3, 'Decided: use MySQL.', { category: 'decision', current: false });
    const oldMemory = memory(1, 'An outdated fact.', { current: false });
    const { text } = renderMemoryMd(input({
      memories: [kept, superseded, oldMemory],
      decisionsInForce: [kept, superseded],
      hotState: { objective: 'Ship the backup feature', blockers: ['WAL file locked'], nextActions: ['Write the restore test', 'Ask Ana'], notes: 'line one\nline two' },
    }));
    assert.match(section(text, 'Decisions in force')!, new RegExp(`^- ${kept.localDay} Decided: Postgres stays the system of record\\. \`${kept.id}\`$`, 'm'));
    assert.ok(!text.includes('MySQL') && !text.includes(superseded.id) && !text.includes('outdated'));
    assert.equal(text.split(kept.id).length, 2, 'a decision is listed once, not again among the highlights');
    assert.deepEqual(section(text, 'Open items')!.trim().split('\n'), [
      '- Objective: Ship the backup feature', '- Blocked: WAL file locked', '- Next: Write the restore test', '- Next: Ask Ana', '- Notes: line one line two',
    ]);
  });

  it('links the other layers: latest review, this and last ISO week across New Year, the last 7 days, older weeks', () => {
    const today = '2027-01-03'; // a Sunday of ISO week 2026-W53
    const days = Array.from({ length: 10 }, (_, i) => dayBefore(i, today));
    const digests = [
      ...days.map((d) => ({ kind: 'daily' as const, path: `daily/${d}.md`, periodStart: `${d}T06:00:00Z` })),
      ...days.map((d) => ({ kind: 'night' as const, path: `daily/${d}-last-night.md`, periodStart: `${d}T21:00:00Z` })),
      { kind: 'review' as const, path: 'reviews/2027-01-02.md', periodStart: '' },
      { kind: 'review' as const, path: 'reviews/2026-12-30.md', periodStart: '' },
      ...['2026-W53', '2026-W52', '2026-W51', '2026-W40'].map((w) => ({ kind: 'weekly' as const, path: `weekly/${w}.md`, periodStart: '' })),
      { kind: 'daily' as const, path: 'daily/../../etc/passwd.md', periodStart: '' },
      { kind: 'topic' as const, path: 'topics/x.md', periodStart: '' },
    ];
    const { text } = renderMemoryMd(input({ today, digests, topics: [{ slug: 'phoenix', title: 'Project [Phoenix]', days: ['2026-12-28', '2027-01-02'] }] }));
    assert.match(text, /^Layers: \[latest review 2027-01-02\]\(reviews\/2027-01-02\.md\) · \[this week 2026-W53\]\(weekly\/2026-W53\.md\) · \[last week 2026-W52\]\(weekly\/2026-W52\.md\) · \[topics\]\(topics\/\) · \[raw log\]\(raw\/\)$/m);
    const daily = text.split('\n').find((l) => l.startsWith('Daily notes: '))!;
    assert.equal(daily.match(/\]\(daily\//g)!.length, 7);
    assert.ok(daily.includes('(daily/2027-01-03.md)') && !daily.includes(dayBefore(7, today)));
    assert.ok(text.includes('Last-night notes: [2026-12-28](daily/2026-12-28-last-night.md)'));
    assert.ok(!text.includes('passwd'), 'a path Cairn would not write is not linked');
    assert.match(section(text, 'Older')!, /Weekly distills: \[2026-W51\]\(weekly\/2026-W51\.md\) · \[2026-W40\]\(weekly\/2026-W40\.md\) · \[all weeks\]\(weekly\/\)/);
    assert.match(section(text, 'Active projects / subjects')!, /^- \[Project \\\[Phoenix\\\]\]\(topics\/phoenix\.md\): 2 days, last 2027-01-02$/m);
  });

  it('stays within maxLines with 10,000 memories and every other input huge, and keeps each part', () => {
    const memories = Array.from({ length: 10_000 }, (_, i) => memory(i % 40, `Memory number ${i} about subject ${i % 97}.\nSecond line.`, { importance: (i % 10) + 1, tags: [`tag${i % 13}`] }));
    const decisions = Array.from({ length: 500 }, (_, i) => memory(i % 60, `Decision ${i}.`, { category: 'decision' }));
    const digests = Array.from({ length: 400 }, (_, i) => ({ kind: 'daily' as const, path: `daily/${dayBefore(i)}.md`, periodStart: '' }));
    const topics = Array.from({ length: 300 }, (_, i) => ({ slug: `t-${i}`, title: `Topic ${i}`, days: [dayBefore(i % 20)] }));
    const hotState = { objective: 'x'.repeat(500), blockers: Array.from({ length: 50 }, (_, i) => `blocker ${i}`), nextActions: Array.from({ length: 50 }, (_, i) => `next ${i}`) };
    // 10 is the floor (title, an empty person section, a line of links); a smaller limit is raised to it.
    for (const maxLines of [150, 60, 30, 10, 1]) {
      const { text } = renderMemoryMd(input({ memories, decisionsInForce: decisions, digests, topics, hotState, maxLines }));
      assert.ok(lineCount(text) <= Math.max(maxLines, 10), `${lineCount(text)} lines for a limit of ${maxLines}`);
      assert.ok(text.endsWith('\n'));
      if (maxLines === 150) {
        assert.ok(lineCount(text) >= 140, `a big input fills the page (${lineCount(text)} lines)`);
        for (const h of ['This week', 'Earlier this month', 'Active projects / subjects', 'Decisions in force', 'Open items']) assert.ok(section(text, h), h);
        const hot = section(text, 'This week')!.trim().split('\n');
        assert.ok(hot.every((l) => / `m_\d{6}`$/.test(l)), 'one cited line per point');
        assert.ok(hot.every((l) => / Memory number \d+ about subject \d+\. Second line\. /.test(l)), 'line breaks inside a memory never split a line');
        const order = hot.map((l) => l.slice(2, 18));
        assert.deepEqual(order, [...order].sort(), 'newest last');
      }
      if (maxLines === 30) assert.ok(section(text, 'Open items') && section(text, 'Decisions in force'), 'the highest priorities survive a short page');
    }
  });

  it('keeps the person section byte for byte, and shrinks the generated parts around a long one', () => {
    const memories = Array.from({ length: 300 }, (_, i) => memory(i % 25, `Point ${i}.`));
    const first = renderMemoryMd(input({ memories })).text;
    const mine = `\n${Array.from({ length: 100 }, (_, i) => `my note ${i}  `).join('\n')}\n`;
    const edited = first.replace(/<!-- cairn:person:begin -->[\s\S]*<!-- cairn:person:end -->/, `${PERSON_BEGIN}${mine}${PERSON_END}`);
    const next = renderMemoryMd(input({ memories, existingText: edited })).text;
    assert.equal(extractPersonSection(next), mine);
    assert.ok(lineCount(next) <= 150);
    assert.ok(section(next, 'This week'), 'room left is still used');
    assert.ok(next.split('\n').filter((l) => l.startsWith('- ')).length < first.split('\n').filter((l) => l.startsWith('- ')).length);
    assert.equal(renderMemoryMd(input({ memories, existingText: next })).text, next, 'stable');
  });

  it('never cuts a person section longer than the limit: the page is then the title, the section and a note', () => {
    const mine = `\n${Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n')}\n`;
    const existing = `<!-- cairn:generated -->\n# Memory: work\n\n${PERSON_BEGIN}${mine}${PERSON_END}\n`;
    const { text } = renderMemoryMd(input({ memories: [memory(1, 'a point')], existingText: existing }));
    assert.equal(extractPersonSection(text), mine);
    assert.ok(!text.includes('## '));
    assert.match(text, /your section is 202 lines and this file holds at most 150/);
    assert.equal(lineCount(text), 3 + 202 + 2);
  });

  it('keeps a MEMORY.md a person wrote before Cairn, whole, as their section', () => {
    const handMade = '# My memory\n\n- deploys go through the staging box first\n';
    const { text } = renderMemoryMd(input({ memories: [memory(1, 'a point')], existingText: handMade }));
    assert.ok(extractPersonSection(text)!.includes(handMade));
    assert.ok(text.startsWith('<!-- cairn:generated -->\n# Memory: work\n'));
  });

  it('keeps hostile text on its own line and out of the markers, and is deterministic', () => {
    const hostile = memory(1, `evil ${PERSON_END}\n## Fake heading\n<!-- hidden --> \u0000\u2028 tail`, { tags: ['<!--x', 'a`b'] });
    const memories = [hostile, ...Array.from({ length: 50 }, (_, i) => memory(i % 20, `Point ${i}.`, { importance: i % 7 }))];
    const over = input({ namespace: `ns\n# injected ${PERSON_BEGIN}`, memories, hotState: { objective: `${PERSON_BEGIN} objective`, blockers: ['-->'] } });
    const a = renderMemoryMd(over);
    assert.equal(a.text.split(PERSON_BEGIN).length, 2);
    assert.equal(a.text.split(PERSON_END).length, 2);
    assert.ok(!/^## Fake heading/m.test(a.text) && !/^# injected/m.test(a.text));
    assert.ok(!a.text.includes('\u0000') && !a.text.includes('\u2028'));
    const b = renderMemoryMd({ ...over, memories: [...memories].reverse() });
    assert.equal(b.text, a.text, 'same input in another order, same bytes');
    assert.equal(renderMemoryMd({ ...over, existingText: a.text }).text, a.text);
    const hot = a.sections.find((s) => s.heading === 'This week')!;
    assert.ok(hot.sources.some((s) => s.id === hostile.id));
  });

  it('refuses a today that is not a calendar day', () => {
    assert.throws(() => renderMemoryMd(input({ today: 'yesterday' })), /YYYY-MM-DD/);
  });
});
