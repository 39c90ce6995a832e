// A config without a timezone reads the system's zone from ICU only when something asks for it:
// the first Intl call of a process costs ~30 ms CPU, which a cold `cairn search` paid at import.
// The zone must still be the system's wherever it is read, survive a second parse and a set, and
// a plain search must not start ICU at all (its time-window path may).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfig, loadConfigFile, parseConfig } from '../../src/core/config.js';
import { CairnError } from '../../src/core/errors.js';
import { Cairn } from '../../src/service/cairn.js';
import { ROOT, json, ok, runNode, tempHomes } from '../helpers/cli.js';
import { join } from 'node:path';

const SYSTEM_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
/** Preloaded into the CLI: reports each Intl service and localeCompare a process uses (main thread). */
const SPY_INTL = `data:text/javascript,${encodeURIComponent(
  "import { isMainThread } from 'node:worker_threads'; if (isMainThread) { const used = new Set(); for (const k of ['DateTimeFormat', 'Collator', 'NumberFormat', 'Segmenter', 'PluralRules']) { const O = Intl[k]; Intl[k] = new Proxy(O, { construct: (t, a) => (used.add(k), Reflect.construct(t, a)), apply: (t, s, a) => (used.add(k), Reflect.apply(t, s, a)) }); } const lc = String.prototype.localeCompare; String.prototype.localeCompare = function (...a) { used.add('localeCompare'); return lc.apply(this, a); }; process.on('exit', () => process.stderr.write(`\\nintl-used ${[...used].sort().join(',')}\\n`)); }",
)}`;
const intlUsed = (stderr: string) => /\nintl-used (.*)\n/.exec(stderr)?.[1];

describe('the default timezone', () => {
  const newHome = tempHomes();

  it('is the system zone when read, in the default config, a parsed one and one parsed again', () => {
    assert.equal(defaultConfig().timezone, SYSTEM_ZONE);
    const parsed = parseConfig({ embedder: { provider: 'none' } });
    const again = parseConfig(parsed);
    assert.equal(again.timezone, SYSTEM_ZONE);
    assert.equal(parsed.timezone, SYSTEM_ZONE);
    assert.equal(JSON.parse(JSON.stringify(again)).timezone, SYSTEM_ZONE, 'serialised like any key');
    assert.equal({ ...again }.timezone, SYSTEM_ZONE, 'spread like any key');
    assert.deepEqual(Object.keys(again).sort(), Object.keys(parseConfig({ timezone: 'UTC' })).sort(), 'the same keys as a config that names one');
  });

  it('keeps a zone the file names, or one set later, also through a second parse', () => {
    const berlin = parseConfig({ timezone: 'Europe/Berlin' });
    assert.equal(berlin.timezone, 'Europe/Berlin');
    assert.equal(parseConfig(berlin).timezone, 'Europe/Berlin');
    const set = parseConfig({});
    set.timezone = 'Asia/Tokyo';
    assert.equal(set.timezone, 'Asia/Tokyo');
    assert.equal(parseConfig(set).timezone, 'Asia/Tokyo', 'a set zone is validated and kept');
    const bad = parseConfig({});
    bad.timezone = 'Mars/Olympus';
    assert.throws(() => parseConfig(bad), (err: unknown) => err instanceof CairnError && err.code === 'CONFIG' && /timezone/.test(err.message));
    for (const timezone of ['', 'Not/AZone', 42, null, 'x'.repeat(10_000)]) {
      assert.throws(() => parseConfig({ timezone }), (err: unknown) => err instanceof CairnError && /timezone/.test(err.message), String(timezone).slice(0, 20));
    }
  });

  it('reaches the service: a home without one consolidates and searches in the system zone', async () => {
    const home = newHome();
    const loaded = loadConfigFile(join(home, 'config.json'));
    const cairn = await Cairn.open({ home, config: loaded, embedder: null });
    try {
      assert.equal(cairn.config.timezone, SYSTEM_ZONE);
    } finally {
      await cairn.close();
    }
  });

  it('a plain search does not start ICU; one that names a time reads dates in the zone', async () => {
    const home = newHome();
    const cairn = await Cairn.open({ home });
    try {
      await cairn.remember({ text: 'We moved the staging database to port 5433 last week', category: 'decision', importance: 6 });
      await cairn.remember({ text: 'Ana prefers tea over coffee', category: 'preference', importance: 3 });
    } finally {
      await cairn.close();
    }
    const run = (args: string[]) => runNode([join(ROOT, 'dist', 'bin', 'cairn.js'), ...args], { home, nodeArgs: ['--import', SPY_INTL] });
    const plain = await run(['search', 'staging database port', '--json']);
    assert.match(json(ok(plain)).results[0].text, /port 5433/);
    assert.equal(intlUsed(plain.stderr), '', 'no Intl service and no localeCompare');
    const dated = await run(['search', 'what did we decide yesterday', '--json']);
    ok(dated);
    assert.match(intlUsed(dated.stderr) ?? 'missing', /DateTimeFormat/);
  });
});
