// The browsing routes on a loopback server, over a home made by real capture, judging and
// consolidation: the timeline files the 23:30 and 02:00 turns under the day their night started,
// the layers list and render safely with citation links that resolve, the health view shows the
// source's figures without the secret, the entity graph links entities named together, every
// route refuses bad input with a 400 and another namespace with a 403.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { loopbackServer, send } from '../helpers/http-loopback.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { NIGHT_DAY, seedBrowseHome, WORK_NS } from '../helpers/browse-seed.js';
import { OPENAI_KEY } from '../helpers/secrets.js';

const W = `/v1/namespaces/${WORK_NS}`;
const D = '/v1/namespaces/default';

const HOSTILE = [
  '# Hostile <script>alert(1)</script>',
  '',
  '<script>alert("block")</script>',
  '',
  '<div onmouseover="alert(2)">raw block</div>',
  '',
  '- [js](javascript:alert(3)) [JS](JaVaScRiPt:alert(4)) [data](data:text/html;base64,PHNjcmlwdD4=) [proto](//evil.example/x)',
  '- [abs](/v1/namespaces/other/memories) [file](file:///etc/passwd) [up](../../../etc/passwd) [vb](vbscript:msgbox(1))',
  '- <img src=x onerror=alert(5)> ![img](http://evil.example/pixel.png) <javascript:alert(6)>',
  '- [ok](https://example.org/a?b=1) [sibling](../daily/2026-03-02.md) cites `m_nothere` and `t_nothere` and `rm -rf /`',
  '- "quotes" & <b>bold</b> `<script>` [x](https://example.org/"onmouseover="alert(7))',
].join('\n');

describe('REST browsing routes (timeline, turns, layers, health, graph)', () => {
  const tmp = tempDir('cairn-http-browse-');
  let cairn: Cairn;
  let server: Awaited<ReturnType<typeof loopbackServer>>;
  before(async () => {
    const home = join(tmp.dir, 'home');
    await seedBrowseHome(home);
    cairn = await Cairn.open({ home, embedder: null });
    await cairn.store.putDigest({
      namespace: WORK_NS, kind: 'topic', path: 'topics/hostile.md', periodStart: '2026-03-02T06:00:00.000Z', periodEnd: '2026-03-03T06:00:00.000Z',
      text: HOSTILE, sections: [{ heading: '', text: HOSTILE, sources: [] }], inputsHash: 'hostile', generator: 'test',
    });
    server = await loopbackServer(cairn);
  });
  after(async () => {
    await server?.close();
    await cairn?.close();
    tmp.cleanup();
  });

  it('timeline: the 23:30 and 02:00 turns sit in the night of the day it started, with the windows and the ranges around', async () => {
    const res = await send(server.base, 'GET', `${W}/timeline?from=${NIGHT_DAY}&to=2026-03-03`);
    assert.equal(res.status, 200, res.text);
    const [first, second] = res.body.days;
    assert.deepEqual(res.body.days.map((d: { day: string }) => d.day), [NIGHT_DAY, '2026-03-03']);
    assert.deepEqual(first.windows.night, { start: '2026-03-02T21:00:00.000Z', end: '2026-03-03T06:00:00.000Z' }, '22:00–07:00 Berlin');
    const night = first.items.filter((i: { part: string }) => i.part === 'night');
    const turns = night.filter((i: { kind: string }) => i.kind === 'turn');
    assert.deepEqual(turns.map((i: { localDay: string; localTime: string }) => `${i.localDay} ${i.localTime}`), ['2026-03-02 23:30', '2026-03-03 02:00']);
    assert.match(turns[1].text, /30 second heartbeat/);
    assert.ok(turns.every((t: { related: string[] }) => t.related.length === 1 && t.related[0]!.startsWith('m_')), 'each night turn became a memory');
    assert.ok(!second.items.some((i: { text: string }) => /heartbeat/.test(i.text)), 'the 02:00 turn is not under the 3rd');
    assert.equal(first.counts.night, night.length);
    assert.deepEqual(res.body.previous, { from: '2026-02-28', to: '2026-03-01' });
    assert.deepEqual(res.body.next, { from: '2026-03-04', to: '2026-03-05' });
    assert.equal(res.body.truncated, false);
    const cut = await send(server.base, 'GET', `${W}/timeline?from=${NIGHT_DAY}&to=${NIGHT_DAY}&limit=2`);
    assert.equal(cut.body.truncated, true);
    assert.equal(cut.body.days[0].items.length, 2);
    const empty = await send(server.base, 'GET', `${W}/timeline?from=2020-01-01&to=2020-01-03`);
    assert.deepEqual(empty.body.days.map((d: { items: unknown[] }) => d.items.length), [0, 0, 0]);
    const secret = await send(server.base, 'GET', `${W}/timeline?from=2026-03-04&to=2026-03-04`);
    assert.ok(!secret.text.includes(OPENAI_KEY) && secret.text.includes('[REDACTED:openai-key]'), 'the secret was redacted at capture');
  });

  it('turns/:id: the turn with its transcript line, its logical day and the memories made from it', async () => {
    const tl = await send(server.base, 'GET', `${W}/timeline?from=${NIGHT_DAY}&to=${NIGHT_DAY}`);
    const late = tl.body.days[0].items.find((i: { kind: string; localTime: string }) => i.kind === 'turn' && i.localTime === '02:00');
    const res = await send(server.base, 'GET', `${W}/turns/${late.id}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.placed, { day: NIGHT_DAY, part: 'night' });
    assert.deepEqual(res.body.memories, late.related);
    assert.equal(typeof res.body.line, 'number');
    assert.equal((await send(server.base, 'GET', `${D}/turns/${late.id}`)).status, 404, 'another namespace does not see it');
    assert.equal((await send(server.base, 'GET', `${W}/turns/t_nothere0000000000000`)).status, 404);
  });

  it('layers: the pyramid listed top first, newest first per kind; one file rendered with citation links that resolve', async () => {
    const list = await send(server.base, 'GET', `${W}/layers`);
    assert.equal(list.status, 200, list.text);
    const paths: string[] = list.body.layers.map((l: { path: string }) => l.path);
    assert.equal(paths[0], 'MEMORY.md');
    for (const p of ['weekly/2026-W10.md', 'reviews/2026-03-02.md', 'daily/2026-03-02.md', 'daily/2026-03-02-last-night.md']) assert.ok(paths.includes(p), p);
    assert.ok(paths.indexOf('reviews/2026-03-05.md') < paths.indexOf('reviews/2026-03-02.md'), 'newest first');
    const life = await send(server.base, 'GET', `${D}/layers`);
    const lifePaths: string[] = life.body.layers.filter((l: { kind: string }) => l.kind === 'life' || l.kind === 'entity').map((l: { path: string }) => l.path);
    assert.equal(lifePaths[0], 'life/index.md', 'the life/ pages (PARA) are listed, the index first');
    assert.ok(lifePaths.some((p) => /^life\/[a-z]+\/bob\/summary\.md$/.test(p)), `an entity page: ${lifePaths}`);
    assert.deepEqual(lifePaths.slice(1), [...lifePaths.slice(1)].sort(), 'entity pages by drawer, then name');
    const entities = await send(server.base, 'GET', `${D}/layers?kind=entity`);
    assert.ok(entities.body.layers.length >= 1 && entities.body.layers.every((l: { kind: string }) => l.kind === 'entity'));
    const nights = await send(server.base, 'GET', `${W}/layers?kind=night&limit=1`);
    assert.deepEqual(nights.body.layers.map((l: { path: string }) => l.path), ['daily/2026-03-02-last-night.md']);

    const night = await send(server.base, 'GET', `${W}/layers/file?path=${encodeURIComponent('daily/2026-03-02-last-night.md')}`);
    assert.equal(night.status, 200, night.text);
    assert.match(night.body.html, /30 second heartbeat/);
    assert.ok(night.body.citations.length >= 2);
    for (const c of night.body.citations) {
      assert.ok(night.body.html.includes(`href="${c.href.replaceAll('&', '&amp;')}"`), `${c.id} is a link`);
      if (c.kind === 'memory') {
        assert.equal(c.href, `/memory/${c.id}?ns=${WORK_NS}`);
        assert.equal((await send(server.base, 'GET', `${W}/memories/${c.id}`)).status, 200, `${c.id} resolves`);
      } else {
        assert.match(c.href, new RegExp(`^/timeline\\?ns=${WORK_NS}&from=${NIGHT_DAY}&to=${NIGHT_DAY}&item=${c.id}$`), 'a turn opens on the day its night started');
        assert.equal((await send(server.base, 'GET', `${W}/turns/${c.id}`)).status, 200, `${c.id} resolves`);
      }
    }
    const top = await send(server.base, 'GET', `${W}/layers/file?path=MEMORY.md`);
    assert.match(top.body.html, /href="\/layers\?ns=work&amp;path=weekly%2F2026-W10\.md"/, 'a sibling layer opens in the layers view');
    assert.doesNotMatch(top.body.html, /href="raw\//, 'a link to a folder the UI does not show is text');
  });

  it('layers: hostile Markdown renders as inert HTML (no raw HTML, no script or javascript: links, no images)', async () => {
    const res = await send(server.base, 'GET', `${W}/layers/file?path=topics/hostile.md`);
    assert.equal(res.status, 200, res.text);
    const html: string = res.body.html;
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /<(img|div|b)\b/i, 'no raw tags');
    assert.doesNotMatch(html, /<[^>]*\son\w+=/i, 'no event handler attribute in a tag');
    assert.doesNotMatch(html, /href="(?!\/(memory|timeline|layers)[/?]|https?:\/\/)/, 'every link goes into the UI or to http(s)');
    assert.doesNotMatch(html, /href="[^"]*(?:javascript|vbscript|data|file):/i);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/, 'the raw tag is shown as text');
    assert.match(html, /<a href="https:\/\/example\.org\/a\?b=1" rel="noopener noreferrer">ok<\/a>/);
    assert.match(html, /<a href="\/layers\?ns=work&amp;path=daily%2F2026-03-02\.md">sibling<\/a>/);
    assert.match(html, /<a class="cite" href="\/memory\/m_nothere\?ns=work"><code>m_nothere<\/code><\/a>/);
    assert.match(html, /<code>rm -rf \/<\/code>/, 'code that is no id stays code');
    assert.match(html, /<code>&lt;script&gt;<\/code>/);
    assert.doesNotMatch(html, /href="\/v1\//, 'an absolute path out of the UI is no link');
  });

  it('health: the source figures (turns, malformed, secrets redacted), judge, activity per day, importance and the reviews\' mood', async () => {
    const res = await send(server.base, 'GET', `${W}/health?days=5&to=2026-03-05`);
    assert.equal(res.status, 200, res.text);
    const h = res.body;
    assert.equal(h.sources.length, 1);
    const [s] = h.sources;
    assert.equal(s.kind, 'jsonl');
    assert.equal(s.turns, 16, 'every line but the malformed one');
    assert.equal(s.malformed, 1);
    assert.deepEqual(s.redactionsByKind, { 'openai-key': 1 });
    assert.equal(s.errors, 0);
    assert.equal(h.daemon.running, false);
    assert.equal(h.judge.mode, 'heuristic');
    assert.equal(h.judge.pending, 0);
    assert.deepEqual(h.activity.map((a: { day: string }) => a.day), ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']);
    assert.deepEqual(h.activity.map((a: { turns: number }) => a.turns), [0, 6, 2, 6, 2], 'the night turns count for the 2nd');
    assert.equal(h.importance.length, 10);
    assert.equal(h.importance.reduce((n: number, b: { memories: number }) => n + b.memories, 0), h.counts.currentMemories);
    const moody = h.reviews.find((r: { day: string }) => r.day === '2026-03-04');
    assert.equal(moody.lean, 'frustrated');
    assert.match(moody.mood, /^mostly frustrated/);
    assert.doesNotMatch(moody.mood, /`/, 'citations are left out');
    assert.ok(h.reviews.find((r: { day: string }) => r.day === NIGHT_DAY).activities.some((a: { name: string }) => a.name === 'Decisions'));
    assert.ok(!res.text.includes(OPENAI_KEY));
    const other = await send(server.base, 'GET', `${D}/health`);
    assert.deepEqual(other.body.sources, [], 'the work source is not shown to another namespace');
  });

  it('graph: the entities with an edge per pair named by the same memories, bounded by limit', async () => {
    const res = await send(server.base, 'GET', `${D}/graph`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.nodes.map((n: { id: string }) => n.id).sort(), ['e_ana', 'e_bob', 'e_cairn', 'e_staging']);
    const edges = res.body.edges.map((e: { source: string; target: string; memories: number }) => `${e.source}-${e.target}:${e.memories}`).sort();
    assert.deepEqual(edges, ['e_ana-e_cairn:1', 'e_ana-e_staging:1', 'e_bob-e_cairn:1']);
    const two = await send(server.base, 'GET', `${D}/graph?limit=2`);
    assert.equal(two.body.nodes.length, 2);
    assert.equal(two.body.truncated, true);
    assert.ok(two.body.edges.every((e: { source: string; target: string }) => two.body.nodes.some((n: { id: string }) => n.id === e.source) && two.body.nodes.some((n: { id: string }) => n.id === e.target)));
    const promoted = await send(server.base, 'GET', `${D}/graph?promoted=true`);
    assert.ok(!promoted.body.nodes.some((n: { id: string }) => n.id === 'e_staging'));
  });

  it('entities/:id/summary: the life/ page consolidation wrote, rendered with citation links; 404 before there is one', async () => {
    const bob = await send(server.base, 'GET', `${D}/entities/Bob/summary`);
    assert.equal(bob.status, 200, bob.text);
    assert.match(bob.body.path, /^life\/(projects|areas|resources|archives)\/bob\/summary\.md$/);
    assert.match(bob.body.html, /your manager/);
    assert.ok(bob.body.citations.some((c: { href: string }) => c.href.startsWith('/memory/m_')));
    assert.equal((await send(server.base, 'GET', `${D}/layers/file?path=${encodeURIComponent(bob.body.path)}`)).status, 200, 'the same page through the layers');
    const candidate = await send(server.base, 'GET', `${D}/entities/e_staging/summary`);
    assert.equal(candidate.status, 404, 'a candidate has no life/ page');
    assert.equal((await send(server.base, 'GET', `${D}/entities/nobody/summary`)).status, 404);
    assert.equal((await send(server.base, 'GET', `${W}/entities/Bob/summary`)).status, 404, 'another namespace does not see it');
  });

  it('bad input is a 400 with a JSON error, never a 500: malformed, empty, oversized, hostile, unknown', async () => {
    const cases: Array<[string, number]> = [
      [`${W}/timeline?from=2026-03-05&to=2026-03-01`, 400],
      [`${W}/timeline?from=2026-01-01&to=2026-03-01`, 400],
      [`${W}/timeline?from=2026-02-30`, 400],
      [`${W}/timeline?from=yesterday`, 400],
      [`${W}/timeline?from=`, 400],
      [`${W}/timeline?limit=0`, 400],
      [`${W}/timeline?limit=99999999`, 400],
      [`${W}/timeline?from=2026-03-01&from=2026-03-02`, 400],
      [`${W}/timeline?color=red`, 400],
      [`${W}/turns/not-an-id`, 400],
      [`${W}/layers?kind=person`, 400],
      [`${W}/layers?limit=-1`, 400],
      [`${W}/layers/file`, 400],
      [`${W}/layers/file?path=`, 400],
      [`${W}/layers/file?path=${encodeURIComponent('../config.json')}`, 400],
      [`${W}/layers/file?path=${encodeURIComponent('daily/../../cairn.db')}`, 400],
      [`${W}/layers/file?path=${encodeURIComponent('/etc/passwd')}`, 400],
      [`${W}/layers/file?path=${encodeURIComponent('SESSION-STATE.md')}`, 400],
      [`${W}/layers/file?path=${encodeURIComponent('daily/2026-03-02.md\0')}`, 400],
      [`${W}/layers/file?path=${'a'.repeat(5000)}.md`, 400],
      [`${W}/layers/file?path=daily/2020-01-01.md`, 404],
      [`${W}/health?days=0`, 400],
      [`${W}/health?days=91`, 400],
      [`${W}/health?to=2026-13-01`, 400],
      [`${D}/graph?limit=301`, 400],
      [`${D}/graph?promoted=maybe`, 400],
      [`${D}/entities/${'x'.repeat(201)}/summary`, 400],
      [`${W}/layers/file?path=${encodeURIComponent('life/secret/x/summary.md')}`, 400],
      ['/v1/namespaces/..%2F/timeline', 400],
      ['/v1/namespaces/BAD%20NS/health', 400],
    ];
    for (const [path, status] of cases) {
      const res = await send(server.base, 'GET', path);
      assert.equal(res.status, status, `${path.slice(0, 90)}: ${res.text.slice(0, 300)}`);
      assert.ok(res.body?.error?.code, `${path.slice(0, 60)}: a JSON error with a code`);
    }
  });

  it('every browsing route is in the OpenAPI document with its response schema', async () => {
    const doc = (await send(server.base, 'GET', '/openapi.json')).body;
    for (const [path, id] of [['timeline', 'timeline'], ['turns/{id}', 'getTurn'], ['layers', 'listLayers'], ['layers/file', 'renderLayer'], ['health', 'namespaceHealth'], ['graph', 'entityGraph'], ['entities/{id}/summary', 'entitySummary']] as const) {
      const op = doc.paths[`/v1/namespaces/{ns}/${path}`]?.get;
      assert.equal(op?.operationId, id, path);
      const ref: string = op.responses['200'].content['application/json'].schema.$ref;
      assert.ok(doc.components.schemas[ref.split('/').pop()!], `${ref} is defined`);
      assert.ok(op.responses['403'], `${path} documents 403`);
    }
  });

  // Last: creating a token ends the token-less loopback mode of this home.
  it('a token granted another namespace gets 403 on every browsing route; no token gets 401', async () => {
    const { token } = await cairn.createToken({ namespaces: ['default'], label: 'default only' });
    for (const path of [`${W}/entities/Bob/summary`, `${W}/timeline`, `${W}/turns/t_nothere0000000000000`, `${W}/layers`, `${W}/layers/file?path=MEMORY.md`, `${W}/health`, `${W}/graph`]) {
      const res = await send(server.base, 'GET', path, undefined, token);
      assert.equal(res.status, 403, `${path}: ${res.text.slice(0, 200)}`);
      assert.equal(res.body.error.code, 'FORBIDDEN');
      assert.ok(!res.text.includes('heartbeat'));
      assert.equal((await send(server.base, 'GET', path)).status, 401);
    }
    assert.equal((await send(server.base, 'GET', `${D}/graph`, undefined, token)).status, 200, 'its own namespace still answers');
  });
});
