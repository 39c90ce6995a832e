// Issue 30 item 2 through MCP: the SDK's Client over stdio against the real built `cairn mcp`.
// memory_store and state_set store no key verbatim; memory_get {path} of a user's Markdown note,
// the resources, memory_search and context show markers; no file under the home holds a key.
// Purge is not an agent tool (issue 30 item 5): the server offers none. Run `npm run build` first.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { Cairn } from '../../src/service/cairn.js';
import { assertBuilt, makeHome, NO_EMBEDDER, removeHome } from '../helpers/cli.js';
import { GITHUB_TOKEN, OPENAI_KEY, assertNowhereOnDisk, filesContaining } from '../helpers/secrets.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { callOk, stdioClient } from './helpers.js';

const cleanups: Array<() => void> = [];
after(() => {
  for (const c of cleanups) c();
});

function resourceText(r: ReadResourceResult): string {
  return r.contents.map((c) => ('text' in c ? c.text : '')).join('');
}

describe('redaction gate through MCP (stdio)', () => {
  it('memory_store, state_set, memory_get {path}, resources, search and context never show or store a key', async () => {
    assertBuilt();
    const home = makeHome(NO_EMBEDDER);
    const outside = tempDir();
    cleanups.push(() => removeHome(home), outside.cleanup);
    // A user's note indexed for the namespace, as capture leaves it: chunks redacted, file untouched.
    const note = join(outside.dir, 'notes', 'infra.md');
    mkdirSync(join(outside.dir, 'notes'), { recursive: true });
    writeFileSync(note, `# Infra\n\nDeploy with this key:\n${OPENAI_KEY}\n`);
    const setup = await Cairn.open({ home, namespace: 'agent' });
    await setup.store.replaceDocument({ namespace: 'agent', sourceId: null, path: note, fileHash: 'h', time: new Date().toISOString(), chunks: [{ heading: 'Infra', text: `Deploy with this key:\n${OPENAI_KEY}`, startLine: 1, endLine: 4 }] });
    await setup.close();
    mkdirSync(join(home, 'agent'), { recursive: true });
    writeFileSync(join(home, 'agent', 'MEMORY.md'), `# Memory\n\n- CI token ${GITHUB_TOKEN}\n`);

    const { client, close } = await stdioClient(home, 'agent');
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(!tools.some((t) => /purge/i.test(t)), `purge is not an agent tool: ${tools.join(', ')}`);

      const stored = await callOk(client, 'memory_store', { text: `The staging deploy key is ${OPENAI_KEY}`, tags: ['infra'] });
      assert.equal(stored.memory.text, 'The staging deploy key is [REDACTED:openai-key]');
      assert.deepEqual(stored.redactions, { 'openai-key': 1 });
      assert.match(stored._text, /Redacted before storing: openai-key ×1/);
      const state = await callOk(client, 'state_set', { objective: `rotate ${GITHUB_TOKEN}`, notes: `key ${OPENAI_KEY}` });
      assert.equal(state.objective, 'rotate [REDACTED:github-token]');

      const file = await callOk(client, 'memory_get', { path: note });
      assert.ok(!file.text.includes(OPENAI_KEY), file.text);
      assert.match(file.text, /\[REDACTED:openai-key\]/);
      const stateFile = await callOk(client, 'memory_get', { path: 'SESSION-STATE.md' });
      assert.ok(!stateFile.text.includes(GITHUB_TOKEN), stateFile.text);
      for (const name of ['MEMORY.md', 'SESSION-STATE.md']) {
        const text = resourceText(await client.readResource({ uri: `cairn://agent/${name}` }));
        assert.ok(!text.includes(GITHUB_TOKEN) && !text.includes(OPENAI_KEY), `${name}: ${text}`);
      }
      const search = await callOk(client, 'memory_search', { query: 'staging deploy key' });
      const brief = await callOk(client, 'context', { query: 'deploy key' });
      for (const text of [search._text, JSON.stringify(search.results), brief.text]) {
        assert.ok(!text.includes(OPENAI_KEY) && !text.includes(GITHUB_TOKEN), text.slice(0, 400));
      }
      assert.match(brief.text, /CI token \[REDACTED:github-token\]/);
    } finally {
      await close();
    }
    assertNowhereOnDisk(home, OPENAI_KEY);
    // Only the hand-edited MEMORY.md (the person's own text; `cairn purge --secrets` rewrites it).
    assert.deepEqual(filesContaining(home, GITHUB_TOKEN), [join('agent', 'MEMORY.md')]);
  });
});
