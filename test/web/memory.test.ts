// The memory detail view in Debian's Chromium against a real `cairn serve`: feedback, supersede and
// tag edits through the REST API, with the page showing what is stored afterwards; 403 as an error
// page for another namespace's memory; hostile text rendered as text; CSRF refusals from the
// browser's own cookie jar; axe-core and phone width; and no login in open loopback mode.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations, launchBrowser, login, makeWebHome, scrollsSideways, screenshot, serveHome, type Served, type WebHome } from '../helpers/browser.js';
import { seedWebHome, XSS_TEXT, type WebSeed } from '../helpers/web-seed.js';

describe('web UI: memory detail (Chromium)', () => {
  let home: WebHome<WebSeed>;
  let server: Served;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const memoryUrl = (id: string, ns = 'work') => `${server.url}/memory/${id}?ns=${ns}`;

  before(async () => {
    home = await makeWebHome(seedWebHome);
    server = await serveHome(home.home);
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
    // Refusals the tests provoke (400, 401, 403, 404, 409) are logged by Chromium as failed loads.
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 40[01349]/.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await login(page, server.url, home.seeded.workToken);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    home?.cleanup();
  });

  /** The memory as the REST API holds it, asked with the bearer token (not through the page). */
  async function stored(id: string): Promise<{ importance: number; tags: string[]; validTo: string | null; supersededBy: string | null }> {
    const res = await fetch(`${server.url}/v1/namespaces/work/memories/${id}`, { headers: { authorization: `Bearer ${home.seeded.allToken}` } });
    assert.equal(res.status, 200);
    return (await res.json()) as never;
  }

  it('shows text, fields and provenance back to the transcript line', async () => {
    const res = await page.goto(memoryUrl(home.seeded.staging));
    assert.ok(res?.headers()['content-security-policy']?.includes("frame-ancestors 'none'"));
    await page.locator('#memory-title').waitFor();
    assert.match((await page.locator('#memory-title').textContent()) ?? '', /staging database to port 5433/);
    const body = (await page.locator('main').textContent()) ?? '';
    assert.match(body, /decision/);
    assert.match(body, /session-1\.jsonl:42/);
    assert.match(body, /session-1/);
    assert.equal(await page.getByTestId('importance').textContent(), '6');
    assert.deepEqual(await axeViolations(page), [], 'memory view: no serious or critical axe violations');
    await screenshot(page, 'memory');
  });

  it('feedback changes the importance, on the page and in the store', async () => {
    await page.goto(memoryUrl(home.seeded.staging));
    await page.getByRole('button', { name: 'Important', exact: true }).click();
    await page.getByText('Marked important.').waitFor();
    await page.getByTestId('importance').filter({ hasText: '8' }).waitFor();
    assert.equal((await stored(home.seeded.staging)).importance, 8);
    await page.getByRole('button', { name: 'Not important' }).click();
    await page.getByText('Marked not important.').waitFor();
    await page.getByTestId('importance').filter({ hasText: '3' }).waitFor();
    assert.equal((await stored(home.seeded.staging)).importance, 3);
  });

  it('edits tags (cleaned by the API) and shows the stored list', async () => {
    await page.goto(memoryUrl(home.seeded.deploy));
    await page.getByLabel('Tags (comma-separated)').fill('release, ops, release, ');
    await page.getByRole('button', { name: 'Save tags' }).click();
    await page.getByText('Tags saved.').waitFor();
    assert.equal(await page.getByTestId('tags').textContent(), 'release ops ');
    assert.deepEqual((await stored(home.seeded.deploy)).tags, ['release', 'ops']);
    await page.getByLabel('Tags (comma-separated)').fill('x'.repeat(80));
    await page.getByRole('button', { name: 'Save tags' }).click();
    await page.getByRole('alert').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /400/);
    assert.deepEqual((await stored(home.seeded.deploy)).tags, ['release', 'ops'], 'a refused edit changes nothing');
  });

  it('supersedes with a new text and links the history both ways', async () => {
    await page.goto(memoryUrl(home.seeded.deploy));
    await page.getByLabel('Replace with a newer statement').fill('Deploys go out on Wednesdays after the standup');
    await page.getByRole('button', { name: 'Supersede' }).click();
    await page.getByText('Superseded: this is the new version.').waitFor();
    assert.match((await page.locator('#memory-title').textContent()) ?? '', /Wednesdays/);
    const newId = new URL(page.url()).pathname.split('/').pop()!;
    assert.notEqual(newId, home.seeded.deploy);
    assert.equal((await stored(home.seeded.deploy)).supersededBy, newId);
    const history = page.locator('.history li');
    assert.equal(await history.count(), 2);
    await page.getByRole('link', { name: 'the older version' }).click();
    await page.waitForURL(new RegExp(home.seeded.deploy));
    await page.getByText(/superseded by/).waitFor();
    assert.match((await page.locator('main').textContent()) ?? '', /This version was superseded/);
    await page.getByRole('link', { name: 'the newer version' }).click();
    await page.waitForURL(new RegExp(newId));
    await screenshot(page, 'memory-history');
  });

  it("another namespace's memory is a 403 error page, not a blank one", async () => {
    await page.goto(memoryUrl(home.seeded.privateId, 'private'));
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /Not allowed \(403\)/);
    assert.match((await alert.textContent()) ?? '', /not granted namespace "private"/);
    assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /private namespace keeps/);
    await screenshot(page, 'forbidden');
  });

  it('renders hostile memory text as text: no script runs, no element is injected', async () => {
    await page.goto(memoryUrl(home.seeded.xss));
    await page.locator('#memory-title').waitFor();
    assert.equal(await page.locator('#memory-title').textContent(), XSS_TEXT);
    assert.equal(await page.locator('main img, main script').count(), 0);
    await page.goto(`${server.url}/?ns=work&q=${encodeURIComponent('stored as text')}`);
    await page.locator('.result').first().waitFor();
    assert.match((await page.locator('.result').first().textContent()) ?? '', /<script>window\.__xss = 1<\/script>/);
    assert.equal(await page.locator('main img, main script').count(), 0);
    assert.equal(await page.evaluate(() => (globalThis as { __xss?: number }).__xss), undefined);
  });

  it("refuses a state change with the browser's cookie but without the CSRF token, or from a foreign Origin", async () => {
    await page.goto(memoryUrl(home.seeded.staging));
    await page.locator('#memory-title').waitFor();
    const before = (await stored(home.seeded.staging)).importance;
    const path = `/v1/namespaces/work/memories/${home.seeded.staging}/feedback`;
    const noToken = await page.evaluate(async (p) => (await fetch(p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"important":true}' })).status, path);
    assert.equal(noToken, 403);
    const csrf = await page.evaluate(() => document.querySelector<HTMLMetaElement>('meta[name="cairn-csrf"]')!.content);
    const foreign = await context.request.post(server.url + path, { headers: { origin: 'http://evil.example', 'x-cairn-csrf': csrf, 'content-type': 'application/json' }, data: { important: true } });
    assert.equal(foreign.status(), 403);
    assert.equal((await stored(home.seeded.staging)).importance, before, 'nothing changed');
  });

  it('fits a 390 px wide phone screen without sideways scrolling', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      await phone.addCookies(await context.cookies());
      const p = await phone.newPage();
      await p.goto(memoryUrl(home.seeded.staging));
      await p.locator('#memory-title').waitFor();
      assert.equal(await scrollsSideways(p), false);
      await screenshot(p, 'memory-phone');
    } finally {
      await phone.close();
    }
  });

  it('logs out: the cookie goes and the views ask for a login again', async () => {
    await page.goto(`${server.url}/?ns=work`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    assert.equal((await context.cookies()).some((c) => c.name === 'cairn_session'), false);
    await page.goto(memoryUrl(home.seeded.staging));
    assert.match(page.url(), /\/login\?next=/);
  });

  it('raised no script errors and no CSP violations', () => {
    assert.deepEqual(problems, []);
  });
});

describe('web UI: open loopback mode (Chromium)', () => {
  let home: WebHome<{ id: string }>;
  let server: Served;
  let browser: Browser;
  before(async () => {
    home = await makeWebHome(async (cairn) => ({ id: (await cairn.remember({ namespace: 'default', text: 'No token in this home yet' })).memory.id }));
    server = await serveHome(home.home);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    home?.cleanup();
  });

  it('needs no login on a home without tokens, and has no logout', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/?q=${encodeURIComponent('token home')}`);
    assert.doesNotMatch(page.url(), /login/);
    await page.locator('.result a').first().click();
    await page.locator('#memory-title').waitFor();
    assert.equal(await page.locator('#memory-title').textContent(), 'No token in this home yet');
    assert.equal(await page.getByRole('button', { name: 'Log out' }).count(), 0);
    await page.getByRole('button', { name: 'Important', exact: true }).click();
    await page.getByText('Marked important.').waitFor();
  });
});
