// Which entity a mention is. An alias key the namespace knows is that entity ("@ana" and "Ana" are
// both `ana`); a lone first name is the one known person whose name starts with it ("Ana" → "Ana
// Souza"), and a full name is the one known person known by its first name only ("Ana Souza" →
// "Ana", who is renamed). Two candidates make it ambiguous, and an ambiguous mention becomes a new
// entity: a person can merge two entities later (`cairn entity merge`), while a wrong merge mixes
// two people's facts. Mentions of the same list that are one new entity share a group.
import type { EntityType } from '../../../core/types.js';
import type { EntityMention } from '../contracts.js';
import { aliasKey, slugify } from './aliases.js';

/** An entity the namespace already has, as the lookup returns it. */
export interface KnownEntity {
  id: string;
  name: string;
  type: EntityType;
}

/** A name to file under an entity: its alias key and how it was written. */
export interface NewAlias {
  key: string;
  display: string;
}

/**
 * What a mention is. `known`: an existing entity (add `aliases`; `rename` when a longer full name
 * was learned — the store leaves a locked entity's name alone). `new`: an entity to create; every
 * mention of the list that is the same new entity has the same `group` and carries the group's
 * final name, type, relation, slug and aliases, so the caller creates one entity per group.
 */
export type Resolution =
  | {
      kind: 'known';
      mention: EntityMention;
      entityId: string;
      /** alias: the key is known; first-name: "Ana" ↔ "Ana Souza" either way. */
      via: 'alias' | 'first-name';
      /** Keys of this mention the entity does not have yet. */
      aliases: NewAlias[];
      rename: string | null;
      relation: string | null;
    }
  | {
      kind: 'new';
      mention: EntityMention;
      group: number;
      name: string;
      type: EntityType;
      relation: string | null;
      slug: string;
      aliases: NewAlias[];
      /** Known entities it could have been when the first name matched several (it was not merged). */
      ambiguousWith: string[];
    };

/** Looks entities up by exact alias key (key → entity; unknown keys absent). */
export type KnownByKey = (keys: string[]) => ReadonlyMap<string, KnownEntity>;
/** Known persons whose name's first word has this alias key ("ana" → Ana Souza, Ana Lima, Ana). */
export type KnownByFirstName = (firstKey: string) => readonly KnownEntity[];

/** The keys resolveMentions will look up by alias (so an async caller can fetch them first). */
export function mentionKeys(mentions: readonly EntityMention[]): string[] {
  const keys = new Set<string>();
  for (const m of mentions) for (const k of keysOf(m)) keys.add(k);
  return [...keys];
}

/** The first-name keys resolveMentions will look up for persons (fetch them first when the lookup is async). */
export function firstNameKeys(mentions: readonly EntityMention[]): string[] {
  const keys = new Set<string>();
  for (const m of mentions) if (m.type === 'person') keys.add(firstWord(aliasKey(m.name)));
  keys.delete('');
  return [...keys];
}

/**
 * Resolves each mention, in order. `byFirstName` enables the first-name rules; without it only
 * exact alias keys match (a lone "Ana" is then a new entity beside "Ana Souza", never a wrong merge).
 */
export function resolveMentions(mentions: readonly EntityMention[], known: KnownByKey, byFirstName?: KnownByFirstName): Resolution[] {
  const found = known(mentionKeys(mentions));
  const groups: Array<Extract<Resolution, { kind: 'new' }>[]> = [];
  /** New groups by alias key and persons by first word, so later mentions of the list join them. */
  const groupByKey = new Map<string, number>();
  const groupsByFirst = new Map<string, number[]>();
  const out: Resolution[] = [];
  for (const mention of mentions) {
    const keys = keysOf(mention);
    if (keys.length === 0) continue;
    const exact = keys.map((k) => found.get(k)).find((e) => e !== undefined && compatible(e.type, mention));
    if (exact) {
      out.push(knownResolution(mention, exact, 'alias', keys.filter((k) => !found.has(k))));
      continue;
    }
    const inList = keys.map((k) => groupByKey.get(k)).find((g) => g !== undefined);
    if (inList !== undefined) {
      joinGroup(groups, inList, mention, keys, out, groupByKey);
      continue;
    }
    if (mention.type === 'person') {
      const first = firstWord(keys[0]!);
      const single = first === keys[0];
      const listMatches = (groupsByFirst.get(first) ?? []).filter((g) => single || wordCount(groups[g]![0]!.name) === 1);
      const knownMatches = (byFirstName?.(first) ?? []).filter((e) => e.type === 'person' && (single ? wordCount(e.name) > 1 : wordCount(e.name) === 1));
      if (knownMatches.length + listMatches.length === 1) {
        if (knownMatches.length === 1) {
          const e = knownMatches[0]!;
          out.push(knownResolution(mention, e, 'first-name', keys, !single && longer(mention.name, e.name) ? mention.name : null));
        } else joinGroup(groups, listMatches[0]!, mention, keys, out, groupByKey);
        continue;
      }
      const g = newGroup(groups, mention, keys, knownMatches.map((e) => e.id), out, groupByKey);
      groupsByFirst.set(first, [...(groupsByFirst.get(first) ?? []), g]);
      continue;
    }
    newGroup(groups, mention, keys, [], out, groupByKey);
  }
  return out;
}

function knownResolution(mention: EntityMention, e: KnownEntity, via: 'alias' | 'first-name', newKeys: string[], rename: string | null = null): Resolution {
  return { kind: 'known', mention, entityId: e.id, via, aliases: newKeys.map((key) => ({ key, display: mention.name })), rename, relation: mention.relation ?? null };
}

function newGroup(groups: Array<Extract<Resolution, { kind: 'new' }>[]>, mention: EntityMention, keys: string[], ambiguousWith: string[], out: Resolution[], groupByKey: Map<string, number>): number {
  const g = groups.length;
  const r: Extract<Resolution, { kind: 'new' }> = {
    kind: 'new', mention, group: g, name: mention.name, type: mention.type, relation: mention.relation ?? null,
    slug: slugify(mention.name), aliases: keys.map((key) => ({ key, display: mention.name })), ambiguousWith,
  };
  groups.push([r]);
  for (const k of keys) groupByKey.set(k, g);
  out.push(r);
  return g;
}

/** Adds a mention to a new group; the group's name becomes the longest, and every member sees the same data. */
function joinGroup(groups: Array<Extract<Resolution, { kind: 'new' }>[]>, g: number, mention: EntityMention, keys: string[], out: Resolution[], groupByKey: Map<string, number>): void {
  const members = groups[g]!;
  const head = members[0]!;
  const name = longer(mention.name, head.name) ? mention.name : head.name;
  const aliases = [...head.aliases];
  for (const key of keys) if (!aliases.some((a) => a.key === key)) aliases.push({ key, display: mention.name });
  for (const k of keys) groupByKey.set(k, g);
  const r: Extract<Resolution, { kind: 'new' }> = { ...head, mention, name, slug: slugify(name), aliases, relation: head.relation ?? mention.relation ?? null };
  members.push(r);
  for (const m of members) Object.assign(m, { name, slug: r.slug, aliases, relation: r.relation });
  out.push(r);
}

/** A mention's alias keys: its name's, and a handle's without the @ ("@ana_souza" → `ana souza`). */
function keysOf(m: EntityMention): string[] {
  const k = aliasKey(m.name);
  return k ? [k] : [];
}

/** A confident place, organisation or tool is not a person of the same name ("Jordan" the country, "Jordan" a friend). */
function compatible(type: EntityType, m: EntityMention): boolean {
  if (type === m.type) return true;
  const personVsOther = (type === 'person') !== (m.type === 'person');
  return !(personVsOther && m.confidence >= 0.8);
}

function firstWord(key: string): string {
  return key.split(' ')[0] ?? '';
}

function wordCount(name: string): number {
  return aliasKey(name).split(' ').filter(Boolean).length;
}

/** Whether `a` is a fuller form of `b`: more words, starting with b's words. */
function longer(a: string, b: string): boolean {
  const ka = aliasKey(a).split(' ');
  const kb = aliasKey(b).split(' ');
  return ka.length > kb.length && kb.every((w, i) => ka[i] === w);
}
