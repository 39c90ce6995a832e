// What an agent does with Cairn over MCP, as flows run identically over stdio and over HTTP:
// every tool and resource in a realistic order, and every kind of bad argument (clear errors,
// nothing stored).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Cairn } from '../../src/service/cairn.js';
import { callFails, callOk } from './helpers.js';

const resourceText = (r: { contents: ReadonlyArray<object> }): string => {
  const first = r.contents[0];
  return first && 'text' in first ? String(first.text) : '';
};

/** Memories (including superseded) and hot state of a namespace, read beside the server. */
export async function snapshot(home: string, ns: string): Promise<{ memories: number; stateUpdatedAt: string | null }> {
  const cairn = await Cairn.open({ home, config: { embedder: { provider: 'none' } } });
  try {
    const memories = (await cairn.list({ namespace: ns, limit: 1000, includeSuperseded: true })).length;
    return { memories, stateUpdatedAt: (await cairn.getState(ns)).updatedAt };
  } finally {
    await cairn.close();
  }
}

export async function everyTool(client: Client, home: string, ns: string): Promise<void> {
  // Tools and resources advertised.
  const tools = (await client.listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual(tools, ['context', 'entity_get', 'memory_feedback', 'memory_get', 'memory_history', 'memory_search', 'memory_store', 'memory_supersede', 'state_get', 'state_set']);
  for (const t of (await client.listTools()).tools) {
    assert.ok(t.description && t.description.length > 40, `${t.name} has a usable description`);
    assert.ok(t.outputSchema, `${t.name} has an output schema`);
    assert.equal('namespace' in ((t.inputSchema.properties as object | undefined) ?? {}), false, `${t.name} takes no namespace`);
  }

  // memory_store, then the same text again: one memory, two mentions.
  const port = await callOk(client, 'memory_store', { text: 'We decided to move the staging database to port 5433', category: 'decision', importance: 8, tags: ['infra'] });
  assert.match(port.memory.id, /^m_/);
  assert.equal(port.duplicate, false);
  assert.equal(port.memory.namespace, ns);
  assert.deepEqual(port.memory.provenance, [{ source: 'mcp' }]);
  assert.match(port._text, /^Stored: m_/);
  const again = await callOk(client, 'memory_store', { text: 'We decided to move the staging database to port 5433' });
  assert.equal(again.duplicate, true);
  assert.equal(again.memory.id, port.memory.id);
  assert.equal(again.memory.mentions, 2);
  const pref = await callOk(client, 'memory_store', { text: 'Ana prefers short commit messages written in English', category: 'preference' });

  // memory_search: Cairn's fields and OpenClaw's (path, startLine, endLine, score, snippet, source).
  const found = await callOk(client, 'memory_search', { query: 'staging database port', maxResults: 5 });
  assert.equal(found.provider, 'cairn');
  assert.equal(typeof found.model, 'string');
  const top = found.results[0];
  assert.equal(top.id, port.memory.id);
  assert.equal(top.kind, 'memory');
  assert.equal(top.text, 'We decided to move the staging database to port 5433');
  assert.equal(top.path, `memory:${port.memory.id}`);
  assert.equal(top.startLine, 1);
  assert.ok(top.endLine >= top.startLine);
  assert.equal(top.source, 'memory');
  assert.ok(typeof top.score === 'number' && top.score > 0);
  assert.match(top.snippet, /5433/);
  assert.ok(top.time && top.createdAt && Array.isArray(top.provenance));
  assert.match(found._text, new RegExp(port.memory.id));
  const prefs = await callOk(client, 'memory_search', { query: 'commit messages staging', category: 'preference' });
  assert.deepEqual(prefs.results.map((r: { id: string }) => r.id), [pref.memory.id]);
  const many = await callOk(client, 'memory_search', { query: 'commit messages staging', category: ['preference', 'decision'] });
  assert.equal(many.results.length, 2);
  assert.deepEqual((await callOk(client, 'memory_search', { query: 'staging', minScore: 1000 })).results, []);
  assert.equal((await callOk(client, 'memory_search', { query: 'staging', since: '1h', until: '2099-01-01' })).results.length, 1);
  // As of a day ago the memory stored just now did not exist yet.
  assert.deepEqual((await callOk(client, 'memory_search', { query: 'staging', asOf: '1d' })).results, []);
  assert.equal((await callOk(client, 'memory_search', { query: 'staging', asOf: '2099-01-01' })).results.length, 1);
  // rewrite: true without a chat model is the plain search, with the reason in the result.
  const unrewritten = await callOk(client, 'memory_search', { query: 'staging database port', rewrite: true });
  assert.equal(unrewritten.results.length > 0, true);
  assert.equal(unrewritten.rewrite?.status, 'skipped');

  // memory_get by id, and by the path search gave (OpenClaw's memory_get {path, from, lines}).
  const byId = await callOk(client, 'memory_get', { id: port.memory.id });
  assert.equal(byId.memory.id, port.memory.id);
  assert.equal(byId.text, port.memory.text);
  const byPath = await callOk(client, 'memory_get', { path: top.path, from: 1, lines: 5 });
  assert.equal(byPath.path, top.path);
  assert.equal(byPath.text, port.memory.text);

  // memory_supersede, memory_history; the old version leaves search but stays in history.
  const moved = await callOk(client, 'memory_supersede', { id: port.memory.id, text: 'The staging database moved again, to port 5434', category: 'decision' });
  assert.equal(moved.previous.id, port.memory.id);
  assert.ok(moved.previous.validTo);
  assert.equal(moved.current.supersedes, port.memory.id);
  const history = await callOk(client, 'memory_history', { id: moved.current.id });
  assert.deepEqual(history.versions.map((m: { id: string }) => m.id), [port.memory.id, moved.current.id]);
  const now = await callOk(client, 'memory_search', { query: 'staging database port' });
  assert.deepEqual(now.results.filter((r: { text: string }) => /staging/.test(r.text)).map((r: { id: string }) => r.id), [moved.current.id]);

  // memory_feedback on a hand-stored memory sets its importance.
  const fb = await callOk(client, 'memory_feedback', { id: pref.memory.id, important: true });
  assert.equal(fb.feedback.refId, pref.memory.id);
  assert.equal(fb.feedback.important, true);
  assert.equal(fb.importance, 8);
  assert.equal((await callOk(client, 'memory_get', { id: pref.memory.id })).memory.importance, 8);

  // Hot state: empty, set (on disk before the call returns), patched, read back.
  const empty = await callOk(client, 'state_get');
  assert.deepEqual({ ...empty, _text: undefined }, { namespace: ns, objective: null, blockers: [], nextActions: [], notes: null, updatedAt: null, _text: undefined });
  const set = await callOk(client, 'state_set', { objective: 'Migrate staging to port 5434', blockers: ['waiting for DBA approval'], nextActions: ['update the .env', 'restart the API'] });
  assert.equal(set.objective, 'Migrate staging to port 5434');
  assert.ok(set.updatedAt);
  const stateFile = join(home, ns, 'SESSION-STATE.md');
  assert.match(readFileSync(stateFile, 'utf8'), /Migrate staging to port 5434[\s\S]*waiting for DBA approval[\s\S]*restart the API/);
  const patched = await callOk(client, 'state_set', { nextActions: [], notes: 'DBA is Rui' });
  assert.deepEqual(patched.blockers, ['waiting for DBA approval']);
  assert.deepEqual(patched.nextActions, []);
  const read = await callOk(client, 'state_get');
  assert.equal(read.objective, 'Migrate staging to port 5434');
  assert.equal(read.notes, 'DBA is Rui');
  assert.match(read._text, /Migrate staging/);
  assert.match((await callOk(client, 'memory_get', { path: 'SESSION-STATE.md' })).text, /DBA is Rui/);

  // context: Markdown, hot state first, within budget.
  const brief = await callOk(client, 'context', { query: 'staging port', budgetTokens: 400 });
  assert.equal(brief.namespace, ns);
  assert.ok(brief.usedTokens <= 400 && brief.usedTokens > 0);
  assert.match(brief.text, /Migrate staging to port 5434/);
  assert.match(brief.text, /5434/);
  assert.equal(brief._text, brief.text);
  assert.ok(brief.text.indexOf('Migrate staging') < brief.text.indexOf('moved again'));
  assert.ok(brief.sections.length > 0);

  // Resources: stable URIs; a missing MEMORY.md reads as a short explanation, not an error.
  const resources = (await client.listResources()).resources.map((r) => r.uri).sort();
  assert.deepEqual(resources, [`cairn://${ns}/MEMORY.md`, `cairn://${ns}/SESSION-STATE.md`]);
  const noMemory = await client.readResource({ uri: `cairn://${ns}/MEMORY.md` });
  assert.match(resourceText(noMemory), /no MEMORY\.md yet/);
  const state = await client.readResource({ uri: `cairn://${ns}/SESSION-STATE.md` });
  assert.equal(state.contents[0]!.mimeType, 'text/markdown');
  assert.match(resourceText(state), /Migrate staging to port 5434/);
  mkdirSync(join(home, ns), { recursive: true });
  writeFileSync(join(home, ns, 'MEMORY.md'), '# Memory\n\n- Staging DB: port 5434\n- Deploys on Fridays are banned\n');
  assert.match(resourceText(await client.readResource({ uri: `cairn://${ns}/MEMORY.md` })), /Deploys on Fridays/);
  const window = await callOk(client, 'memory_get', { path: 'MEMORY.md', from: 3, lines: 1 });
  assert.deepEqual({ path: window.path, text: window.text, from: window.from, lines: window.lines, totalLines: window.totalLines }, { path: 'MEMORY.md', text: '- Staging DB: port 5434', from: 3, lines: 1, totalLines: 4 });
  await assert.rejects(client.readResource({ uri: `cairn://other/MEMORY.md` }), /not found/i);
}

const OVERSIZED = 'x'.repeat(8001);

/** Bad arguments of every kind: each a clear error, and afterwards nothing was stored. */
export async function badArguments(client: Client, home: string, ns: string): Promise<void> {
  const before = await snapshot(home, ns);
  // Shape errors, caught by the tools' zod schemas before anything runs.
  await callFails(client, 'memory_store', {}, /text/);
  await callFails(client, 'memory_store', { text: 42 }, /text/);
  await callFails(client, 'memory_store', { text: 'fine', importance: 11 }, /importance/);
  await callFails(client, 'memory_store', { text: 'fine', importance: 2.5 }, /importance/);
  await callFails(client, 'memory_store', { text: 'fine', importance: '8' }, /importance/);
  await callFails(client, 'memory_store', { text: 'fine', tags: 'infra' }, /tags/);
  await callFails(client, 'memory_store', { text: 'fine', category: 'gossip' }, /category/);
  await callFails(client, 'memory_store', { text: OVERSIZED }, /text/);
  await callFails(client, 'memory_store', { text: 'fine', namespace: 'someone-else' }, /namespace/);
  // Passes the schema, refused by the facade with its stable code.
  await callFails(client, 'memory_store', { text: '   \u0007  ' }, /^INVALID_INPUT: .*text is empty/);
  await callFails(client, 'memory_supersede', { id: 'm_doesnotexist', text: OVERSIZED }, /text/);
  await callFails(client, 'memory_supersede', { id: 'm_doesnotexist', text: 'new' }, /^NOT_FOUND: /);
  await callFails(client, 'memory_delete', { id: 'm_x' }, /not found/i);
  await callFails(client, 'memory_search', {}, /query/);
  await callFails(client, 'memory_search', { query: 'x', maxResults: 0 }, /maxResults/);
  await callFails(client, 'memory_search', { query: 'x', since: 'the other day' }, /^INVALID_INPUT: .*since/);
  await callFails(client, 'memory_search', { query: 'x', asOf: 'whenever' }, /^INVALID_INPUT: .*asOf/);
  await callFails(client, 'memory_search', { query: 'x', asOf: 'x'.repeat(65) }, /asOf/);
  await callFails(client, 'memory_get', {}, /exactly one of "id" and "path"/);
  await callFails(client, 'memory_get', { id: 'm_abc', path: 'MEMORY.md' }, /exactly one/);
  await callFails(client, 'memory_get', { id: '../../etc/passwd' }, /id/);
  await callFails(client, 'memory_get', { id: 'm_doesnotexist' }, /^NOT_FOUND: /);
  await callFails(client, 'memory_get', { path: '../../../../etc/passwd' }, /\.\./);
  await callFails(client, 'memory_get', { path: 'raw/../../cairn.db' }, /\.\./);
  await callFails(client, 'memory_get', { path: '/etc/passwd' }, /^NOT_FOUND: /);
  await callFails(client, 'memory_get', { path: join(home, 'config.json') }, /^NOT_FOUND: /);
  await callFails(client, 'memory_get', { path: 'memory:m_doesnotexist' }, /^NOT_FOUND: /);
  await callFails(client, 'memory_history', { id: 'm_doesnotexist' }, /^NOT_FOUND: /);
  await callFails(client, 'memory_feedback', { id: 'x_1', important: true }, /id/);
  await callFails(client, 'memory_feedback', { id: 'm_doesnotexist', important: 'yes' }, /important/);
  await callFails(client, 'memory_feedback', { id: 'm_doesnotexist', important: true }, /^NOT_FOUND: /);
  await callFails(client, 'state_set', {}, /at least one/);
  await callFails(client, 'state_set', { objective: 'o'.repeat(501) }, /objective/);
  await callFails(client, 'state_set', { blockers: 'one' }, /blockers/);
  await callFails(client, 'state_set', { nextActions: [''] }, /nextActions/);
  await callFails(client, 'context', { budgetTokens: 10 }, /budgetTokens/);
  await callFails(client, 'context', { namespace: 'someone-else' }, /namespace/);
  assert.deepEqual(await snapshot(home, ns), before, 'nothing stored by bad calls');
  assert.equal(existsSync(join(home, ns, 'SESSION-STATE.md')), before.stateUpdatedAt !== null);
}
