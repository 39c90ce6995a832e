// The links between the browsing views in real Chromium against a real `cairn serve`: a node of
// the SVG entity graph opens its entity page inside the app (by mouse and by Enter, no page
// reload), the life/ pages (PARA) are listed and rendered in the layers view with their citations as
// links, and a memory's provenance opens the turn it was made from in context on the timeline.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser, makeWebHome, serveHome, type Served, type WebHome } from '../helpers/browser.js';
import { NIGHT_DAY, seedBrowse, WORK_NS, type BrowseSeed } from '../helpers/browse-seed.js';
import { BERLIN } from '../helpers/consolidation.js';

describe('web UI: links inside SVG, life/ pages in the layers, provenance to the turn', () => {
  let web: WebHome<BrowseSeed>;
  let served: Served;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  before(async () => {
    web = await makeWebHome((cairn) => seedBrowse(cairn), { timezone: BERLIN.timezone });
    served = await serveHome(web.home);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('pageerror', (e) => errors.push(e.message));
  });
  after(async () => {
    await browser?.close();
    await served?.stop();
    web?.cleanup();
  });

  const open = async (path: string) => {
    await page.goto(served.url + path);
    await page.locator('main#main h1').first().waitFor();
  };
  /** Marks the loaded document: the mark survives in-app navigation and is gone after a reload. */
  const mark = () => page.evaluate(() => ((globalThis as { __sameDocument?: boolean }).__sameDocument = true));
  const sameDocument = () => page.evaluate(() => (globalThis as { __sameDocument?: boolean }).__sameDocument === true);

  it('entities: a graph node opens its entity page without reloading, by click and by Enter', async () => {
    await open('/entities?ns=default');
    const node = page.locator('figure.graph svg a.node', { has: page.locator('text', { hasText: /^Bob$/ }) });
    await node.waitFor();
    await mark();
    await node.click();
    await page.waitForURL(/\/entities\?ns=default&entity=e_bob$/);
    await page.locator('h1#entity-title', { hasText: 'Bob' }).waitFor();
    assert.equal(await sameDocument(), true, 'the click was followed in the app, not by a page load');

    await page.goBack();
    const staging = page.locator('figure.graph svg a.node', { has: page.locator('text', { hasText: 'staging database' }) });
    await staging.waitFor();
    await staging.focus();
    assert.equal(await page.evaluate(() => document.activeElement?.closest('a')?.getAttribute('href')), '/entities?ns=default&entity=e_staging', 'the node takes focus');
    await page.keyboard.press('Enter');
    await page.waitForURL(/entity=e_staging$/);
    await page.locator('h1#entity-title', { hasText: 'staging database' }).waitFor();
    assert.equal(await sameDocument(), true, 'Enter opened it in the app');

    // A modified click is left to the browser (a new tab or window), not taken over.
    await page.goBack();
    await node.waitFor();
    await node.click({ modifiers: ['Shift'] });
    assert.match(page.url(), /\/entities\?ns=default$/, 'shift-click did not navigate this page');
  });

  it('layers: the life/ index and the entity pages are listed by PARA drawer, rendered, their citations links', async () => {
    await open('/layers?ns=default');
    const nav = page.getByRole('navigation', { name: 'Layer files' });
    await nav.waitFor();
    const index = nav.locator('details', { hasText: 'Life (PARA index)' });
    assert.equal(await index.count(), 1, 'life/index.md is listed');
    const drawers = await nav.locator('summary', { hasText: /^Life: / }).allTextContents();
    assert.ok(drawers.length >= 1, `the entity pages are grouped by drawer: ${drawers}`);

    await index.getByRole('link', { name: 'life/index.md' }).click();
    await page.waitForURL(/path=life%2Findex\.md/);
    const doc = page.locator('.markdown');
    await doc.locator('a[href*="summary.md"]').first().waitFor();
    await mark();
    // The index links each page: it opens in the layers view, in the app.
    await doc.getByRole('link', { name: 'Bob' }).first().click();
    await page.waitForURL(/path=life%2F[a-z]+%2Fbob%2Fsummary\.md/);
    await page.locator('.markdown', { hasText: 'your manager' }).waitFor();
    assert.equal(await sameDocument(), true);
    const bobDrawer = nav.locator('details', { has: page.locator('a[aria-current="page"]') });
    assert.match((await bobDrawer.locator('summary').textContent()) ?? '', /^Life: /, "the open page's drawer is expanded");
    const cites = page.locator('.markdown a.cite[href^="/memory/"]');
    assert.ok(await cites.count(), 'its citations are links');
    assert.equal(await page.locator('.markdown script, .markdown img').count(), 0);
    const found = await axeViolations(page);
    assert.deepEqual(found, [], JSON.stringify(found, null, 1));
    await cites.first().click();
    await page.waitForURL(/\/memory\/m_[^?]+\?ns=default$/);
    await page.locator('#memory-title').waitFor();
  });

  it('memory: the provenance links the turn it was made from, opened in context on its day of the timeline', async () => {
    await open(`/timeline?ns=${WORK_NS}&from=${NIGHT_DAY}&to=${NIGHT_DAY}`);
    const night = page.locator(`section.day[data-day="${NIGHT_DAY}"] [data-part="night"]`);
    const memory = night.locator('li.item.memory', { hasText: 'heartbeat' }).last();
    await memory.waitFor();
    const turnId = await memory.locator('a.from-turn').getAttribute('data-turn');
    assert.match(turnId ?? '', /^t_/);
    await memory.locator('a').first().click();
    await page.waitForURL(/\/memory\/m_/);
    const memoryUrl = page.url();
    const link = page.locator('ul.provenance a.turn-link');
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), `/timeline?ns=${WORK_NS}&item=${turnId}`);

    await link.click();
    // The timeline looks the turn up and shows it on the day its night started (not today).
    await page.waitForURL(new RegExp(`/timeline\\?ns=${WORK_NS}&from=${NIGHT_DAY}&to=${NIGHT_DAY}&item=${turnId}$`));
    const panel = page.locator('section.turn-panel');
    await panel.waitFor();
    assert.match((await panel.textContent()) ?? '', /30 second heartbeat/);
    assert.match((await panel.textContent()) ?? '', /Transcript line/);
    await page.goBack();
    await page.waitForURL(memoryUrl);
    await page.locator('#memory-title').waitFor();

    // A turn id that does not exist: the timeline says so instead of waiting forever.
    await open(`/timeline?ns=${WORK_NS}&item=t_nothere0000000000000`);
    await page.locator('.error', { hasText: 'Not found' }).first().waitFor();
    assert.deepEqual(errors, [], 'no script errors');
  });
});
