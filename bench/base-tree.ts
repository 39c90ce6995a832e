// Another commit's src/ beside this tree's node_modules, importable by tsx: the base an A/B bench
// (search-ab.ts, capture-ab.ts) measures this tree against in one run.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Exports `rev`'s src/ (once per commit, kept between runs) and returns the folder holding it. */
export function exportBase(rev: string): string {
  const sha = execFileSync('git', ['rev-parse', '--short', rev], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `cairn-search-ab-${sha}`);
  if (!existsSync(join(dir, 'src'))) {
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${sha} src | tar -x -C ${JSON.stringify(dir)}`], { cwd: ROOT });
    for (const f of ['package.json', 'tsconfig.json']) copyFileSync(join(ROOT, f), join(dir, f));
  }
  // The export is kept between runs, possibly made from another checkout since removed: its
  // packages are always this tree's.
  rmSync(join(dir, 'node_modules'), { force: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}
