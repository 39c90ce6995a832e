// The memory-rule conformance cases on SQLite, plus what only a file shared by processes shows:
// several processes storing the same statements at once (each its own connection and event loop)
// end with one memory per statement and every mention counted. Runs the built store (npm run build).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { runMemoryRuleConformance } from './conformance-memory-rules.js';
import { childEnv, HANG_GUARD_MS, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/store-fixtures.js';

runMemoryRuleConformance('sqlite', async () => {
  const tmp = tempDir();
  const path = join(tmp.dir, 'cairn.db');
  return { store: new SqliteStore(path), connect: async () => new SqliteStore(path), cleanup: async () => tmp.cleanup() };
});

const STORE_JS = pathToFileURL(join(ROOT, 'dist', 'store', 'sqlite', 'sqlite-store.js')).href;

/** A writer: stores `rounds` times each statement, interleaved, with its own name in the provenance. */
const WRITER = `
const { SqliteStore } = await import(process.argv[1]);
const store = new SqliteStore(process.argv[2]);
const [name, rounds, ...texts] = process.argv.slice(3);
let fresh = 0;
for (let r = 0; r < Number(rounds); r++) {
  const batch = await Promise.all(texts.map((text) => store.addMemory({ namespace: 'shared', text, provenance: [{ source: name, line: r }] })));
  fresh += batch.filter((b) => !b.duplicate).length;
}
await store.close();
process.stdout.write(String(fresh));
`;

function writer(dbPath: string, name: string, rounds: number, texts: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', WRITER, STORE_JS, dbPath, name, String(rounds), ...texts], {
      cwd: ROOT,
      env: childEnv(null, {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const guard = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      if (code === 0) resolve(Number(out));
      else reject(new Error(`writer ${name} ended (${code}, ${signal})\n${err}`));
    });
  });
}

describe('memory rules across processes (SQLite)', () => {
  it('three processes storing the same statements at once: one memory each, nothing lost or doubled', async () => {
    const tmp = tempDir();
    const dbPath = join(tmp.dir, 'cairn.db');
    try {
      await new SqliteStore(dbPath).close(); // created and migrated before the writers race
      const texts = ['the deploy window is Tuesday', 'Staging uses port 5433', 'Ana owns the billing service'];
      const rounds = 15;
      const fresh = await Promise.all(['p1', 'p2', 'p3'].map((name) => writer(dbPath, name, rounds, texts)));
      assert.equal(fresh.reduce((a, b) => a + b, 0), texts.length, 'exactly one writer created each memory');
      const store = new SqliteStore(dbPath);
      try {
        const all = await store.listMemories({ namespace: 'shared', includeSuperseded: true });
        assert.deepEqual(all.map((m) => m.text).sort(), [...texts].sort());
        for (const m of all) {
          assert.equal(m.mentions, 3 * rounds, `${m.text}: every mention counted`);
          assert.equal(m.provenance.length, 20, 'provenance capped, never doubled past the cap');
        }
        assert.equal(store.db.prepare("SELECT COUNT(*) FROM entries WHERE kind = 'memory'").pluck().get(), texts.length, 'one index entry per memory');
      } finally {
        await store.close();
      }
    } finally {
      tmp.cleanup();
    }
  });
});
