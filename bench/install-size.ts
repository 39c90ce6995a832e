// Installed size of the published package: `npm pack` of this tree, then `npm install -g --prefix
// <tmp>` of the tarball, as a user installs Cairn; side by side with a baseline packed in the same
// run from the same dist/ but the package.json of an earlier commit (default: the last one before
// issue 29 moved the optional providers and the gazetteer data out of the default install).
//
// Installs run with --ignore-scripts (install scripts would fetch native binaries from outside the
// npm registry, which this machine cannot reach): the prebuilt better-sqlite3 addon (~2 MB) is
// therefore not counted on either side. Packages come from the npm cache when it has them
// (--prefer-offline).
//
// Run: npm run build && npm run bench:install [-- --baseline <git ref>] [--keep]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureRuntime, renderRuntimes, type RuntimeCost } from './embed-runtimes.js';
import { table } from './stats.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The commit before issue 29's install changes: onnxruntime-node and transformers.js optional dependencies, the gazetteer data in dependencies. */
export const BASELINE_REF = 'f14e5ef258a4ba994a1a0e9b75264673e16523f5';
const MB = 1024 * 1024;

export interface InstallSize {
  label: string;
  tarballBytes: number;
  /** Disk use (allocated blocks, as `du`) of everything the install put in lib/node_modules. */
  totalBytes: number;
  files: number;
  /** Disk use per package under cairn/node_modules (scoped ones as @scope/name), plus "cairn" itself. */
  packages: Map<string, number>;
}

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' }, maxBuffer: 64 * MB });
}

/** Bytes on disk under `dir` (links not followed) and the number of files. */
function diskUse(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const st = lstatSync(join(d, name));
      bytes += st.blocks * 512;
      if (st.isDirectory()) walk(join(d, name));
      else files++;
    }
  };
  walk(dir);
  return { bytes, files };
}

function pack(dir: string, dest: string): string {
  const out = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], dir)) as Array<{ filename: string }>;
  return join(dest, out[0]!.filename);
}

/** A copy of the package (dist, README) with the package.json of `ref`: the baseline tarball. */
function packBaseline(ref: string, work: string): string {
  const stage = join(work, 'baseline-stage');
  mkdirSync(stage, { recursive: true });
  const manifest = JSON.parse(run('git', ['show', `${ref}:package.json`], REPO)) as Record<string, unknown>;
  delete manifest.scripts; // dist/ is already built; nothing to run while packing
  writeFileSync(join(stage, 'package.json'), JSON.stringify(manifest, null, 2));
  cpSync(join(REPO, 'dist'), join(stage, 'dist'), { recursive: true });
  cpSync(join(REPO, 'README.md'), join(stage, 'README.md'));
  return pack(stage, work);
}

export function measureInstall(label: string, tarball: string, work: string): InstallSize {
  const prefix = join(work, `${label}-prefix`);
  run('npm', ['install', '-g', '--prefix', prefix, tarball, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], work);
  const lib = join(prefix, 'lib', 'node_modules');
  const total = diskUse(lib);
  const packages = new Map<string, number>();
  const deps = join(lib, 'cairn', 'node_modules');
  let depBytes = 0;
  if (existsSync(deps)) {
    for (const name of readdirSync(deps)) {
      const names = name.startsWith('@') ? readdirSync(join(deps, name)).map((n) => `${name}/${n}`) : name.startsWith('.') ? [] : [name];
      for (const n of names) {
        const b = diskUse(join(deps, n)).bytes;
        packages.set(n, b);
        depBytes += b;
      }
    }
  }
  packages.set('cairn (its own files)', diskUse(join(lib, 'cairn')).bytes - depBytes);
  return { label, tarballBytes: lstatSync(tarball).size, totalBytes: total.bytes, files: total.files, packages };
}

const mb = (b: number | undefined): string => (b === undefined ? '—' : `${(b / MB).toFixed(1)}`);

export function renderInstallSize(base: InstallSize, now: InstallSize, baseRef: string, runtimes: readonly RuntimeCost[], top = 25): string {
  const names = [...new Set([...base.packages.keys(), ...now.packages.keys()])];
  const size = (n: string): number => Math.max(base.packages.get(n) ?? 0, now.packages.get(n) ?? 0);
  names.sort((a, b) => size(b) - size(a));
  const shown = names.slice(0, top);
  const rest = (s: InstallSize): number => names.slice(top).reduce((sum, n) => sum + (s.packages.get(n) ?? 0), 0);
  const delta = (a: number, b: number): string => `${b - a >= 0 ? '+' : ''}${((b - a) / MB).toFixed(1)}`;
  const rows = shown.map((n) => [n, mb(base.packages.get(n)), mb(now.packages.get(n)), delta(base.packages.get(n) ?? 0, now.packages.get(n) ?? 0)]);
  rows.push([`${names.length - shown.length} other packages`, mb(rest(base)), mb(rest(now)), delta(rest(base), rest(now))]);
  rows.push(['**installed, all**', `**${mb(base.totalBytes)}**`, `**${mb(now.totalBytes)}**`, delta(base.totalBytes, now.totalBytes)]);
  rows.push(['files', String(base.files), String(now.files), String(now.files - base.files)]);
  rows.push(['tarball', mb(base.tarballBytes), mb(now.tarballBytes), delta(base.tarballBytes, now.tarballBytes)]);
  return [
    '# Installed size (`npm run bench:install`)',
    '',
    `\`npm install -g --prefix <tmp>\` of the tarball \`npm pack\` makes, in MB of disk (du), measured ${new Date().toISOString().slice(0, 10)}.`,
    `Baseline: the same dist/ packed with the package.json of ${baseRef.slice(0, 10)}. Goal: ≤ 250 MB.`,
    'Installed with --ignore-scripts (install scripts fetch binaries from outside the npm registry): the',
    'better-sqlite3 addon they would add (~2 MB) is not counted on either side.',
    '',
    table(['package', 'baseline MB', 'now MB', 'change'], rows),
    '',
    'Not installed by default now (optional peer dependencies, each loaded only when configured):',
    '`onnxruntime-node` (use-lite on native kernels, `embedder.runtime` "auto" uses it when present),',
    '`onnx-proto` (with onnxruntime-node: builds the use-lite graph), `@huggingface/transformers`',
    '(`embedder.provider: "transformers"`). The gazetteer data packages are build-time only: the',
    'compiled gazetteer ships in dist/.',
    '',
    '## What the default install costs in speed',
    '',
    'Without onnxruntime-node, use-lite runs on TF.js (WebAssembly, one thread). Measured in this tree',
    '(both installed), CPU time beside wall time since the machine is shared:',
    '',
    renderRuntimes(runtimes),
    '',
    'A cold `cairn search` pays the model load and the first query: see the TF.js row of',
    '`bench/cold-start.ts` (`npm run bench`).',
    '',
  ].join('\n');
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--baseline');
  const ref = at >= 0 ? args[at + 1]! : BASELINE_REF;
  const keep = args.includes('--keep');
  if (!existsSync(join(REPO, 'dist', 'interfaces', 'cli', 'main.js'))) {
    process.stderr.write('dist/ not found: run "npm run build" first\n');
    process.exit(1);
  }
  const work = mkdtempSync(join(tmpdir(), 'cairn-install-size-'));
  try {
    const log = (m: string): boolean => process.stderr.write(`${m}\n`);
    log(`packing this tree and the baseline (${ref.slice(0, 10)}) in ${work}`);
    const nowTgz = pack(REPO, work);
    const baseTgz = packBaseline(ref, join(work, 'base'));
    log('installing the baseline');
    const base = measureInstall('baseline', baseTgz, work);
    log(`  ${mb(base.totalBytes)} MB; installing this tree`);
    const now = measureInstall('now', nowTgz, work);
    log(`  ${mb(now.totalBytes)} MB`);
    log('embedding on each runtime');
    const runtimes = [await measureRuntime('tfjs', 256), await measureRuntime('onnxruntime', 256)];
    const md = renderInstallSize(base, now, ref, runtimes);
    writeFileSync(join(REPO, 'bench', 'results', 'install-size.md'), md);
    process.stdout.write(md);
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true });
  }
}
