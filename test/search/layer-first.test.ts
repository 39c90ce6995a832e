// Layer-first retrieval (search/layer-first.ts) through the facade on a real SQLite home, and the
// CLI's --strategy through a child process: digest sections of layers 1–2 first, cut to the lines
// that cite what the query's ranking holds, then those records, then the rest of the flat list.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { CairnError } from '../../src/core/errors.js';
import type { NewDigest } from '../../src/core/types.js';
import { narrowSection } from '../../src/search/layer-first.js';
import type { SearchResult } from '../../src/search/hybrid.js';
import { NO_EMBEDDER, runCli, tempHomes } from '../helpers/cli.js';

const newHome = tempHomes();
const DAY = '2026-01-10T06:00:00.000Z';

function digest(namespace: string, kind: NewDigest['kind'], path: string, heading: string, lines: Array<[string, string[]]>): NewDigest {
  const text = lines.map(([t, ids]) => `- ${t} ${ids.map((id) => `\`${id}\``).join(' ')}`).join('\n');
  const sources = [...new Set(lines.flatMap(([, ids]) => ids))].map((id) => ({ kind: id.startsWith('m_') ? ('memory' as const) : ('turn' as const), id, time: DAY }));
  return { namespace, kind, path, periodStart: DAY, periodEnd: '2026-01-11T06:00:00.000Z', text: `## ${heading}\n${text}\n`, sections: [{ heading, text, sources }], inputsHash: 'h', generator: 'extractive@1' };
}

describe('layer-first search', () => {
  let home: string;
  let cairn: Cairn;
  const mem: Record<string, string> = {};
  before(async () => {
    home = newHome();
    cairn = await Cairn.open({ home, config: NO_EMBEDDER });
    for (const [key, text] of [
      ['kayak', 'We decided the kayak trip to the fjord goes first in June'],
      ['paint', 'Painting the lake sunrise took three weekends'],
      ['kayak2', 'The kayak needs a new paddle before the fjord trip'],
      ['other', 'The kayak club meets on Tuesdays'],
    ] as const) mem[key] = (await cairn.remember({ text, category: 'decision', importance: 5 })).memory.id;
    await cairn.remember({ namespace: 'elsewhere', text: 'Kayak fjord trip notes from another team', category: 'note' });
    await cairn.store.putDigest(
      digest('default', 'review', 'reviews/2026-01-10.md', 'Decisions', [
        ['09:10 the kayak trip to the fjord goes first', [mem.kayak!]],
        ['09:20 painting the lake sunrise', [mem.paint!]],
        ['09:30 a new paddle for the fjord kayak trip', [mem.kayak2!]],
        ['09:40 the fjord kayak trip, cited from elsewhere', ['m_0000000000000000000000']],
      ]),
    );
    await cairn.store.putDigest(digest('default', 'daily', 'daily/2026-01-10.md', 'Chat', [['09:00 fjord kayak trip chat', [mem.other!]]]));
    await cairn.store.putDigest(digest('elsewhere', 'weekly', 'weekly/2026-W02.md', 'Highlights', [['kayak fjord trip of the other team', ['m_1111111111111111111111']]]));
  });
  after(async () => {
    await cairn.close();
  });
  const search = (query: string, o: Parameters<Cairn['search']>[1] = {}) => cairn.search(query, { strategy: 'layers', ...o });

  it('puts the layer-2 section first, cut to the lines citing what the query ranks, then the records it cites', async () => {
    const { results } = await search('kayak fjord trip');
    assert.equal(results[0]!.kind, 'digest');
    assert.match(results[0]!.id, /^g_/);
    assert.match(results[0]!.text, /^Decisions\n- /);
    assert.match(results[0]!.text, /kayak trip to the fjord goes first/);
    assert.doesNotMatch(results[0]!.text, /painting/, 'a line citing a record the query does not reach is cut');
    assert.doesNotMatch(results[0]!.text, /cited from elsewhere/, 'a line citing an unknown id is cut');
    assert.deepEqual(new Set(results[0]!.provenance.flatMap((p) => p.memoryIds ?? [])), new Set([mem.kayak, mem.kayak2]));
    assert.deepEqual(new Set(results.slice(1, 3).map((r) => r.id)), new Set([mem.kayak, mem.kayak2]));
    assert.ok(results.slice(3).some((r) => r.id === mem.other), 'the rest of the flat list follows');
  });

  it('never shows a record twice and keeps to the limit', async () => {
    for (const limit of [1, 2, 3, 10]) {
      const { results } = await search('kayak fjord trip', { limit });
      assert.ok(results.length <= limit);
      assert.equal(new Set(results.map((r) => r.id)).size, results.length);
      assert.equal(results[0]!.kind, 'digest');
    }
  });

  it('stays in its namespace', async () => {
    const { results } = await search('kayak fjord trip', { namespace: 'elsewhere' });
    assert.ok(results.every((r) => r.namespace === 'elsewhere'));
    // The other team's section cites nothing its ranking holds: it does not hold the answer, and
    // the list is the flat one (where the section may still rank on its own words).
    const flat = await cairn.search('kayak fjord trip', { namespace: 'elsewhere' });
    assert.deepEqual(results.map((r) => r.id), flat.results.map((r) => r.id));
    assert.ok(!(await search('kayak fjord trip')).results.some((r) => r.text.includes('other team')));
  });

  it('keeps the caller\'s filters: no digests for kinds without them or layer 3 alone', async () => {
    const flatMemories = await cairn.search('kayak fjord trip', { kinds: ['memory'] });
    const layered = await search('kayak fjord trip', { kinds: ['memory'] });
    assert.deepEqual(layered.results.map((r) => r.id), flatMemories.results.map((r) => r.id));
    const layer3 = await search('kayak fjord trip', { layers: [3] });
    assert.ok(layer3.results.every((r) => r.kind === 'memory' || (r.kind === 'digest' && r.text.includes('Chat'))));
    assert.ok(!layer3.results.some((r) => r.text.includes('Decisions')));
    const minImportance = await search('kayak fjord trip', { minImportance: 9 });
    assert.deepEqual(minImportance.results, [], 'digests carry no importance: a minimum rules them out, as in flat search');
  });

  it('falls back to the flat list when a namespace has no digests or no section holds the answer', async () => {
    await cairn.remember({ namespace: 'bare', text: 'The kayak fjord trip is in June', category: 'note' });
    const flat = await cairn.search('kayak fjord', { namespace: 'bare' });
    const layered = await search('kayak fjord', { namespace: 'bare' });
    assert.equal(layered.results.length, 1);
    assert.deepEqual(layered.results.map((r) => r.id), flat.results.map((r) => r.id));
    const nothing = await search('zebra xylophone');
    assert.deepEqual(nothing.results, []);
  });

  it('flat stays the default', async () => {
    const byDefault = await cairn.search('kayak fjord trip');
    const flat = await cairn.search('kayak fjord trip', { strategy: 'flat' });
    assert.deepEqual(byDefault.results.map((r) => r.id), flat.results.map((r) => r.id));
  });

  it('refuses an unknown strategy with a clear error', async () => {
    for (const bad of ['hierarchical', '', 'LAYERS', 3, null]) {
      await assert.rejects(
        () => cairn.search('kayak', { strategy: bad as never }),
        (err: unknown) => err instanceof CairnError && /strategy: a strategy is flat or layers/.test(err.message),
      );
    }
  });
});

describe('narrowSection', () => {
  const section = (text: string): SearchResult =>
    ({ id: 'g_x#0', kind: 'digest', text, snippet: text, provenance: [{ source: 'cairn', turnIds: ['t_a', 't_b'], memoryIds: ['m_c'] }] }) as unknown as SearchResult;

  it('keeps the heading and at most the given lines that cite a reached record, in order', () => {
    const d = section('## Week\n- one `t_a`\n- two `m_c` `t_b`\n- three `t_b`\nplain prose');
    const out = narrowSection(d, new Set(['t_b', 't_a']), 2)!;
    assert.equal(out.text, '## Week\n- one `t_a`\n- two `m_c` `t_b`');
    assert.deepEqual(out.provenance[0]!.turnIds, ['t_a', 't_b']);
    assert.deepEqual(out.provenance[0]!.memoryIds, ['m_c']);
  });

  it('returns null when no line cites a reached record, or the text cites nothing at all', () => {
    assert.equal(narrowSection(section('## Mood\n- upbeat `t_a`'), new Set(['t_z']), 5), null);
    assert.equal(narrowSection(section(''), new Set(['t_a']), 5), null);
    assert.equal(narrowSection(section(`Head\n- text \`t_a ${'x'.repeat(100_000)}`), new Set(['t_a']), 5), null, 'an unclosed backtick is no citation');
  });
});

describe('cairn search --strategy', () => {
  it('runs layers and refuses a bad value', async () => {
    const home = newHome();
    writeFileSync(join(home, 'chat.jsonl'), JSON.stringify({ role: 'user', content: 'the fjord kayak trip', id: 'a1', session: 's', timestamp: '2026-01-10T09:00:00Z' }) + '\n');
    const layered = await runCli(['search', 'fjord', '--strategy', 'layers', '--json'], { home });
    assert.equal(layered.code, 0, layered.stderr);
    const bad = await runCli(['search', 'fjord', '--strategy', 'pyramid'], { home });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /a strategy is flat or layers/);
  });
});
