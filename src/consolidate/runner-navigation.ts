// The navigation layers of a run: life/ (a page per promoted entity, see life.ts), topic pages
// (subjects that recur across days) and MEMORY.md, the one page an agent or a person reads first.
// All depend on "now" (what is recent, what is archived), so they are looked at on every run; their
// material hash keeps an unchanged page untouched. life/ goes first: topic pages and MEMORY.md link it.
import { join } from 'node:path';
import { hotStateFrom } from '../service/hot-state.js';
import type { Item } from './contracts.js';
import { gatherMemories } from './material.js';
import { MEMORY_MD, topicPath } from './digest-paths.js';
import { readTextOrNull, runDigestJob, type JobContext, type WrittenFile } from './digest-job.js';
import { addDays, windowsOf, type DayBounds } from './windows.js';
import { findTopics, renderTopicPage, TOPIC_BEGIN, TOPIC_END } from './topics.js';
import { carriedPersonText, isCairnGenerated, PERSON_HINT } from './person-sections.js';
import { renderMemoryMd } from './memory-md.js';
import { writeLife, type LifeLink, type LifeSettings } from './life.js';

const DAY_MS = 86_400_000;

/** The person's section of a page, null while it holds only the hint a new page gets. */
function personText(existing: string | null): string | null {
  const text = carriedPersonText(existing);
  return text === `\n${PERSON_HINT}\n` ? null : text;
}

/**
 * What of a page is the person's (hashed with the material, so their edit is never overwritten by a
 * stored copy): the person section of a page Cairn made, or all of a hand-made page but the block
 * Cairn refreshes in it.
 */
function ownText(existing: string | null): string | null {
  if (existing === null) return null;
  if (isCairnGenerated(existing)) return personText(existing);
  const begin = existing.indexOf(TOPIC_BEGIN);
  const end = begin === -1 ? -1 : existing.indexOf(TOPIC_END, begin);
  return end === -1 ? existing : existing.slice(0, begin) + existing.slice(end + TOPIC_END.length);
}
/** How far back recurring subjects are looked for. */
const TOPIC_DAYS = 90;
/** MEMORY.md shows the hot (≤ 7 days) and warm (8–30 days) tiers; older material only by link. */
const MEMORY_MD_DAYS = 30;
const TOPICS_MAX = 20;
const TOPIC_MIN_DAYS = 3;

export interface NavigationInput {
  timeZone: string;
  bounds: DayBounds;
  now: Date;
  today: string;
  maxLines: number;
  /** Promotion and archive settings (config `knowledge`). */
  knowledge: LifeSettings;
}

/** The promoted entities a topic's records name, for its page (most mentioned first). */
function entitiesOf(links: readonly LifeLink[], ids: ReadonlySet<string>): Array<{ name: string; path: string }> {
  return links
    .filter((l) => [...ids].some((id) => l.memoryIds.has(id)))
    .sort((a, b) => b.mentions - a.mentions || (a.path < b.path ? -1 : 1))
    .map((l) => ({ name: l.name, path: l.path }));
}

function ago(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString();
}

export async function writeTopicsAndMemoryMd(ctx: JobContext, input: NavigationInput): Promise<WrittenFile[]> {
  const { store, namespace } = ctx;
  const written: WrittenFile[] = [];
  const life = await writeLife(ctx, { now: input.now, timeZone: input.timeZone, settings: input.knowledge });
  written.push(...life.files);
  const recent: Item[] = await gatherMemories(store, namespace, { since: ago(input.now, TOPIC_DAYS) }, input.timeZone);
  const topics = findTopics(recent, { minDays: TOPIC_MIN_DAYS, max: TOPICS_MAX });
  for (const topic of topics) {
    const path = topicPath(topic.slug);
    const existingText = readTextOrNull(join(ctx.dir, path));
    const first = topic.items[0]?.time ?? input.now.toISOString();
    const last = topic.items[topic.items.length - 1]?.time ?? first;
    const entities = entitiesOf(life.links, new Set(topic.items.map((i) => i.id)));
    const w = await runDigestJob(ctx, {
      kind: 'topic', path, periodStart: first, periodEnd: last,
      // An empty list hashes as before life/ existed: a page with no entities is not rewritten for it.
      inputs: [topic, ownText(existingText), ...(entities.length > 0 ? [entities] : [])], items: topic.items, title: topic.title, prose: false,
      render: () => renderTopicPage({ topic, existingText, entities }),
    });
    if (w) written.push(w);
  }

  const memorySince = ago(input.now, MEMORY_MD_DAYS);
  const memories = recent.filter((m) => m.time >= memorySince);
  const decisionsInForce = await gatherMemories(store, namespace, { categories: ['decision'] }, input.timeZone, 200);
  const hotState = hotStateFrom(namespace, await store.getHotState(namespace));
  const digests = (await store.listDigests(namespace)).filter((d) => d.kind !== 'memory').map((d) => ({ kind: d.kind, path: d.path, periodStart: d.periodStart }));
  const existingText = readTextOrNull(join(ctx.dir, MEMORY_MD));
  const topicLinks = topics.map((t) => ({ slug: t.slug, title: t.title, days: t.days }));
  const entityLinks = life.links.map((l) => ({ name: l.name, type: l.type, relation: l.relation, kind: l.kind, path: l.path, lastSeen: l.lastSeen, mentions: l.mentions }));
  // A namespace with nothing to show gets no MEMORY.md (a person's own file is left as it is).
  if (memories.length === 0 && decisionsInForce.length === 0 && digests.length === 0 && hotState.updatedAt === null) return written;
  const md = await runDigestJob(ctx, {
    // The period is named by days, not by the clock: a run an hour later has the same inputs.
    kind: 'memory', path: MEMORY_MD,
    periodStart: windowsOf(addDays(input.today, -MEMORY_MD_DAYS), input.timeZone, input.bounds).day.start,
    periodEnd: windowsOf(input.today, input.timeZone, input.bounds).night.end,
    inputs: [input.today, input.maxLines, memories, decisionsInForce, hotState, digests, topicLinks, personText(existingText), ...(entityLinks.length > 0 ? [entityLinks] : [])], items: memories, title: 'MEMORY.md', prose: false,
    render: () => renderMemoryMd({ namespace, today: input.today, timeZone: input.timeZone, maxLines: input.maxLines, memories, decisionsInForce, hotState, digests, topics: topicLinks, entities: entityLinks, existingText }),
  });
  if (md) written.push(md);
  return written;
}
