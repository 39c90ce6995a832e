// `cairn state`, `cairn context` and `cairn tokens` through the real built CLI, each test with its
// own home and no embedder (BM25 only, no model load).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';

const home = tempHomes();

describe('cairn state', { concurrency: 2 }, () => {
  test('get on a new home, set with repeatable options, get --json, the file', async () => {
    const h = home();
    const empty = ok(await runCli(['state', 'get'], { home: h }));
    assert.match(empty, /Objective: \(none\)/);
    assert.match(empty, /no state set yet/);

    const set = ok(await runCli(['state', 'set', '--objective', 'Ship the API', '--blocker', 'CI red, again', '--blocker', 'review pending', '--next', 'fix CI', '--notes', 'see PR 12'], { home: h }));
    assert.match(set, /Objective: Ship the API/);
    assert.match(set, /  - CI red, again\n  - review pending/, 'commas stay inside one blocker');
    const state = await cliJson(['state', 'get', '--json'], { home: h });
    assert.equal(state.namespace, 'default');
    assert.equal(state.objective, 'Ship the API');
    assert.deepEqual(state.blockers, ['CI red, again', 'review pending']);
    assert.deepEqual(state.nextActions, ['fix CI']);
    assert.equal(state.notes, 'see PR 12');
    assert.equal(state.file, join(h, 'default', 'SESSION-STATE.md'));
    const file = readFileSync(state.file, 'utf8');
    assert.match(file, /## Blockers\n\n- CI red, again\n- review pending\n/);

    const cleared = await cliJson(['state', 'set', '--clear-blockers', '--objective', '', '--json'], { home: h });
    assert.deepEqual(cleared.blockers, []);
    assert.equal(cleared.objective, null);
    assert.deepEqual(cleared.nextActions, ['fix CI'], 'untouched fields stay');
    assert.deepEqual(readdirSync(join(h, 'default')), ['SESSION-STATE.md']);
  });

  test('namespaces are separate (-n)', async () => {
    const h = home();
    ok(await runCli(['-n', 'proj-a', 'state', 'set', '--objective', 'A work'], { home: h }));
    assert.equal((await cliJson(['-n', 'proj-b', 'state', 'get', '--json'], { home: h })).objective, null);
    assert.equal((await cliJson(['-n', 'proj-a', 'state', 'get', '--json'], { home: h })).objective, 'A work');
    assert.ok(existsSync(join(h, 'proj-a', 'SESSION-STATE.md')));
  });

  test('bad input: exit 3 with a clear message, nothing stored', async () => {
    const h = home();
    const none = await runCli(['state', 'set'], { home: h });
    assert.equal(none.code, 3);
    assert.match(none.stderr, /patch is empty/);
    const long = await runCli(['state', 'set', '--objective', 'x'.repeat(501)], { home: h });
    assert.equal(long.code, 3);
    assert.match(long.stderr, /objective is longer than 500/);
    const both = await runCli(['state', 'set', '--blocker', 'b', '--clear-blockers'], { home: h });
    assert.equal(both.code, 3);
    const json = await runCli(['state', 'set', '--json'], { home: h });
    assert.equal(JSON.parse(json.stderr).error.code, 'INVALID_INPUT');
    assert.equal(existsSync(join(h, 'default')), false);
    assert.equal((await cliJson(['state', 'get', '--json'], { home: h })).updatedAt, null);
  });

  test('write-ahead from the CLI: SESSION-STATE.md unwritable → saved anyway, warning, exit 0', async () => {
    const h = home();
    mkdirSync(join(h, 'default', 'SESSION-STATE.md'), { recursive: true });
    const res = await runCli(['state', 'set', '--objective', 'kept'], { home: h });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stderr, /warning: state saved, but SESSION-STATE\.md was not written/);
    assert.equal((await cliJson(['state', 'get', '--json'], { home: h })).objective, 'kept');
  });
});

describe('cairn context', { concurrency: 2 }, () => {
  test('prints the Markdown brief; --json has sections, sources and a token count within budget', async () => {
    const h = home();
    const empty = ok(await runCli(['context'], { home: h }));
    assert.match(empty, /^# Memory brief: default\n/);
    assert.match(empty, /No hot state or memories yet/);

    ok(await runCli(['state', 'set', '--objective', 'Migrate billing'], { home: h }));
    ok(await runCli(['store', '--importance', '9', '--category', 'decision', 'Never deploy billing on Fridays'], { home: h }));
    ok(await runCli(['store', 'The staging database listens on port 5433'], { home: h }));
    const text = ok(await runCli(['context'], { home: h }));
    assert.ok(text.indexOf('## Hot state') < text.indexOf('## Important memories'));
    assert.match(text, /- Objective: Migrate billing/);
    assert.match(text, /- Never deploy billing on Fridays \[decision, m_[a-z0-9]+\]/);
    assert.doesNotMatch(text, /Relevant to/);

    const brief = await cliJson(['context', '--query', 'staging port', '--budget-tokens', '120', '--json'], { home: h });
    assert.equal(brief.budgetTokens, 120);
    assert.equal(brief.query, 'staging port');
    assert.ok(brief.usedTokens <= 120);
    assert.equal(brief.usedTokens, countTokens(brief.text));
    assert.match(brief.tokenizer, /o200k_base/);
    for (const item of brief.sections.flatMap((s: { items: unknown[] }) => s.items)) assert.ok(item.source, JSON.stringify(item));
  });

  test('a bad budget is a usage error', async () => {
    const h = home();
    for (const b of ['49', '20001', 'lots']) {
      const res = await runCli(['context', '--budget-tokens', b], { home: h });
      assert.notEqual(res.code, 0);
      assert.match(res.stderr, /budget-tokens/);
    }
  });
});

describe('cairn tokens', { concurrency: 2 }, () => {
  test('create prints the token once with a warning; list never shows it; revoke', async () => {
    const h = home();
    assert.match(ok(await runCli(['tokens', 'list'], { home: h })), /No tokens/);
    const created = await runCli(['tokens', 'create', '--grant', 'alpha', '--grant', 'beta', '--label', 'ci bot'], { home: h });
    const out = ok(created);
    const token = out.split('\n')[0]!;
    assert.match(token, /^cairn_[A-Za-z0-9_-]{43}$/);
    assert.match(created.stderr, /shown only once; store it now/);
    assert.match(out, /grants alpha, beta, label "ci bot"/);
    const id = /id (tok_[A-Za-z0-9_-]+)/.exec(out)![1]!;

    const listed = ok(await runCli(['tokens', 'list'], { home: h }));
    assert.match(listed, new RegExp(`${id}  alpha,beta`));
    assert.ok(!listed.includes(token));
    const listJson = await cliJson(['tokens', 'list', '--json'], { home: h });
    assert.deepEqual(listJson.map((t: { id: string }) => t.id), [id]);
    assert.ok(!JSON.stringify(listJson).includes(token));
    const db = readdirSync(h).filter((f) => f.startsWith('cairn.db')).map((f) => readFileSync(join(h, f)).toString('latin1')).join('');
    assert.ok(!db.includes(token), 'the token is not on disk');

    const all = await cliJson(['tokens', 'create', '--grant', '*', '--json'], { home: h });
    assert.deepEqual(all.info.namespaces, ['*']);
    assert.match(all.token, /^cairn_/);

    assert.match(ok(await runCli(['tokens', 'revoke', id], { home: h })), new RegExp(`Revoked ${id}`));
    const again = await runCli(['tokens', 'revoke', id], { home: h });
    assert.equal(again.code, 4);
    assert.deepEqual((await cliJson(['tokens', 'list', '--json'], { home: h })).map((t: { id: string }) => t.id), [all.info.id]);
  });

  test('-n grants its namespace when no --grant is given; no grant at all is refused', async () => {
    const h = home();
    const viaNs = await cliJson(['-n', 'proj', 'tokens', 'create', '--json'], { home: h });
    assert.deepEqual(viaNs.info.namespaces, ['proj']);
    const none = await runCli(['tokens', 'create'], { home: h });
    assert.equal(none.code, 3);
    assert.match(none.stderr, /--grant/);
    const bad = await runCli(['tokens', 'create', '--grant', '../etc'], { home: h });
    assert.equal(bad.code, 3);
    assert.equal((await cliJson(['tokens', 'list', '--json'], { home: h })).length, 1);
  });
});
