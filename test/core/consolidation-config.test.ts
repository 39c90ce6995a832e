// The `consolidation` section of config.json: defaults, and bad, empty, huge and hostile values are
// refused with the key named (never a silent default).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../src/core/config.js';

const refused = (consolidation: unknown, key: RegExp) =>
  assert.throws(() => parseConfig({ consolidation }), (err: Error & { code?: string }) => err.code === 'CONFIG' && key.test(err.message), JSON.stringify(consolidation).slice(0, 80));

describe('consolidation config', () => {
  it('has the schedule, day bounds and backup rotation of the issue by default', () => {
    const c = parseConfig({}).consolidation;
    assert.deepEqual(
      { dayStart: c.dayStart, nightStart: c.nightStart, enabled: c.enabled, llmProse: c.llmProse, lines: c.memoryMdMaxLines, backups: c.backups },
      { dayStart: '07:00', nightStart: '22:00', enabled: true, llmProse: true, lines: 150, backups: { keepDaily: 7, keepWeekly: 4 } },
    );
    assert.deepEqual(c.schedule, { microSync: '0 10,13,16,19,22 * * *', lateSync: '0 7 * * *', review: '10 22 * * *', weekly: '55 23 * * 0' });
  });

  it('refuses malformed, empty, huge and hostile values, naming the key', () => {
    refused({ dayStart: '' }, /consolidation\.dayStart/);
    refused({ dayStart: '7:00' }, /consolidation\.dayStart/);
    refused({ nightStart: '24:00' }, /consolidation\.nightStart/);
    refused({ dayStart: '22:00', nightStart: '07:00' }, /consolidation\.nightStart/);
    refused({ dayStart: '08:00', nightStart: '08:00' }, /consolidation\.nightStart/);
    refused({ schedule: { review: '' } }, /consolidation\.schedule\.review/);
    refused({ schedule: { review: '* '.repeat(5000) } }, /consolidation\.schedule\.review/);
    refused({ schedule: { weekly: '$(rm -rf /)' } }, /consolidation\.schedule\.weekly/);
    refused({ schedule: { hourly: '0 * * * *' } }, /unknown key "consolidation\.schedule\.hourly"/);
    refused({ memoryMdMaxLines: 10_000 }, /consolidation\.memoryMdMaxLines/);
    refused({ memoryMdMaxLines: 150.5 }, /consolidation\.memoryMdMaxLines/);
    refused({ backups: { keepDaily: -1 } }, /consolidation\.backups\.keepDaily/);
    refused({ backups: { keepWeekly: 1e9 } }, /consolidation\.backups\.keepWeekly/);
    refused({ enabled: 'yes' }, /consolidation\.enabled/);
    refused({ __proto__: { enabled: false }, everything: true }, /unknown key "consolidation\.everything"/);
    refused('nightly', /consolidation/);
  });
});
