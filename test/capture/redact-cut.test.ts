// Issue 30 item 4: every cap in capture redacts before it cuts. A tool result excerpt (300
// characters), a tool call summary (120), a turn over 20,000 characters, a Markdown chunk and an
// issue's quote of a bad value used to be cut first, leaving a key's prefix that no pattern
// recognises (`TOKEN=sk_live_k7jqev…`, `echo ghp_53xo9…`). Real transcript lines go through the
// parsers and ingest into a real SQLite store; what is stored holds no part of a secret, and the
// redactions made at a cut are counted.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestFile, type IngestReport } from '../../src/capture/ingest-file.js';
import { syncMarkdown } from '../../src/capture/markdown/sync.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Turn } from '../../src/core/types.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { Gen, jwt } from './fixtures/redaction-corpus.js';

const NS = 'cut';
const tmp = tempDir('cairn-redact-cut-');
after(() => tmp.cleanup());
let n = 0;
const jl = (value: unknown): string => JSON.stringify(value) + '\n';
const T0 = '2026-03-02T09:14:05.000Z';

async function ingestLines(format: string, lines: string): Promise<{ report: IngestReport; turns: Turn[] }> {
  const dir = join(tmp.dir, `case-${n++}`);
  mkdirSync(dir);
  const store = new SqliteStore(join(dir, 'cairn.db'));
  const path = join(dir, 'session.jsonl');
  writeFileSync(path, lines);
  const source = await store.addSource(NS, format, path);
  const report = await ingestFile(store, { path, format, namespace: NS, sourceId: source.id, final: true });
  const seqs = await store.filterEntries(NS, { kinds: ['turn'] }, 1000);
  const entries = await store.getEntries(NS, seqs);
  const turns = (await Promise.all(entries.map((e) => store.getTurn(NS, e.refId)))).filter((t): t is Turn => t !== null);
  await store.close();
  return { report, turns: turns.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
}

/** Every prefix of `secret` from `min` characters on: none may appear anywhere. */
function assertNoPrefix(haystack: string, secret: string, min = 10): void {
  assert.ok(!haystack.includes(secret.slice(0, min)), `a prefix of ${secret.slice(0, min)}… survived in: ${haystack.slice(0, 400)}`);
}

function openClaw(...records: unknown[]): string {
  return jl({ type: 'session', version: 3, id: 'oc-cut', timestamp: T0, cwd: '/srv/app' }) + records.map(jl).join('');
}

describe('redact before cut (issue 30 item 4)', () => {
  it('an OpenClaw tool result excerpt cut inside a key keeps no prefix of it, and counts it', async () => {
    const key = 'sk_live_' + new Gen(1).b62(24);
    const output = `${'deploy step ok; '.repeat(17)}status: ok TOKEN=${key}\nmore output follows here`;
    assert.equal(output.indexOf(key), 289, 'fixture: the 300-char cut keeps `sk_live_` and two characters');
    const { turns } = await ingestLines('openclaw', openClaw(
      { type: 'message', id: 'a1', parentId: null, timestamp: T0, message: { role: 'toolResult', toolCallId: 'c1', toolName: 'exec', content: [{ type: 'text', text: output }], isError: false } },
    ));
    assert.equal(turns.length, 1);
    const text = turns[0]!.text;
    // The marker would cross the cut, so the excerpt ends before it.
    assert.ok(text.startsWith('← exec: deploy step ok;') && text.endsWith('status: ok TOKEN=…'), text);
    assertNoPrefix(JSON.stringify(turns), key, 8);
    assert.deepEqual(turns[0]!.meta.redactions, { 'stripe-key': 1 });
  });

  it('a Claude Code Bash summary cut inside a key keeps no prefix of it; a -p password is redacted whole', async () => {
    const gh = 'ghp_' + new Gen(2).b62(36);
    const command = `cd /srv/app && ${'x'.repeat(93)} && echo ${gh} > ~/.token`;
    assert.ok(command.indexOf(gh) < 120 && command.indexOf(gh) + gh.length > 120, 'fixture: the 120-char cut falls inside the key');
    const pw = 'S3cret-Pass!word';
    const line = (uuid: string, message: unknown, type = 'assistant') => jl({ type, uuid, sessionId: 'cc-cut', timestamp: T0, cwd: '/srv/app', message });
    const { turns } = await ingestLines('claude-code',
      line('u1', { id: 'msg_1', model: 'claude-opus-4-6', role: 'assistant', content: [
        { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command } },
        { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: `mysql -u root -p${pw} app -e "select 1"` } },
      ] }) + line('u2', { role: 'user', content: 'thanks' }, 'user'),
    );
    const summary = turns.find((t) => t.role === 'assistant')!;
    assert.match(summary.text, /^→ tool Bash cd \/srv\/app && x+ && echo…\n→ tool Bash mysql -u root -p\[REDACTED:password\] app/);
    assertNoPrefix(JSON.stringify(turns), gh, 8);
    assert.ok(!JSON.stringify(turns).includes(pw));
    assert.deepEqual(summary.meta.redactions, { 'github-token': 1, password: 1 });
  });

  it('a turn over 20,000 characters cut inside a JWT keeps no prefix of it', async () => {
    const token = jwt(new Gen(3));
    const content = `${'word '.repeat(3990)}${token} and the rest of a very long paste ${'tail '.repeat(200)}`;
    assert.ok(content.indexOf(token) < 19_960 && content.indexOf(token) + token.length > 19_975, 'fixture: the turn cut falls inside the JWT');
    const { turns } = await ingestLines('jsonl', jl({ role: 'user', content, id: 'long-1' }));
    assert.equal(turns.length, 1);
    assert.ok(turns[0]!.text.length <= 20_000 && turns[0]!.text.endsWith(`…[truncated from ${content.length} chars]`));
    assertNoPrefix(turns[0]!.text, token, 12);
    assert.deepEqual(turns[0]!.meta.redactions, { jwt: 1 });
  });

  it("an issue's quote of a bad value keeps no prefix of a key", async () => {
    const gh = 'ghp_' + new Gen(4).b62(36);
    const { report } = await ingestLines('jsonl', jl({ role: 'user', content: 'hi', id: 'm1', timestamp: `${'x'.repeat(33)}${gh}` }));
    assert.equal(report.issues.length, 1);
    assert.match(report.issues[0]!.reason, /^invalid timestamp "x+"; used fallback$/);
    assertNoPrefix(JSON.stringify(report.issues), gh, 6);
  });

  it('a Markdown note is redacted whole before it is chunked', async () => {
    const key = 'sk-proj-' + new Gen(5).b64url(300);
    const dir = join(tmp.dir, `md-${n++}`);
    mkdirSync(join(dir, 'vault'), { recursive: true });
    writeFileSync(join(dir, 'vault', 'MEMORY.md'), `# Keys\n\nThe staging key, kept here for now: ${key} (rotate soon)\n`);
    const store = new SqliteStore(join(dir, 'cairn.db'));
    const report = await syncMarkdown(store, { root: join(dir, 'vault'), namespace: NS, sourceId: null, maxChars: 120 });
    const entries = await store.getEntries(NS, await store.filterEntries(NS, { kinds: ['document'] }, 100));
    await store.close();
    const all = entries.map((e) => e.text).join('\n');
    assert.ok(entries.length >= 1 && all.includes('[REDACTED:openai-key]'), all);
    for (const piece of [key.slice(0, 40), key.slice(120, 160), key.slice(-40)]) assert.ok(!all.includes(piece), `part of the key landed: ${piece}`);
    assert.deepEqual(report.redactions, { 'openai-key': 1 });
  });
});
