// Issue 30 item 2 through the real CLI (child processes): `cairn store`, `supersede`, `state set`
// and `import` store no key verbatim, and nothing read back (get, export, search, context) or any
// file under the home (the database and its log, SESSION-STATE.md, logs) holds it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';
import { GITHUB_TOKEN, OPENAI_KEY, assertNowhereOnDisk } from '../helpers/secrets.js';
import { tempDir } from '../helpers/store-fixtures.js';

const newHome = tempHomes();

describe('redaction gate through the CLI', () => {
  it('store, supersede, state set and import land nothing verbatim; reads show markers', async () => {
    const home = newHome();
    const stored = await runCli(['store', `The staging deploy key is ${OPENAI_KEY}`, '--tag', 'infra'], { home });
    assert.match(ok(stored), /^Stored: (m_[a-z0-9]+) \(1 secret redacted: openai-key\)\n$/);
    const id = /^Stored: (m_[a-z0-9]+)/.exec(stored.stdout)![1]!;
    const got = await cliJson(['get', id, '--json'], { home });
    assert.equal(got.text, 'The staging deploy key is [REDACTED:openai-key]');

    const superseded = await cliJson(['supersede', id, `Rotated: the staging deploy key is now ${GITHUB_TOKEN}`, '--json'], { home });
    assert.deepEqual(superseded.redactions, { 'github-token': 1 });

    const state = await runCli(['state', 'set', '--objective', `rotate ${OPENAI_KEY}`, '--notes', `PGPASSWORD in use\nOPENAI_API_KEY=${OPENAI_KEY}`], { home });
    assert.match(ok(state), /\(2 secrets redacted: openai-key ×2\)/);
    const stateFile = readFileSync(join(home, 'default', 'SESSION-STATE.md'), 'utf8');
    assert.ok(!stateFile.includes(OPENAI_KEY), stateFile);

    const outside = tempDir();
    try {
      const file = join(outside.dir, 'memories.jsonl');
      const record = {
        id: 'm_01import0000000000000000b', namespace: 'default', text: `Billing webhook secret ${GITHUB_TOKEN}`, category: 'fact', importance: 7, tags: [], entities: [],
        eventTime: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', validFrom: '2026-01-01T00:00:00.000Z', validTo: null,
        supersededBy: null, supersedes: null, mentions: 1, provenance: [{ source: 'import' }],
      };
      writeFileSync(file, JSON.stringify(record) + '\n');
      const imported = await runCli(['import', file], { home });
      assert.match(ok(imported), /1 imported.*; 1 secret redacted: github-token/);
    } finally {
      outside.cleanup();
    }

    const exported = ok(await runCli(['export'], { home }));
    assert.equal(exported.trim().split('\n').length, 3);
    const search = await cliJson(['search', 'staging deploy key', '--json', '--include-superseded'], { home });
    const brief = await cliJson(['context', '--query', 'billing webhook', '--json'], { home });
    for (const [what, text] of [['export', exported], ['search', JSON.stringify(search)], ['context', JSON.stringify(brief)]] as const) {
      assert.ok(!text.includes(OPENAI_KEY) && !text.includes(GITHUB_TOKEN), `${what} shows a secret: ${text.slice(0, 400)}`);
    }
    assert.match(JSON.stringify(search), /\[REDACTED:openai-key\]/);
    assert.match(brief.text, /\[REDACTED:github-token\]/);
    assertNowhereOnDisk(home, OPENAI_KEY);
    assertNowhereOnDisk(home, GITHUB_TOKEN);
  });

  it('`cairn store -` reads the text from stdin and gates it the same way', async () => {
    const home = newHome();
    const res = await runCli(['store', '-', '--json'], { home, input: `from a pipe: ${OPENAI_KEY}\n` });
    const out = JSON.parse(ok(res)) as { memory: { text: string }; redactions: Record<string, number> };
    assert.equal(out.memory.text, 'from a pipe: [REDACTED:openai-key]');
    assert.deepEqual(out.redactions, { 'openai-key': 1 });
    assertNowhereOnDisk(home, OPENAI_KEY);
  });
});
