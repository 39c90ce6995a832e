// Browser tests of the web UI: a real `cairn serve` child process on 127.0.0.1 over a seeded temp
// home, and Debian's Chromium driven by playwright-core (Playwright's own browser download is not
// used). Launch the browser once per test file; screenshots go to test-artifacts/web/<name>.png.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Cairn } from '../../src/service/cairn.js';
import { CLI, HANG_GUARD_MS, NO_EMBEDDER, ROOT, assertBuilt, childEnv } from './cli.js';

export const CHROMIUM = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'web');

export interface WebHome<T> {
  home: string;
  seeded: T;
  cleanup(): void;
}

/**
 * A temp home (no embedder: BM25 only, fast) seeded in-process through the facade, then closed so
 * the server child owns it. `config` is merged over the no-embedder config.
 */
export async function makeWebHome<T>(seed: (cairn: Cairn) => Promise<T>, config: object = {}): Promise<WebHome<T>> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-web-'));
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.json'), JSON.stringify({ ...NO_EMBEDDER, ...config }));
  const cairn = await Cairn.open({ home, embedder: null });
  let seeded: T;
  try {
    seeded = await seed(cairn);
  } finally {
    await cairn.close();
  }
  return { home, seeded, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Served {
  url: string;
  /** The server child's process id (benches read its CPU time). */
  pid: number;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts the built CLI's `cairn serve --port 0` on the home; resolves with its URL once printed. */
export function serveHome(home: string, args: string[] = []): Promise<Served> {
  assertBuilt();
  const child = spawn(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--quiet', ...args], { env: childEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    children.delete(child);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cairn serve printed no URL: ${stdout} ${stderr}`)), HANG_GUARD_MS);
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /listening on (http:\/\/\S+?) /.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, pid: child.pid!, stop });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cairn serve exited ${code}: ${stderr}`));
    });
  });
}

/** Debian's Chromium, headless, with nothing that reaches the network on its own. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Playwright gives each launch a fresh temporary --user-data-dir.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

/** Logs in through the form and waits for the app to render. */
export async function login(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.locator('main#main').waitFor();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Not page.addScriptTag: the page's CSP (rightly) refuses an inline script. Evaluating through
  // the DevTools protocol runs axe in the page without weakening the policy under test.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    return (await axe.run(document)).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** True when the page scrolls sideways at its current viewport width. */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}
