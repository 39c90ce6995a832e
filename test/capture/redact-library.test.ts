// Issue 30 item 1, the second layer: secretlint's recommended preset runs beside the hand-written
// detectors. Its rules load and run synchronously, its reports become spans that cover just the
// secret (a URL keeps its user and host), its placeholder hits are dropped, and it catches what
// the hand-written layer alone lets through.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { redact, redactWithLayers } from '../../src/capture/redact.js';
import { findLibrarySpans, libraryRuleIds } from '../../src/capture/redact-library.js';
import type { Span } from '../../src/capture/redact-kinds.js';
import { Gen } from './fixtures/redaction-corpus.js';

function librarySpans(text: string): Array<[string, string]> {
  const out: Span[] = [];
  findLibrarySpans(text, out);
  return out.map((s) => [s.kind, text.slice(s.start, s.end)]);
}

describe('redact: the secretlint layer', () => {
  it('runs the preset text scanners, without the file-only and comment-filter rules', () => {
    const ids = libraryRuleIds();
    for (const id of ['github', 'slack', 'sendgrid', 'privatekey', 'database-connection-string', 'basicauth', 'npm']) {
      assert.ok(ids.includes(`@secretlint/secretlint-rule-${id}`), id);
    }
    assert.ok(!ids.includes('@secretlint/secretlint-rule-gcp'));
    assert.ok(!ids.includes('@secretlint/secretlint-rule-filter-comments'));
  });

  it('turns reports into spans over the secret alone', () => {
    const g = new Gen(77);
    const sg = `SG.${g.b62(22)}.${g.b62(43)}`;
    const pw = `${g.b62(12)}9`;
    assert.deepEqual(librarySpans(`mail via ${sg} today`), [['sendgrid-key', sg]]);
    assert.deepEqual(librarySpans(`postgres://app:${pw}@db.internal:5432/app`), [['url-password', pw]]);
    assert.deepEqual(librarySpans(`https://deploy:${pw}@registry.example.com/v2`), [['url-password', pw]]);
  });

  it('drops what secretlint reports on placeholders', () => {
    assert.deepEqual(librarySpans('SLACK_BOT_TOKEN=xoxb-your-token-here'), []);
    assert.deepEqual(librarySpans(`GH=ghp_${'x'.repeat(36)}`), []);
  });

  it('catches a token the hand-written layer alone would keep', () => {
    const token = new Gen(78).hex(40);
    const text = `git clone https://${token}:x-oauth-basic@github.com/acme/api.git`;
    assert.ok(redactWithLayers(text, { library: false }).text.includes(token), 'fixture: hand-written alone misses it');
    assert.deepEqual(redact(text), {
      text: 'git clone https://[REDACTED:github-token]:x-oauth-basic@github.com/acme/api.git',
      counts: { 'github-token': 1 },
    });
  });
});
