// After the quick start, every `cairn …` example in the README must run as written: each command
// it shows exists, and each flag it passes is one that command (or the CLI as a whole) accepts.
// A README that drifts from the CLI is the first thing a newcomer trips over.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertBuilt, ok, ROOT, runCli } from '../helpers/cli.js';

/** Commands with subcommands: the example's second word is part of the command. */
const GROUPS = new Set(['sources', 'entity', 'backup', 'hooks', 'tokens', 'state', 'purge']);

interface Example {
  line: string;
  command: string[];
  flags: string[];
}

/** The `cairn …` lines of the README's shell code blocks, comments and chained commands split off. */
function examples(readme: string): Example[] {
  const out: Example[] = [];
  for (const block of readme.matchAll(/```bash\n([\s\S]*?)```/g)) {
    for (const raw of block[1]!.split('\n')) {
      const line = raw.replace(/\s+#\s.*$/, '').trim();
      for (const part of line.split(/\s*&&\s*/)) {
        if (!part.startsWith('cairn ')) continue;
        const words = part.split(/\s+/).slice(1);
        // Global options go before the command: `cairn -n main search …`.
        const rest = words[0] === '-n' || words[0] === '--home' ? words.slice(2) : words;
        const command = [rest[0]!];
        if (GROUPS.has(rest[0]!) && rest[1] && /^[a-z]+$/.test(rest[1])) command.push(rest[1]);
        const flags = rest.filter((w) => /^--?[a-zA-Z][\w-]*$/.test(w)).map((w) => w.replace(/=.*$/, ''));
        out.push({ line: part, command, flags });
      }
    }
  }
  return out;
}

describe('README examples run as written', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const found = examples(readme);

  it('the README shows cairn commands', () => {
    assert.ok(found.length >= 10, `found ${found.length} cairn examples`);
  });

  it('every command and flag an example uses is one the CLI accepts', async () => {
    assertBuilt();
    const globalHelp = ok(await runCli(['--help'], { home: null }));
    const helps = new Map<string, string>();
    for (const ex of found) {
      const key = ex.command.join(' ');
      if (!helps.has(key)) {
        const res = await runCli([...ex.command, '--help'], { home: null });
        assert.equal(res.code, 0, `\`cairn ${key} --help\` fails (${res.stderr.trim()}): README line "${ex.line}"`);
        helps.set(key, res.stdout);
      }
      const help = helps.get(key)!;
      for (const flag of ex.flags) {
        const known = new RegExp(`(^|[\\s,])${flag.replace(/[-]/g, '\\-')}([\\s,<\\[=]|$)`, 'm');
        assert.ok(known.test(help) || known.test(globalHelp), `\`cairn ${key}\` has no option ${flag}: README line "${ex.line}"`);
      }
    }
  });
});
