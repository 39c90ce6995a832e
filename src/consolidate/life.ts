// The life/ job of a consolidation run: a page per promoted entity under life/<para>/<slug>/
// (summary.md, stored as an `entity` digest so search finds it and purge follows it; items.json
// beside it) and life/index.md (a `life` digest). A page whose entity moved (another PARA kind, a
// rename, a merge) is removed from its old folder; the folder itself goes only when nothing of a
// person's is left in it. Same material, same bytes: an unchanged entity writes nothing.
import { dirname, isAbsolute, join, relative } from 'node:path';
import { lstatSync, rmdirSync, unlinkSync } from 'node:fs';
import type { Fact, Memory, ParaKind } from '../core/types.js';
import type { EntityWithStats } from '../store/knowledge-records.js';
import { isPromoted, placePara, PARA_TIERS, type PromotionOptions } from '../memory/knowledge/para.js';
import { readTextOrNull, runDigestJob, writeLayerFile, type JobContext, type WrittenFile } from './digest-job.js';
import { isCairnGenerated } from './person-sections.js';
import { LIFE_INDEX, SUMMARY_PATH_RE, itemsPath, renderEntitySummary, renderItemsJson, renderLifeIndex, safeSlugs, summaryPath, type LifeMemory, type LifePage } from './life-render.js';

export interface LifeSettings extends PromotionOptions {
  archiveAfterDays: number;
}

/** A promoted entity as the other pages link it (MEMORY.md, topic pages). */
export interface LifeLink {
  id: string;
  name: string;
  type: string;
  relation: string | null;
  kind: ParaKind;
  /** Relative to the namespace folder: `life/<kind>/<slug>/summary.md`. */
  path: string;
  lastSeen: string;
  mentions: number;
  /** Ids of the memories that name it (the most recent, up to LINK_MEMORIES), for topic pages. */
  memoryIds: ReadonlySet<string>;
}

export interface LifeResult {
  files: WrittenFile[];
  links: LifeLink[];
}

/** Memories read per entity to pick what its page shows and to find its recent work. */
const PAGE_MEMORIES = 50;
/** Memory ids per entity matched against topic pages. */
const LINK_MEMORIES = 1000;
const DAY_MS = 86_400_000;
const EPOCH = '1970-01-01T00:00:00.000Z';

const isoOr = (iso: string, fallback: string): string => (Number.isNaN(Date.parse(iso)) ? fallback : new Date(Date.parse(iso)).toISOString());

function lifeMemory(m: Memory): LifeMemory {
  return { id: m.id, time: m.eventTime ?? m.createdAt, text: m.text, importance: m.importance, category: m.category, current: m.validTo === null };
}

/**
 * Deletes the files Cairn wrote for a page that is no longer at `path`: its summary.md (unless a
 * person replaced it with their own text) and its items.json, then the folder if that left it
 * empty. Paths that are not an entity page's, or that resolve outside the namespace folder, are
 * never touched.
 */
function removePageFiles(dir: string, path: string): void {
  if (!SUMMARY_PATH_RE.test(path)) return;
  const file = join(dir, ...path.split('/'));
  const inside = relative(dir, file);
  if (inside.startsWith('..') || isAbsolute(inside)) return;
  const folder = dirname(file);
  try {
    if (!lstatSync(folder).isDirectory()) return;
  } catch {
    return;
  }
  const regular = (f: string): boolean => {
    try {
      return lstatSync(f).isFile();
    } catch {
      return false;
    }
  };
  if (regular(file) && isCairnGenerated(readTextOrNull(file))) unlinkSync(file);
  const items = join(folder, 'items.json');
  if (regular(items)) unlinkSync(items);
  try {
    rmdirSync(folder);
  } catch {
    // not empty: a person's files stay, with their folder
  }
}

async function pageOf(ctx: JobContext, e: EntityWithStats, slug: string, now: Date, settings: LifeSettings): Promise<{ page: LifePage; memoryIds: Set<string> }> {
  const { store, namespace } = ctx;
  const facts: Fact[] = await store.listFacts(namespace, { entityId: e.entity.id, includeSuperseded: true });
  const ids = await store.entityMemoryIds(namespace, [e.entity.id], LINK_MEMORIES, { includeSuperseded: true });
  const memories: LifeMemory[] = [];
  for (const id of ids.slice(0, PAGE_MEMORIES)) {
    const m = await store.getMemory(namespace, id);
    if (m) memories.push(lifeMemory(m));
  }
  const since = now.getTime() - PARA_TIERS.warmDays * DAY_MS;
  const recentCategories = memories.filter((m) => m.current && Date.parse(m.time) >= since).map((m) => m.category);
  const placed = placePara(e, facts, now.toISOString(), { archiveAfterDays: settings.archiveAfterDays, recentCategories });
  return { page: { entity: e, kind: placed.kind, reason: placed.reason, slug, facts, memories }, memoryIds: new Set(ids) };
}

/** Writes life/ for the namespace; returns what it wrote and the links other pages show. */
export async function writeLife(ctx: JobContext, input: { now: Date; timeZone: string; settings: LifeSettings }): Promise<LifeResult> {
  const { store, namespace } = ctx;
  const promoted = (await store.listEntities(namespace)).filter((e) => isPromoted(e, input.settings));
  const slugs = safeSlugs(promoted.map((e) => e.entity));
  const files: WrittenFile[] = [];
  const links: LifeLink[] = [];
  const pages: LifePage[] = [];

  for (const e of promoted) {
    const { page, memoryIds } = await pageOf(ctx, e, slugs.get(e.entity.id)!, input.now, input.settings);
    pages.push(page);
    const path = summaryPath(page.kind, page.slug);
    // items.json first: a kill before the summary's row commits redoes both on the next run.
    const items = join(ctx.dir, ...itemsPath(page.kind, page.slug).split('/'));
    const json = renderItemsJson(page, ctx.redact);
    if (readTextOrNull(items) !== json) writeLayerFile(items, json);
    const periodStart = isoOr(e.stats.firstSeen, EPOCH);
    const periodEnd = [periodStart, isoOr(e.stats.lastSeen, EPOCH)].sort()[1]!;
    const w = await runDigestJob(ctx, {
      kind: 'entity', path, periodStart, periodEnd,
      inputs: [input.timeZone, page], items: [], title: e.entity.name, prose: false,
      render: () => renderEntitySummary(page, input.timeZone),
    });
    if (w) files.push(w);
    links.push({ id: e.entity.id, name: e.entity.name, type: e.entity.type, relation: e.entity.relation, kind: page.kind, path, lastSeen: e.stats.lastSeen, mentions: e.stats.mentions, memoryIds });
  }

  const wanted = new Set(links.map((l) => l.path));
  for (const d of await store.listDigests(namespace, { kinds: ['entity'] })) {
    if (wanted.has(d.path)) continue;
    removePageFiles(ctx.dir, d.path);
    await store.deleteDigest(namespace, d.path);
  }

  if (pages.length > 0 || (await store.getDigest(namespace, LIFE_INDEX))) {
    const seen = pages.map((p) => isoOr(p.entity.stats.lastSeen, EPOCH)).sort();
    const first = pages.map((p) => isoOr(p.entity.stats.firstSeen, EPOCH)).sort()[0] ?? EPOCH;
    const index = pages.map((p) => ({ name: p.entity.entity.name, type: p.entity.entity.type, relation: p.entity.entity.relation, kind: p.kind, slug: p.slug, lastSeen: p.entity.stats.lastSeen, mentions: p.entity.stats.mentions }));
    const w = await runDigestJob(ctx, {
      kind: 'life', path: LIFE_INDEX, periodStart: first, periodEnd: [first, seen.at(-1) ?? first].sort()[1]!,
      inputs: [input.timeZone, namespace, index], items: [], title: 'life/index.md', prose: false,
      render: () => renderLifeIndex(namespace, pages, input.timeZone),
    });
    if (w) files.push(w);
  }
  return { files, links };
}
