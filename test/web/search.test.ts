// The web UI's login and search view in Debian's Chromium against a real `cairn serve`: a wrong then
// a right token, a search from the URL and from the form, provenance and the explain bars, "No good
// match", opening a result by keyboard, phone width, axe-core, and the CSP on every page.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations, launchBrowser, makeWebHome, scrollsSideways, screenshot, serveHome, type Served, type WebHome } from '../helpers/browser.js';
import { seedWebHome, type WebSeed } from '../helpers/web-seed.js';

describe('web UI: login and search (Chromium)', () => {
  let home: WebHome<WebSeed>;
  let server: Served;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    // minConfidence 0.1: a query that only brushes a memory is "no good match" in this small home.
    home = await makeWebHome(seedWebHome, { search: { minConfidence: 0.1 } });
    server = await serveHome(home.home);
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 40[134]/.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    home?.cleanup();
  });

  it('refuses a wrong token with a message, then logs in with the right one', async () => {
    const res = await page.goto(`${server.url}/?ns=work&q=staging`);
    assert.match(page.url(), /\/login\?next=/);
    assert.ok(res?.headers()['content-security-policy']?.includes("default-src 'self'"));
    await page.getByLabel('API token').fill('cairn_not_a_real_token');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /not valid/);
    assert.deepEqual(await axeViolations(page), [], 'login page: no serious or critical axe violations');
    await screenshot(page, 'login');
    await page.getByLabel('API token').fill(home.seeded.workToken);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${server.url}/?ns=work&q=staging`);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'cairn_session');
    assert.ok(session?.httpOnly, 'HttpOnly session cookie');
    assert.equal(session?.sameSite, 'Strict');
    assert.equal(await page.evaluate(() => document.cookie), '', 'the page cannot read the token');
  });

  it('a search URL shows results with provenance and an explain bar per factor, and reloads the same', async () => {
    await page.goto(`${server.url}/?ns=work&q=${encodeURIComponent('staging database port')}`);
    const first = page.locator('.result').first();
    await first.waitFor();
    assert.match((await first.textContent()) ?? '', /staging database to port 5433/);
    assert.match((await first.textContent()) ?? '', /session-1\.jsonl:42/);
    assert.equal(await page.getByLabel('Query').inputValue(), 'staging database port');
    await first.locator('summary').click();
    const meters = first.locator('meter');
    assert.ok((await meters.count()) >= 5, 'one bar per factor');
    assert.ok(await first.getByRole('meter', { name: 'importance' }).isVisible());
    await screenshot(page, 'search');
    await page.reload();
    await page.locator('.result').first().waitFor();
    assert.equal(await page.getByLabel('Query').inputValue(), 'staging database port');
    assert.match((await page.locator('.result').first().textContent()) ?? '', /port 5433/);
    assert.deepEqual(await axeViolations(page), [], 'search view: no serious or critical axe violations');
  });

  it('filters are labelled controls that go into the URL; a weak match says "No good match"', async () => {
    await page.goto(`${server.url}/?ns=work`);
    await page.getByLabel('Query').fill('Tuesdays deploys');
    await page.getByLabel('Category').selectOption('fact');
    await page.getByLabel('Importance at least').selectOption('5');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/category=fact/);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('q'), 'Tuesdays deploys');
    assert.equal(url.searchParams.get('minImportance'), '5');
    await page.locator('.result').first().waitFor();
    assert.equal(await page.locator('.result').count(), 1, 'the importance filter leaves the deploy fact only');
    await page.getByLabel('Category').selectOption('decision');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Nothing found.').waitFor();
    await page.goto(`${server.url}/?ns=work&q=${encodeURIComponent('what colour is the banana near staging')}`);
    await page.getByText(/No good match/).waitFor();
    assert.equal(await page.locator('.result').count(), 0);
  });

  it('is usable by keyboard: Tab reaches the search box and a result, Enter opens it', async () => {
    await page.goto(`${server.url}/?ns=work&q=${encodeURIComponent('staging database port')}`);
    await page.locator('.result a').first().waitFor();
    let reachedBox = false;
    let reachedResult = false;
    for (let i = 0; i < 40 && !reachedResult; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => ({ id: document.activeElement?.id ?? '', result: document.activeElement?.tagName === 'A' && document.activeElement.closest('.result') !== null }));
      if (focused.id === 'q') reachedBox = true;
      reachedResult = focused.result;
    }
    assert.ok(reachedBox, 'Tab reached the query box');
    assert.ok(reachedResult, 'Tab reached a result');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/memory\/m_/);
    await page.locator('#memory-title').waitFor();
    assert.match((await page.locator('#memory-title').textContent()) ?? '', /port 5433/);
  });

  it('fits a 390 px wide phone screen without sideways scrolling', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      await phone.addCookies(await context.cookies());
      const p = await phone.newPage();
      await p.goto(`${server.url}/?ns=work&q=${encodeURIComponent('staging database port')}`);
      await p.locator('.result').first().waitFor();
      await p.locator('.result summary').first().click();
      assert.equal(await scrollsSideways(p), false);
      await screenshot(p, 'search-phone');
    } finally {
      await phone.close();
    }
  });

  it('raised no script errors and no CSP violations', () => {
    assert.deepEqual(problems, []);
  });
});
