// cairn tokens create | list | revoke: bearer tokens for the HTTP API (`cairn serve`). A token is
// printed once; Cairn keeps only its sha256 hash. Grants use --grant (the global -n/--namespace
// selects the namespace a command works in; with no --grant, an explicit -n is granted).
import type { Command } from 'commander';
import { CairnError } from '../../../core/errors.js';
import type { ApiToken } from '../../../service/tokens.js';
import { globals, print, printJson, withCairn } from '../run.js';

function collect(value: string, previous: string[] = []): string[] {
  return previous.concat(value.split(',').map((v) => v.trim()).filter(Boolean));
}

function formatToken(t: ApiToken): string {
  return `${t.id}  ${t.namespaces.join(',')}  created ${t.createdAt}  last used ${t.lastUsedAt ?? 'never'}${t.label ? `  "${t.label}"` : ''}`;
}

export function registerTokensCommands(program: Command): void {
  const tokens = program.command('tokens').description('API tokens for "cairn serve" (stored hashed; each granted to namespaces)');

  tokens
    .command('create')
    .description('Create a token granted to namespaces and print it once')
    .option('-g, --grant <ns>', 'namespace the token may use (repeatable or comma-separated; "*" for all); defaults to -n/--namespace when that is given', collect)
    .option('--label <text>', 'a note to recognise the token by')
    .option('--json', 'print {token, info} as JSON')
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      const grants: string[] = opts.grant ?? (g.namespace !== undefined ? [g.namespace] : []);
      if (grants.length === 0) throw new CairnError('INVALID_INPUT', 'Give the namespaces the token may use: --grant <ns> (repeatable, "*" for all)');
      await withCairn(cmd, async (cairn) => {
        const created = await cairn.createToken({ namespaces: grants, label: opts.label });
        process.stderr.write('cairn: this token is shown only once; store it now (Cairn keeps only its hash).\n');
        if (g.json) return printJson(created);
        print(created.token);
        print(`id ${created.info.id}, grants ${created.info.namespaces.join(', ')}${created.info.label ? `, label "${created.info.label}"` : ''}`);
      });
    });

  tokens
    .command('list')
    .description('List active tokens (never the tokens themselves)')
    .option('--json', 'print as JSON')
    .action(async (_opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const list = await cairn.listTokens();
        if (globals(cmd).json) return printJson(list);
        print(list.length ? list.map(formatToken).join('\n') : 'No tokens. Create one with: cairn tokens create --grant <ns>');
      });
    });

  tokens
    .command('revoke')
    .description('Revoke a token by id; it stops working at once')
    .argument('<id>', 'token id (tok_…)')
    .option('--json', 'print as JSON')
    .action(async (id: string, _opts, cmd: Command) => {
      await withCairn(cmd, async (cairn) => {
        const revoked = await cairn.revokeToken(id);
        if (!revoked) throw new CairnError('NOT_FOUND', `No active token ${JSON.stringify(id.slice(0, 80))}`);
        if (globals(cmd).json) return printJson({ id, revoked });
        print(`Revoked ${id}`);
      });
    });
}
