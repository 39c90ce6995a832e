// A home with known entities and facts, written the way the knowledge pass writes them (one
// KnowledgeBatch with the cursor past every memory), so interface tests have knowledge to show and
// fix without depending on what extraction finds.
import { Cairn } from '../../src/service/cairn.js';
import type { Fact, Memory } from '../../src/core/types.js';
import { aliasKey } from '../../src/memory/knowledge/entities/aliases.js';

export const SEED_NS = 'default';

const key = aliasKey;

export interface Seeded {
  memories: Record<'lisbon' | 'oldPort' | 'newPort' | 'lima' | 'bob', Memory>;
}

const day = (d: number) => new Date(Date.parse('2026-01-05T10:00:00.000Z') + d * 86_400_000).toISOString();

function fact(over: Partial<Fact> & Pick<Fact, 'id' | 'memoryId' | 'subject' | 'attribute' | 'value'>): Fact {
  return {
    namespace: SEED_NS, subjectName: over.subject, entityId: null, validFrom: day(0), validTo: null, recordedAt: day(20), confidence: 0.9,
    supersededBy: null, mentions: 1, extractor: 'offline@1', provenance: [], ...over,
  };
}

/**
 * Ana Souza (with "Ana Lima" wrongly among her names), the Cairn project, Bob (the manager) and
 * the staging database, whose port changed from 5433 to 6543.
 */
export async function seedKnowledge(home: string): Promise<Seeded> {
  const cairn = await Cairn.open({ home, embedder: null });
  try {
    // Straight into the store: remembering through the facade would run the knowledge pass, and
    // these tests are about the knowledge below, not what extraction would find.
    const add = async (text: string, d: number, importance = 6) => (await cairn.store.addMemory({ namespace: SEED_NS, text, eventTime: day(d), importance })).memory;
    const memories = {
      lisbon: await add('Ana Souza moved to Lisbon', 1),
      oldPort: await add('Ana said the staging database runs on port 5433', 2),
      newPort: await add('We moved the staging database to port 6543', 16),
      lima: await add('Ana Lima joined the Cairn project', 18, 8),
      bob: await add('Bob, my manager, reviewed the Cairn project plan', 19),
    };
    const seqs = await cairn.store.memoriesAfter(SEED_NS, 0, 100);
    const names: Record<string, string> = { e_ana: 'Ana Souza', e_cairn: 'Cairn', e_bob: 'Bob', e_staging: 'staging database' };
    const mentions: Array<[string, Memory]> = [
      ['e_ana', memories.lisbon], ['e_ana', memories.oldPort], ['e_ana', memories.lima],
      ['e_cairn', memories.lima], ['e_cairn', memories.bob], ['e_bob', memories.bob],
      ['e_staging', memories.oldPort], ['e_staging', memories.newPort],
    ];
    const byMemory = new Map<string, string[]>();
    for (const [id, m] of mentions) byMemory.set(m.id, [...(byMemory.get(m.id) ?? []), names[id]!]);
    const aliases: Record<string, string[]> = { e_ana: ['Ana Souza', 'Ana', 'Ana Lima'], e_cairn: ['Cairn'], e_bob: ['Bob'], e_staging: ['staging database'] };
    const res = await cairn.store.applyKnowledge({
      namespace: SEED_NS, expectCursor: 0, cursor: seqs.at(-1)!.seq, now: day(20),
      entities: [
        { id: 'e_ana', name: 'Ana Souza', slug: 'ana-souza', type: 'person', relation: null },
        { id: 'e_cairn', name: 'Cairn', slug: 'cairn', type: 'project', relation: null },
        { id: 'e_bob', name: 'Bob', slug: 'bob', type: 'person', relation: 'manager' },
        { id: 'e_staging', name: 'staging database', slug: 'staging-database', type: 'topic', relation: null },
      ],
      entityUpdates: [],
      aliases: Object.entries(aliases).flatMap(([entityId, list]) => list.map((display) => ({ key: key(display), entityId, display }))),
      mentions: mentions.map(([entityId, m]) => ({ entityId, memoryId: m.id })),
      memoryEntities: [...byMemory].map(([memoryId, entities]) => ({ memoryId, entities })),
      facts: [
        fact({ id: 'f_oldport', memoryId: memories.oldPort.id, entityId: 'e_staging', subject: 'staging database', attribute: 'port', value: '5433', validFrom: day(2), validTo: day(16), supersededBy: 'f_newport', recordedAt: day(2) }),
        fact({ id: 'f_newport', memoryId: memories.newPort.id, entityId: 'e_staging', subject: 'staging database', attribute: 'port', value: '6543', validFrom: day(16), recordedAt: day(16) }),
        fact({ id: 'f_lisbon', memoryId: memories.lisbon.id, entityId: 'e_ana', subject: 'ana souza', subjectName: 'Ana Souza', attribute: 'lives in', value: 'Lisbon', validFrom: day(1) }),
      ],
      factUpdates: [],
      retirements: [],
    });
    if (!res.applied) throw new Error('seeding knowledge: the batch was not applied');
    return { memories };
  } finally {
    await cairn.close();
  }
}
