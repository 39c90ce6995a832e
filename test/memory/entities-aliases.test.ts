// Alias keys, slugs and resolution: "Ana", "@ana", "Ana's" are one name; "Ana" is "Ana Souza"
// when she is the only Ana, and a new entity when there are two (a split beats a wrong merge).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  aliasKey, firstNameKeys, mentionKeys, resolveMentions, slugify,
  type KnownEntity, type Resolution,
} from '../../src/memory/knowledge/entities/index.js';
import type { EntityMention } from '../../src/memory/knowledge/contracts.js';
import { aliasKey as key } from '../../src/memory/knowledge/entities/aliases.js';

const person = (name: string, confidence = 0.6): EntityMention => ({ name, type: 'person', confidence });

/** A namespace's entities as the store would answer: by alias key, and persons by the first word of their name. */
function namespace(entities: Array<KnownEntity & { aliases?: string[] }>) {
  const byKey = new Map<string, KnownEntity>();
  for (const e of entities) for (const a of [e.name, ...(e.aliases ?? [])]) byKey.set(key(a), { id: e.id, name: e.name, type: e.type });
  const asked: string[][] = [];
  return {
    asked,
    known: (keys: string[]) => {
      asked.push(keys);
      return new Map(keys.filter((k) => byKey.has(k)).map((k) => [k, byKey.get(k)!]));
    },
    byFirst: (first: string) => entities.filter((e) => e.type === 'person' && key(e.name).split(' ')[0] === first),
  };
}

const known = (r: Resolution) => (r.kind === 'known' ? r : assert.fail(`expected known, got ${JSON.stringify(r)}`));
const fresh = (r: Resolution) => (r.kind === 'new' ? r : assert.fail(`expected new, got ${JSON.stringify(r)}`));

describe('aliasKey', () => {
  it('folds case, @, possessives, articles and punctuation; keeps other scripts', () => {
    assert.equal(aliasKey('@Ana'), 'ana');
    assert.equal(aliasKey("Ana's"), 'ana');
    assert.equal(aliasKey('Chris’'), 'chris');
    assert.equal(aliasKey('The Acme Corp.'), 'acme corp');
    assert.equal(aliasKey('cairn_db'), aliasKey('cairn-db'));
    assert.equal(aliasKey('ＡＮＡ'), 'ana', 'NFKC');
    assert.equal(aliasKey('小红'), '小红');
    assert.equal(aliasKey('Анна'), 'анна');
    assert.equal(aliasKey('José'), 'josé');
    assert.equal(aliasKey('The'), 'the', 'a name that is only an article keeps it');
  });

  it('is empty for names with no letter or digit, and bounded', () => {
    assert.equal(aliasKey('!!! ...'), '');
    assert.equal(aliasKey(''), '');
    assert.equal(aliasKey('😀'), '');
    assert.ok(aliasKey('a '.repeat(10_000)).length <= 200);
  });
});

describe('slugify', () => {
  it('is ascii, file-safe and at most 60 characters', () => {
    assert.equal(slugify('Ana Souza'), 'ana-souza');
    assert.equal(slugify('José Müller'), 'jose-muller');
    assert.equal(slugify('src/store/sqlite.ts'), 'src-store-sqlite-ts');
    const long = slugify('Very Long Organisation Name '.repeat(10));
    assert.ok(long.length <= 60 && /^[a-z0-9-]+$/.test(long) && !long.endsWith('-'), long);
  });

  it('non-Latin names get a short hash, different per name', () => {
    const a = slugify('小红');
    const b = slugify('小明');
    assert.match(a, /^entity-[0-9a-f]{8}$/);
    assert.notEqual(a, b);
    assert.match(slugify('Ana 小红'), /^ana-[0-9a-f]{8}$/);
  });

  it('never empty nor a dot name', () => {
    for (const name of ['', '.', '..', '...', '/', '😀', '\u0000', ' - ']) {
      const s = slugify(name);
      assert.ok(s.length > 0 && s !== '.' && s !== '..' && /^[a-z0-9-]+$/.test(s), `${JSON.stringify(name)} → ${s}`);
    }
  });
});

describe('resolveMentions', () => {
  it('an exact alias key is the known entity; "@ana" is "ana"', () => {
    const ns = namespace([{ id: 'e_ana', name: 'Ana', type: 'person' }]);
    const [a, b] = resolveMentions([person('Ana'), { name: '@ana', type: 'person', confidence: 0.8 }], ns.known, ns.byFirst);
    assert.deepEqual([known(a!).entityId, known(a!).via, known(a!).aliases], ['e_ana', 'alias', []]);
    assert.equal(known(b!).entityId, 'e_ana');
  });

  it('a first name is the one known person it starts; a full name renames the one known by the first name only', () => {
    const ns = namespace([{ id: 'e_ana', name: 'Ana Souza', type: 'person' }, { id: 'e_bob', name: 'Bob', type: 'person' }]);
    const [ana, bob] = resolveMentions([person('Ana'), person('Bob Lima')], ns.known, ns.byFirst);
    assert.deepEqual([known(ana!).entityId, known(ana!).via, known(ana!).rename], ['e_ana', 'first-name', null]);
    assert.deepEqual(known(ana!).aliases, [{ key: 'ana', display: 'Ana' }]);
    assert.deepEqual([known(bob!).entityId, known(bob!).rename], ['e_bob', 'Bob Lima']);
    assert.deepEqual(known(bob!).aliases, [{ key: 'bob lima', display: 'Bob Lima' }]);
  });

  it('two known "Ana …" make "Ana" a new candidate, not a merge', () => {
    const ns = namespace([{ id: 'e_1', name: 'Ana Souza', type: 'person' }, { id: 'e_2', name: 'Ana Lima', type: 'person' }]);
    const [r] = resolveMentions([person('Ana')], ns.known, ns.byFirst);
    assert.deepEqual(fresh(r!).ambiguousWith.sort(), ['e_1', 'e_2']);
    assert.equal(fresh(r!).name, 'Ana');
  });

  it('without a first-name lookup only exact keys merge', () => {
    const ns = namespace([{ id: 'e_1', name: 'Ana Souza', type: 'person' }]);
    const [r] = resolveMentions([person('Ana')], ns.known);
    assert.equal(r!.kind, 'new');
  });

  it('mentions of one list that are one new entity share a group with the fullest name', () => {
    const ns = namespace([]);
    const out = resolveMentions([person('Ana'), person('Ana Souza'), { name: '@ana', type: 'person', confidence: 0.8 }, person('Bob')], ns.known, ns.byFirst);
    const groups = out.map((r) => fresh(r).group);
    assert.deepEqual(groups, [0, 0, 0, 1]);
    for (const r of out.slice(0, 3)) {
      assert.equal(fresh(r).name, 'Ana Souza');
      assert.equal(fresh(r).slug, 'ana-souza');
      assert.deepEqual(fresh(r).aliases.map((a) => a.key), ['ana', 'ana souza']);
    }
  });

  it('two new "Ana …" in one list stay two entities; a lone "Ana" after them is ambiguous', () => {
    const ns = namespace([]);
    const out = resolveMentions([person('Ana Souza'), person('Ana Lima'), person('Ana')], ns.known, ns.byFirst);
    assert.deepEqual(out.map((r) => fresh(r).group), [0, 1, 2]);
  });

  it('a confident place is not the person of the same name', () => {
    const ns = namespace([{ id: 'e_j', name: 'Jordan', type: 'person' }]);
    const [place, friend] = resolveMentions([{ name: 'Jordan', type: 'place', confidence: 0.85 }, person('Jordan', 0.55)], ns.known, ns.byFirst);
    assert.equal(place!.kind, 'new');
    assert.equal(known(friend!).entityId, 'e_j');
  });

  it('keeps the relation, skips keyless mentions, and says which keys it reads', () => {
    const ns = namespace([]);
    const mentions: EntityMention[] = [{ name: 'Ana', type: 'person', confidence: 0.9, relation: 'sister' }, person('!!!'), person('Ana Souza')];
    assert.deepEqual(mentionKeys(mentions), ['ana', 'ana souza']);
    assert.deepEqual(firstNameKeys(mentions), ['ana']);
    const out = resolveMentions(mentions, ns.known, ns.byFirst);
    assert.equal(out.length, 2);
    assert.equal(fresh(out[1]!).relation, 'sister');
    assert.deepEqual(ns.asked, [['ana', 'ana souza']], 'one lookup for the whole list');
  });
});
