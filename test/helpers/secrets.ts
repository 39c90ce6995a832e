// Credentials for tests of the redaction gate and purge, and checks that one never landed in a
// file. The shapes are ones the rules recognise; the values are made up.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** An OpenAI project key (redacted as openai-key). */
export const OPENAI_KEY = 'sk-proj-Q7vLm2Xc9RtB4nW8kZp3YhF6sJd1GaE5uKo0VbNiTq';
/** A GitHub personal access token (redacted as github-token). */
export const GITHUB_TOKEN = 'ghp_R8kWm2Xq7LpN4vZc9TbY3HsJ6fGd1AeK5uQo';

/** Every regular file under `dir` (recursively) whose bytes contain `needle`, as paths relative to it. */
export function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const bytes = Buffer.from(needle, 'utf8');
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const st = statSync(path, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(path);
      else if (st.isFile() && readFileSync(path).includes(bytes)) found.push(relative(dir, path));
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

/** Fails naming the files when any file under `home` holds `secret`. */
export function assertNowhereOnDisk(home: string, secret: string, what = 'the secret'): void {
  assert.deepEqual(filesContaining(home, secret), [], `${what} must not be in any file under the home`);
}
