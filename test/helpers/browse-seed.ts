// A home for the browsing views (timeline, layers, health, entity graph), made the way a user's is:
// a JSONL transcript registered as a capture source and scanned (with a malformed line and a secret
// among its lines), judged by the heuristic, consolidated into the layers; plus the known entities
// and facts of knowledge-seed.ts in the default namespace. Berlin time, no embedder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { afterCapture, scanSource } from '../../src/service/capture.js';
import { BERLIN, jsonl, SEVERAL_DAYS, type Line } from './consolidation.js';
import { SEED_NS, seedKnowledge, type Seeded } from './knowledge-seed.js';
import { OPENAI_KEY } from './secrets.js';

export const WORK_NS = 'work';
/** Consolidated as of this moment: every day of SEVERAL_DAYS has its notes and review. */
export const CONSOLIDATED_AT = '2026-03-06T08:00:00Z';
/** The day whose night holds the 23:30 (n1) and 02:00 (n2) turns. */
export const NIGHT_DAY = '2026-03-02';

/** Words a person would use on a bad day and a good one, so the reviews record a mood. */
const MOODY: Line[] = [
  { id: 'm1', timestamp: '2026-03-04T10:00:00Z', content: 'Ugh, I am so frustrated, the flaky test failed again and I am stuck.' },
  { id: 'm2', timestamp: '2026-03-04T11:00:00Z', content: 'This is annoying, the CI runner is stuck on the same flaky test.' },
  { id: 'm3', timestamp: '2026-03-04T12:00:00Z', content: 'Finally fixed it, relieved and happy: the flaky test had a race in setup.' },
  { id: 's1', timestamp: '2026-03-04T13:00:00Z', content: `We decided to rotate the deploy key; the old one was ${OPENAI_KEY} and must not be used again.` },
];

export interface BrowseSeed {
  transcript: string;
  knowledge: Seeded;
}

/** Seeds an open facade's home (its config in Berlin time): knowledge, then capture, judging and consolidation. */
export async function seedBrowse(cairn: Cairn, extra: readonly Line[] = []): Promise<BrowseSeed> {
  const home = cairn.paths.root;
  const knowledge = await seedKnowledge(home);
  const transcript = join(home, 'transcripts', 'session.jsonl');
  mkdirSync(join(home, 'transcripts'), { recursive: true });
  // One line that is not JSON: capture counts it as malformed and goes on.
  writeFileSync(transcript, jsonl([...SEVERAL_DAYS, ...MOODY]) + '{"role":"user","content": not json\n' + jsonl(extra));
  const [source] = await cairn.addSources({ kind: 'jsonl', path: transcript, namespace: WORK_NS });
  const deps = cairn.captureDeps();
  const scan = await scanSource(deps, source!);
  await afterCapture(deps, scan.results);
  await cairn.consolidate({ namespace: WORK_NS, at: CONSOLIDATED_AT });
  // The knowledge of the default namespace gets its life/ pages (entity summaries).
  await cairn.consolidate({ namespace: SEED_NS, at: '2026-01-26T08:00:00Z' });
  return { transcript, knowledge };
}

/** A new home at `home` seeded by seedBrowse (Berlin, no embedder), closed again. */
export async function seedBrowseHome(home: string, extra: readonly Line[] = []): Promise<BrowseSeed> {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.json'), JSON.stringify(BERLIN));
  const cairn = await Cairn.open({ home, embedder: null });
  try {
    return await seedBrowse(cairn, extra);
  } finally {
    await cairn.close();
  }
}
