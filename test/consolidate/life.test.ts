// life/ end to end on a real SQLite home: entities and facts go in through the store's knowledge
// methods (as the knowledge pass writes them), `consolidate` renders life/ and links it from
// MEMORY.md and topic pages; a rerun writes nothing; a rename or a new PARA kind moves the folder
// and leaves a person's own files; hostile names never write outside life/. The last test goes
// through the real CLI.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import type { Category, Fact } from '../../src/core/types.js';
import type { NewEntityRow, Store } from '../../src/store/store.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { allNames, citedIds, namespaceFiles } from '../helpers/consolidation.js';
import { cliJson, makeHome, removeHome } from '../helpers/cli.js';
import { indexTerms } from '../helpers/index-terms.js';

const tmp = tempDir('cairn-life-');
after(() => tmp.cleanup());
let serial = 0;
const NS = 'work';
const AT = '2026-03-10T12:00:00Z';
const LIFE_FILE = /^life\/(?:index\.md|(?:projects|areas|resources|archives)\/[a-z0-9][a-z0-9-]{0,79}\/(?:summary\.md|items\.json))$/;

function fact(id: string, entityId: string, memoryId: string, attribute: string, value: string, validFrom: string, over: Partial<Fact> = {}): Fact {
  return {
    id, namespace: NS, subject: 'ana souza', subjectName: 'Ana', entityId, attribute, value, memoryId, validFrom, validTo: null, recordedAt: validFrom,
    confidence: 0.8, supersededBy: null, mentions: 1, extractor: 'offline@1', provenance: [{ source: 'cli' }], ...over,
  };
}

/** Memories and what the knowledge pass would have learned from them, written in one batch. */
async function seed(store: Store, extra: Array<{ entity: NewEntityRow; text: string }> = []) {
  const mem = async (text: string, eventTime: string, category: Category = 'fact', importance = 6) =>
    (await store.addMemory({ namespace: NS, text, eventTime, category, importance }, { now: eventTime })).memory;
  const m1 = await mem('Ana Souza is my manager; she reviews the Kestrel release plan.', '2026-03-02T09:00:00.000Z', 'decision', 7);
  const m2 = await mem('Kestrel release moved to Friday after the SQLite migration.', '2026-03-04T10:00:00.000Z', 'plan');
  const m3 = await mem('The Kestrel importer now writes to SQLite in WAL mode.', '2026-03-05T10:00:00.000Z', 'implementation');
  const m4 = await mem('Ana lives in Porto.', '2026-01-05T10:00:00.000Z');
  const m5 = await mem('Ana moved to Lisbon last week.', '2026-03-01T10:00:00.000Z');
  const m6 = await mem('Bob from accounting asked about invoices.', '2026-03-03T10:00:00.000Z');
  const m7 = await mem('SQLite vacuum runs nightly now.', '2026-03-06T10:00:00.000Z');
  const entities: NewEntityRow[] = [
    { id: 'e_ana', name: 'Ana Souza', slug: 'ana-souza', type: 'person', relation: 'manager' },
    { id: 'e_kestrel', name: 'Kestrel', slug: 'kestrel', type: 'project', relation: null },
    { id: 'e_sqlite', name: 'SQLite', slug: 'sqlite', type: 'tool', relation: null },
    { id: 'e_bob', name: 'Bob', slug: 'bob', type: 'person', relation: null },
  ];
  const mentions = [
    ['e_ana', m1], ['e_ana', m4], ['e_ana', m5], ['e_kestrel', m1], ['e_kestrel', m2], ['e_kestrel', m3],
    ['e_sqlite', m2], ['e_sqlite', m3], ['e_sqlite', m7], ['e_bob', m6],
  ].map(([entityId, m]) => ({ entityId: entityId as string, memoryId: (m as { id: string }).id }));
  for (const [i, x] of extra.entries()) {
    const m = await mem(x.text, `2026-03-0${(i % 8) + 1}T11:00:00.000Z`);
    entities.push(x.entity);
    mentions.push({ entityId: x.entity.id, memoryId: m.id });
  }
  const facts = [
    fact('f_porto', 'e_ana', m4.id, 'lives in', 'Porto', m4.eventTime!, { validTo: m5.eventTime!, supersededBy: 'f_lisbon' }),
    fact('f_lisbon', 'e_ana', m5.id, 'lives in', 'Lisbon', m5.eventTime!),
  ];
  const seqs = await store.memoriesAfter(NS, 0, 1000);
  const res = await store.applyKnowledge({
    namespace: NS, expectCursor: await store.knowledgeCursor(NS), cursor: seqs.at(-1)!.seq, entities, entityUpdates: [], aliases: [],
    mentions, memoryEntities: [], facts, factUpdates: [], retirements: [], now: '2026-03-06T12:00:00.000Z',
  });
  assert.equal(res.applied, true);
  return { m1, m4, m5 };
}

async function setup() {
  const home = join(tmp.dir, `home-${serial++}`);
  mkdirSync(home);
  const cairn = await Cairn.open({ home, config: { timezone: 'Europe/Berlin', embedder: { provider: 'none' } }, embedder: null });
  const nsDir = join(home, NS);
  return { home, cairn, nsDir, read: (rel: string) => readFileSync(join(nsDir, rel), 'utf8') };
}

const lifeFiles = (dir: string) => new Map([...namespaceFiles(dir)].filter(([p]) => p.startsWith('life/')));

describe('life/ through consolidation', () => {
  it('files every promoted entity by PARA, with its summary, facts and history; candidates stay out', async () => {
    const s = await setup();
    try {
      const { m4, m5 } = await seed(s.cairn.store);
      const res = await s.cairn.consolidate({ namespace: NS, at: AT });
      const written = res.namespaces[0]!.files.map((f) => `${f.kind}:${f.path}`);
      for (const p of ['life:life/index.md', 'entity:life/projects/kestrel/summary.md', 'entity:life/areas/ana-souza/summary.md', 'entity:life/resources/sqlite/summary.md']) assert.ok(written.includes(p), `${p} in ${written.join(', ')}`);

      const index = s.read('life/index.md');
      assert.match(index, /## Projects\n\n- \[Kestrel\]\(projects\/kestrel\/summary\.md\) · project · last seen 2026-03-05 · 3 mentions/);
      assert.match(index, /## Areas\n\n- \[Ana Souza\]\(areas\/ana-souza\/summary\.md\) · person \(your manager\) · last seen 2026-03-02/);
      assert.match(index, /## Resources\n\n- \[SQLite\]/);
      assert.doesNotMatch(index, /Bob/, 'one mention and no relation: a candidate');
      assert.ok(!existsSync(join(s.nsDir, 'life/resources/bob')));

      const ana = s.read('life/areas/ana-souza/summary.md');
      assert.match(ana, /^Ana Souza is a person, your manager\.$/m);
      assert.match(ana, /^Now: lives in Lisbon\.$/m);
      assert.ok(ana.includes(`- lives in: Lisbon (since 2026-03-01) \`${m5.id}\``), ana);
      assert.ok(ana.includes(`- lives in: Porto (2026-01-05 → 2026-03-01, replaced by Lisbon) \`${m4.id}\``), ana);
      const items = JSON.parse(s.read('life/areas/ana-souza/items.json'));
      assert.deepEqual(items.facts.map((f: Fact) => [f.value, f.validTo, f.supersededBy]), [['Porto', m5.eventTime, 'f_lisbon'], ['Lisbon', null, null]]);
      assert.match(s.read('life/projects/kestrel/summary.md'), /A project, last mentioned on 2026-03-05\./);

      for (const [path, text] of namespaceFiles(s.nsDir)) {
        for (const id of citedIds(text)) assert.ok(await s.cairn.store.getMemory(NS, id), `${path} cites ${id}`);
      }
      const memoryMd = s.read('MEMORY.md');
      assert.match(memoryMd, /## People & projects\n\n- \[Kestrel\]\(life\/projects\/kestrel\/summary\.md\): project, 3 mentions\n- \[Ana Souza\]\(life\/areas\/ana-souza\/summary\.md\): person, your manager, 3 mentions/);
      assert.match(memoryMd, /All of them: \[life\/index\.md\]\(life\/index\.md\)/);
      assert.ok(memoryMd.split('\n').length <= 151);

      const kinds = (await s.cairn.store.listDigests(NS, { kinds: ['entity', 'life'] })).map((d) => `${d.kind}/${d.layer}:${d.path}`);
      assert.deepEqual(kinds.sort(), ['entity/2:life/areas/ana-souza/summary.md', 'entity/2:life/projects/kestrel/summary.md', 'entity/2:life/resources/sqlite/summary.md', 'life/2:life/index.md']);
      const hits = await s.cairn.store.getEntries(NS, (await s.cairn.store.keywordSearch(NS, indexTerms(['Lisbon']), 20)).map((h) => h.seq));
      assert.ok(hits.some((e) => e.kind === 'digest'), 'search finds the entity page');
    } finally {
      await s.cairn.close();
    }
  });

  it('a second run writes nothing and leaves every byte as it was', async () => {
    const s = await setup();
    try {
      await seed(s.cairn.store);
      await s.cairn.consolidate({ namespace: NS, at: AT });
      const before = lifeFiles(s.nsDir);
      const again = await s.cairn.consolidate({ namespace: NS, at: '2026-03-10T18:00:00Z' });
      assert.deepEqual(again.namespaces[0]!.files.filter((f) => f.changed).map((f) => f.path), []);
      assert.deepEqual(lifeFiles(s.nsDir), before);
    } finally {
      await s.cairn.close();
    }
  });

  it('a rename moves the page; a person\'s own file keeps the old folder; a deleted items.json comes back', async () => {
    const s = await setup();
    try {
      await seed(s.cairn.store);
      await s.cairn.consolidate({ namespace: NS, at: AT });
      writeFileSync(join(s.nsDir, 'life/projects/kestrel/my-notes.md'), 'my own notes\n');
      await s.cairn.store.editEntities({ namespace: NS, update: [{ id: 'e_kestrel', name: 'Kestrel Importer', slug: 'kestrel-importer', locked: true }], now: '2026-03-10T12:00:00.000Z' });
      await s.cairn.store.editEntities({ namespace: NS, update: [{ id: 'e_sqlite', name: 'SQLite DB', slug: 'sqlite-db', locked: true }], now: '2026-03-10T12:00:00.000Z' });
      await s.cairn.consolidate({ namespace: NS, at: AT });
      assert.ok(existsSync(join(s.nsDir, 'life/projects/kestrel-importer/summary.md')));
      assert.deepEqual(allNames(join(s.nsDir, 'life/projects/kestrel')), ['my-notes.md'], 'only the person\'s file stays');
      assert.ok(!existsSync(join(s.nsDir, 'life/resources/sqlite')), 'an emptied folder goes');
      assert.equal(await s.cairn.store.getDigest(NS, 'life/projects/kestrel/summary.md'), null);
      assert.match(s.read('life/index.md'), /\[Kestrel Importer\]\(projects\/kestrel-importer\/summary\.md\)/);
      assert.doesNotMatch(s.read('life/index.md'), /projects\/kestrel\//);
      assert.match(s.read('MEMORY.md'), /life\/projects\/kestrel-importer\/summary\.md/);

      const items = join(s.nsDir, 'life/areas/ana-souza/items.json');
      const json = readFileSync(items, 'utf8');
      writeFileSync(items, 'edited');
      await s.cairn.consolidate({ namespace: NS, at: AT });
      assert.equal(readFileSync(items, 'utf8'), json);
    } finally {
      await s.cairn.close();
    }
  });

  it('an entity not mentioned for archiveAfterDays moves to archives', async () => {
    const s = await setup();
    try {
      await seed(s.cairn.store);
      await s.cairn.consolidate({ namespace: NS, at: AT });
      await s.cairn.consolidate({ namespace: NS, at: '2026-07-01T12:00:00Z' });
      const names = allNames(join(s.nsDir, 'life'));
      assert.deepEqual(names, ['archives/ana-souza/items.json', 'archives/ana-souza/summary.md', 'archives/kestrel/items.json', 'archives/kestrel/summary.md', 'archives/sqlite/items.json', 'archives/sqlite/summary.md', 'index.md']);
      assert.match(s.read('life/archives/kestrel/summary.md'), /Archived: not mentioned since 2026-03-05, over 90 days ago\./);
      assert.doesNotMatch(s.read('MEMORY.md'), /People & projects/, 'archived entities are not listed in MEMORY.md');
    } finally {
      await s.cairn.close();
    }
  });

  it('hostile names and slugs never write outside life/ and never share a folder', async () => {
    const s = await setup();
    try {
      const hostile = ['../../../etc/passwd', '..', 'a/b\\c', 'Анна "Ива\'нова"', '김민준', 'x'.repeat(10_000), '<!-- cairn:generated -->\n# Hi', 'CON', ''];
      await seed(s.cairn.store, hostile.map((name, i) => ({
        entity: { id: `e_h${i}`, name, slug: i % 2 === 0 ? `${name}${i}` : `../../escape-${i}`, type: 'person', relation: 'friend' },
        text: `Met my friend number ${i} today.`,
      })));
      await s.cairn.consolidate({ namespace: NS, at: AT });
      const names = allNames(s.home).filter((n) => !n.startsWith(`${NS}/`) && !/^cairn\.db|^config|^logs\/|^\.|^backups\//.test(n));
      assert.deepEqual(names, [], 'nothing outside the namespace folder');
      const life = allNames(s.nsDir).filter((n) => n.startsWith('life/'));
      for (const n of life) assert.match(n, LIFE_FILE);
      assert.equal(life.filter((n) => n.endsWith('summary.md')).length, 3 + hostile.length, 'one page each');
      assert.match(s.read('life/index.md'), /Анна/);
      assert.deepEqual(s.read('life/index.md').split('\n').filter((l) => l.startsWith('#')), ['# Life: work', '## Projects', '## Areas', '## Resources'], 'a name makes no heading');
    } finally {
      await s.cairn.close();
    }
  });
});

describe('cairn consolidate (CLI) and life/', () => {
  it('writes life/ and a rerun reports nothing changed', async () => {
    const home = makeHome({ embedder: { provider: 'none' }, timezone: 'Europe/Berlin' });
    try {
      const cairn = await Cairn.open({ home, embedder: null });
      try {
        await seed(cairn.store);
      } finally {
        await cairn.close();
      }
      const first = await cliJson(['-n', NS, 'consolidate', '--at', AT, '--json'], { home });
      const paths = first.namespaces[0].files.map((f: { path: string }) => f.path);
      assert.ok(paths.includes('life/index.md') && paths.includes('life/areas/ana-souza/summary.md'), paths.join(', '));
      const before = lifeFiles(join(home, NS));
      const second = await cliJson(['-n', NS, 'consolidate', '--at', AT, '--json'], { home });
      assert.deepEqual(second.namespaces[0].files.filter((f: { changed: boolean }) => f.changed).map((f: { path: string }) => f.path), []);
      assert.deepEqual(lifeFiles(join(home, NS)), before);
    } finally {
      removeHome(home);
    }
  });
});
