// `cairn purge` and `cairn purge log` through the real CLI (child processes): the literal read from
// stdin so it stays out of the shell's history, a dry run, ids, the namespace scope, the audit,
// exit codes for unclear requests, and no byte of what was purged left under the home.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';
import { assertNowhereOnDisk, filesContaining } from '../helpers/secrets.js';
import { tempDir } from '../helpers/store-fixtures.js';

const newHome = tempHomes();
const LITERAL = 'Kestrel-5512-harbour';

describe('cairn purge', () => {
  it('--text - (stdin), --dry-run first, then the audit; nothing of it is left on disk', async () => {
    const home = newHome();
    ok(await runCli(['store', `The harbour gate code is ${LITERAL}`], { home }));
    ok(await runCli(['state', 'set', '--objective', `open ${LITERAL}`], { home }));
    const outside = tempDir();
    try {
      const chat = join(outside.dir, 'chat.jsonl');
      writeFileSync(chat, JSON.stringify({ role: 'user', content: `note the harbour code ${LITERAL}`, id: 'a1', session: 's', timestamp: '2026-02-01T10:00:00Z' }) + '\n');
      ok(await runCli(['ingest', chat, '-f', 'jsonl'], { home }));
    } finally {
      outside.cleanup();
    }
    assert.ok(filesContaining(home, LITERAL).length > 0);

    const dry = await runCli(['purge', '--text', '-', '--dry-run'], { home, input: `${LITERAL}\n` });
    assert.match(ok(dry), /^Dry run \(nothing was changed\) in namespace default: a literal of 20 characters\n/);
    assert.match(dry.stdout, /would rewrite rows: turns 1, memories 2, hot_state 1/);
    assert.ok(filesContaining(home, LITERAL).length > 0, 'a dry run changes nothing');
    assert.equal(ok(await runCli(['purge', 'log'], { home })).trim(), 'No purges.');

    const report = await cliJson(['purge', '--text', '-', '--json'], { home, input: LITERAL });
    assert.equal(report.dryRun, false);
    assert.deepEqual(report.rule, { kind: 'text', chars: LITERAL.length });
    // The literal reads as a name: the knowledge pass made it an entity, which the purge reaches too.
    assert.deepEqual(report.rewritten, { turns: 1, memories: 2, hot_state: 1, entities: 1, entity_aliases: 1 });
    assert.ok(report.files.includes(join('default', 'SESSION-STATE.md')), report.files.join(', '));
    assert.equal(report.scrubbed, true);
    assertNowhereOnDisk(home, LITERAL, 'the purged literal');

    const log = await cliJson(['purge', 'log', '--json'], { home });
    assert.equal(log.length, 1);
    assert.equal(log[0].id, report.auditId);
    assert.equal(log[0].via, 'cli');
    assert.ok(log[0].finishedAt);
    const human = ok(await runCli(['purge', 'log'], { home }));
    assert.match(human, new RegExp(`^#${report.auditId}  \\S+  via cli  namespace default  a literal of 20 characters: 0 removed, 6 rows rewritten`));
    const search = await cliJson(['search', 'harbour gate code', '--json'], { home });
    assert.match(JSON.stringify(search.results), /\[REDACTED:purged\]/);
  });

  it('--id removes a record, scoped by -n; --all-namespaces reaches every namespace', async () => {
    const home = newHome();
    const a = JSON.parse(ok(await runCli(['-n', 'alpha', 'store', 'alpha remembers the boathouse key', '--json'], { home }))).memory.id as string;
    const b = JSON.parse(ok(await runCli(['-n', 'beta', 'store', 'beta remembers the boathouse key', '--json'], { home }))).memory.id as string;
    const wrongNs = await runCli(['-n', 'alpha', 'purge', '--id', b], { home });
    assert.equal(wrongNs.code, 4, wrongNs.stderr);
    assert.match(wrongNs.stderr, /No record .* in namespace alpha; nothing was purged/);
    const removed = await cliJson(['-n', 'alpha', 'purge', '--id', a, '--json'], { home });
    assert.deepEqual(removed.removed, [{ kind: 'memory', id: a, namespace: 'alpha' }]);
    assert.equal((await runCli(['-n', 'alpha', 'get', a], { home })).code, 4);
    const all = ok(await runCli(['purge', '--all-namespaces', '--text', 'boathouse key'], { home }));
    assert.match(all, /in every namespace: a literal of 13 characters\n  rewrote rows: memories 1/);
    assert.match(JSON.stringify(await cliJson(['-n', 'beta', 'get', b, '--json'], { home })), /\[REDACTED:purged\]/);
    assert.equal((await cliJson(['-n', 'alpha', 'purge', 'log', '--json'], { home })).length, 1, '-n narrows the audit to that namespace');
    assert.equal((await cliJson(['purge', 'log', '--json'], { home })).length, 2);
  });

  it('refuses unclear requests with exit 3 and changes nothing', async () => {
    const home = newHome();
    for (const args of [['purge'], ['purge', '--secrets', '--text', 'abcdef'], ['purge', '--text', 'ab'], ['purge', '--id', 'nope'], ['-n', 'alpha', 'purge', '--all-namespaces', '--secrets']]) {
      const res = await runCli(args, { home });
      assert.equal(res.code, 3, `${args.join(' ')}: ${res.stderr}`);
      assert.doesNotMatch(res.stderr, /\n\s+at /);
    }
    assert.equal(ok(await runCli(['purge', 'log'], { home })).trim(), 'No purges.');
  });
});
