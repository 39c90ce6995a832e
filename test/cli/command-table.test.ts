// The CLI imports only the module of the command it runs (src/interfaces/cli/command-table.ts): the
// table must name exactly the commands each module registers, or a command would be missing from
// the run that needs it; and the command word must be found past the global options.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { COMMAND_MODULES, commandWord, modulesFor } from '../../src/interfaces/cli/command-table.js';
import { assertBuilt, ok, runCli } from '../helpers/cli.js';

describe('the CLI command table', () => {
  it('names exactly the top-level commands each module registers, in order', async () => {
    for (const m of COMMAND_MODULES) {
      const program = new Command();
      (await m.load())(program);
      assert.deepEqual(program.commands.map((c) => c.name()), [...m.names]);
    }
  });

  it('names each command once', () => {
    const names = COMMAND_MODULES.flatMap((m) => m.names);
    assert.equal(new Set(names).size, names.length);
  });

  it('finds the command word past global options and their values', () => {
    assert.equal(commandWord(['search', 'x']), 'search');
    assert.equal(commandWord(['--home', '/tmp/h', '-n', 'search', 'store', 'x']), 'store');
    assert.equal(commandWord(['--namespace', 'a', '--json', 'get', '1']), 'get');
    assert.equal(commandWord(['--home=/tmp/h', 'status']), 'status');
    assert.equal(commandWord(['--version']), null);
    assert.equal(commandWord(['--home']), null);
    assert.equal(commandWord(['--', 'search']), null);
    assert.equal(commandWord([]), null);
  });

  it('loads one module for a command, none for --version, all for help and unknown words', () => {
    assert.deepEqual(modulesFor(['search', 'q']).map((m) => m.names[0]), ['search']);
    assert.deepEqual(modulesFor(['-n', 'x', 'feedback', '1', 'up']).map((m) => m.names[0]), ['judge']);
    assert.deepEqual(modulesFor(['--version']), []);
    assert.deepEqual(modulesFor(['-V']), []);
    assert.equal(modulesFor(['--version', '--help']).length, COMMAND_MODULES.length);
    assert.equal(modulesFor([]).length, COMMAND_MODULES.length);
    assert.equal(modulesFor(['--help']).length, COMMAND_MODULES.length);
    assert.equal(modulesFor(['help', 'search']).length, COMMAND_MODULES.length);
    assert.equal(modulesFor(['serch', 'x']).length, COMMAND_MODULES.length);
    assert.equal(modulesFor(['constructor']).length, COMMAND_MODULES.length);
  });

  it('lists every command in `cairn --help` and suggests the right one for a typo', async () => {
    assertBuilt();
    const help = ok(await runCli(['--help'], { home: null }));
    for (const name of COMMAND_MODULES.flatMap((m) => m.names)) assert.match(help, new RegExp(`^  ${name}\\b`, 'm'), `${name} in --help`);
    const typo = await runCli(['serch', 'x'], { home: null });
    assert.notEqual(typo.code, 0);
    assert.match(typo.stderr, /unknown command 'serch'[\s\S]*search/);
    const sub = ok(await runCli(['search', '--help'], { home: null }));
    assert.match(sub, /--mode <mode>/);
  });
});
