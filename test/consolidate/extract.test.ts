// The offline extractive summariser: what is noise, what kind of work a record was, a record's
// point in its own words, and which points cover a window (issue 24).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Item } from '../../src/consolidate/contracts.js';
import { activityOf, type Cluster, clusterItems, isNoise, NEAR_DUPLICATE, pickClusters, pointOf, selectPoints } from '../../src/consolidate/extract.js';
import { contentTokens, similarity } from '../../src/consolidate/point-text.js';
import { seeded } from '../helpers/prng.js';
import { chatter, item, shuffled } from './items.js';

const DAY = '2026-11-25';
const at = (hhmm: string): string => `${DAY}T${hhmm}:00.000Z`;

describe('isNoise', () => {
  it('drops heartbeats, acknowledgements, agent chatter, tool calls and system prompts', () => {
    for (const i of chatter(DAY, 't')) assert.equal(isNoise(i), true, i.text);
  });

  it('drops judged noise and unpromoted turns below the floor, keeps memories and substantive turns', () => {
    assert.equal(isNoise(item({ id: 't_low', time: at('10:00'), text: 'I wonder what the weather is like later on today', importance: 2, category: 'fact' })), true);
    assert.equal(isNoise(item({ id: 'm_ack', time: at('10:00'), text: 'Sounds good, thanks a lot!', category: 'acknowledgement' })), true);
    assert.equal(isNoise(item({ id: 'm_keep', time: at('10:00'), text: 'Ana prefers tabs over spaces in Go code.', importance: 6, category: 'preference' })), false);
    // Not judged yet: the heuristic judge reads it.
    assert.equal(isNoise(item({ id: 't_new', time: at('10:00'), text: 'We decided to move the nightly backup to 03:00 because the 02:00 cron collides with the index rebuild.', importance: null })), false);
    assert.equal(isNoise(item({ id: 't_tool_ok', time: at('10:00'), text: 'All 42 tests passed in 3.1s', role: 'tool', importance: 4, category: 'success' })), true);
    assert.equal(isNoise(item({ id: 't_tool_err', time: at('10:00'), text: 'npm ERR! TypeError: fetch failed (exit code 1)', role: 'tool', importance: 5, category: 'issue' })), false);
  });

  it('drops empty and symbol-only records', () => {
    for (const text of ['', '   ', '...', '\u0000\u0007', '—', '!!']) assert.equal(isNoise(item({ id: 'm_e', time: at('10:00'), text })), true, JSON.stringify(text));
  });
});

describe('activityOf', () => {
  const cases: Array<[string, string]> = [
    ['coding', "TypeError: Cannot read properties of undefined (reading 'id')\n    at renderTurn (src/consolidate/realtime-view.ts:61:20)"],
    ['coding', 'Refactored parseLine in src/capture/jsonl.ts and ran npm test: green.'],
    ['coding', 'diff --git a/src/x.ts b/src/x.ts\n@@ -1,3 +1,4 @@'],
    ['ops', 'Deployed v2.4 to staging; nginx config reloaded and the health check is green.'],
    ['ops', 'The backup cron failed: disk full on the server.'],
    ['research', 'Read the paper at https://arxiv.org/abs/2402.17753 comparing long-context recall of memory systems.'],
    ['research', 'Looked into the trade-offs of HNSW versus IVF indexes.'],
    ['chat', "Ana's birthday is on 3 December; she would like a book about birds."],
    ['chat', 'I am hosting a party on Saturday.'],
    ['ops', 'サーバーを再起動してからデプロイした。'],
    ['ops', '昨晚把服务器的备份配置改好了。'],
    ['coding', 'テストが失敗したので関数を修正した。'],
    ['research', 'Ich habe zwei Artikel gelesen und die Ansätze verglichen.'],
    ['ops', 'Die Sicherung läuft jetzt jede Nacht, die Konfiguration liegt im Repo.'],
  ];
  for (const [want, text] of cases) {
    it(`${want}: ${text.slice(0, 50)}`, () => assert.equal(activityOf({ text }), want));
  }
});

describe('pointOf', () => {
  it('keeps one line in the record own words, cut at a sentence end', () => {
    const text = 'We moved the nightly backup to 03:00.   The 02:00 slot collides with the index rebuild,\nwhich locks the store for several minutes. ' + 'Further detail follows here. '.repeat(10);
    const p = pointOf({ text });
    assert.ok(p.startsWith('We moved the nightly backup to 03:00. The 02:00 slot collides'), p);
    assert.ok(p.length <= 220 && p.endsWith('.'), p);
    assert.ok(!p.includes('\n'));
  });

  it('cuts German, Japanese and Chinese at their own sentence ends', () => {
    const de = 'Wir haben beschlossen, die Sicherungen sieben Tage lang aufzubewahren. Danach werden sie automatisch gelöscht, außer die wöchentlichen. '.repeat(3);
    const ja = 'デプロイは金曜日に延期した。理由はテストが不安定だから。'.repeat(12);
    const zh = '我们决定把数据库迁移到新的服务器上。旧服务器的磁盘已经快满了，而且备份经常失败。'.repeat(8);
    for (const [text, end] of [[de, '.'], [ja, '。'], [zh, '。']] as const) {
      const p = pointOf({ text });
      assert.ok(p.length <= 220 && p.length > 40, `${p.length}: ${p}`);
      assert.ok(p.endsWith(end), p);
      assert.ok(text.startsWith(p.slice(0, 20)));
    }
  });

  it('neutralises Markdown, HTML, pipes, backticks and control characters', () => {
    const cases = ['## Heading\nsecond line', '> quoted', '- list item', '1. numbered', '<details><summary>x</summary>', 'a | b | c', 'stray ` tick', '```js\ncode\n```', 'bell\u0007 and \u001b[31mred\u001b[0m', 'line\u2028separator'];
    for (const text of cases) {
      const p = pointOf({ text });
      assert.ok(!/^[#>\-*+]|^\d+\./.test(p), p);
      assert.ok(!p.includes('\n') && !p.includes('\u2028'), p);
      assert.ok(!/<[a-z/!]/i.test(p), p);
      assert.ok(!/(?<!\\)\|/.test(p), p);
      assert.equal((p.match(/`/g)?.length ?? 0) % 2, 0, p);
      // eslint-disable-next-line no-control-regex
      assert.ok(!/[\u0000-\u001f\u007f]/.test(p), JSON.stringify(p));
    }
    assert.equal(pointOf({ text: 'Call `fetchWithRetry()` from `src/net.ts`.' }), 'Call `fetchWithRetry()` from `src/net.ts`.');
  });

  it('cuts a 10,000-character line without a break, and whole emoji', () => {
    assert.ok(pointOf({ text: 'x'.repeat(10_000) }).length <= 220);
    const emoji = pointOf({ text: '👩‍💻'.repeat(500) });
    assert.ok(emoji.length <= 221 && emoji.endsWith('👩‍💻…'), emoji.slice(-10));
  });
});

describe('selectPoints', () => {
  const fixA = item({ id: 'm_fix1', time: at('09:05'), importance: 7, category: 'implementation', text: 'Fixed the crash in renderTurn: meta can be missing on imported turns; added a guard and a test in test/consolidate/realtime.test.ts.' });
  const fixB = item({ id: 'm_fix2', time: at('09:06'), importance: 6, category: 'implementation', text: 'Fixed the renderTurn crash: meta can be missing on imported turns, added a guard and a test in test/consolidate/realtime.test.ts' });
  const deploy = item({ id: 'm_dep', time: at('13:00'), importance: 6, category: 'success', text: 'Deployed v2.4 to staging; nginx config reloaded and the health check is green.', sessionId: 's2' });
  const coding = Array.from({ length: 6 }, (_, k) =>
    item({ id: `m_code${k}`, time: at(`1${k}:30`), importance: 8, category: 'implementation', text: `Implemented step ${k} of the parser in src/capture/step${k}.ts: ${['tokens', 'frames', 'retries', 'offsets', 'headers', 'chunks'][k]} are now bounded.` }),
  );

  it('merges near-duplicate memories into one point citing both, worded by the more important', () => {
    const points = selectPoints([fixB, fixA, deploy, ...chatter(DAY, 't')], { max: 10 });
    assert.equal(points.length, 2);
    const fix = points.find((p) => p.sources.some((s) => s.id === 'm_fix1'))!;
    assert.deepEqual(fix.sources.map((s) => s.id), ['m_fix1', 'm_fix2']);
    assert.ok(fix.text.startsWith('Fixed the crash in renderTurn'));
    assert.equal(fix.activity, 'coding');
    assert.equal(fix.localTime, '10:05');
  });

  it('cites a memory and the turn it came from as one point', () => {
    const turn = item({ id: 't_src', time: at('12:59'), text: 'Deployed v2.4 to staging, nginx config reloaded, health check green', importance: 5, category: 'success' });
    const mem = { ...deploy, turnIds: ['t_src', 't_outside'] };
    const points = selectPoints([turn, mem], { max: 5 });
    assert.equal(points.length, 1);
    assert.deepEqual(points[0]!.sources.map((s) => `${s.kind}:${s.id}`), ['turn:t_src', 'memory:m_dep', 'turn:t_outside']);
  });

  it('covers other activities before a seventh line on the same one', () => {
    const points = selectPoints([...coding, deploy], { max: 3 });
    assert.ok(points.some((p) => p.activity === 'ops'), JSON.stringify(points.map((p) => p.text)));
    assert.equal(points.length, 3);
  });

  it('is the same for the same records in any order, and empty for nothing', () => {
    const all = [fixA, fixB, deploy, ...coding, ...chatter(DAY, 't')];
    const once = JSON.stringify(selectPoints(all, { max: 5 }));
    assert.equal(JSON.stringify(selectPoints(shuffled(all, 1), { max: 5 })), once);
    assert.equal(JSON.stringify(selectPoints(shuffled(all, 2).reverse(), { max: 5 })), once);
    assert.deepEqual(selectPoints([], { max: 5 }), []);
    assert.deepEqual(selectPoints(chatter(DAY, 't'), { max: 5 }), []);
    assert.deepEqual(selectPoints(all, { max: 0 }), []);
  });
});

// The summariser keeps what it read of an item for the run and updates MMR likeness per pick: the
// picks must be those of the plain algorithm (likeness recomputed against every pick, near-duplicates
// looked for among all clusters), on material with many near-duplicates and shared figures.
describe('clusterItems and pickClusters on a large window', () => {
  const WORDS = ['deploy', 'staging', 'backup', 'cron', 'nginx', 'invoice', 'parser', 'retry', 'webhook', 'dashboard', 'chart', 'session', 'token', 'migration', 'schema', 'index'];
  function window(seed: number, n: number): Item[] {
    const rnd = seeded(seed);
    const pickWord = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
    return Array.from({ length: n }, (_, i) => {
      const words = Array.from({ length: 4 + Math.floor(rnd() * 4) }, pickWord).join(' ');
      const figure = rnd() < 0.5 ? ` on port ${5400 + Math.floor(rnd() * 3)}` : '';
      const minute = String(i % 60).padStart(2, '0');
      return item({ id: `m_${String(i).padStart(4, '0')}`, time: `2026-03-02T${String(8 + Math.floor(i / 60)).padStart(2, '0')}:${minute}:00Z`, text: `We fixed the ${words}${figure}.`, importance: 5 + Math.floor(rnd() * 4), sessionId: `s${Math.floor(rnd() * 3)}` });
    });
  }
  /** MMR as first written: likeness to every pick recomputed for every candidate. */
  function plainPick(clusters: readonly Cluster[], max: number, relevance: (c: Cluster) => number): Cluster[] {
    const picked: Cluster[] = [];
    const left = [...clusters];
    const activities = new Set<string>();
    const sessions = new Set<string>();
    while (picked.length < max && left.length > 0) {
      let best = -1;
      let bestScore = -Infinity;
      for (let i = 0; i < left.length; i++) {
        const c = left[i]!;
        let likeness = 0;
        for (const p of picked) likeness = Math.max(likeness, similarity(c.tokens, p.tokens));
        const s = c.rep.sessionId;
        const score = relevance(c) - 0.5 * likeness + (activities.has(c.activity) ? 0 : 0.15) + (s && !sessions.has(s) ? 0.05 : 0);
        if (score > bestScore + 1e-9) {
          best = i;
          bestScore = score;
        }
      }
      const [c] = left.splice(best, 1);
      picked.push(c!);
      activities.add(c!.activity);
      if (c!.rep.sessionId) sessions.add(c!.rep.sessionId);
    }
    return picked;
  }
  const WEIGHT: Record<string, number> = { decision: 0.25, issue: 0.2, implementation: 0.2, success: 0.15, discovery: 0.15, plan: 0.1, preference: 0.05, fact: 0.05 };
  const relevance = (c: Cluster) => c.importance / 10 + (WEIGHT[c.category ?? ''] ?? 0) + Math.min(0.1, 0.05 * (c.members.length - 1));

  it('groups each record with the first alike cluster of the same figures and picks what plain MMR picks', () => {
    for (const seed of [1, 2, 3]) {
      const items = window(seed, 300);
      const clusters = clusterItems(items);
      // Every member is alike (or equal) to its cluster's representative and states the same figures.
      for (const c of clusters) for (const m of c.members) assert.ok(m === c.rep || similarity(contentTokens(m.text), contentTokens(c.rep.text)) >= NEAR_DUPLICATE || m.text.toLowerCase() === c.rep.text.toLowerCase());
      assert.ok(clusters.length < items.length, 'near-duplicates merged');
      const ids = (cs: readonly Cluster[]) => cs.map((c) => c.rep.id);
      for (const max of [1, 5, 25, 80]) assert.deepEqual(ids(pickClusters(clusters, max)), ids(plainPick(clusters, max, relevance)));
      // Reading the same items again (as the next reviews and the week do) gives the same clusters.
      assert.deepEqual(ids(clusterItems(items)), ids(clusters));
    }
  });
});
