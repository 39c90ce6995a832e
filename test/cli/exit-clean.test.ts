// Every command that loads the embedding model must end with exit 0, every time (issue 30 item 7).
// With the home's model cache present the worker threads load onnxruntime's session fast enough
// that closing them with Worker.terminate() landed inside a native call now and then: the process
// aborted ("terminate called after throwing an instance of 'Napi::Error'", exit 134) after its work
// was saved. Each command runs RUNS times on its own copy of one small seeded home, so a crash
// that happens one time in ten is all but sure to show.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertBuilt, makeHome, ok, removeHome, runCli, type RunResult } from '../helpers/cli.js';

const RUNS = 30;
/** Command sequences run side by side: more contention makes a race at exit likelier, not rarer. */
const PARALLEL = 2;
/** A guard against a hang, not a speed check. */
const RUN_TIMEOUT_MS = 180_000;

const SAYS = [
  'We decided to use Postgres for the billing service because we need transactions',
  'My sister Anna lives in Lisbon and visits every June',
  'The deploy key rotates on the first day of each month',
  'I love hiking in the Alps, it is my favourite thing to do',
  'We agreed that the launch date is March 14th',
];

function chat(tag: string, turns: number): string {
  const lines: string[] = [];
  for (let i = 0; i < turns; i++) {
    lines.push(JSON.stringify({ role: 'user', content: `${SAYS[i % SAYS.length]} (${tag} ${i})`, id: `${tag}-u${i}` }));
    lines.push(JSON.stringify({ role: 'assistant', content: `Noted, I will keep that in mind (${tag} ${i})`, id: `${tag}-a${i}` }));
  }
  return lines.join('\n') + '\n';
}

describe('commands that embed exit cleanly (model cache present)', () => {
  const homes: string[] = [];
  let template = '';
  let exportFile = '';
  after(() => homes.forEach(removeHome));

  before(async () => {
    assertBuilt();
    template = makeHome(); // no config file: the default use-lite embedder
    homes.push(template);
    writeFileSync(join(template, 'seed.jsonl'), chat('seed', 20));
    ok(await runCli(['ingest', '-f', 'jsonl', join(template, 'seed.jsonl')], { home: template, timeoutMs: RUN_TIMEOUT_MS }), 'seed ingest');
    for (let i = 0; i < 5; i++) ok(await runCli(['store', `${SAYS[i]} (stored)`], { home: template, timeoutMs: RUN_TIMEOUT_MS }), 'seed store');
    exportFile = join(template, 'export.jsonl');
    ok(await runCli(['export', '-o', exportFile], { home: template, timeoutMs: RUN_TIMEOUT_MS }), 'seed export');
    const cache = join(template, 'cache');
    assert.ok(existsSync(cache) && readdirSync(cache).some((f) => f.endsWith('.onnx')), 'the seeded home holds the model cache');
  });

  /** Each command gets a fresh copy of the seeded home; `args(i, home)` is its i-th invocation. */
  const COMMANDS: Record<string, (i: number, home: string) => string[]> = {
    store: (i) => ['store', `The spare key for the shed is in the blue box (${i})`],
    search: (i) => ['search', i % 2 ? 'where does Anna live' : 'billing database'],
    context: () => ['context', '--no-daemon', '-q', 'what did we decide about the launch'],
    'import --into': (i) => ['import', exportFile, '--into', `imported-${i}`],
    ingest: (i, home) => {
      const file = join(home, `chat-${i}.jsonl`);
      writeFileSync(file, chat(`run${i}`, 3));
      return ['ingest', '-f', 'jsonl', file];
    },
    'judge --rejudge': () => ['judge', '--rejudge'],
    'reembed --force': () => ['reembed', '--force'],
  };

  it(`runs each of ${Object.keys(COMMANDS).length} commands ${RUNS} times, exit 0 every time`, async () => {
    const failures: string[] = [];
    const sequence = async (name: string): Promise<void> => {
      const home = join(template, '..', `${template.split('/').pop()}-${name.replace(/\W+/g, '-')}`);
      cpSync(template, home, { recursive: true });
      homes.push(home);
      for (let i = 0; i < RUNS; i++) {
        const args = COMMANDS[name]!(i, home);
        const res: RunResult = await runCli(args, { home, timeoutMs: RUN_TIMEOUT_MS });
        if (res.code !== 0 || /terminate called|Napi::Error|Aborted/.test(res.stderr)) {
          failures.push(`${name} run ${i + 1}: exit ${res.code} (signal ${res.signal}) ${res.stderr.trim().slice(-300)}`);
        }
      }
    };
    const queue = Object.keys(COMMANDS);
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift()) await sequence(name);
      }),
    );
    assert.deepEqual(failures, []);
  });
});
