// `cairn entity list|show|merge|rename|split` and `cairn facts` as a user runs them: real child
// processes on a home whose knowledge was written as the knowledge pass writes it. Fixes stick,
// --json is what the library returns, bad input exits with its documented code and changes nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';
import { seedKnowledge } from '../helpers/knowledge-seed.js';

const newHome = tempHomes();
const EXIT = { usage: 2, invalid: 3, notFound: 4, conflict: 5 } as const;

interface EntityJson {
  id: string;
  name: string;
  slug: string;
  type: string;
  aliases: string[];
  para: string;
  promoted: boolean;
  stats: { mentions: number; memories: number };
}

async function seeded(): Promise<{ home: string; memories: Awaited<ReturnType<typeof seedKnowledge>>['memories'] }> {
  const home = newHome();
  const { memories } = await seedKnowledge(home);
  return { home, memories };
}

describe('cairn entity (CLI)', () => {
  it('list: most mentioned first, with PARA kind and promotion; filters by type, promotion and name', async () => {
    const { home } = await seeded();
    const all = await cliJson<EntityJson[]>(['entity', 'list', '--json'], { home });
    assert.deepEqual(all.map((e) => e.slug), ['ana-souza', 'cairn', 'staging-database', 'bob']);
    const by = Object.fromEntries(all.map((e) => [e.slug, e]));
    assert.equal(by['ana-souza']!.promoted, true, 'three mentions');
    assert.equal(by['bob']!.promoted, true, 'a direct relationship');
    assert.equal(by['cairn']!.promoted, true, 'a project named by an important memory');
    assert.equal(by['staging-database']!.promoted, false, 'two mentions: a candidate');
    assert.ok(all.every((e) => ['projects', 'areas', 'resources', 'archives'].includes(e.para)));
    assert.deepEqual((await cliJson<EntityJson[]>(['entity', 'list', '--type', 'project', '--json'], { home })).map((e) => e.slug), ['cairn']);
    assert.deepEqual((await cliJson<EntityJson[]>(['entity', 'list', '--candidates', '--json'], { home })).map((e) => e.slug), ['staging-database']);
    assert.deepEqual((await cliJson<EntityJson[]>(['entity', 'list', '--promoted', '--limit', '1', '--json'], { home })).map((e) => e.slug), ['ana-souza']);
    assert.deepEqual((await cliJson<EntityJson[]>(['entity', 'list', '-q', 'ana', '--json'], { home })).map((e) => e.slug), ['ana-souza']);
    const text = ok(await runCli(['entity', 'list'], { home }));
    assert.match(text, /^ana-souza\s+Ana Souza {2}\[person\] \w+ · 3 mentions · last 2026-01-23$/m);
    assert.match(text, /Bob {2}\[person · manager\]/);
    assert.match(ok(await runCli(['-n', 'elsewhere', 'entity', 'list'], { home })), /No entities yet\./);
  });

  it('show: by any name; current facts, history with what replaced it, recent memories', async () => {
    const { home, memories } = await seeded();
    const d = await cliJson(['entity', 'show', 'staging database', '--json'], { home });
    assert.equal(d.entity.id, 'e_staging');
    assert.deepEqual(d.facts.map((f: { value: string }) => f.value), ['6543']);
    assert.deepEqual(d.history.map((f: { value: string; supersededBy: string }) => [f.value, f.supersededBy]), [['5433', 'f_newport']]);
    assert.deepEqual(d.memories.map((m: { id: string }) => m.id), [memories.newPort.id, memories.oldPort.id]);
    const text = ok(await runCli(['entity', 'show', 'ANA LIMA'], { home }));
    assert.match(text, /^Ana Souza \(e_ana, ana-souza\)/);
    assert.match(text, /known as: Ana Souza, Ana, Ana Lima|known as: .*Ana Lima/);
    assert.match(text, /Ana Souza · lives in: Lisbon {2}\(since 2026-01-06\)/);
    const hist = ok(await runCli(['entity', 'show', 'e_staging'], { home }));
    assert.match(hist, /History:\n {2}- staging database · port: 5433 {2}\(2026-01-07 → 2026-01-21 \(superseded by f_newport\)\)/);
    const missing = await runCli(['entity', 'show', 'Nobody', '--json'], { home });
    assert.equal(missing.code, EXIT.notFound);
    assert.equal(JSON.parse(missing.stderr).error.code, 'NOT_FOUND');
    assert.equal((await runCli(['-n', 'elsewhere', 'entity', 'show', 'ana'], { home })).code, EXIT.notFound, 'another namespace does not see it');
  });

  it('facts: current by default, history with --all, by subject, attribute or entity', async () => {
    const { home } = await seeded();
    const current = await cliJson<Array<{ id: string }>>(['facts', '--json'], { home });
    assert.deepEqual(current.map((f) => f.id).sort(), ['f_lisbon', 'f_newport']);
    const port = await cliJson<Array<{ id: string; validTo: string | null }>>(['facts', '--all', '--subject', 'Staging Database', '--attribute', 'port', '--json'], { home });
    assert.deepEqual(port.map((f) => [f.id, f.validTo !== null]), [['f_oldport', true], ['f_newport', false]]);
    assert.deepEqual((await cliJson<Array<{ id: string }>>(['facts', '-e', 'ana', '--json'], { home })).map((f) => f.id), ['f_lisbon']);
    assert.match(ok(await runCli(['facts', '--all'], { home })), /port: 5433 .*superseded by f_newport/);
    assert.match(ok(await runCli(['facts', '--subject', 'nothing here'], { home })), /No facts found\./);
  });

  it('split, rename and merge fix the entities and what their memories say; the fixes show in list and show', async () => {
    const { home, memories } = await seeded();
    const split = await cliJson(['entity', 'split', 'ana', '--alias', 'Ana Lima', '--json'], { home });
    assert.equal(split.entity.entity.name, 'Ana Lima');
    assert.deepEqual(split.moved, [memories.lima.id]);
    assert.equal(split.source.stats.memories, 2);
    const renamed = ok(await runCli(['entity', 'rename', 'cairn', 'Cairn', 'memory'], { home }));
    assert.match(renamed, /^Renamed Cairn to Cairn memory \(cairn-memory\)$/m);
    const merged = ok(await runCli(['entity', 'merge', 'ana-lima', 'bob'], { home }));
    assert.match(merged, /^Merged Ana Lima \(e_\w+\) into Bob \(e_bob\): 1 memory updated$/m);
    const list = await cliJson<EntityJson[]>(['entity', 'list', '--json'], { home });
    assert.deepEqual(list.map((e) => e.slug).sort(), ['ana-souza', 'bob', 'cairn-memory', 'staging-database']);
    const bob = await cliJson(['entity', 'show', 'ana lima', '--json'], { home });
    assert.equal(bob.entity.id, 'e_bob', 'the merged name leads to the entity that stayed');
    const lima = await cliJson(['get', memories.lima.id, '--json'], { home });
    assert.deepEqual(lima.entities.sort(), ['Bob', 'Cairn memory']);
  });

  it('bad input exits with its code and changes nothing: empty, oversized, control characters, unknown values', async () => {
    const { home } = await seeded();
    const before = ok(await runCli(['entity', 'list', '--json'], { home }));
    const cases: Array<[string[], number]> = [
      [['entity', 'rename', 'bob', ' '], EXIT.invalid],
      [['entity', 'rename', 'bob', 'x'.repeat(10_000)], EXIT.invalid],
      [['entity', 'rename', 'bob', '!!!'], EXIT.invalid],
      [['entity', 'rename', 'bob', 'Ana'], EXIT.conflict],
      [['entity', 'show', 'bob\u001b[2J'], EXIT.invalid],
      [['entity', 'show', '../../etc/passwd'], EXIT.notFound],
      [['entity', 'show', "'; DROP TABLE entities; --"], EXIT.notFound],
      [['entity', 'show', 'y'.repeat(201)], EXIT.invalid],
      [['entity', 'merge', 'bob', 'Bob'], EXIT.conflict],
      [['entity', 'merge', 'bob', 'nobody'], EXIT.notFound],
      [['entity', 'split', 'ana', '--alias', 'Ana Souza', '--alias', 'Ana', '--alias', 'ana lima'], EXIT.conflict],
      [['entity', 'split', 'ana', '--alias', 'Topher'], EXIT.invalid],
      [['entity', 'split', 'ana'], EXIT.usage],
      [['entity', 'split', 'ana', '--alias', 'Ana Lima', '--type', 'alien'], EXIT.invalid],
      [['entity', 'list', '--type', 'alien'], EXIT.invalid],
      [['entity', 'list', '--para', 'drawers'], EXIT.invalid],
      [['entity', 'list', '--limit', '0'], EXIT.invalid],
      [['entity', 'list', '--promoted', '--candidates'], EXIT.invalid],
      [['facts', '--subject', 'z'.repeat(300)], EXIT.invalid],
      [['entity', 'frobnicate'], EXIT.usage],
    ];
    for (const [args, code] of cases) {
      const res = await runCli(args, { home });
      assert.equal(res.code, code, `cairn ${args.join(' ').slice(0, 80)}: ${res.stderr}`);
      assert.doesNotMatch(res.stderr, /internal error|\n\s+at /, 'a clear message, never a stack');
    }
    assert.equal(ok(await runCli(['entity', 'list', '--json'], { home })), before, 'nothing changed');
  });
});
