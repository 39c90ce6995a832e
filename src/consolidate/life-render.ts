// The life/ files (DESIGN.md "Files a person can read"): one page per promoted entity, filed by PARA
// kind, and an index of them. Pure renderers: the same pages give the same bytes (no clock, no
// order of input), and every line that states something cites the memory it came from.
import { createHash } from '../core/lazy-crypto.js';
import { localDayTime } from '../core/local-time.js';
import { PARA_KINDS, type DigestSource, type Fact, type ParaKind } from '../core/types.js';
import type { EntityWithStats } from '../store/knowledge-records.js';
import { citation, type Rendered } from './contracts.js';
import { sectionsOf } from './digest-sections.js';
import { GENERATED_MARKER } from './person-sections.js';
import { pointText } from './point-text.js';
import { inlineSafe, oneLine, slugOf } from './topics.js';

/** A memory that names the entity, as its page shows it. */
export interface LifeMemory {
  id: string;
  /** ISO: event time, or when it was remembered. */
  time: string;
  text: string;
  importance: number;
  category: string;
  current: boolean;
}

export interface LifePage {
  entity: EntityWithStats;
  kind: ParaKind;
  /** One sentence: why it is filed under `kind` (para.ts). */
  reason: string;
  /** The folder name under `life/<kind>/` (safeSlugs). */
  slug: string;
  /** Every fact about it, current and superseded. */
  facts: readonly Fact[];
  /** The memories that name it (the most recent ones; the page picks what to show). */
  memories: readonly LifeMemory[];
}

export const LIFE_DIR = 'life';
export const LIFE_INDEX = 'life/index.md';
const SUMMARY = 'summary.md';
const ITEMS = 'items.json';

const SLUG_OK = /^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$/;
const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com\d|lpt\d)$/;
/** A path Cairn writes an entity page at: anything else in the store is never touched on disk. */
export const SUMMARY_PATH_RE = new RegExp(`^life/(?:${PARA_KINDS.join('|')})/[a-z0-9][a-z0-9-]{0,79}/summary\\.md$`);

export const summaryPath = (kind: ParaKind, slug: string): string => `${LIFE_DIR}/${kind}/${slug}/${SUMMARY}`;
export const itemsPath = (kind: ParaKind, slug: string): string => `${LIFE_DIR}/${kind}/${slug}/${ITEMS}`;

const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 8);

/**
 * A folder name per entity id, unique among them, made only of `[a-z0-9-]`: the store's slug when
 * it is such a name, else one made from the display name. A clash goes to the entity whose id sorts
 * first; the others get a short hash of their id.
 */
export function safeSlugs(entities: ReadonlyArray<{ id: string; slug: string; name: string }>): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const e of [...entities].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    let slug = SLUG_OK.test(e.slug) && !WINDOWS_RESERVED.test(e.slug) ? e.slug : slugOf(e.name);
    if (!SLUG_OK.test(slug)) slug = `e-${shortHash(e.id)}`;
    if (taken.has(slug)) slug = `${slug.slice(0, 60).replace(/-+$/, '')}-${shortHash(e.id)}`;
    taken.add(slug);
    out.set(e.id, slug);
  }
  return out;
}

const HISTORY_MAX = 40;
const FACTS_MAX = 60;
const MENTIONED_MAX = 12;
const SUMMARY_FACTS = 3;
const VALUE_MAX = 160;
const NAME_MAX = 100;

const dayOf = (iso: string, timeZone: string): string => localDayTime(iso, timeZone)?.day ?? iso.slice(0, 10);
const text = (s: string, max: number): string => inlineSafe(oneLine(s, max)).replace(/`/g, "'");
const linkText = (s: string): string => s.replace(/[[\]]/g, (c) => `\\${c}`);
/** Ids are the store's, but a citation is only a citation when it cannot break out of its backticks. */
const citable = (id: string): boolean => /^[A-Za-z0-9_-]{1,64}$/.test(id);
const cite = (id: string): string => (citable(id) ? ` ${citation([{ id }])}` : '');
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const ARTICLE: Record<string, string> = { person: 'a person', project: 'a project', organization: 'an organisation', place: 'a place', tool: 'a tool', topic: 'a topic' };

/** Current facts first by how often they were stated, then the newest: what the page opens with. */
const byWeight = (a: Fact, b: Fact): number => b.mentions - a.mentions || byText(b.validFrom, a.validFrom) || byText(a.id, b.id);
const byAttribute = (a: Fact, b: Fact): number => byText(a.attribute, b.attribute) || byText(a.validFrom, b.validFrom) || byText(a.id, b.id);

function summaryLines(page: LifePage, current: readonly Fact[], timeZone: string): string[] {
  const { entity: e, stats } = page.entity;
  const name = text(e.name, NAME_MAX);
  const relation = e.relation && e.relation.trim() !== '' ? `, your ${text(e.relation, 60)}` : '';
  const aliases = [...new Set(e.aliases.map((a) => text(a, 60)))].filter((a) => a !== '' && a !== name).sort(byText).slice(0, 8);
  const aka = aliases.length > 0 ? ` Also known as ${aliases.join(', ')}.` : '';
  const first = `${name} is ${ARTICLE[e.type] ?? 'an entity'}${relation}.${aka}`;
  const memories = `${stats.memories} ${stats.memories === 1 ? 'memory' : 'memories'}`;
  const mentions = `${stats.mentions} ${stats.mentions === 1 ? 'mention' : 'mentions'}`;
  const second = `Last seen ${dayOf(stats.lastSeen, timeZone)}, first ${dayOf(stats.firstSeen, timeZone)}: ${mentions} in ${memories}. ${page.reason}`;
  const top = [...current].sort(byWeight).slice(0, SUMMARY_FACTS);
  const third = top.length === 0 ? 'No facts about it are recorded yet.' : `Now: ${top.map((f) => `${text(f.attribute, 40)} ${text(f.value, 60)}`).join('; ')}.`;
  return [first, second, third];
}

/** `life/<kind>/<slug>/summary.md`: the three-line summary, current facts, their history, the memories that name it. */
export function renderEntitySummary(page: LifePage, timeZone: string): Rendered & { path: string } {
  const sources = new Map<string, DigestSource>();
  const memoryTime = new Map(page.memories.map((m) => [m.id, m.time]));
  const cited = (id: string, fallbackTime: string): string => {
    if (citable(id)) sources.set(id, { kind: 'memory', id, time: memoryTime.get(id) ?? fallbackTime });
    return cite(id);
  };
  const facts = [...page.facts];
  const byId = new Map(facts.map((f) => [f.id, f]));
  const current = facts.filter((f) => f.validTo === null).sort(byAttribute);
  const history = facts.filter((f) => f.validTo !== null).sort((a, b) => byText(a.attribute, b.attribute) || byText(b.validFrom, a.validFrom) || byText(a.id, b.id));

  const lines = [GENERATED_MARKER, `# ${text(page.entity.entity.name, NAME_MAX) || page.slug}`, '', ...summaryLines(page, current, timeZone), '', '## Current facts', ''];
  if (current.length === 0) lines.push('_None yet._');
  for (const f of current.slice(0, FACTS_MAX)) lines.push(`- ${text(f.attribute, 60)}: ${text(f.value, VALUE_MAX)} (since ${dayOf(f.validFrom, timeZone)})${cited(f.memoryId, f.validFrom)}`);
  if (current.length > FACTS_MAX) lines.push(`- _${current.length - FACTS_MAX} more in ${ITEMS}._`);

  lines.push('', '## History', '');
  if (history.length === 0) lines.push('_No fact about it has changed._');
  for (const f of history.slice(0, HISTORY_MAX)) {
    const next = f.supersededBy ? byId.get(f.supersededBy) : undefined;
    const replaced = next ? `, replaced by ${text(next.value, VALUE_MAX)}` : f.supersededBy ? ', replaced' : '';
    lines.push(`- ${text(f.attribute, 60)}: ${text(f.value, VALUE_MAX)} (${dayOf(f.validFrom, timeZone)} → ${dayOf(f.validTo!, timeZone)}${replaced})${cited(f.memoryId, f.validFrom)}`);
  }
  if (history.length > HISTORY_MAX) lines.push(`- _${history.length - HISTORY_MAX} older changes are in ${ITEMS}._`);

  // The most important memories, then the newest; shown newest first.
  const shown = [...page.memories]
    .sort((a, b) => b.importance - a.importance || byText(b.time, a.time) || byText(a.id, b.id))
    .slice(0, MENTIONED_MAX)
    .sort((a, b) => byText(b.time, a.time) || byText(a.id, b.id));
  lines.push('', '## Mentioned in', '');
  if (shown.length === 0) lines.push('_No memory names it now._');
  for (const m of shown) {
    const point = pointText(m.text, 200).replace(/`/g, "'");
    lines.push(`- ${dayOf(m.time, timeZone)} ${point}${m.current ? '' : ' _(superseded)_'}${cited(m.id, m.time)}`);
  }
  const out = `${lines.join('\n')}\n`;
  return { path: summaryPath(page.kind, page.slug), text: out, sections: sectionsOf(out, sources) };
}

/**
 * `items.json`: the entity and every fact about it with provenance and both times, keys in a fixed
 * order. `redact` is the gate every string value passes before the file is written.
 */
export function renderItemsJson(page: LifePage, redact: (text: string) => string = (t) => t): string {
  const e = page.entity.entity;
  const facts = [...page.facts].sort((a, b) => byText(a.validFrom, b.validFrom) || byText(a.attribute, b.attribute) || byText(a.id, b.id));
  const doc = {
    entity: { id: e.id, name: e.name, type: e.type, relation: e.relation, aliases: [...e.aliases].sort(byText), para: page.kind, reason: page.reason },
    facts: facts.map((f) => ({
      id: f.id,
      subject: f.subject,
      subjectName: f.subjectName,
      attribute: f.attribute,
      value: f.value,
      validFrom: f.validFrom,
      validTo: f.validTo,
      recordedAt: f.recordedAt,
      confidence: f.confidence,
      supersededBy: f.supersededBy,
      mentions: f.mentions,
      memoryId: f.memoryId,
      extractor: f.extractor,
      provenance: f.provenance.map((p) => Object.fromEntries(Object.entries(p).sort(([a], [b]) => byText(a, b)))),
    })),
  };
  return `${JSON.stringify(doc, (_key, value: unknown) => (typeof value === 'string' ? redact(value) : value), 2)}\n`;
}

const HEADINGS: Record<ParaKind, string> = { projects: 'Projects', areas: 'Areas', resources: 'Resources', archives: 'Archives' };

/** `life/index.md`: every promoted entity, one line each, grouped by PARA kind; in a group the most recently seen first. */
export function renderLifeIndex(namespace: string, pages: readonly LifePage[], timeZone: string): Rendered {
  const lines = [GENERATED_MARKER, `# Life: ${text(namespace, 80)}`, ''];
  const count = pages.length;
  lines.push(count === 0 ? 'No person, project or subject has been mentioned often enough to get a page yet.' : `${count} ${count === 1 ? 'entity' : 'entities'} with a page; candidates below the promotion bar are left out.`);
  for (const kind of PARA_KINDS) {
    const group = pages
      .filter((p) => p.kind === kind)
      .sort((a, b) => byText(b.entity.stats.lastSeen, a.entity.stats.lastSeen) || byText(a.slug, b.slug));
    if (group.length === 0) continue;
    lines.push('', `## ${HEADINGS[kind]}`, '');
    for (const p of group) {
      const { entity: e, stats } = p.entity;
      const relation = e.relation && e.relation.trim() !== '' ? ` (your ${text(e.relation, 40)})` : '';
      const mentions = `${stats.mentions} ${stats.mentions === 1 ? 'mention' : 'mentions'}`;
      lines.push(`- [${linkText(text(e.name, NAME_MAX) || p.slug)}](${kind}/${p.slug}/${SUMMARY}) · ${e.type}${relation} · last seen ${dayOf(stats.lastSeen, timeZone)} · ${mentions}`);
    }
  }
  const out = `${lines.join('\n')}\n`;
  return { text: out, sections: sectionsOf(out, new Map()) };
}
