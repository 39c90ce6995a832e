// Entity resolution inside one knowledge batch: names a memory mentions become entity ids, known
// ones looked up in the store by alias key, new ones created once even when several memories of
// the batch name them. Aliases merge conservatively: an exact key, or a first name that starts
// exactly one known person's full name; anything ambiguous becomes its own entity (a person can
// merge later; a wrong merge would mix two people's facts).
import type { Entity, EntityType } from '../../core/types.js';
import { newId } from '../../core/ids.js';
import type { Store, NewEntityRow, AliasRow, MentionRow } from '../../store/store.js';
import type { EntityMention } from './contracts.js';
import type { KnowledgeRules } from './rules.js';

interface KnownEntity {
  id: string;
  name: string;
  slug: string;
  type: EntityType;
  relation: string | null;
}

export class EntityOverlay {
  readonly updates = new Map<string, { id: string; name?: string; slug?: string; relation?: string | null }>();
  readonly aliases: AliasRow[] = [];
  readonly mentions: MentionRow[] = [];
  private readonly byKey = new Map<string, KnownEntity | null>();
  private readonly byId = new Map<string, KnownEntity>();
  private readonly createdIds = new Set<string>();
  private readonly slugs = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly namespace: string,
    private readonly rules: KnowledgeRules,
    private readonly now: string,
  ) {}

  /** Loads what the store knows about these keys (once per key per batch). */
  async prefetch(keys: readonly string[]): Promise<void> {
    const todo = [...new Set(keys)].filter((k) => k !== '' && !this.byKey.has(k));
    if (todo.length === 0) return;
    const found = await this.store.entitiesByAliasKeys(this.namespace, todo);
    for (const k of todo) {
      const e = found.get(k);
      if (!e) {
        this.byKey.set(k, null);
        continue;
      }
      // One object per entity, so a name learned through one key shows through every other.
      const entity = this.byId.get(e.id) ?? known(e);
      this.byId.set(e.id, entity);
      this.byKey.set(k, entity);
    }
  }

  /** Resolves a memory's mentions to entities (creating new ones) and records the mentions; returns the display names. */
  async resolve(memoryId: string, mentions: readonly EntityMention[]): Promise<string[]> {
    const keyed = mentions.map((m) => ({ m, key: this.rules.aliasKey(m.name) })).filter((x) => x.key !== '');
    const firstNames = keyed.filter((x) => x.m.type === 'person').map((x) => x.key.split(' ')[0]!);
    await this.prefetch([...keyed.map((x) => x.key), ...firstNames]);
    const names: string[] = [];
    const seen = new Set<string>();
    for (const { m, key } of keyed) {
      const entity = this.lookup(m, key) ?? (await this.create(m, key));
      if (m.relation && !entity.relation) {
        entity.relation = m.relation;
        this.update(entity.id, { relation: m.relation });
      }
      if (seen.has(entity.id)) continue;
      seen.add(entity.id);
      this.mentions.push({ entityId: entity.id, memoryId });
      names.push(entity.name);
    }
    return names;
  }

  private lookup(m: EntityMention, key: string): KnownEntity | null {
    const exact = this.byKey.get(key);
    if (exact) return exact;
    if (m.type !== 'person') return null;
    const parts = key.split(' ');
    // "Ana Souza" after "Ana": the full name joins the person known by the first name, and
    // becomes the display name (unless a person named the entity).
    if (parts.length > 1) {
      const first = this.byKey.get(parts[0]!);
      if (first && first.type === 'person' && !first.name.includes(' ')) {
        this.addAlias(key, first, m.name);
        first.name = m.name;
        this.update(first.id, { name: m.name });
        return first;
      }
    }
    // "Ana" after "Ana Souza": the first name of exactly one known full name.
    if (parts.length === 1) {
      const owners = new Set<KnownEntity>();
      for (const [k, e] of this.byKey) if (e && e.type === 'person' && k.startsWith(`${key} `)) owners.add(e);
      if (owners.size === 1) {
        const [owner] = owners;
        this.addAlias(key, owner!, m.name);
        return owner!;
      }
    }
    return null;
  }

  private async create(m: EntityMention, key: string): Promise<KnownEntity> {
    const e: KnownEntity = { id: newId('e', Date.parse(this.now)), name: m.name, slug: await this.freeSlug(m.name), type: m.type, relation: m.relation ?? null };
    this.byId.set(e.id, e);
    this.createdIds.add(e.id);
    this.addAlias(key, e, m.name);
    return e;
  }

  /** The entity this batch knows by an alias key (after prefetch), or null. */
  idOf(key: string): string | null {
    return this.byKey.get(key)?.id ?? null;
  }

  /** New entities, as they stand at the end of the batch (a name may have grown since creation). */
  createdRows(): NewEntityRow[] {
    return [...this.createdIds].map((id) => ({ ...this.byId.get(id)! }));
  }

  private addAlias(key: string, entity: KnownEntity, display: string): void {
    this.byKey.set(key, entity);
    this.aliases.push({ key, entityId: entity.id, display });
  }

  private update(id: string, patch: { name?: string; relation?: string | null }): void {
    if (this.createdIds.has(id)) return; // the created row carries it
    this.updates.set(id, { ...this.updates.get(id), id, ...patch });
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

function known(e: Entity): KnownEntity {
  return { id: e.id, name: e.name, slug: e.slug, type: e.type, relation: e.relation };
}
