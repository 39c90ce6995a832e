// The search pipeline ranks exactly as the single-function hybridSearch did: a fixed home (a
// generated multi-speaker transcript with long messages, memories with entities, a superseded
// fact) searched with a fixed set of queries and settings, compared with the results the old path
// returned, recorded in golden-results.json (ids, order, scores and their parts, context, snippets).
// CAIRN_GOLDEN_RECORD=1 rewrites the record instead (only when a ranking change is intended).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn, type SearchOptions } from '../../../src/service/cairn.js';
import type { SearchResult } from '../../../src/search/hybrid.js';
import { HashEmbedder, tempDir } from '../../helpers/store-fixtures.js';
import { seedKnowledge } from '../../helpers/knowledge-seed.js';
import { seeded } from '../../helpers/prng.js';

const RECORD = join(import.meta.dirname, 'golden-results.json');

const SPEAKERS = ['Ana', 'Bo', 'Cy'];
const TOPICS = [
  'the staging database migration failed with a timeout on port 6543',
  'we adopted a puppy called Pepper from the shelter last Friday',
  'my sister moved to Lisbon for a design job in October',
  'the Cairn project plan needs a review of the search ranking',
  'chess club tonight, then climbing at the gym',
  'the kitchen renovation took most of the spring',
  'I retook the aptitude test and got great results',
  'the invoice for the cloud servers doubled this month',
  'we decided to use Postgres instead of MySQL for billing',
  'the garden needs tomatoes and basil along the fence',
];
const FILLER = [
  'Honestly it was a long week.',
  'Thanks, that helps a lot!',
  'I will check tomorrow morning.',
  'Yes, last Friday!',
  'That sounds great, tell me more.',
  'ok',
];

/** A transcript of six sessions of three people: short replies, topic turns and long (passage-sized) messages. */
function transcript(dir: string): string {
  const rnd = seeded(29);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const lines: string[] = [];
  let n = 0;
  for (let s = 0; s < 6; s++) {
    for (let i = 0; i < 14; i++) {
      const speaker = pick(SPEAKERS);
      const r = rnd();
      const content =
        r < 0.35 ? pick(FILLER)
        : r < 0.8 ? `${pick(TOPICS)}.`
        : Array.from({ length: 6 }, () => `${pick(TOPICS)}, ${pick(FILLER).toLowerCase()}`).join(' ');
      const timestamp = new Date(Date.UTC(2026, 0, 2 + s * 3, 9, i * 5)).toISOString();
      lines.push(JSON.stringify({ role: 'user', speaker, content, session: `s${s}`, id: `m${++n}`, timestamp }));
    }
  }
  const path = join(dir, 'chat.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

const ASOF = '2026-01-20T12:00:00.000Z';
const CASES: Array<{ name: string; query: string; options?: SearchOptions; search?: Record<string, unknown> }> = [
  { name: 'default', query: 'staging database port' },
  { name: 'speaker', query: 'What did Bo say about chess?' },
  { name: 'long message', query: 'sister moved to Lisbon', options: { limit: 5 } },
  { name: 'when', query: 'When did we adopt the puppy?' },
  { name: 'time window', query: 'what happened last week with the invoice', options: { asOf: ASOF } },
  { name: 'entity', query: 'Ana Souza Lisbon' },
  { name: 'superseded', query: 'staging database port 5433', options: { includeSuperseded: true } },
  { name: 'bm25', query: 'Postgres billing decision', options: { mode: 'bm25' } },
  { name: 'vector', query: 'Postgres billing decision', options: { mode: 'vector' } },
  { name: 'memories only', query: 'Cairn project plan review', options: { kinds: ['memory'] } },
  { name: 'filtered', query: 'kitchen renovation', options: { since: '2026-01-10T00:00:00Z', limit: 3 } },
  { name: 'layers strategy', query: 'garden tomatoes', options: { strategy: 'layers' } },
  { name: 'entity filter', query: 'database', options: { entity: 'staging database', includeSuperseded: true } },
  { name: 'many', query: 'test results climbing garden', options: { limit: 30 } },
  { name: 'nothing', query: 'zebra quantum' },
  { name: 'ungrouped', query: 'staging database port', search: { groupHits: 1, contextTurns: 0 } },
  { name: 'no neighbours', query: 'Yes, last Friday puppy', search: { neighbourWeight: 0, neighbourHits: false, coverageIdf: false } },
  { name: 'no passages', query: 'sister moved to Lisbon', search: { passageWeight: 0, focusWeight: 0 } },
];

type Row = Record<string, unknown>;

describe('search pipeline: the same results as before', () => {
  const tmp = tempDir();
  const homes = new Map<string, Cairn>();
  let file: string;
  let labels: Map<string, string>;

  async function home(search: Record<string, unknown> = {}): Promise<Cairn> {
    const key = JSON.stringify(search);
    const known = homes.get(key);
    if (known) return known;
    const dir = join(tmp.dir, `home-${homes.size}`);
    await seedKnowledge(dir);
    // The recorded ranking is every result's, the confidence cut left out (pipeline/confidence tests it).
    // Passage windows on (off by default since issue 29), so the passage stages stay covered.
    const cairn = await Cairn.open({ home: dir, embedder: new HashEmbedder({ dims: 64 }), config: { search: { minConfidence: 0, ...search }, index: { passages: 'windows' } } });
    homes.set(key, cairn);
    await cairn.ingest([file], { format: 'jsonl', namespace: 'default', final: true });
    const old = (await cairn.list({ limit: 100 })).find((m) => m.text.includes('port 5433'))!;
    await cairn.supersede(old.id, { text: 'The staging database port is 7000 since the January move', eventTime: '2026-01-21T10:00:00.000Z' });
    await cairn.embedPending();
    return cairn;
  }

  /** Record ids are random: a turn is named by its message id, a memory by its text. */
  async function labelsOf(cairn: Cairn): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const m of await cairn.list({ limit: 1000, includeSuperseded: true })) out.set(m.id, `memory:${m.text.slice(0, 60)}`);
    return out;
  }

  const label = (r: SearchResult) => `${labels.get(r.id) ?? `${r.kind}:${r.text.slice(0, 60)}`}@${r.provenance[0]?.messageId ?? ''}`;
  const row = (r: SearchResult): Row => ({
    label: label(r),
    kind: r.kind,
    score: r.score,
    parts: r.parts,
    snippet: r.snippet,
    current: r.current,
    supersededBy: r.supersededBy === undefined ? null : (labels.get(r.supersededBy) ?? '?'),
    provenance: r.provenance.map((p) => [p.messageId ?? null, p.context === true]),
    context: r.context.map((c) => [c.offset, c.match, c.messageId, c.text]),
  });

  before(() => {
    file = transcript(tmp.dir);
  });
  after(async () => {
    for (const c of homes.values()) await c.close();
    tmp.cleanup();
  });

  it('every query ranks the same ids in the same order with the same scores', async () => {
    const got: Record<string, Row[]> = {};
    for (const c of CASES) {
      const cairn = await home(c.search);
      labels = await labelsOf(cairn);
      got[c.name] = (await cairn.search(c.query, c.options ?? {})).results.map(row);
    }
    // The home is not trivial: hits, grouped context, long texts and superseded history all occur.
    assert.ok(got['default']!.length >= 5);
    assert.ok(Object.values(got).flat().some((r) => (r.context as unknown[]).length > 0));
    assert.ok(got['superseded']!.some((r) => r.supersededBy !== null));
    if (process.env.CAIRN_GOLDEN_RECORD === '1') {
      writeFileSync(RECORD, JSON.stringify(got, null, 1) + '\n');
      return;
    }
    const want = JSON.parse(readFileSync(RECORD, 'utf8')) as Record<string, Row[]>;
    for (const c of CASES) assert.deepEqual(JSON.parse(JSON.stringify(got[c.name])), want[c.name], `case "${c.name}"`);
  });
});
