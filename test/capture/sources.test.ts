// Capture sources below the service: kinds and options, default-location discovery (HOME,
// OPENCLAW_STATE_DIR, CLAUDE_CONFIG_DIR), the walk (symlink loops, depth, skipped folders), the
// units of real-looking OpenClaw / Claude Code trees with their namespaces, captureUnit over a
// real SQLite store (errors recorded and cleared, archives adopting a live file's checkpoint, FIFOs
// and dangling links), the daemon lock, namespaces made from outside names, and local days.
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, renameSync, rmSync, rmdirSync, symlinkSync, unlinkSync, writeFileSync, existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { NAMESPACE_PATTERN, RESERVED_NAMESPACES, namespaceFromName, parseNamespace } from '../../src/core/namespace.js';
import { acquireLock, lockHolder } from '../../src/core/lock.js';
import { isValidTimeZone, localDayTime } from '../../src/core/local-time.js';
import type { Source } from '../../src/core/types.js';
import { defaultNamespaceFrom, parseSourceKind, readSourceOptions, SOURCE_KINDS } from '../../src/capture/sources/kinds.js';
import { claudeProjectFolder, claudeProjectNamespace, claudeProjectsRoot, defaultLocations, discover, openclawRoot } from '../../src/capture/sources/discover.js';
import { walkFiles } from '../../src/capture/sources/walk.js';
import { OPENCLAW_DB_NAME, listUnits, namespaceFor, unitForPath, watchRoot, type CaptureUnit } from '../../src/capture/sources/units.js';
import { captureUnit } from '../../src/capture/sources/capture-unit.js';
import { readError, readStats } from '../../src/capture/capture-stats.js';
import { fileKey } from '../../src/capture/ingest-file.js';
import { dbCheckpointKey } from '../../src/capture/openclaw-db.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { rejectsCode, tempDir } from '../helpers/store-fixtures.js';
import { HANG_GUARD_MS } from '../helpers/cli.js';
import { OpenClawDb, conversation } from '../helpers/openclaw-db-fixture.js';
import { deadPid, dir, fifoValve, mkfifo, ocHeader, ocLine, sandboxEnv } from '../helpers/capture-env.js';

const tmp = tempDir('cairn-sources-');
after(() => tmp.cleanup());
let n = 0;

/** A fresh folder for one test. */
function caseDir(): string {
  return dir(tmp.dir, `case-${n++}`);
}

/** A source record as the store returns it (for the pure functions). */
function src(kind: string, path: string, options: Record<string, unknown> = {}, namespace = 'default'): Source {
  return { id: 1, namespace, kind, path: resolve(path), options, createdAt: '2026-01-01T00:00:00.000Z' };
}

const fileUnit = (u: CaptureUnit | null) => (u && u.type === 'file' ? u : assert.fail(`expected a file unit, got ${JSON.stringify(u)}`));
const unitsBy = (units: CaptureUnit[], root: string) => units.map((u) => [u.type, u.path.slice(root.length + 1), u.namespace]);

describe('source kinds and options', () => {
  it('parses known kinds and rejects others with INVALID_INPUT (long or odd values shown briefly)', async () => {
    for (const k of SOURCE_KINDS) assert.equal(parseSourceKind(k), k);
    await rejectsCode(() => parseSourceKind('slack'), 'INVALID_INPUT', /Unknown source kind "slack".*openclaw, claude-code, jsonl, markdown/);
    await rejectsCode(() => parseSourceKind('OpenClaw'), 'INVALID_INPUT');
    await rejectsCode(() => parseSourceKind(''), 'INVALID_INPUT');
    await rejectsCode(() => parseSourceKind(undefined), 'INVALID_INPUT');
    await rejectsCode(() => parseSourceKind(42), 'INVALID_INPUT');
    const err = await rejectsCode(() => parseSourceKind('x'.repeat(100_000)), 'INVALID_INPUT');
    assert.ok(err.message.length < 200, 'a huge kind is not echoed whole');
  });

  it('reads stored options defensively: anything malformed falls back to a fixed, unwatched source', () => {
    assert.deepEqual(readSourceOptions(undefined), { watch: false, namespaceFrom: 'fixed' });
    assert.deepEqual(readSourceOptions(null), { watch: false, namespaceFrom: 'fixed' });
    assert.deepEqual(readSourceOptions({ watch: true, namespaceFrom: 'agent' }), { watch: true, namespaceFrom: 'agent' });
    assert.deepEqual(readSourceOptions({ watch: true, namespaceFrom: '../../etc' }), { watch: false, namespaceFrom: 'fixed' });
    assert.deepEqual(readSourceOptions('garbage'), { watch: false, namespaceFrom: 'fixed' });
    assert.deepEqual(readSourceOptions({ layout: 'openclaw-workspace', watch: true }), { watch: true, namespaceFrom: 'fixed', layout: 'openclaw-workspace' });
    assert.equal(defaultNamespaceFrom('openclaw'), 'agent');
    assert.equal(defaultNamespaceFrom('claude-code'), 'project');
    assert.equal(defaultNamespaceFrom('jsonl'), 'fixed');
    assert.equal(defaultNamespaceFrom('markdown'), 'fixed');
  });
});

describe('discovery of default locations', () => {
  let home: string;
  let restore: () => void;
  beforeEach(() => {
    home = join(caseDir(), 'home');
    restore = sandboxEnv(home);
  });
  afterEach(() => restore());

  it('finds nothing on an empty HOME and says where it looked', () => {
    for (const kind of SOURCE_KINDS) assert.deepEqual(discover(kind), [], kind);
    assert.deepEqual(defaultLocations('openclaw'), [join(home, '.openclaw')]);
    assert.deepEqual(defaultLocations('claude-code'), [join(home, '.claude', 'projects')]);
    assert.deepEqual(defaultLocations('markdown'), [join(home, '.openclaw', 'workspace'), join(home, '.openclaw', 'workspace-<agent>')]);
    assert.deepEqual(defaultLocations('jsonl'), []);
  });

  it('finds ~/.openclaw and ~/.claude/projects; a file of that name is not a location', () => {
    writeFileSync(join(home, '.openclaw'), 'not a folder');
    dir(home, '.claude'); // projects/ missing
    assert.deepEqual(discover('openclaw'), []);
    assert.deepEqual(discover('claude-code'), []);
    rmSync(join(home, '.openclaw'));
    dir(home, '.openclaw', 'agents', 'main', 'sessions');
    dir(home, '.claude', 'projects');
    assert.deepEqual(discover('openclaw'), [{ path: join(home, '.openclaw') }]);
    assert.deepEqual(discover('claude-code'), [{ path: join(home, '.claude', 'projects') }]);
  });

  it('follows OPENCLAW_STATE_DIR and CLAUDE_CONFIG_DIR (relative values resolved to absolute paths)', () => {
    const base = caseDir();
    const state = dir(base, 'oc-state');
    const claude = dir(base, 'claude-config', 'projects');
    dir(home, '.openclaw'); // ignored once the override is set
    process.env.OPENCLAW_STATE_DIR = state;
    process.env.CLAUDE_CONFIG_DIR = join(base, 'claude-config');
    assert.equal(openclawRoot(), state);
    assert.equal(claudeProjectsRoot(), claude);
    assert.deepEqual(discover('openclaw'), [{ path: state }]);
    assert.deepEqual(discover('claude-code'), [{ path: claude }]);
    assert.deepEqual(defaultLocations('openclaw'), [state]);
    // An empty override means "unset".
    process.env.OPENCLAW_STATE_DIR = '';
    assert.equal(openclawRoot(), join(home, '.openclaw'));
    // A relative override must not be stored as a relative path (the daemon runs elsewhere).
    const cwd = process.cwd();
    try {
      process.chdir(base);
      process.env.OPENCLAW_STATE_DIR = 'oc-state';
      process.env.CLAUDE_CONFIG_DIR = 'claude-config';
      assert.equal(openclawRoot(), state);
      assert.equal(claudeProjectsRoot(), claude);
      assert.deepEqual(discover('openclaw'), [{ path: state }]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('finds OpenClaw workspaces: workspace → main, workspace-<agent> → that agent; odd names are skipped', () => {
    const root = dir(home, '.openclaw');
    dir(root, 'workspace');
    dir(root, 'workspace-Ops Bot');
    dir(root, 'workspace-research');
    dir(root, 'workspace-'); // no agent id
    dir(root, 'workspace-...'); // nothing usable
    dir(root, 'workspace-日本語'); // nothing usable after folding
    dir(root, 'workspaces'); // not a workspace
    dir(root, 'agents');
    writeFileSync(join(root, 'workspace-file'), 'a file, not a workspace');
    assert.deepEqual(discover('markdown'), [
      { path: join(root, 'workspace'), namespace: 'main' },
      { path: join(root, 'workspace-Ops Bot'), namespace: 'ops-bot' },
      { path: join(root, 'workspace-research'), namespace: 'research' },
    ]);
    process.env.OPENCLAW_STATE_DIR = caseDir();
    assert.deepEqual(discover('markdown'), [], 'workspaces are looked for under the state dir override');
  });

  it('names Claude Code project folders: the home prefix is dropped, the rest kept whole', () => {
    const prefix = claudeProjectFolder(home); // e.g. -tmp-cairn-sources-xyz-case-4-home
    assert.equal(claudeProjectFolder('/home/ana/my.proj_x'), '-home-ana-my-proj-x');
    assert.equal(claudeProjectNamespace(`${prefix}-proj`), 'proj');
    assert.equal(claudeProjectNamespace(`/anywhere/projects/${prefix}-my-app`), 'my-app');
    assert.equal(claudeProjectNamespace(prefix), namespaceFromName(prefix), 'the home folder itself keeps its whole name');
    assert.equal(claudeProjectNamespace('-srv-app'), 'srv-app');
    assert.equal(claudeProjectNamespace('-'), null);
    assert.equal(claudeProjectNamespace(`${prefix}-index`), 'index-ns', 'a reserved name is made safe');
    assert.equal(claudeProjectNamespace(`${prefix}-${'x'.repeat(300)}`), 'x'.repeat(64));
    // HOME with a trailing slash names the same home.
    process.env.HOME = home + '/';
    assert.equal(claudeProjectNamespace(`${prefix}-proj`), 'proj');
  });
});

describe('walkFiles', () => {
  const jsonl = (p: string) => p.endsWith('.jsonl');

  it('does not follow directory symlinks (loops cannot hang it); dangling/looping links and FIFOs are listed for capture to report', { timeout: HANG_GUARD_MS }, async () => {
    const root = caseDir();
    const a = dir(root, 'a', 'b');
    writeFileSync(join(a, 'real.jsonl'), '');
    symlinkSync(root, join(a, 'up')); // a loop back to the root
    symlinkSync('.', join(root, 'self')); // a loop to itself
    symlinkSync(join(a, 'self.jsonl'), join(a, 'self.jsonl')); // a link to itself
    symlinkSync(join(root, 'nowhere.jsonl'), join(root, 'dangling.jsonl'));
    const outside = join(caseDir(), 'outside.jsonl');
    writeFileSync(outside, '');
    symlinkSync(outside, join(root, 'linked.jsonl'));
    symlinkSync(a, join(root, 'dir-link.jsonl')); // a link to a folder is no file
    mkfifo(join(root, 'pipe.jsonl'));
    dir(root, 'folder.jsonl'); // a folder named like a transcript is entered, not listed
    writeFileSync(join(root, 'folder.jsonl', 'inner.jsonl'), '');
    // A loop the walk followed would never end: the hang guard of this test catches that.
    const walked = await walkFiles(root, { maxDepth: 100, accept: jsonl });
    assert.deepEqual(walked.files, [
      join(a, 'real.jsonl'), join(a, 'self.jsonl'), join(root, 'dangling.jsonl'), join(root, 'folder.jsonl', 'inner.jsonl'), join(root, 'linked.jsonl'), join(root, 'pipe.jsonl'),
    ].sort());
    assert.deepEqual(walked.errors, []);
  });

  it('honours maxDepth and skipDir, and reports a root it cannot list instead of throwing', async () => {
    const root = caseDir();
    writeFileSync(join(root, 'top.jsonl'), '');
    writeFileSync(join(dir(root, 'one'), 'd1.jsonl'), '');
    writeFileSync(join(dir(root, 'one', 'two'), 'd2.jsonl'), '');
    writeFileSync(join(dir(root, 'skip-me'), 'x.jsonl'), '');
    assert.deepEqual((await walkFiles(root, { maxDepth: 0, accept: jsonl })).files, [join(root, 'top.jsonl')]);
    assert.deepEqual((await walkFiles(root, { maxDepth: 1, accept: jsonl, skipDir: (d) => d === 'skip-me' })).files, [join(root, 'one', 'd1.jsonl'), join(root, 'top.jsonl')]);
    assert.equal((await walkFiles(root, { maxDepth: 5, accept: jsonl })).files.length, 4);
    const missing = await walkFiles(join(root, 'nope'), { maxDepth: 5, accept: jsonl });
    assert.deepEqual(missing.files, []);
    assert.equal(missing.errors.length, 1);
    const notDir = await walkFiles(join(root, 'top.jsonl'), { maxDepth: 5, accept: jsonl });
    assert.equal(notDir.errors.length, 1);
  });

  it('copes with very long names and deep trees', async () => {
    const root = caseDir();
    const long = 'n'.repeat(249) + '.jsonl'; // 255 bytes: the longest name most file systems allow
    writeFileSync(join(root, long), '');
    let deep = root;
    for (let i = 0; i < 40; i++) deep = dir(deep, `d${i}`);
    writeFileSync(join(deep, 'deep.jsonl'), '');
    const walked = await walkFiles(root, { maxDepth: 10, accept: jsonl });
    assert.deepEqual(walked.files, [join(root, long)]);
    assert.equal((await walkFiles(root, { maxDepth: 40, accept: jsonl })).files.length, 2);
  });
});

describe('units of a source and their namespaces', () => {
  let restore: () => void;
  let home: string;
  beforeEach(() => {
    home = join(caseDir(), 'home');
    restore = sandboxEnv(home);
  });
  afterEach(() => restore());

  /** A real-looking ~/.openclaw: two agents, archives, a database, and things that are not units. */
  function openclawTree(root: string): void {
    const main = dir(root, 'agents', 'Main', 'sessions');
    for (const name of ['s1.jsonl', 's1.jsonl.reset.2026-03-02T06-10-00.000Z', 's0.jsonl.deleted.1772432045299', 'sessions.json', 's1.jsonl.lock', 'notes.txt']) writeFileSync(join(main, name), '');
    const ops = dir(root, 'agents', 'ops', 'sessions');
    writeFileSync(join(ops, 'x.jsonl'), '');
    const opsAgent = dir(root, 'agents', 'ops', 'agent');
    for (const name of [OPENCLAW_DB_NAME, `${OPENCLAW_DB_NAME}-wal`, `${OPENCLAW_DB_NAME}-shm`, 'auth-profiles.json', 'other.sqlite']) writeFileSync(join(opsAgent, name), '');
    writeFileSync(join(dir(root, 'workspace', 'node_modules', 'pkg'), 'a.jsonl'), '');
    writeFileSync(join(dir(root, '.git'), 'b.jsonl'), '');
    writeFileSync(join(dir(root, 'agents', '..hidden', 'sessions'), 'h.jsonl'), '');
  }

  it('OpenClaw: transcripts and archives per agent, the database once, never sessions.json, locks or skipped folders', async () => {
    const root = join(home, '.openclaw');
    openclawTree(root);
    const source = src('openclaw', root, { watch: true, namespaceFrom: 'agent' });
    const { units, errors } = await listUnits(source);
    assert.deepEqual(errors, []);
    assert.deepEqual(unitsBy(units, root), [
      ['file', 'agents/Main/sessions/s0.jsonl.deleted.1772432045299', 'main'],
      ['file', 'agents/Main/sessions/s1.jsonl', 'main'],
      ['file', 'agents/Main/sessions/s1.jsonl.reset.2026-03-02T06-10-00.000Z', 'main'],
      ['db', `agents/ops/agent/${OPENCLAW_DB_NAME}`, 'ops'],
      ['file', 'agents/ops/sessions/x.jsonl', 'ops'],
    ]);
    for (const u of units) if (u.type === 'file') assert.equal(u.format, 'openclaw');
    // Events map the same way; the database's -wal/-shm/-journal are the database unit.
    const db = join(root, 'agents', 'ops', 'agent', OPENCLAW_DB_NAME);
    for (const suffix of ['', '-wal', '-shm', '-journal']) assert.deepEqual(unitForPath(source, db + suffix), { type: 'db', path: db, namespace: 'ops' });
    assert.equal(unitForPath(source, join(root, 'agents', 'Main', 'sessions', 'sessions.json')), null);
    assert.equal(unitForPath(source, join(root, 'agents', 'Main', 'sessions', 's1.jsonl.lock')), null);
    assert.equal(unitForPath(source, join(root, 'agents', 'ops', 'agent', 'other.sqlite')), null);
    assert.equal(unitForPath(source, join(home, 'elsewhere.jsonl')), null, 'outside the root');
    assert.equal(unitForPath(source, root + '-backup/agents/a/sessions/x.jsonl'), null, 'a sibling sharing the prefix is outside');
    // An agent id that folds to nothing valid falls back to the source's namespace.
    assert.equal(namespaceFor(source, join(root, 'agents', '...', 'sessions', 'x.jsonl')), 'default');
    assert.equal(namespaceFor(source, join(root, 'agents', 'index', 'sessions', 'x.jsonl')), 'index-ns');
    assert.equal(namespaceFor(source, join(root, 'agents', 'A'.repeat(200), 'sessions', 'x.jsonl')), 'a'.repeat(64));
    assert.equal(namespaceFor(source, join(root, 'agents', 'x.jsonl')), 'default', 'no agent folder');
    assert.equal(watchRoot(source), root);
  });

  it('OpenClaw roots at any level: one agent folder, one sessions folder, the database file itself', async () => {
    const root = join(home, '.openclaw');
    openclawTree(root);
    const agentRoot = src('openclaw', join(root, 'agents', 'ops'), { namespaceFrom: 'agent' });
    assert.deepEqual(unitsBy((await listUnits(agentRoot)).units, agentRoot.path), [
      ['db', `agent/${OPENCLAW_DB_NAME}`, 'ops'],
      ['file', 'sessions/x.jsonl', 'ops'],
    ]);
    const sessions = src('openclaw', join(root, 'agents', 'Main', 'sessions'), { namespaceFrom: 'agent' });
    assert.equal((await listUnits(sessions)).units.length, 3);
    assert.ok((await listUnits(sessions)).units.every((u) => u.namespace === 'main'));
    const dbPath = join(root, 'agents', 'ops', 'agent', OPENCLAW_DB_NAME);
    const dbRoot = src('openclaw', dbPath, { namespaceFrom: 'agent' });
    assert.deepEqual((await listUnits(dbRoot)).units, [{ type: 'db', path: dbPath, namespace: 'ops' }]);
    assert.equal(watchRoot(dbRoot), join(root, 'agents', 'ops', 'agent'));
    // The watcher sees the database's WAL beside the root, not under it: it is still the database.
    for (const suffix of ['-wal', '-shm']) assert.deepEqual(unitForPath(dbRoot, dbPath + suffix), { type: 'db', path: dbPath, namespace: 'ops' });
    assert.equal(unitForPath(dbRoot, join(root, 'agents', 'ops', 'agent', 'auth-profiles.json')), null);
    // A fixed namespace overrides the agent.
    const fixed = src('openclaw', root, { namespaceFrom: 'fixed' }, 'team');
    assert.ok((await listUnits(fixed)).units.every((u) => u.namespace === 'team'));
  });

  it('Claude Code: a projects root gives a namespace per project folder; subagent transcripts go with their project', async () => {
    const projects = dir(home, '.claude', 'projects');
    const prefix = claudeProjectFolder(home);
    const proj = dir(projects, `${prefix}-proj`);
    const uuid = '0b9d2c1e-7a44-4f5b-8e0d-3c2a1f6e9b77';
    writeFileSync(join(proj, `${uuid}.jsonl`), '');
    writeFileSync(join(dir(proj, uuid, 'subagents'), 'agent-1.jsonl'), '');
    writeFileSync(join(proj, uuid, 'tool-output.txt'), '');
    writeFileSync(join(dir(projects, '-srv-app'), 's.jsonl'), '');
    writeFileSync(join(projects, 'stray.jsonl'), ''); // not in a project folder
    const source = src('claude-code', projects, { namespaceFrom: 'project' });
    const { units } = await listUnits(source);
    assert.deepEqual(unitsBy(units, projects).sort(), [
      ['file', `${prefix}-proj/${uuid}.jsonl`, 'proj'],
      ['file', `${prefix}-proj/${uuid}/subagents/agent-1.jsonl`, 'proj'],
      ['file', '-srv-app/s.jsonl', 'srv-app'],
      ['file', 'stray.jsonl', 'default'],
    ].sort());
    for (const u of units) assert.equal(fileUnit(u).format, 'claude-code');
    // A project folder given directly names its own namespace, for everything under it.
    const direct = src('claude-code', proj, { namespaceFrom: 'project' });
    assert.deepEqual(unitsBy((await listUnits(direct)).units, proj), [
      ['file', `${uuid}.jsonl`, 'proj'],
      ['file', `${uuid}/subagents/agent-1.jsonl`, 'proj'],
    ]);
    assert.equal(unitForPath(direct, join(proj, uuid, 'tool-output.txt')), null);
  });

  it('jsonl and markdown sources: a file or a tree; markdown is one unit of the whole root', async () => {
    const root = caseDir();
    writeFileSync(join(root, 'a.jsonl'), '');
    writeFileSync(join(dir(root, 'x', 'y'), 'b.jsonl'), '');
    writeFileSync(join(root, 'c.json'), '');
    const tree = src('jsonl', root, {}, 'logs-ns');
    assert.deepEqual(unitsBy((await listUnits(tree)).units, root), [['file', 'a.jsonl', 'logs-ns'], ['file', 'x/y/b.jsonl', 'logs-ns']]);
    const single = src('jsonl', join(root, 'c.json'));
    assert.deepEqual((await listUnits(single)).units, [{ type: 'file', path: join(root, 'c.json'), format: 'jsonl', namespace: 'default' }], 'a file root is captured whatever its name');
    const md = src('markdown', root, { layout: 'openclaw-workspace' }, 'main');
    const mdUnit = { type: 'markdown', path: root, namespace: 'main', layout: 'openclaw-workspace' };
    assert.deepEqual((await listUnits(md)).units, [mdUnit]);
    assert.deepEqual(unitForPath(md, join(root, 'memory', '2026-03-02.md')), mdUnit);
    assert.deepEqual(unitForPath(md, join(root, 'NOTES.MARKDOWN')), mdUnit);
    assert.equal(unitForPath(md, join(root, 'a.jsonl')), null);
    assert.equal((markdownUnitOf(await listUnits(src('markdown', root)))).layout, 'tree', 'layout defaults to tree');
    // A missing root lists nothing.
    assert.deepEqual((await listUnits(src('openclaw', join(root, 'gone')))).units, []);
    assert.deepEqual((await listUnits(src('claude-code', join(root, 'gone')))).units, []);
    assert.deepEqual((await listUnits(src('jsonl', join(root, 'gone')))).units, [], 'a missing root is flagged on the source, not as a unit');
    assert.deepEqual((await listUnits(src('openclaw', join(root, 'gone', OPENCLAW_DB_NAME)))).units, []);
  });

  it('hostile paths: NUL bytes, huge names and an unknown kind map to nothing or to a safe namespace', async () => {
    const root = caseDir();
    const oc = src('openclaw', root, { namespaceFrom: 'agent' });
    assert.equal(unitForPath(oc, join(root, 'agents', 'a', 'sessions', 'x\0.txt')), null);
    const nul = unitForPath(oc, join(root, 'agents', 'a\0b', 'sessions', 'x.jsonl'));
    assert.equal(fileUnit(nul).namespace, 'a-b');
    const odd = namespaceFor(oc, join(root, 'agents', '\u202e\u0000..', 'sessions', 'x.jsonl'));
    assert.ok(NAMESPACE_PATTERN.test(odd), odd);
    assert.equal(unitForPath(src('slack', root), join(root, 'x.jsonl')), null);
    assert.deepEqual((await listUnits(src('slack', root))).units, []);
    const cc = src('claude-code', root, { namespaceFrom: 'project' });
    assert.equal(namespaceFor(cc, join(root, '-' + '\u0000'.repeat(10), 'x.jsonl')), 'default');
  });
});

function markdownUnitOf(listing: { units: CaptureUnit[] }): Extract<CaptureUnit, { type: 'markdown' }> {
  const u = listing.units[0];
  return u && u.type === 'markdown' ? u : assert.fail('expected a markdown unit');
}

describe('captureUnit over a real store', () => {
  /** A store, a source folder and a registered jsonl or openclaw source over it. */
  async function setup(kind = 'openclaw', options: Record<string, unknown> = { watch: true, namespaceFrom: 'agent' }) {
    const base = caseDir();
    const store = new SqliteStore(join(base, 'cairn.db'));
    const root = dir(base, 'oc');
    const sessions = dir(root, 'agents', 'main', 'sessions');
    const source = await store.addSource('default', kind, root, options);
    const capture = (path: string) => captureUnit(store, source, unitForPath(source, path)!);
    const state = (path: string) => store.getCheckpoint(source.id, fileKey(path));
    const turns = async (ns = 'main') => (await store.namespaceStats()).find((s) => s.namespace === ns)?.turns ?? 0;
    return { base, store, root, sessions, source, capture, state, turns };
  }

  it('captures a file, then only what was appended; stats in the checkpoint match what was read', async () => {
    const s = await setup();
    const file = join(s.sessions, 's1.jsonl');
    writeFileSync(file, ocHeader('s1') + ocLine('m1', 'user', 'hello there') + '{not json\n' + ocLine('m2', 'assistant', 'hi back'));
    const r1 = await s.capture(file);
    assert.equal(r1.error, undefined);
    assert.deepEqual([r1.read, r1.turnsInserted, r1.duplicates, r1.malformed, r1.held], [4, 2, 0, 1, false]);
    assert.equal(r1.insertedIds.length, 2);
    assert.equal(r1.unit.namespace, 'main');
    appendFileSync(file, ocLine('m3', 'user', 'one more'));
    const r2 = await s.capture(file);
    assert.deepEqual([r2.read, r2.turnsInserted, r2.duplicates, r2.malformed], [1, 1, 0, 0]);
    const stats = readStats(await s.state(file));
    assert.deepEqual([stats.linesRead, stats.turns, stats.malformed], [5, 3, 1]);
    assert.deepEqual(stats.recentIssues.map((i) => i.line), [3]);
    assert.equal(await s.turns(), 3);
    await s.store.close();
  });

  it('records an unreadable unit in its checkpoint and clears it on the next success: a directory named x.jsonl', async () => {
    const s = await setup();
    const bad = dir(s.sessions, 'x.jsonl');
    const r = await s.capture(bad);
    assert.equal(r.error?.code, 'INVALID_INPUT');
    assert.match(r.error!.message, /directory/);
    assert.deepEqual([r.read, r.turnsInserted], [0, 0]);
    const err = readError(await s.state(bad));
    assert.ok(err);
    assert.equal(err.code, 'INVALID_INPUT');
    assert.ok(!Number.isNaN(Date.parse(err.at)));
    // Again: still one error, not a pile of them.
    await s.capture(bad);
    assert.equal(readError(await s.state(bad))?.code, 'INVALID_INPUT');
    rmdirSync(bad);
    writeFileSync(bad, ocLine('m1', 'user', 'readable now'));
    const ok = await s.capture(bad);
    assert.equal(ok.error, undefined);
    assert.equal(ok.turnsInserted, 1);
    const state = await s.state(bad);
    assert.equal(readError(state), null);
    assert.ok(state && !('error' in state));
    assert.equal(readStats(state).linesRead, 1);
    await s.store.close();
  });

  it('a dangling symlink is NOT_FOUND until its target appears; an empty file clears the error too', async () => {
    const s = await setup();
    const link = join(s.sessions, 'linked.jsonl');
    const target = join(s.base, 'target.jsonl');
    symlinkSync(target, link);
    const r = await s.capture(link);
    assert.equal(r.error?.code, 'NOT_FOUND');
    assert.equal(readError(await s.state(link))?.code, 'NOT_FOUND');
    writeFileSync(target, '');
    assert.equal((await s.capture(link)).error, undefined);
    assert.equal(readError(await s.state(link)), null, 'an empty but readable file is a success');
    appendFileSync(target, ocLine('m1', 'user', 'through the link'));
    assert.equal((await s.capture(link)).turnsInserted, 1);
    await s.store.close();
  });

  it('a FIFO named like a transcript is an error, not a hang; a NUL path is an error, not a throw', async () => {
    const s = await setup();
    const fifo = join(s.sessions, 'pipe.jsonl');
    mkfifo(fifo);
    const valve = fifoValve(fifo, 3000);
    try {
      const r = await s.capture(fifo);
      assert.equal(valve.fired(), false, 'capture blocked on the FIFO until the test released it');
      assert.equal(r.error?.code, 'INVALID_INPUT');
      assert.match(r.error!.message, /not a regular file/);
      assert.equal(readError(await s.state(fifo))?.code, 'INVALID_INPUT');
    } finally {
      valve.cancel();
    }
    // A scan lists it (so its error shows in status) and capturing it from there does not block either.
    assert.ok((await listUnits(s.source)).units.some((u) => u.path === fifo), 'the FIFO is a unit of the scan');
    unlinkSync(fifo);
    writeFileSync(fifo, ocLine('m1', 'user', 'a file again'));
    const ok = await s.capture(fifo);
    assert.equal(ok.error, undefined);
    assert.equal(readError(await s.state(fifo)), null);
    const nul = await captureUnit(s.store, s.source, { type: 'file', path: join(s.sessions, 'a\0b.jsonl'), format: 'openclaw', namespace: 'main' });
    assert.equal(nul.error?.code, 'INVALID_INPUT');
    await s.store.close();
  });

  it('an archive renamed from a live file adopts its checkpoint: not read again; the new live file is', async () => {
    const s = await setup();
    const live = join(s.sessions, 's1.jsonl');
    writeFileSync(live, ocHeader('s1') + ocLine('m1', 'user', 'first') + ocLine('m2', 'assistant', 'second'));
    assert.equal((await s.capture(live)).turnsInserted, 2);
    const archive = `${live}.reset.2026-03-02T06-20-00.000Z`;
    renameSync(live, archive);
    const r = await s.capture(archive);
    assert.equal(r.error, undefined);
    assert.equal(r.adoptedFrom, fileKey(live));
    assert.deepEqual([r.read, r.turnsInserted, r.duplicates], [0, 0, 0]);
    writeFileSync(live, ocHeader('s1b') + ocLine('m3', 'user', 'after the reset'));
    const fresh = await s.capture(live);
    assert.deepEqual([fresh.read, fresh.turnsInserted, fresh.duplicates], [2, 1, 0]);
    // Lines appended to the archive after the rename (a late write) are still captured once.
    appendFileSync(archive, ocLine('m4', 'assistant', 'late write'));
    const late = await s.capture(archive);
    assert.deepEqual([late.read, late.turnsInserted, late.duplicates], [1, 1, 0]);
    assert.equal(await s.turns(), 4);
    // Status sums the checkpoints' stats: every line counted once, not once per key.
    const total = (await s.store.listCheckpoints(s.source.id)).reduce((sum, cp) => sum + readStats(cp.state).linesRead, 0);
    assert.equal(total, 3 + 2 + 1);
    await s.store.close();
  });

  it('reset while the daemon was busy: the new live file captured before its archive still leaves the archive unread', async () => {
    const s = await setup();
    const live = join(s.sessions, 's1.jsonl');
    writeFileSync(live, ocHeader('s1') + ocLine('m1', 'user', 'first') + ocLine('m2', 'assistant', 'second'));
    await s.capture(live);
    const archive = `${live}.deleted.1772432045299`;
    renameSync(live, archive);
    writeFileSync(live, ocHeader('s1b') + ocLine('m3', 'user', 'after the reset'));
    const fresh = await s.capture(live); // the live file sorts (and is often seen) first
    assert.deepEqual([fresh.read, fresh.turnsInserted, fresh.duplicates], [2, 1, 0]);
    const r = await s.capture(archive);
    assert.deepEqual([r.read, r.turnsInserted, r.duplicates], [0, 0, 0]);
    const total = (await s.store.listCheckpoints(s.source.id)).reduce((sum, cp) => sum + readStats(cp.state).linesRead, 0);
    assert.equal(total, 5);
    await s.store.close();
  });

  it('an archive with no earlier checkpoint (captured for the first time) is read whole', async () => {
    const s = await setup();
    const archive = join(s.sessions, 'old.jsonl.reset.2026-01-01T00-00-00.000Z');
    writeFileSync(archive, ocHeader('old') + ocLine('m1', 'user', 'from before cairn'));
    const r = await s.capture(archive);
    assert.equal(r.adoptedFrom, undefined);
    assert.deepEqual([r.read, r.turnsInserted], [2, 1]);
    await s.store.close();
  });

  it('a transcript database: an error while it is not a database, cleared once it is', async () => {
    const s = await setup();
    const agentDir = dir(s.root, 'agents', 'ops', 'agent');
    const dbPath = join(agentDir, OPENCLAW_DB_NAME);
    writeFileSync(dbPath, 'this is not a database '.repeat(100));
    const bad = await s.capture(dbPath + '-wal');
    assert.equal(bad.unit.type, 'db');
    assert.ok(bad.error, 'a corrupt database is reported');
    assert.ok(readError(await s.state(dbPath)));
    rmSync(dbPath);
    const db = new OpenClawDb(dbPath);
    db.append('sess-a', 1, conversation('sess-a', 5));
    db.close();
    const ok = await s.capture(dbPath);
    assert.equal(ok.error, undefined);
    assert.deepEqual([ok.read, ok.turnsInserted], [5, 4]);
    assert.equal(readError(await s.state(dbPath)), null);
    assert.ok(await s.store.getCheckpoint(s.source.id, dbCheckpointKey(dbPath, 'sess-a')));
    assert.equal(await s.turns('ops'), 4);
    await s.store.close();
  });

  it('a Markdown unit records files it cannot index as its error and clears it when they are fixed', async () => {
    const s = await setup('markdown', { watch: true, layout: 'tree' });
    writeFileSync(join(s.root, 'ok.md'), '# Notes\n\nThe staging database moved to port 5433.\n');
    writeFileSync(join(s.root, 'huge.md'), 'x'.repeat(5 * 1024 * 1024 + 1));
    const unit = unitForPath(s.source, s.root)!;
    const r = await captureUnit(s.store, s.source, unit);
    assert.ok((r.documents ?? 0) > 0, 'the readable file is indexed');
    assert.equal(r.error?.code, 'INVALID_INPUT');
    assert.match(r.error!.message, /huge\.md/);
    assert.equal(readError(await s.state(s.root))?.code, 'INVALID_INPUT');
    assert.equal(readStats(await s.state(s.root)).malformed, 1);
    writeFileSync(join(s.root, 'huge.md'), '# Small now\n\nfine\n');
    const ok = await captureUnit(s.store, s.source, unit);
    assert.equal(ok.error, undefined);
    assert.equal(readError(await s.state(s.root)), null);
    await s.store.close();
  });
});

describe('acquireLock / lockHolder', () => {
  it('a live holder makes a second acquire fail with CONFLICT naming its pid; release frees it', async () => {
    const lock = join(caseDir(), 'run', 'nested', 'daemon.lock');
    assert.equal(lockHolder(lock), null, 'no file: free');
    const release = acquireLock(lock, 'cairn watch');
    const holder = lockHolder(lock);
    assert.equal(holder?.pid, process.pid);
    assert.equal(holder?.host, hostname());
    const err = await rejectsCode(() => acquireLock(lock, 'cairn watch'), 'CONFLICT', new RegExp(`cairn watch is already running.*pid ${process.pid}`));
    assert.equal(err.details?.pid, process.pid);
    assert.equal(err.details?.lock, lock);
    release();
    assert.equal(existsSync(lock), false);
    assert.equal(lockHolder(lock), null);
    release(); // twice is harmless
    const again = acquireLock(lock, 'cairn watch');
    again();
  });

  it('takes over a lock left by a dead process, and never removes a lock it does not hold', () => {
    const lock = join(caseDir(), 'daemon.lock');
    const pid = deadPid();
    writeFileSync(lock, JSON.stringify({ pid, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z' }) + '\n');
    assert.equal(lockHolder(lock), null, 'a dead holder is no holder');
    const release = acquireLock(lock, 'cairn watch');
    assert.equal(JSON.parse(readFileSync(lock, 'utf8')).pid, process.pid);
    // Someone else took it over meanwhile: our release leaves their lock alone.
    writeFileSync(lock, JSON.stringify({ pid: pid, host: 'other-host', startedAt: '2026-01-01T00:00:00.000Z' }));
    release();
    assert.ok(existsSync(lock));
  });

  it('trusts a lock of another host; treats garbage and impossible pids as stale', async () => {
    const lock = join(caseDir(), 'daemon.lock');
    writeFileSync(lock, JSON.stringify({ pid: 12345, host: 'some-other-machine', startedAt: '2026-01-01T00:00:00.000Z' }));
    await rejectsCode(() => acquireLock(lock, 'cairn watch'), 'CONFLICT', /pid 12345 on some-other-machine/);
    for (const content of ['', 'not json', '{"pid":"12"}', 'null', '[]', JSON.stringify({ pid: 0, host: hostname(), startedAt: 'x' }), JSON.stringify({ pid: -1, host: hostname(), startedAt: 'x' }), JSON.stringify({ pid: 1.5, host: hostname(), startedAt: 'x' })]) {
      writeFileSync(lock, content);
      assert.equal(lockHolder(lock), null, content);
      const release = acquireLock(lock, 'cairn watch');
      assert.equal(lockHolder(lock)?.pid, process.pid, content);
      release();
    }
  });

  it('surfaces a lock path it cannot create (its parent is a file) as an error, not a silent success', () => {
    const base = caseDir();
    writeFileSync(join(base, 'file'), '');
    assert.throws(() => acquireLock(join(base, 'file', 'daemon.lock'), 'cairn watch'));
  });
});

describe('namespaces from outside names', () => {
  it('folds names to valid namespaces', () => {
    const cases: Array<[string, string | null]> = [
      ['main', 'main'],
      ['Ops Bot', 'ops-bot'],
      ['Café Crème', 'cafe-creme'],
      ['ＡＢＣ', 'abc'],
      ['proj-日本', 'proj'],
      ['日本語', null],
      ['🤖', null],
      ['..', null],
      ['...', null],
      ['../../etc/passwd', 'etc-passwd'],
      ['a..b', 'a.b'],
      ['.hidden', 'hidden'],
      ['___x___', 'x'],
      ['-a-', 'a'],
      ['a\0b', 'a-b'],
      ['\0', null],
      ['', null],
      ['   ', null],
      ['index', 'index-ns'],
      ['LOGS', 'logs-ns'],
      ['Run', 'run-ns'],
      ['cairn.db', 'cairn.db-ns'],
      ['config.json', 'config.json-ns'],
      ['cairn.lock', 'cairn.lock-ns'],
    ];
    for (const [name, want] of cases) assert.equal(namespaceFromName(name), want, JSON.stringify(name));
    assert.equal(namespaceFromName('A'.repeat(200)), 'a'.repeat(64));
    assert.equal(namespaceFromName('a'.repeat(63) + '.b'), 'a'.repeat(63), 'no trailing dot after trimming to 64');
    assert.equal(namespaceFromName('x'.repeat(100_000))?.length, 64);
  });

  it('whatever the input, a non-null result is accepted by parseNamespace', () => {
    const alphabet = ['a', 'Z', '0', '.', '-', '_', ' ', '/', '\\', '\0', 'é', 'ß', '日', '🤖', '\u0301', '\ud800', '..', 'index', 'cairn.db'];
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 3000; i++) {
      let name = '';
      const len = Math.floor(rand() * 90);
      for (let j = 0; j < len; j++) name += alphabet[Math.floor(rand() * alphabet.length)]!;
      const ns = namespaceFromName(name);
      if (ns !== null) assert.equal(parseNamespace(ns), ns, JSON.stringify(name));
    }
  });

  it('parseNamespace rejects reserved names, "..", bad shapes and non-strings', async () => {
    for (const name of RESERVED_NAMESPACES) await rejectsCode(() => parseNamespace(name), 'INVALID_NAMESPACE', /reserved/);
    for (const bad of ['', '..', 'a..b', '.a', '-a', 'A', 'a/b', 'a b', 'a'.repeat(65), 'a\0', 'é']) await rejectsCode(() => parseNamespace(bad), 'INVALID_NAMESPACE');
    for (const bad of [undefined, null, 1, {}, ['a']]) await rejectsCode(() => parseNamespace(bad), 'INVALID_NAMESPACE');
    const long = await rejectsCode(() => parseNamespace('x'.repeat(10_000)), 'INVALID_NAMESPACE');
    assert.ok(long.message.length < 300);
    assert.equal(parseNamespace('a'.repeat(64)), 'a'.repeat(64));
    assert.equal(parseNamespace('index-ns'), 'index-ns');
    assert.equal(parseNamespace('a.b_c-d'), 'a.b_c-d');
  });
});

describe('local day and time', () => {
  it('puts an instant on the local calendar of the configured zone', () => {
    assert.deepEqual(localDayTime('2026-03-01T23:30:00.000Z', 'Asia/Tokyo'), { day: '2026-03-02', time: '08:30' });
    assert.deepEqual(localDayTime('2026-03-01T23:30:00.000Z', 'UTC'), { day: '2026-03-01', time: '23:30' });
    assert.deepEqual(localDayTime('2026-03-02T05:30:00.000Z', 'America/Los_Angeles'), { day: '2026-03-01', time: '21:30' });
    assert.deepEqual(localDayTime('2026-03-01T15:00:00.000Z', 'Asia/Tokyo'), { day: '2026-03-02', time: '00:00' }, 'midnight is 00, never 24');
    assert.deepEqual(localDayTime('2026-03-08T10:30:00.000Z', 'America/New_York'), { day: '2026-03-08', time: '06:30' }, 'after the DST switch');
    assert.deepEqual(localDayTime('2026-03-02T00:00:00+09:00', 'Asia/Tokyo'), { day: '2026-03-02', time: '00:00' });
    assert.equal(localDayTime('not a time', 'UTC'), null);
    assert.equal(localDayTime('', 'UTC'), null);
  });

  it('tells valid IANA zones from invalid ones', () => {
    assert.equal(isValidTimeZone('Asia/Tokyo'), true);
    assert.equal(isValidTimeZone('UTC'), true);
    assert.equal(isValidTimeZone('Mars/Olympus_Mons'), false);
    assert.equal(isValidTimeZone(''), false);
  });
});
