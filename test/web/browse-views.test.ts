// The browsing views in real Chromium against a real `cairn serve`, over a home made by real
// capture, judging and consolidation (test/helpers/browse-seed.ts): the timeline across a night
// window, the layers with a citation followed to its memory, the entity graph and an entity page,
// the health of capture; axe-core finds no serious or critical violation on any of them, none
// scrolls sideways at phone width, and each leaves a screenshot in test-artifacts/web/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser, makeWebHome, screenshot, scrollsSideways, serveHome, type Served, type WebHome } from '../helpers/browser.js';
import { NIGHT_DAY, seedBrowse, WORK_NS, type BrowseSeed } from '../helpers/browse-seed.js';
import { BERLIN, type Line } from '../helpers/consolidation.js';

/** A captured turn that tries to run script wherever its text is shown. */
const HOSTILE: Line = { id: 'x1', timestamp: '2026-03-03T14:00:00Z', content: 'We decided to test <img src=x onerror="window.__xss=1"> and <script>window.__xss=2</script> as plain text.' };

describe('web UI: timeline, layers, entities and health in Chromium', () => {
  let web: WebHome<BrowseSeed>;
  let served: Served;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  before(async () => {
    web = await makeWebHome((cairn) => seedBrowse(cairn, [HOSTILE]), { timezone: BERLIN.timezone });
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
  const accessible = async (what: string) => {
    const found = await axeViolations(page);
    assert.deepEqual(found, [], `${what}: ${JSON.stringify(found, null, 1)}`);
  };
  const phoneWidth = async (what: string) => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      assert.equal(await scrollsSideways(page), false, `${what} scrolls sideways at 390 px`);
    } finally {
      await page.setViewportSize({ width: 1100, height: 900 });
    }
  };

  it('timeline: the 23:30 and 02:00 turns sit in the shaded night of the day it started; a turn opens; the range moves in the URL', async () => {
    await open(`/timeline?ns=${WORK_NS}&from=${NIGHT_DAY}&to=2026-03-03`);
    const first = page.locator(`section.day[data-day="${NIGHT_DAY}"]`);
    const night = first.locator('[data-part="night"]');
    await night.locator('li.item').first().waitFor();
    assert.deepEqual(await night.locator('li.item time').allTextContents(), ['23:30', '02:00']);
    assert.match((await night.textContent()) ?? '', /heartbeat timeout/);
    assert.doesNotMatch((await page.locator('section.day[data-day="2026-03-03"]').textContent()) ?? '', /heartbeat/, 'the 02:00 turn is not under the next day');
    assert.equal(await first.locator('svg.strip rect.strip-night').count(), 1, 'the night is shaded on the strip');
    assert.match((await page.locator('section.day[data-day="2026-03-03"]').textContent()) ?? '', /<img src=x onerror=/, 'hostile text shows as text');
    assert.equal(await page.evaluate(() => (globalThis as { __xss?: number }).__xss), undefined, 'no script ran');
    await screenshot(page, 'timeline');
    await accessible('timeline');
    await phoneWidth('timeline');

    // The turn behind the 02:00 memory opens below the day, with its transcript line.
    await night.locator('li.item').nth(1).locator('a.from-turn').click();
    await page.waitForURL(/[?&]item=t_/);
    const panel = page.locator('section.turn-panel');
    await panel.waitFor();
    assert.match((await panel.textContent()) ?? '', /30 second heartbeat/);
    assert.match((await panel.textContent()) ?? '', new RegExp(`night of ${NIGHT_DAY}`));
    assert.match((await panel.textContent()) ?? '', /Transcript line/);

    // Later → moves the range by its length, by keyboard; the URL carries it, reload shows the same.
    await page.getByRole('button', { name: 'Later →' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('from') === '2026-03-04' && u.searchParams.get('to') === '2026-03-05');
    await page.locator('section.day[data-day="2026-03-04"] li.item').first().waitFor();
    await page.reload();
    await page.locator('section.day[data-day="2026-03-05"]').waitFor();
    assert.match((await page.locator('section.day[data-day="2026-03-04"]').textContent()) ?? '', /\[REDACTED:openai-key\]/, 'the secret was redacted at capture');
  });

  it('layers: the pyramid is listed, a night note renders, and a citation opens its memory', async () => {
    await open(`/layers?ns=${WORK_NS}`);
    const nav = page.getByRole('navigation', { name: 'Layer files' });
    await nav.waitFor();
    for (const group of ['MEMORY.md', 'Weekly distills', 'Daily reviews', 'Daily notes', 'Last-night notes']) {
      assert.ok(await nav.locator('summary', { hasText: group }).count(), group);
    }
    await page.locator('.markdown h1').waitFor();
    assert.match((await page.locator('.markdown h1').textContent()) ?? '', /^Memory: work/, 'MEMORY.md is shown first');
    await nav.locator('details', { hasText: 'Last-night notes' }).getByRole('link', { name: NIGHT_DAY }).click();
    await page.waitForURL(/path=daily%2F2026-03-02-last-night\.md/);
    await page.locator('.markdown', { hasText: '30 second heartbeat' }).waitFor();
    await screenshot(page, 'layers');
    await accessible('layers');
    await phoneWidth('layers');

    const cite = page.locator('.markdown a.cite[href^="/memory/"]').last();
    const id = ((await cite.textContent()) ?? '').trim();
    assert.match(id, /^m_/);
    await cite.click();
    await page.waitForURL(new RegExp(`/memory/${id}\\?ns=${WORK_NS}$`));
    await page.locator('#memory-title').waitFor();
    assert.match((await page.locator('#memory-title').textContent()) ?? '', /30 second heartbeat/);

    // Hostile text captured from a transcript is shown as text in the rendered note, never run.
    await open(`/layers?ns=${WORK_NS}&path=${encodeURIComponent('daily/2026-03-03.md')}`);
    await page.locator('.markdown', { hasText: 'onerror' }).waitFor();
    assert.match((await page.locator('.markdown').textContent()) ?? '', /<img src=x onerror="window.__xss=1">/);
    assert.equal(await page.locator('.markdown img, .markdown script').count(), 0);
    assert.equal(await page.evaluate(() => (globalThis as { __xss?: number }).__xss), undefined, 'no script ran');

    await open(`/layers?ns=${WORK_NS}&path=${encodeURIComponent('daily/2026-03-02-last-night.md')}`);
    const turnCite = page.locator('.markdown a.cite[href^="/timeline"]').first();
    await turnCite.waitFor();
    await turnCite.click();
    await page.waitForURL(new RegExp(`/timeline\\?ns=${WORK_NS}&from=${NIGHT_DAY}&to=${NIGHT_DAY}&item=t_`));
    await page.locator('section.turn-panel').waitFor();
  });

  it('entities: the graph is drawn from the knowledge, and an entity page shows its facts over time', async () => {
    await open('/entities?ns=default');
    const svg = page.locator('figure.graph svg');
    await svg.waitFor();
    assert.equal(await svg.locator('a.node').count(), 4);
    assert.equal(await svg.locator('line.edge').count(), 3);
    const xs = await svg.locator('circle').evaluateAll((cs) => cs.map((c) => Number(c.getAttribute('cx'))));
    assert.ok(xs.every((x) => Number.isFinite(x) && x > 0), `laid out: ${xs}`);
    assert.ok(new Set(xs.map((x) => Math.round(x))).size > 1, 'nodes are spread out');
    await screenshot(page, 'entities');
    await accessible('entities');
    await phoneWidth('entities');

    await page.getByRole('link', { name: 'staging database' }).first().click();
    await page.waitForURL(/entity=e_staging/);
    await page.locator('h1#entity-title', { hasText: 'staging database' }).waitFor();
    const rows = page.locator('table.facts tbody tr');
    assert.deepEqual(await rows.locator('td:nth-child(2)').allTextContents(), ['5433 superseded', '6543'], 'the old port, superseded, then the new one');
    // The life/ panel is fetched after the page: its answer, not its placeholder, is read.
    const summary = page.locator('#life-title + *');
    await summary.filter({ hasNotText: 'Loading…' }).waitFor();
    assert.match((await summary.textContent()) ?? '', /No summary yet/, 'a candidate has no life/ page');

    await open('/entities?ns=default&entity=e_bob');
    const life = page.locator('.markdown.life');
    await life.waitFor();
    assert.match((await life.textContent()) ?? '', /your manager/);
    assert.ok(await life.locator('a.cite[href^="/memory/"]').count(), 'its citations are links');
    await screenshot(page, 'entity');
    await accessible('entity page');
  });

  it('health: the source figures, daemon and judge, activity and importance charts, the mood of the reviews', async () => {
    await open(`/health?ns=${WORK_NS}&days=7&to=2026-03-05`);
    const row = page.locator('table.sources tbody tr').first();
    await row.waitFor();
    const figure = async (name: string) => ((await row.locator(`[data-figure="${name}"]`).textContent()) ?? '').trim();
    assert.equal(await figure('turns'), '17', 'every line but the malformed one');
    assert.equal(await figure('malformed'), '1');
    assert.equal(await figure('redactions'), '1');
    assert.equal(await figure('errors'), '0');
    assert.equal(await figure('lag'), 'caught up');
    assert.match((await page.getByTestId('daemon').textContent()) ?? '', /not running/);
    assert.match((await page.getByTestId('judge').textContent()) ?? '', /heuristic/);
    assert.equal(await page.locator('figure.chart').count(), 2);
    assert.ok((await page.locator('figure.chart').first().locator('rect.bar').count()) >= 14, 'turns and memories for each of 7 days');
    assert.match((await page.locator('.reviews li[data-day="2026-03-04"]').textContent()) ?? '', /frustrated/);
    await screenshot(page, 'health');
    await accessible('health');
    await phoneWidth('health');
    assert.deepEqual(errors, [], 'no script errors on any page');
  });
});
