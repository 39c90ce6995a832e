// Issue 30 items 1 and 3: the wider credential corpus (providers beyond the first corpus, session
// cookies, password hashes, Wi-Fi keys, PINs, passphrases, passwords in prose and on command
// lines) is redacted to exactly the secret, keys hidden by a glued letter, a literal `\n` escape
// or an invisible character inside are still found, and the look-alikes around them survive.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { REDACTION_KINDS, redact, redactionMarker } from '../../src/capture/redact.js';
import { boundaryCases, passwordCases, providerCases, shapeLookAlikes, type ShapeCase } from './fixtures/credential-shapes.js';
import { credentialCases, lookAlikes } from './fixtures/redaction-corpus.js';

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

function assertRedacted(c: ShapeCase): void {
  assert.equal(occurrences(c.text, c.secret), 1, 'fixture: the secret occurs once');
  const out = redact(c.text);
  assert.equal(out.text, c.text.replace(c.secret, () => redactionMarker(c.kind)));
  assert.deepEqual(out.counts, { [c.kind]: 1 });
  assert.deepEqual(redact(out.text), { text: out.text, counts: {} }, 'idempotent');
}

describe('redact: provider shapes of issue 30', () => {
  for (const c of providerCases()) it(`${c.kind}: ${c.name}`, () => assertRedacted(c));
});

describe('redact: passwords, PINs, cookies and hashes', () => {
  for (const c of passwordCases()) it(`${c.kind}: ${c.name}`, () => assertRedacted(c));
});

describe('redact: boundaries (issue 30 item 3)', () => {
  for (const c of boundaryCases()) it(c.name, () => assertRedacted(c));

  it('keeps invisible characters outside a secret byte for byte', () => {
    const text = 'a\u200Bb GITHUB_TOKEN=ghp_' + 'Zq3'.repeat(12) + ' c\u00ADd';
    const out = redact(text);
    assert.equal(out.text, 'a\u200Bb GITHUB_TOKEN=[REDACTED:github-token] c\u00ADd');
  });
});

describe('redact: the same shapes shown as JSON lines (written-out escapes)', () => {
  it('leaves none of them, and each line still parses', () => {
    for (const c of [...providerCases(), ...passwordCases(), ...boundaryCases()]) {
      const line = JSON.stringify({ type: 'message', message: { role: 'user', content: c.text } });
      const out = redact(line).text;
      assert.ok(!out.includes(JSON.stringify(c.secret).slice(1, -1)), `${c.name}: ${out}`);
      const parsed = JSON.parse(out) as { message: { content: string } };
      assert.ok(parsed.message.content.includes('[REDACTED:'), c.name);
    }
  });
});

describe('redact: look-alikes of issue 30 survive byte-identical', () => {
  for (const l of shapeLookAlikes()) {
    it(l.name, () => {
      assert.deepEqual(redact(l.text), { text: l.text, counts: {} });
    });
  }
});

describe('redact: kinds', () => {
  it('every kind the new corpus names is a stable, exported kind', () => {
    const kinds = new Set<string>(REDACTION_KINDS);
    for (const c of [...providerCases(), ...passwordCases(), ...boundaryCases()]) assert.ok(kinds.has(c.kind), c.kind);
  });

  it('the first corpus and its look-alikes still hold with every layer on', () => {
    for (const c of credentialCases()) assert.equal(redact(c.text).text, c.text.replace(c.secret, () => redactionMarker(c.kind)), c.name);
    for (const l of lookAlikes()) assert.equal(redact(l.text).text, l.text, l.name);
  });
});
