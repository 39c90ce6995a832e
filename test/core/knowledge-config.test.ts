// The `knowledge` section of config.json: defaults, and bad, empty, huge and hostile values are
// refused with the key named (never a silent default).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../src/core/config.js';

const refused = (knowledge: unknown, key: RegExp) =>
  assert.throws(() => parseConfig({ knowledge }), (err: Error & { code?: string }) => err.code === 'CONFIG' && key.test(err.message), JSON.stringify(knowledge).slice(0, 80));

describe('knowledge config', () => {
  it('has the thresholds of the issue by default', () => {
    assert.deepEqual(parseConfig({}).knowledge, {
      llm: false, promoteMentions: 3, promoteImportance: 8, archiveAfterDays: 90, nearDuplicates: true, autoSupersede: true,
    });
  });

  it('keeps values a person sets and fills the rest', () => {
    const k = parseConfig({ knowledge: { llm: false, promoteMentions: 5, archiveAfterDays: 30, autoSupersede: false } }).knowledge;
    assert.deepEqual(k, { llm: false, promoteMentions: 5, promoteImportance: 8, archiveAfterDays: 30, nearDuplicates: true, autoSupersede: false });
  });

  it('refuses malformed, empty, huge and hostile values, naming the key', () => {
    refused({ llm: 'true' }, /knowledge\.llm/);
    refused({ llm: null }, /knowledge\.llm/);
    refused({ promoteMentions: 0 }, /knowledge\.promoteMentions/);
    refused({ promoteMentions: 2.5 }, /knowledge\.promoteMentions/);
    refused({ promoteMentions: 1e12 }, /knowledge\.promoteMentions/);
    refused({ promoteMentions: '3' }, /knowledge\.promoteMentions/);
    refused({ promoteImportance: 11 }, /knowledge\.promoteImportance/);
    refused({ promoteImportance: 0 }, /knowledge\.promoteImportance/);
    refused({ archiveAfterDays: -1 }, /knowledge\.archiveAfterDays/);
    refused({ archiveAfterDays: Number.MAX_SAFE_INTEGER }, /knowledge\.archiveAfterDays/);
    refused({ archiveAfterDays: '' }, /knowledge\.archiveAfterDays/);
    refused({ nearDuplicates: 1 }, /knowledge\.nearDuplicates/);
    refused({ autoSupersede: 'yes' }, /knowledge\.autoSupersede/);
    refused({ nearDuplicateThreshold: 0.9 }, /unknown key "knowledge\.nearDuplicateThreshold"/);
    refused({ __proto__: { llm: false }, ['x'.repeat(10_000)]: true }, /unknown key "knowledge\.x{100}/);
    refused('on', /knowledge/);
    refused([], /knowledge/);
  });
});
