// `npm run bench:web`: first paint of the web UI's search view on loopback, for a small and a large
// home (default 200 and 100,000 memories; `-- --small N --large N --runs N`), in Debian's Chromium
// against a real `cairn serve`. Each run is a fresh browser context (cold asset cache) opening
// /?q=… : first paint and first contentful paint from Chromium's performance API, and the time
// until the results are on screen. Baseline in the same run: the login page, server-rendered HTML
// and CSS with no script, which is the floor a page from this server can paint at. CPU: the server
// process's user+system time per page load (/proc), beside the wall times. Needs `npm run build`.
import { readFileSync } from 'node:fs';
import { Corpus } from './corpus.js';
import { launchBrowser, makeWebHome, serveHome, type Served } from '../test/helpers/browser.js';
import type { Browser } from 'playwright-core';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const SMALL = arg('small', 200);
const LARGE = arg('large', 100_000);
const RUNS = arg('runs', 15);
const QUERY = 'project meeting notes';

/** The server's CPU time so far (user + system, ms), from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks at USER_HZ 100
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))]!;

/** Resolves with the page's paint entries once first-contentful-paint is in (or after 5 s). */
const PAINTS = `new Promise((resolve) => {
  const seen = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) seen[e.name] = e.startTime;
    if ('first-contentful-paint' in seen) resolve(seen);
  }).observe({ type: 'paint', buffered: true });
  setTimeout(() => resolve(seen), 5000);
})`;

interface Sample {
  fp: number;
  fcp: number;
  results: number;
}

async function measure(browser: Browser, server: Served, path: string, waitFor: string | null): Promise<{ samples: Sample[]; serverCpuMs: number }> {
  const samples: Sample[] = [];
  let cpu0 = cpuMs(server.pid);
  for (let i = 0; i < RUNS + 1; i++) {
    if (i === 1) cpu0 = cpuMs(server.pid);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url + path);
    if (waitFor) await page.locator(waitFor).first().waitFor();
    const now = await page.evaluate(() => performance.now());
    // The paint entries may land after the load event: wait for them (buffered observer).
    // (A string: tsx would wrap a named function in a helper the page does not have.)
    const paint = (await page.evaluate(PAINTS)) as Record<string, number>;
    const t = { fp: paint['first-paint'] ?? NaN, fcp: paint['first-contentful-paint'] ?? NaN, now };
    await context.close();
    if (i > 0) samples.push({ fp: t.fp, fcp: t.fcp, results: waitFor ? t.now : NaN }); // the first run warms the server
  }
  return { samples, serverCpuMs: (cpuMs(server.pid) - cpu0) / RUNS };
}

/** Waits until the server has finished its start-up work (under 10 ms of CPU in 500 ms), at most 30 s. */
async function settle(pid: number): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const before = cpuMs(pid);
    await new Promise((r) => setTimeout(r, 500));
    if (cpuMs(pid) - before < 10) return;
  }
}

async function seedHome(n: number) {
  return makeWebHome(async (cairn) => {
    const corpus = new Corpus({ seed: 7 });
    for (let from = 0; from < n; from += 1000) await cairn.store.addMemories(corpus.batch(from, Math.min(n, from + 1000)));
    // Memories the query finds, whatever the corpus holds.
    for (let i = 0; i < 5; i++) await cairn.remember({ text: `The project meeting notes of week ${i} are in the shared folder`, importance: 6 });
    return n;
  });
}

const fmt = (x: number) => (Number.isNaN(x) ? '–' : `${x.toFixed(0)} ms`);
const rows: string[][] = [];
const browser = await launchBrowser();
try {
  for (const n of [SMALL, LARGE]) {
    const t0 = Date.now();
    const home = await seedHome(n);
    const seedS = ((Date.now() - t0) / 1000).toFixed(1);
    const server = await serveHome(home.home);
    try {
      await settle(server.pid);
      const base = await measure(browser, server, '/login', null);
      const view = await measure(browser, server, `/?ns=default&q=${encodeURIComponent(QUERY)}`, '.result');
      rows.push([`${n.toLocaleString('en')} memories (seeded in ${seedS} s)`, 'login page (baseline)', fmt(median(base.samples.map((s) => s.fp))), fmt(median(base.samples.map((s) => s.fcp))), '–', `${base.serverCpuMs.toFixed(1)} ms`]);
      rows.push(['', 'search view', fmt(median(view.samples.map((s) => s.fp))), `${fmt(median(view.samples.map((s) => s.fcp)))} (p90 ${fmt(p90(view.samples.map((s) => s.fcp)))})`, `${fmt(median(view.samples.map((s) => s.results)))} (p90 ${fmt(p90(view.samples.map((s) => s.results)))})`, `${view.serverCpuMs.toFixed(1)} ms`]);
    } finally {
      await server.stop();
      home.cleanup();
    }
  }
} finally {
  await browser.close();
}

console.log(`\nWeb UI first paint on loopback, ${RUNS} cold-cache loads each (median; budget: first paint of the search view < 300 ms on a 100k home)\n`);
const header = ['home', 'page', 'first paint', 'first contentful paint', 'results on screen', 'server CPU / load'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
for (const r of [header, widths.map((w) => '-'.repeat(w)), ...rows]) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
