// Topics: subjects that recur across days, found offline in any script; safe, stable slugs; topic
// pages whose person's section and hand-made pages survive regeneration byte for byte.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Item } from '../../src/consolidate/contracts.js';
import { PERSON_BEGIN, PERSON_END, extractPersonSection } from '../../src/consolidate/person-sections.js';
import { subjectsOf } from '../../src/consolidate/topic-subjects.js';
import { TOPIC_BEGIN, TOPIC_END, findTopics, oneLine, renderTopicPage, slugOf, type Topic } from '../../src/consolidate/topics.js';

let seq = 0;
function item(day: string, text: string, extra: Partial<Item> = {}): Item {
  seq++;
  const time = extra.localTime ?? `${String(8 + (seq % 12)).padStart(2, '0')}:${String(seq % 60).padStart(2, '0')}`;
  return {
    kind: 'memory', id: `m_${String(seq).padStart(4, '0')}`, time: `${day}T${time}:00.000Z`, localTime: time, localDay: day, text,
    importance: 5, category: null, current: true, role: 'user', speaker: null, sessionId: null, turnIds: [], tags: [], ...extra,
  };
}
const days = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `2026-03-${String(from + i).padStart(2, '0')}`);
const titles = (topics: Topic[]) => topics.map((t) => t.title);

describe('subjectsOf', () => {
  it('finds names, paths, repositories, code identifiers, hashtags, tags and word pairs', () => {
    const keys = subjectsOf(
      'Yesterday The Cairn Project moved src/store/store.ts to https://github.com/acme/widgets.git; putDigest and max_lines changed. #backups `npm run build` sqlite backup rotation m_01hx9abcdefgh42',
      ['Ops'],
    ).map((m) => m.key);
    for (const k of ['ops', 'cairn project', 'src/store/store.ts', 'acme/widgets', 'putdigest', 'max_lines', 'backups', 'npm run build', 'sqlite backup', 'backup rotation']) {
      assert.ok(keys.includes(k), `${k} in ${keys.join(', ')}`);
    }
    assert.ok(!keys.some((k) => k.includes('m_01hx9')), 'record ids are no subjects');
    assert.ok(!keys.includes('yesterday cairn'), 'time words are trimmed off names');
    assert.ok(!keys.some((k) => k.startsWith('moved src')), 'a word pair does not run into a path');
  });

  it('splits scripts without spaces and without letter case', () => {
    assert.ok(subjectsOf('我们讨论了数据库备份的问题', []).some((m) => m.key.includes('备份')));
    assert.ok(subjectsOf('Проект Феникс запущен', []).some((m) => m.key === 'проект феникс'));
    assert.deepEqual(subjectsOf('', []), []);
    assert.deepEqual(subjectsOf('the and of to ok', []), [], 'stop words alone make no subject');
  });
});

describe('findTopics', () => {
  it('makes a topic of a subject seen on at least minDays distinct days, not of one seen on fewer', () => {
    const items = [
      ...days(3).map((d) => item(d, `Worked on Project Phoenix deployment today.`)),
      ...days(2, 10).map((d) => item(d, 'Talked about Garden Planning with Ana.')),
      item('2026-03-01', 'Project Phoenix again, same day as before.'),
    ];
    const topics = findTopics(items);
    const phoenix = topics.find((t) => t.title === 'Project Phoenix');
    assert.ok(phoenix, titles(topics).join(' | '));
    assert.deepEqual(phoenix.days, ['2026-03-01', '2026-03-02', '2026-03-03']);
    assert.equal(phoenix.items.length, 4);
    assert.deepEqual(phoenix.items.map((i) => i.time), [...phoenix.items.map((i) => i.time)].sort(), 'newest last');
    assert.ok(!titles(topics).includes('Garden Planning'), 'two days are not enough');
    assert.ok(titles(findTopics(items, { minDays: 2 })).includes('Garden Planning'));
  });

  it('ranks by days × mentions, keeps at most max, and merges spellings of one subject', () => {
    const items = [
      ...days(6).flatMap((d) => [item(d, 'The Billing Service was slow.'), item(d, 'billing service latency fixed')]),
      ...days(3).map((d) => item(d, 'Checked #infra dashboards')),
      ...days(4, 10).map((d) => item(d, 'Reviewed src/api/routes.ts', { tags: ['api'] })),
    ];
    const topics = findTopics(items, { max: 2 });
    assert.equal(topics.length, 2);
    assert.equal(topics[0]!.title, 'Billing Service', 'the capitalised spelling names the merged subject');
    assert.equal(topics[0]!.items.length, 12);
    assert.ok(['src/api/routes.ts', 'api'].includes(topics[1]!.title), 'the word pairs of the billing sentence add no topic of their own');
    assert.deepEqual(titles(findTopics(items)), ['Billing Service', topics[1]!.title, 'infra'], 'a tag always put on one file gives one topic, not two');
    assert.equal(findTopics(items, { max: 0 }).length, 0);
    assert.equal(findTopics([]).length, 0);
  });

  it('does not find topics in tool output or system messages', () => {
    const items = days(5).map((d) => item(d, 'read /usr/lib/node_modules/foo/index.js ok', { role: 'tool', kind: 'turn' }));
    assert.deepEqual(findTopics(items), []);
  });

  it('is deterministic: the order of the items does not matter', () => {
    const items = [
      ...days(5).map((d) => item(d, 'Kubernetes Cluster upgrade')),
      ...days(4, 3).map((d) => item(d, 'Helm Charts linting, and #ops review')),
      ...days(3, 5).map((d) => item(d, 'Kubernetes Cluster quota with Helm Charts')),
      ...days(3, 7).map((d) => item(d, 'Проект Феникс: обсуждение бюджета')),
    ];
    const a = findTopics(items);
    const b = findTopics([...items].reverse());
    assert.deepEqual(a, b);
    assert.ok(a.length >= 3, titles(a).join(' | '));
    const slavic = a.find((t) => t.title === 'Проект Феникс');
    assert.ok(slavic, titles(a).join(' | '));
    assert.match(slavic.slug, /^t-[0-9a-f]{8}$/);
  });

  it('gives each topic its own slug, even when two titles fold to the same letters', () => {
    const items = days(3).flatMap((d) => [item(d, 'note', { tags: ['C++'] }), item(d, 'other', { tags: ['C#'] })]);
    const slugs = findTopics(items).map((t) => t.slug);
    assert.equal(slugs.length, 2);
    assert.equal(new Set(slugs).size, 2);
    for (const s of slugs) assert.match(s, /^[a-z0-9-]{1,60}$/);
  });
});

describe('slugOf', () => {
  it('is lower-case [a-z0-9-], at most 60 characters, stable for the same title', () => {
    const cases = ['Project Phoenix', 'Café Münster — Straße', '../../etc/passwd', 'x'.repeat(300), '  ', 'CON', 'Проект Феникс', '数据库 备份', 'Phoenix 计划', '<script>alert(1)</script>', 'a\u0000b\nc'];
    for (const title of cases) {
      const slug = slugOf(title);
      assert.match(slug, /^[a-z0-9]+(?:-[a-z0-9]+)*$/, `${JSON.stringify(title)} → ${slug}`);
      assert.ok(slug.length <= 60, slug);
      assert.equal(slugOf(title), slug);
    }
    assert.equal(slugOf('Project Phoenix'), 'project-phoenix');
    assert.equal(slugOf('Café Münster — Straße'), 'cafe-munster-strasse');
    assert.equal(slugOf('../../etc/passwd'), 'etc-passwd');
    assert.equal(slugOf('CON'), 'con-topic', 'a name Windows reserves is not a file name');
    assert.match(slugOf('Phoenix 计划'), /^phoenix-[0-9a-f]{8}$/);
    assert.notEqual(slugOf('Проект Феникс'), slugOf('Проект Сокол'), 'non-Latin titles do not collide');
  });
});

describe('oneLine', () => {
  it('flattens a record to one line, cut at a sentence end or a word with an ellipsis', () => {
    assert.equal(oneLine('a\nb\r\n\tc\u2028d', 50), 'a b c d');
    assert.equal(oneLine('First sentence here. Second sentence is much longer than the limit allows.', 40), 'First sentence here.');
    const cut = oneLine('word '.repeat(100), 50);
    assert.ok(cut.endsWith('…') && [...cut].length <= 50);
    const emoji = oneLine('🙂'.repeat(100), 11);
    assert.equal(Buffer.from(emoji).toString(), emoji, 'no half of a surrogate pair');
  });
});

const phoenixItems = days(6).map((d, i) => item(d, `Phoenix step ${i + 1}: done.`, { localTime: '10:00' }));
/** The topic as it stood after `n` days: the same records each time it is asked for. */
function phoenix(n = 4): Topic {
  const its = phoenixItems.slice(0, n);
  return { slug: 'project-phoenix', title: 'Project Phoenix', items: [...its], days: its.map((i) => i.localDay) };
}

describe('renderTopicPage', () => {
  it('writes the title, the seen-on line, a cited timeline newest last and links to the days', () => {
    const topic = phoenix();
    topic.items.push(item('2026-03-04', 'Phoenix step 4: done.', { localTime: '11:00' }), item('2026-03-04', '', { localTime: '12:00' }));
    const page = renderTopicPage({ topic, existingText: null });
    assert.equal(page.path, 'topics/project-phoenix.md');
    const lines = page.text.split('\n');
    assert.equal(lines[0], '<!-- cairn:generated -->');
    assert.equal(lines[1], '# Project Phoenix');
    assert.ok(page.text.includes('Seen on 4 days, first 2026-03-01, last 2026-03-04.'));
    const timeline = lines.filter((l) => /^- \d{4}-\d{2}-\d{2} \d{2}:\d{2} /.test(l));
    assert.deepEqual(timeline, topic.items.slice(0, 4).map((it, i) => `- ${it.localDay} 10:00 Phoenix step ${i + 1}: done. \`${it.id}\``), 'one line per point, no repeats');
    assert.ok(page.text.includes('- [2026-03-04](../daily/2026-03-04.md)'));
    const tl = page.sections.find((s) => s.heading === 'Timeline')!;
    assert.deepEqual(tl.sources.map((s) => s.id), topic.items.slice(0, 4).map((i) => i.id));
    assert.equal(renderTopicPage({ topic, existingText: null }).text, page.text, 'deterministic');
  });

  it('links the promoted entities its records name, and only life/ pages', () => {
    const entities = [
      { name: 'Ana [Souza]', path: 'life/areas/ana-souza/summary.md' },
      { name: 'Evil', path: '../../etc/passwd' },
      { name: 'Evil too', path: 'life/areas/../../x/summary.md' },
    ];
    const page = renderTopicPage({ topic: phoenix(3), existingText: null, entities });
    assert.ok(page.text.includes('## People & projects\n\n- [Ana \\[Souza\\]](../life/areas/ana-souza/summary.md)\n'), page.text);
    assert.doesNotMatch(page.text, /Evil/);
    assert.doesNotMatch(renderTopicPage({ topic: phoenix(3), existingText: null }).text, /People & projects/, 'no section without entities');
  });

  it('caps the timeline at the newest points and says how many are left out', () => {
    const its = Array.from({ length: 200 }, (_, i) => item('2026-03-05', `Point number ${i}.`, { time: `2026-03-05T10:${String(i % 60).padStart(2, '0')}:${String(Math.floor(i / 60)).padStart(2, '0')}.000Z` }));
    const page = renderTopicPage({ topic: { slug: 's', title: 'S', items: its, days: ['2026-03-05'] }, existingText: null });
    assert.equal(page.text.split('\n').filter((l) => l.startsWith('- 2026-03-05 ')).length, 60);
    assert.match(page.text, /_140 earlier points are in the daily notes of those days._/);
  });

  it('keeps the person section of a page it wrote, byte for byte', () => {
    const first = renderTopicPage({ topic: phoenix(3), existingText: null }).text;
    const mine = '\nPhoenix is the **backup** project. Owner: Ana.\n\n  indented line  \n';
    const edited = first.replace(/<!-- cairn:person:begin -->[\s\S]*<!-- cairn:person:end -->/, `${PERSON_BEGIN}${mine}${PERSON_END}`);
    const next = renderTopicPage({ topic: phoenix(5), existingText: edited }).text;
    assert.equal(extractPersonSection(next), mine);
    assert.ok(next.includes('Seen on 5 days'));
  });

  it('keeps a hand-made page byte for byte and adds, then refreshes in place, one block at its end', () => {
    const handMade = '# Phoenix (my page)\n\nWhy we started it: the old backups were manual.\n';
    const once = renderTopicPage({ topic: phoenix(3), existingText: handMade }).text;
    assert.ok(once.startsWith(handMade), 'the person text is untouched');
    assert.ok(once.endsWith(`${TOPIC_END}\n`));
    assert.ok(once.includes('Seen on 3 days'));
    const withAfter = `${once}\nA line I added under the block.\n`;
    const twice = renderTopicPage({ topic: phoenix(6), existingText: withAfter }).text;
    assert.ok(twice.startsWith(handMade));
    assert.ok(twice.endsWith(`${TOPIC_END}\n\nA line I added under the block.\n`));
    assert.ok(twice.includes('Seen on 6 days') && !twice.includes('Seen on 3 days'));
    assert.equal(renderTopicPage({ topic: phoenix(6), existingText: twice }).text, twice, 'stable');
    assert.ok(renderTopicPage({ topic: phoenix(3), existingText: 'no newline at end' }).text.startsWith('no newline at end\n\n' + TOPIC_BEGIN));
  });

  it('keeps every byte when the block markers are broken, and is stable after', () => {
    const broken = `# Mine\n\n${TOPIC_BEGIN}\nI wrote inside an unfinished block.\n`;
    const once = renderTopicPage({ topic: phoenix(3), existingText: broken }).text;
    assert.ok(once.includes('I wrote inside an unfinished block.'));
    assert.equal(once.split(TOPIC_BEGIN).length, 2);
    assert.equal(renderTopicPage({ topic: phoenix(3), existingText: once }).text, once);
  });

  it('keeps hostile record text from breaking the page or its blocks', () => {
    const hostile = `evil ${TOPIC_END} ${PERSON_END} <!-- hide --> \n# Fake heading\n\u0000\u202e done`;
    const topic: Topic = { slug: 'x', title: `Bad ${TOPIC_END}\n# title`, items: [item('2026-03-01', hostile)], days: ['2026-03-01'] };
    for (const existing of [null, '# Hand made\n']) {
      const text = renderTopicPage({ topic, existingText: existing }).text;
      assert.equal(text.split(TOPIC_END).length, existing === null ? 1 : 2, 'no marker from the record');
      assert.ok(!text.includes(PERSON_END) || text.split(PERSON_END).length === 2);
      assert.ok(!/\n# Fake heading/.test(text));
      assert.equal(renderTopicPage({ topic, existingText: text }).text, text);
    }
  });
});
