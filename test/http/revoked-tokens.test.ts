// Revoking a home's last API token must not reopen token-less access (issue 30 item 14). Once a
// home has had a token, `cairn serve` keeps requiring one after every token is revoked, unless the
// user starts it with `--no-auth`. Everything runs through the real built CLI: tokens are created
// and revoked with `cairn tokens`, and requests go to a real `cairn serve` on loopback.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';
import { get, serve } from '../helpers/serve.js';

const home = tempHomes();

const MEMORIES = '/v1/namespaces/team/memories';
const SECRET_FACT = 'The vault combination lives in the blue binder';

/** A home that had one token, granted "team", with one memory stored; the token is revoked. */
async function homeWithRevokedToken(): Promise<{ dir: string; token: string; id: string }> {
  const dir = home();
  ok(await runCli(['-n', 'team', 'store', SECRET_FACT], { home: dir }));
  const created = await cliJson<{ token: string; info: { id: string } }>(['tokens', 'create', '--grant', 'team', '--json'], { home: dir });
  ok(await runCli(['tokens', 'revoke', created.info.id], { home: dir }));
  return { dir, token: created.token, id: created.info.id };
}

describe('revoking the last token (issue 30 item 14)', () => {
  test('revoking the last token while the server runs keeps token-less requests refused (401, no memories)', async () => {
    const dir = home();
    ok(await runCli(['-n', 'team', 'store', SECRET_FACT], { home: dir }));
    const created = await cliJson<{ token: string; info: { id: string } }>(['tokens', 'create', '--grant', 'team', '--json'], { home: dir });
    const server = await serve(dir);
    try {
      assert.equal((await get(server.url, MEMORIES, created.token)).status, 200);
      assert.equal((await get(server.url, MEMORIES)).status, 401);
      ok(await runCli(['tokens', 'revoke', created.info.id], { home: dir }));
      const after = await get(server.url, MEMORIES);
      assert.equal(after.status, 401, after.text);
      assert.doesNotMatch(after.text, /vault combination/);
      assert.match(after.text, /--no-auth/, 'the refusal says how to choose token-less access');
      assert.equal((await get(server.url, MEMORIES, created.token)).status, 401, 'the revoked token itself is refused');
    } finally {
      await server.stop();
    }
  });

  test('a server started after the last token was revoked still requires a token, and says so', async () => {
    const { dir } = await homeWithRevokedToken();
    const server = await serve(dir);
    try {
      const res = await get(server.url, MEMORIES);
      assert.equal(res.status, 401, res.text);
      assert.doesNotMatch(res.text, /vault combination/);
      assert.equal((await get(server.url, '/v1/status')).status, 401);
      assert.doesNotMatch(server.stdout(), /accepted without one/);
      assert.match(server.stdout(), /revoked/);
    } finally {
      await server.stop();
    }
  });

  test('`cairn serve --no-auth` is the explicit choice: token-less requests from this machine work again', async () => {
    const { dir, token } = await homeWithRevokedToken();
    const server = await serve(dir, ['--no-auth']);
    try {
      const res = await get(server.url, MEMORIES);
      assert.equal(res.status, 200, res.text);
      assert.match(res.text, /vault combination/);
      assert.equal((await get(server.url, MEMORIES, token)).status, 401, 'a presented revoked token is still verified and refused');
      // Creating a token ends token-less access at once, as it does for a home that never had one.
      const fresh = await cliJson<{ token: string }>(['tokens', 'create', '--grant', 'team', '--json'], { home: dir });
      assert.equal((await get(server.url, MEMORIES)).status, 401);
      assert.equal((await get(server.url, MEMORIES, fresh.token)).status, 200);
    } finally {
      await server.stop();
    }
  });

  test('a home that never had a token keeps its token-less local mode without --no-auth', async () => {
    const dir = home();
    ok(await runCli(['-n', 'team', 'store', SECRET_FACT], { home: dir }));
    const server = await serve(dir);
    try {
      const res = await get(server.url, MEMORIES);
      assert.equal(res.status, 200, res.text);
      assert.match(server.stdout(), /No API token exists/);
    } finally {
      await server.stop();
    }
  });

  test('--no-auth is refused on a non-loopback address and while an active token exists', async () => {
    const { dir } = await homeWithRevokedToken();
    const wide = await runCli(['serve', '--no-auth', '--host', '0.0.0.0', '--port', '0'], { home: dir });
    assert.equal(wide.code, 6, wide.stderr);
    assert.match(wide.stderr, /--no-auth/);
    assert.doesNotMatch(wide.stdout, /listening/i);
    ok(await runCli(['tokens', 'create', '--grant', 'team'], { home: dir }));
    const active = await runCli(['serve', '--no-auth', '--port', '0'], { home: dir });
    assert.equal(active.code, 6, active.stderr);
    assert.match(active.stderr, /active token/);
    assert.doesNotMatch(active.stdout, /listening/i);
  });
});
