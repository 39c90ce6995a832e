// The plugin's settings: an invalid or unknown value never breaks the agent (the default is used)
// and is reported once in OpenClaw's log, through the logger register(api) receives.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULTS, readSettings } from '../../integrations/openclaw/src/config.js';
import { register } from '../../integrations/openclaw/src/index.js';
import { recordingApi } from '../helpers/openclaw-plugin-api.js';

function read(raw: unknown): { settings: ReturnType<typeof readSettings>; warnings: string[] } {
  const warnings: string[] = [];
  return { settings: readSettings(raw, { CAIRN_HOME: '/tmp/cairn-cfg-home' }, (m) => warnings.push(m)), warnings };
}

describe('OpenClaw plugin settings', () => {
  it('takes valid settings silently', () => {
    const { settings, warnings } = read({ home: '/data/cairn', resultChars: 500, maxResults: 3, autoRecall: false, recallTokens: 50, autoCapture: false, timeoutMs: 120_000, recallTimeoutMs: 100 });
    assert.deepEqual(warnings, []);
    assert.deepEqual(settings, { home: '/data/cairn', resultChars: 500, maxResults: 3, autoRecall: false, recallTokens: 50, autoCapture: false, timeoutMs: 120_000, recallTimeoutMs: 100 });
    assert.deepEqual(read(undefined).warnings, []);
    assert.deepEqual(read({}).settings, { home: '/tmp/cairn-cfg-home', ...DEFAULTS });
  });

  it('falls back to the default and warns once per ignored key, naming the key, the type and the range', () => {
    const { settings, warnings } = read({ resultChars: 99_999, maxResults: '6', autoRecall: 'yes', recallTokens: 2.5, timeoutMs: null, recallTimeoutMs: [1], home: '   ' });
    assert.deepEqual(settings, { home: '/tmp/cairn-cfg-home', ...DEFAULTS });
    assert.equal(warnings.length, 7, warnings.join('\n'));
    const about = (key: string) => warnings.filter((w) => w.includes(`["${key}"]`));
    assert.match(about('resultChars')[0]!, /got number 99999, allowed an integer from 160 to 4000; using 360/);
    assert.match(about('maxResults')[0]!, /got string of 1 chars, allowed an integer from 1 to 50; using 6/);
    assert.match(about('autoRecall')[0]!, /got string of 3 chars, allowed true or false; using true/);
    assert.match(about('recallTokens')[0]!, /got number 2\.5, allowed an integer from 50 to 8000/);
    assert.match(about('timeoutMs')[0]!, /got null, allowed an integer from 100 to 120000/);
    assert.match(about('recallTimeoutMs')[0]!, /got array, allowed an integer from 100 to 30000/);
    assert.match(about('home')[0]!, /got empty string, allowed a non-empty path string; using "\/tmp\/cairn-cfg-home"/);
    for (const key of ['resultChars', 'maxResults', 'autoRecall', 'recallTokens', 'timeoutMs', 'recallTimeoutMs', 'home']) assert.equal(about(key).length, 1, key);
  });

  it('warns about unknown keys and a config that is not an object, without echoing hostile input', () => {
    const hostile = `evil\n${'x'.repeat(5000)}`;
    const { settings, warnings } = read({ [hostile]: 1, resultchars: 400, resultChars: Number.NaN });
    assert.equal(settings.resultChars, DEFAULTS.resultChars);
    assert.equal(warnings.length, 3, warnings.join('\n'));
    assert.ok(warnings.every((w) => !w.includes('\n') && w.length < 400), 'one bounded line each');
    assert.ok(warnings.some((w) => w.includes('unknown setting') && w.includes('["resultchars"]')));
    assert.ok(warnings.some((w) => w.includes('["resultChars"]') && w.includes('got number NaN')));
    for (const raw of ['resultChars=400', 7, [1, 2]]) {
      const r = read(raw);
      assert.deepEqual(r.settings, { home: '/tmp/cairn-cfg-home', ...DEFAULTS });
      assert.equal(r.warnings.length, 1);
      assert.match(r.warnings[0]!, /config: got (string|number|array).*allowed an object; using the defaults/);
    }
  });

  it('register(api) sends the warnings to OpenClaw\'s plugin logger and still registers everything', () => {
    const r = recordingApi({ home: '/tmp/cairn-cfg-home', maxResults: 0, autoCapture: 1 });
    const cairn = register(r.api);
    assert.equal(cairn.settings.maxResults, DEFAULTS.maxResults);
    assert.equal(cairn.settings.autoCapture, DEFAULTS.autoCapture);
    assert.equal(r.warnings.length, 2, r.warnings.join('\n'));
    assert.match(r.warnings.join('\n'), /\["maxResults"\]: got number 0, allowed an integer from 1 to 50/);
    assert.match(r.warnings.join('\n'), /\["autoCapture"\]: got number 1, allowed true or false/);
    assert.deepEqual([...r.tools.keys()].sort(), ['memory_get', 'memory_search', 'memory_store']);
    assert.ok(r.capability);
  });
});
