// Issue 30 item 2 through the REST API on a loopback server: POST …/memories, PUT …/state and
// supersede store no key verbatim; GET …/files of a user's Markdown note, search, context and the
// memory list show markers; no file under the home holds a key.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { loopbackServer, send } from '../helpers/http-loopback.js';
import { NO_EMBEDDER, makeHome, removeHome } from '../helpers/cli.js';
import { GITHUB_TOKEN, OPENAI_KEY, assertNowhereOnDisk } from '../helpers/secrets.js';
import { tempDir } from '../helpers/store-fixtures.js';

const cleanups: Array<() => void> = [];
after(() => {
  for (const c of cleanups) c();
});

describe('redaction gate through HTTP (loopback)', () => {
  it('POST memories, supersede and PUT state store no key; files, search, context and lists show markers', async () => {
    const home = makeHome(NO_EMBEDDER);
    const outside = tempDir();
    cleanups.push(() => removeHome(home), outside.cleanup);
    const note = join(outside.dir, 'notes', 'ops.md');
    mkdirSync(join(outside.dir, 'notes'), { recursive: true });
    writeFileSync(note, `# Ops\n\nThe runner uses ${GITHUB_TOKEN} to push.\n`);
    const cairn = await Cairn.open({ home });
    const server = await loopbackServer(cairn);
    try {
      await cairn.store.replaceDocument({ namespace: 'web', sourceId: null, path: note, fileHash: 'h', time: new Date().toISOString(), chunks: [{ heading: 'Ops', text: `The runner uses ${GITHUB_TOKEN} to push.`, startLine: 1, endLine: 3 }] });
      const stored = await send(server.base, 'POST', '/v1/namespaces/web/memories', { text: `The staging deploy key is ${OPENAI_KEY}`, tags: ['infra'] });
      assert.equal(stored.status, 201, stored.text);
      assert.equal(stored.body.memory.text, 'The staging deploy key is [REDACTED:openai-key]');
      assert.deepEqual(stored.body.redactions, { 'openai-key': 1 });
      const next = await send(server.base, 'POST', `/v1/namespaces/web/memories/${stored.body.memory.id}/supersede`, { text: `Now the staging deploy key is ${GITHUB_TOKEN}` });
      assert.equal(next.status, 201, next.text);
      const state = await send(server.base, 'PUT', '/v1/namespaces/web/state', { objective: `rotate ${OPENAI_KEY}`, blockers: [`token ${GITHUB_TOKEN}`] });
      assert.equal(state.status, 200, state.text);
      assert.deepEqual(state.body.redactions, { 'openai-key': 1, 'github-token': 1 });

      const reads = await Promise.all([
        send(server.base, 'GET', `/v1/namespaces/web/files?path=${encodeURIComponent(note)}`),
        send(server.base, 'GET', '/v1/namespaces/web/files?path=SESSION-STATE.md'),
        send(server.base, 'GET', '/v1/namespaces/web/search?q=staging+deploy+key&includeSuperseded=true'),
        send(server.base, 'GET', '/v1/namespaces/web/context?query=runner+push'),
        send(server.base, 'GET', '/v1/namespaces/web/memories?includeSuperseded=true'),
        send(server.base, 'GET', '/v1/namespaces/web/state'),
      ]);
      for (const r of reads) {
        assert.equal(r.status, 200, r.text);
        assert.ok(!r.text.includes(OPENAI_KEY) && !r.text.includes(GITHUB_TOKEN), r.text.slice(0, 400));
      }
      assert.match(reads[0]!.body.text, /The runner uses \[REDACTED:github-token\] to push\./);
    } finally {
      await server.close();
      await cairn.close();
    }
    assertNowhereOnDisk(home, OPENAI_KEY);
    assertNowhereOnDisk(home, GITHUB_TOKEN);
  });
});
