// The OpenClaw plugin (integrations/openclaw) against a real `cairn watch` on the home's local
// socket: its tools answer in OpenClaw's shapes within the stated size per result, each agent sees
// only its own namespace, malformed and oversized arguments get clear errors, the memory runtime
// and `openclaw memory status|search` show Cairn's figures and results. The plugin is driven
// through the same register(api) OpenClaw calls, with a recording api.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NO_EMBEDDER, assertBuilt, cliJson, makeHome, removeHome } from '../helpers/cli.js';
import { startDaemon, type DaemonProcess } from '../helpers/daemon.js';
import { register } from '../../integrations/openclaw/src/index.js';
import { searchCommand, statusCommand } from '../../integrations/openclaw/src/cli.js';
import { callTool, recordingApi, type Recorded } from '../helpers/openclaw-plugin-api.js';

const quiet = () => {
  const lines: string[] = [];
  return { lines, out: { log: (t: string) => lines.push(t), error: (t: string) => lines.push(t) } };
};

describe('the OpenClaw plugin against a running Cairn daemon', () => {
  let home: string;
  let daemon: DaemonProcess;
  let r: Recorded;
  const BUDGET = 240;
  const long = 'The staging database moved to port 5433 after the migration; ' + 'the old port 5432 stays closed for the reporting jobs and every nightly export. '.repeat(12);

  before(async () => {
    assertBuilt();
    home = makeHome(NO_EMBEDDER);
    await cliJson(['-n', 'main', 'store', long, '--category', 'decision', '--json'], { home });
    await cliJson(['-n', 'main', 'store', 'Ana prefers green tea in the afternoon', '--json'], { home });
    await cliJson(['-n', 'ops', 'store', 'The ops pager rotation changes every Tuesday', '--json'], { home });
    daemon = startDaemon(home, ['--rescan-seconds', '3600']);
    await daemon.waitFor(/answering searches on the local socket/);
    r = recordingApi({ home, resultChars: BUDGET });
    register(r.api);
  });

  after(async () => {
    daemon.child.kill('SIGTERM');
    await daemon.exited;
    removeHome(home);
  });

  it('registers the tools, the memory capability, the recall and capture hooks and the memory command', () => {
    assert.deepEqual([...r.tools.keys()].sort(), ['memory_get', 'memory_search', 'memory_store']);
    assert.ok(r.capability?.runtime);
    assert.equal(r.capability!.deterministicRecallToolName, 'memory_search');
    assert.deepEqual([...r.hooks.keys()].sort(), ['agent_end', 'before_compaction', 'before_prompt_build']);
    assert.deepEqual(r.cli, ['memory']);
    assert.deepEqual(r.capability!.promptBuilder!({ availableTools: new Set(['memory_search']) })[0], '## Memory Recall');
    assert.deepEqual(r.capability!.promptBuilder!({ availableTools: new Set() }), []);
  });

  it('memory_search answers in OpenClaw\'s shape, every result within the budget, the full record one memory_get away', async () => {
    const { details } = await callTool(r, 'memory_search', 'main', { query: 'staging database port' });
    assert.equal(details.provider, 'cairn');
    assert.ok(details.results.length >= 1);
    for (const hit of details.results) {
      assert.deepEqual(Object.keys(hit).sort(), ['citation', 'endLine', 'path', 'score', 'snippet', 'source', 'startLine']);
      assert.ok(JSON.stringify(hit).length <= BUDGET, `${JSON.stringify(hit).length} > ${BUDGET}`);
    }
    const top = details.results[0];
    assert.match(top.path, /^memory:m_/);
    assert.equal(top.source, 'memory');
    assert.equal(top.citation, `${top.path}#L${top.startLine}` + (top.endLine === top.startLine ? '' : `-L${top.endLine}`));
    assert.match(top.snippet, /…$/, 'the long memory was clipped');
    const got = await callTool(r, 'memory_get', 'main', { path: top.path });
    assert.equal(got.details.status, 'ok');
    assert.equal(got.details.text, long.trim());
    assert.equal(got.details.memory.category, 'decision');
    assert.ok(Array.isArray(got.details.memory.provenance));
  });

  it('each agent sees its own namespace only', async () => {
    const ops = await callTool(r, 'memory_search', 'ops', { query: 'pager rotation tuesday' });
    assert.equal(ops.details.results.length, 1);
    const main = await callTool(r, 'memory_search', 'main', { query: 'pager rotation tuesday' });
    assert.equal(main.details.results.length, 0);
    assert.equal((await callTool(r, 'memory_search', 'ops', { query: 'green tea' })).details.results.length, 0);
    // A memory of main, asked for by ops, does not exist for ops.
    const path = (await callTool(r, 'memory_search', 'main', { query: 'green tea' })).details.results[0].path;
    assert.equal((await callTool(r, 'memory_get', 'ops', { path })).details.status, 'not_found');
    // No agent id: OpenClaw's default agent, main.
    assert.equal((await callTool(r, 'memory_search', undefined, { query: 'green tea' })).details.results.length, 1);
  });

  it('memory_store stores into the agent\'s namespace, once', async () => {
    const first = await callTool(r, 'memory_store', 'ops', { text: 'Deploys freeze on Fridays after 3pm', category: 'decision', importance: 8 });
    assert.equal(first.details.stored, true);
    assert.equal(first.details.duplicate, false);
    const again = await callTool(r, 'memory_store', 'ops', { text: 'Deploys freeze on Fridays after 3pm' });
    assert.equal(again.details.duplicate, true);
    assert.equal(again.details.path, first.details.path);
    const hits = (await callTool(r, 'memory_search', 'ops', { query: 'deploy freeze friday' })).details.results;
    assert.equal(hits[0].path, first.details.path);
    assert.equal((await callTool(r, 'memory_search', 'main', { query: 'deploy freeze friday' })).details.results.length, 0);
  });

  it('malformed, oversized and hostile arguments get a clear error, never a crash', async () => {
    const search = (p: unknown) => callTool(r, 'memory_search', 'main', p);
    for (const [params, why] of [
      [{}, /query must be a non-empty string/],
      [{ query: '   ' }, /query must be a non-empty string/],
      [{ query: 42 }, /query must be a non-empty string/],
      [null, /arguments must be an object/],
      [['staging'], /arguments must be an object/],
      [{ query: 'staging', maxResults: 0 }, /maxResults must be a whole number from 1 to 50/],
      [{ query: 'staging', maxResults: 2.5 }, /maxResults/],
      [{ query: 'staging', minScore: 'high' }, /minScore must be a number/],
      [{ query: 'staging', corpus: 'everything' }, /corpus must be/],
      [{ query: 'x'.repeat(2001) }, /query is longer than 2000 characters/],
    ] as const) {
      const { details } = await search(params);
      assert.deepEqual(details.results, []);
      assert.match(details.error, why);
      assert.equal(details.code, 'INVALID_INPUT');
      assert.equal(details.unavailable, undefined, 'Cairn is up: an argument error is not "unavailable"');
    }
    // A query of 2000 characters is Cairn's limit, not beyond it.
    assert.equal((await search({ query: 'staging '.repeat(250).slice(0, 2000) })).details.error, undefined);
    const get = (p: unknown) => callTool(r, 'memory_get', 'main', p);
    assert.equal((await get({ path: '../../etc/passwd' })).details.status, 'not_found');
    assert.equal((await get({ path: 'memory:m_doesnotexist' })).details.status, 'not_found');
    assert.match((await get({ path: '' })).details.error, /path must be a non-empty string/);
    assert.match((await get({ path: 'memory:x', lines: 0 })).details.error, /lines must be/);
    const store = (p: unknown) => callTool(r, 'memory_store', 'main', p);
    assert.match((await store({ text: '' })).details.error, /text must be a non-empty string/);
    assert.match((await store({ text: 'ok', importance: 11 })).details.error, /importance/);
    assert.match((await store({ text: 'ok', tags: [1] })).details.error, /tags/);
    // Cairn's own verdict comes back as is: an unknown category, a text over its limit.
    assert.equal((await store({ text: 'ok', category: 'nonsense' })).details.code, 'INVALID_INPUT');
    const huge = await store({ text: 'y'.repeat(70_000) });
    assert.equal(huge.details.stored, false);
    assert.equal(huge.details.code, 'INVALID_INPUT');
  });

  it('the memory runtime answers OpenClaw\'s core from Cairn: status figures, search, readFile', async () => {
    const { manager, error } = await r.capability!.runtime!.getMemorySearchManager({ cfg: {}, agentId: 'main', purpose: 'status' });
    assert.equal(error, undefined);
    const status = manager!.status();
    assert.equal(status.provider, 'cairn');
    const figures = (status.custom!.cairn as { currentMemories: number; daemon: { running: boolean } });
    assert.ok(figures.currentMemories >= 2);
    assert.equal(figures.daemon.running, true);
    assert.equal(status.vector!.enabled, false, 'no embedder in this home: keyword search, said so');
    const hits = await manager!.search('green tea', { maxResults: 3 });
    assert.equal(hits.length, 1);
    const read = await manager!.readFile({ relPath: hits[0]!.path });
    assert.equal(read.status, 'ok');
    assert.equal(read.text, 'Ana prefers green tea in the afternoon');
    assert.equal((await manager!.readFile({ relPath: 'memory:m_nothere' })).status, 'not_found');
    assert.deepEqual(r.capability!.runtime!.resolveMemoryBackendConfig({ cfg: {}, agentId: 'main' }), { backend: 'builtin' });
  });

  it('openclaw memory status and search print Cairn\'s figures and results', async () => {
    const s = quiet();
    const settings = { client: (await import('../../integrations/openclaw/src/client.js')).cairnClient(home), settings: (await import('../../integrations/openclaw/src/config.js')).readSettings({ home }) };
    assert.equal(await statusCommand(settings, { agent: 'main' }, s.out), 0);
    assert.match(s.lines.join('\n'), /Memory \(Cairn\) · agent main → namespace main: healthy/);
    assert.match(s.lines.join('\n'), /Daemon: running/);
    assert.match(s.lines.join('\n'), /OpenClaw transcripts are NOT captured: run cairn sources add openclaw/);
    const j = quiet();
    assert.equal(await statusCommand(settings, { agent: 'ops', json: true }, j.out), 0);
    assert.equal(JSON.parse(j.lines[0]!)[0].status.provider, 'cairn');
    const q = quiet();
    assert.equal(await searchCommand(settings, undefined, { query: 'green tea', agent: 'main' }, q.out), 0);
    assert.match(q.lines[0]!, /^1\. \d\.\d{3} memory:m_\S+#L1 \[memory\]\n {3}Ana prefers green tea/);
    const bad = quiet();
    assert.equal(await searchCommand(settings, undefined, { agent: 'main' }, bad.out), 1);
    assert.match(bad.lines[0]!, /give a query/);
    assert.equal(await searchCommand(settings, 'tea', { agent: 'main', maxResults: 'many' }, bad.out), 1);
  });
});
