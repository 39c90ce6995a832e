// Homes that differ only in their search config, each seeded the same way, for tests that compare
// a ranking factor on and off; and the check that bad search settings are refused.
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { HashEmbedder, rejectsCode, tempDir } from './store-fixtures.js';

export function searchHomes(seed: (cairn: Cairn) => Promise<void>): { open: (search?: Record<string, unknown>) => Promise<Cairn>; close: () => Promise<void> } {
  const tmp = tempDir();
  const homes: Cairn[] = [];
  return {
    open: async (search = {}) => {
      const cairn = await Cairn.open({ home: join(tmp.dir, `home-${homes.length}`), embedder: new HashEmbedder(), config: { search } });
      homes.push(cairn);
      await seed(cairn);
      return cairn;
    },
    close: async () => {
      for (const c of homes) await c.close();
      tmp.cleanup();
    },
  };
}

/** Every one of `settings` (partial search configs) makes opening a home fail with CONFIG. */
export async function rejectsSearchConfig(settings: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  for (const search of settings) {
    const home = tempDir();
    try {
      await rejectsCode(Cairn.open({ home: home.dir, config: { embedder: { provider: 'none' }, search: search as never } }), 'CONFIG');
    } finally {
      home.cleanup();
    }
  }
}
