// Entities inside one knowledge batch: the entities part decides which entity each mention is
// (resolveMentions); this overlay gives it what the store and the batch so far know, and turns its
// answers into rows: new entities (one per group, created once even when several memories of the
// batch name them), new aliases, a longer name learned, a relation, and one mention per memory.
import type { EntityType } from '../../core/types.js';
import { newId } from '../../core/ids.js';
import type { Store, NewEntityRow, AliasRow, MentionRow } from '../../store/store.js';
import type { EntityMention } from './contracts.js';
import { firstNameKeys, mentionKeys, resolveMentions, type KnownEntity } from './entities/resolve.js';
import type { KnowledgeRules } from './rules.js';

interface Known extends KnownEntity {
  slug: string;
  relation: string | null;
}

/** Persons a first name is compared with: the most mentioned ones when more share its letters. */
const FIRST_NAME_PERSONS = 50;

export class EntityOverlay {
  readonly updates = new Map<string, { id: string; name?: string; relation?: string | null }>();
  readonly aliases: AliasRow[] = [];
  readonly mentions: MentionRow[] = [];
  /** Alias key → entity (null: the store has none), for what the store was asked and the batch made. */
  private readonly byKey = new Map<string, Known | null>();
  /** First-name key → the persons whose name starts with it. */
  private readonly byFirst = new Map<string, Known[]>();
  private readonly byId = new Map<string, Known>();
  private readonly createdIds = new Set<string>();
  private readonly slugs = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly namespace: string,
    private readonly rules: KnowledgeRules,
    private readonly now: string,
  ) {}

  /** Loads what the store knows about these alias keys (once per key per batch). */
  async prefetch(keys: readonly string[]): Promise<void> {
    const todo = [...new Set(keys)].filter((k) => k !== '' && !this.byKey.has(k));
    if (todo.length === 0) return;
    const found = await this.store.entitiesByAliasKeys(this.namespace, todo);
    for (const k of todo) {
      const e = found.get(k);
      this.byKey.set(k, e ? this.adopt({ id: e.id, name: e.name, type: e.type, slug: e.slug, relation: e.relation }) : null);
    }
  }

  /** The entity this batch knows by an alias key (after prefetch), or null. */
  idOf(key: string): string | null {
    return this.byKey.get(key)?.id ?? null;
  }

  /** Resolves a memory's mentions to entities (creating new ones) and records the mentions; returns the display names. */
  async resolve(memoryId: string, mentions: readonly EntityMention[]): Promise<string[]> {
    await this.prefetch(mentionKeys(mentions));
    for (const first of firstNameKeys(mentions)) await this.prefetchFirstName(first);
    const resolutions = resolveMentions(
      mentions,
      (keys) => new Map(keys.flatMap((k) => (this.byKey.get(k) ? [[k, this.byKey.get(k)!] as const] : []))),
      (first) => this.byFirst.get(first) ?? [],
    );
    const groups = new Map<number, Known>();
    const names: string[] = [];
    const seen = new Set<string>();
    for (const r of resolutions) {
      let entity: Known;
      if (r.kind === 'known') {
        entity = this.byId.get(r.entityId)!;
        if (r.rename) this.update(entity, { name: r.rename });
        if (r.relation && !entity.relation) this.update(entity, { relation: r.relation });
      } else {
        entity = groups.get(r.group) ?? (await this.create(r.name, r.type, r.relation));
        groups.set(r.group, entity);
      }
      for (const a of r.aliases) this.addAlias(a.key, entity, a.display);
      if (seen.has(entity.id)) continue;
      seen.add(entity.id);
      this.mentions.push({ entityId: entity.id, memoryId });
      names.push(entity.name);
    }
    return names;
  }

  /** New entities, as they stand at the end of the batch (a name may have grown since creation). */
  createdRows(): NewEntityRow[] {
    return [...this.createdIds].map((id) => {
      const e = this.byId.get(id)!;
      return { id: e.id, name: e.name, slug: e.slug, type: e.type, relation: e.relation };
    });
  }

  private async prefetchFirstName(first: string): Promise<void> {
    if (this.byFirst.has(first)) return;
    // A plain lookup answers when the prefix matches few persons (almost always); only beyond
    // FIRST_NAME_PERSONS are the most mentioned ones picked, which reads every mention of each.
    let stored = await this.store.entitiesByAliasPrefix(this.namespace, first, { type: 'person', limit: FIRST_NAME_PERSONS + 1 });
    if (stored.length > FIRST_NAME_PERSONS) {
      stored = (await this.store.listEntities(this.namespace, { type: 'person', aliasPrefix: first, limit: FIRST_NAME_PERSONS })).map((s) => s.entity);
    }
    const persons = stored
      .map((e) => this.adopt({ id: e.id, name: e.name, type: e.type, slug: e.slug, relation: e.relation }))
      .filter((e) => firstWordKey(this.rules.aliasKey(e.name)) === first);
    this.byFirst.set(first, persons);
  }

  /** One object per entity, so a name learned through one key shows through every other. */
  private adopt(e: Known): Known {
    const have = this.byId.get(e.id);
    if (have) return have;
    this.byId.set(e.id, e);
    return e;
  }

  private async create(name: string, type: EntityType, relation: string | null): Promise<Known> {
    const e: Known = { id: newId('e', Date.parse(this.now)), name, type, relation, slug: await this.freeSlug(name) };
    this.byId.set(e.id, e);
    this.createdIds.add(e.id);
    if (type === 'person') {
      const first = firstWordKey(this.rules.aliasKey(name));
      if (this.byFirst.has(first)) this.byFirst.get(first)!.push(e);
    }
    return e;
  }

  private addAlias(key: string, entity: Known, display: string): void {
    if (this.byKey.get(key)) return; // a key names one entity; the first keeps it
    this.byKey.set(key, entity);
    this.aliases.push({ key, entityId: entity.id, display });
  }

  private update(entity: Known, patch: { name?: string; relation?: string | null }): void {
    Object.assign(entity, patch);
    if (this.createdIds.has(entity.id)) return; // the created row carries it
    this.updates.set(entity.id, { ...this.updates.get(entity.id), id: entity.id, ...patch });
  }

  /** A slug no entity of the namespace (or of this batch) has. */
  private async freeSlug(name: string): Promise<string> {
    const base = this.rules.slugify(name) || 'entity';
    let slug = base;
    for (let i = 2; this.slugs.has(slug) || (await this.store.getEntity(this.namespace, slug)) !== null; i++) slug = `${base}-${i}`;
    this.slugs.add(slug);
    return slug;
  }
}

function firstWordKey(key: string): string {
  return key.split(' ')[0] ?? '';
}
