// Redaction is the "secrets never land" invariant: every credential shape in the corpus is
// replaced by its marker with the rest of the text byte-identical, every look-alike survives,
// redaction is idempotent, and hostile inputs are handled (their speed: bench/speed-budgets.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { REDACTION_KINDS, redact, redactionMarker, type RedactionKind } from '../../src/capture/redact.js';
import { passwordCases, providerCases } from './fixtures/credential-shapes.js';
import { Gen, credentialCases, jwt, lookAlikes, pem, seeded } from './fixtures/redaction-corpus.js';
import { credentialWordSalad, hostileInputs, transcriptWithSecrets } from './fixtures/redaction-hostile.js';
import { HANG_GUARD_MS } from '../helpers/cli.js';

const CASES = credentialCases();
const LOOK_ALIKES = lookAlikes();

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe('redact: credential corpus', () => {
  it('has at least 50 shapes and, with the issue 30 corpus, covers every kind', () => {
    assert.ok(CASES.length >= 50, `only ${CASES.length} cases`);
    const covered = new Set([...CASES, ...providerCases(), ...passwordCases()].map((c) => c.kind));
    for (const kind of REDACTION_KINDS) assert.ok(covered.has(kind), `no corpus case for ${kind}`);
  });

  for (const c of CASES) {
    it(`${c.kind}: ${c.name}`, () => {
      assert.equal(occurrences(c.text, c.secret), 1, 'fixture: the secret occurs once');
      const out = redact(c.text);
      assert.ok(!out.text.includes(c.secret), `secret survived: ${out.text}`);
      assert.equal(out.text, c.text.replace(c.secret, () => redactionMarker(c.kind)));
      assert.deepEqual(out.counts, { [c.kind]: 1 });
    });
  }
});

describe('redact: look-alikes survive byte-identical', () => {
  it('has at least 30 look-alikes', () => {
    assert.ok(LOOK_ALIKES.length >= 30, `only ${LOOK_ALIKES.length} look-alikes`);
  });

  for (const l of LOOK_ALIKES) {
    it(l.name, () => {
      const out = redact(l.text);
      assert.equal(out.text, l.text);
      assert.deepEqual(out.counts, {});
    });
  }
});

describe('redact: properties', () => {
  it('is idempotent on every corpus text and look-alike', () => {
    for (const text of [...CASES.map((c) => c.text), ...LOOK_ALIKES.map((l) => l.text)]) {
      const once = redact(text).text;
      const twice = redact(once);
      assert.equal(twice.text, once, `second pass changed: ${once}`);
      assert.deepEqual(twice.counts, {});
    }
  });

  it('never re-redacts markers, whatever surrounds them', () => {
    for (const kind of REDACTION_KINDS) {
      const marker = redactionMarker(kind);
      for (const text of [marker, `TOKEN=${marker}`, `"password": "${marker}"`, `my api key is ${marker}`, `Bearer ${marker}`]) {
        assert.deepEqual(redact(text), { text, counts: {} });
      }
    }
  });

  it('returns the empty string unchanged', () => {
    assert.deepEqual(redact(''), { text: '', counts: {} });
  });

  it('leaves text without secrets untouched, Unicode included', () => {
    const text = 'Grüße aus Köln 🪨 — we decided to move staging to port 5433.\r\n\tDone.';
    assert.deepEqual(redact(text), { text, counts: {} });
  });
});

describe('redact: several secrets in one text', () => {
  it('redacts each one, keeps everything between them, and counts per kind', () => {
    const g = new Gen(99);
    const gh = 'ghp_' + g.b62(36);
    const ak = 'AKIA' + g.upperNum(16);
    const pw = g.urlPassword(16);
    const token = jwt(g);
    const dbPass = g.password(18);
    const openai = 'sk-proj-' + g.b64url(64);
    const text = [
      'user: my deploy broke, here is everything:',
      `GITHUB_TOKEN=${gh}`,
      `AWS_ACCESS_KEY_ID=${ak}`,
      `DATABASE_URL=postgres://app:${pw}@db:5432/app`,
      `DB_PASSWORD=${dbPass}`,
      `curl -H "Authorization: Bearer ${token}" https://api.example.com`,
      `OPENAI_API_KEY=${openai} and again ${openai}`,
      'assistant: rotate all of them.',
    ].join('\n');
    const out = redact(text);
    for (const secret of [gh, ak, pw, token, dbPass, openai]) assert.ok(!out.text.includes(secret), secret);
    assert.equal(
      out.text,
      [
        'user: my deploy broke, here is everything:',
        'GITHUB_TOKEN=[REDACTED:github-token]',
        'AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]',
        'DATABASE_URL=postgres://app:[REDACTED:url-password]@db:5432/app',
        'DB_PASSWORD=[REDACTED:env-secret]',
        'curl -H "Authorization: Bearer [REDACTED:jwt]" https://api.example.com',
        'OPENAI_API_KEY=[REDACTED:openai-key] and again [REDACTED:openai-key]',
        'assistant: rotate all of them.',
      ].join('\n'),
    );
    assert.deepEqual(out.counts, {
      'github-token': 1,
      'aws-access-key': 1,
      'url-password': 1,
      'env-secret': 1,
      jwt: 1,
      'openai-key': 2,
    });
  });

  it('redacts two private keys in one paste and keeps the lines around them', () => {
    const g = new Gen(5);
    const a = pem(g, 'RSA PRIVATE' + ' KEY', 8);
    const b = pem(g, 'OPENSSH PRIVATE' + ' KEY', 3);
    const text = `first:\n${a}\nsecond:\n${b}\nthat's all`;
    const out = redact(text);
    assert.equal(out.text, 'first:\n[REDACTED:private-key]\nsecond:\n[REDACTED:private-key]\nthat\'s all');
    assert.deepEqual(out.counts, { 'private-key': 2 });
  });
});

describe('redact: JSON-escaped transcripts', () => {
  it('redacts inside a JSONL line and the line still parses to the redacted content', () => {
    const g = new Gen(11);
    const gh = 'ghp_' + g.b62(36);
    const token = g.b62(32);
    const key = pem(g, 'EC PRIVATE' + ' KEY', 2);
    const content = `export GITHUB_TOKEN=${gh}\nand the config {"token":"${token}"}\n${key}\ndone`;
    const line = JSON.stringify({ role: 'user', content });
    assert.ok(line.includes('{\\"token\\":\\"'), 'fixture: the inner JSON is escaped');
    const out = redact(line);
    const parsed = JSON.parse(out.text) as { role: string; content: string };
    assert.equal(
      parsed.content,
      'export GITHUB_TOKEN=[REDACTED:github-token]\nand the config {"token":"[REDACTED:env-secret]"}\n[REDACTED:private-key]\ndone',
    );
    assert.deepEqual(out.counts, { 'github-token': 1, 'env-secret': 1, 'private-key': 1 });
  });
});

// Their speed (that they stay linear) is measured by bench/speed-budgets.ts, not asserted here: a
// busy machine must not fail a test. A super-linear pattern (hours on 1 MB) still fails through
// the hang guard.
describe('redact: hostile and huge inputs', { timeout: HANG_GUARD_MS }, () => {
  for (const { name, text, unchanged } of hostileInputs()) {
    it(`${name} is handled${unchanged ? ' and comes back unchanged' : ''}`, () => {
      const value = redact(text);
      if (unchanged) assert.ok(value.text === text, `${name}: changed ${JSON.stringify(value.counts)}`);
      assert.equal(redact(value.text).text, value.text, `${name}: idempotent`);
    });
  }

  it('5 MB of "a" comes back unchanged', () => {
    const text = 'a'.repeat(5 * 1024 * 1024);
    const value = redact(text);
    assert.ok(value.text === text);
    assert.deepEqual(value.counts, {});
  });

  it('1 MB of credential-word salad is idempotent', () => {
    const value = redact(credentialWordSalad());
    assert.equal(redact(value.text).text, value.text);
  });

  it('a long base64 blob is not high-entropy without a keyword, and is with one', () => {
    const blob = new Gen(8).b64(4096);
    assert.deepEqual(redact(`attachment ${blob} end`).counts, {});
    assert.deepEqual(redact(`secret ${blob} end`), { text: 'secret [REDACTED:high-entropy] end', counts: { 'high-entropy': 1 } });
  });

  it('a 5 MB transcript with secrets sprinkled through it: every one redacted', () => {
    const { text, secrets } = transcriptWithSecrets();
    const value = redact(text);
    assert.deepEqual(value.counts, { 'github-token': secrets.length });
    assert.ok(secrets.every((s) => !value.text.includes(s)));
  });
});

describe('redact: random mixtures (seeded)', () => {
  it('never leaks a corpus secret and is idempotent, whatever glues the texts together', () => {
    const glue = [' ', '\n', ', ', ' and ', '\n\n', '"', "'", ': ', '=', ' key ', ' token: ', ' password ', '\\n', '{"a":"', '"}', ' secret is ', '\t', '`'];
    for (let seed = 1; seed <= 400; seed++) {
      const next = seeded(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const parts: string[] = [];
      const secrets: string[] = [];
      for (let i = 0, n = 1 + Math.floor(next() * 6); i < n; i++) {
        if (next() < 0.6) {
          const c = pick(CASES);
          parts.push(c.text);
          secrets.push(c.secret);
        } else parts.push(pick(LOOK_ALIKES).text);
        parts.push(pick(glue));
      }
      const text = parts.join('');
      const once = redact(text).text;
      for (const secret of secrets) assert.ok(!once.includes(secret), `seed ${seed} leaked ${secret.slice(0, 12)}…`);
      assert.equal(redact(once).text, once, `seed ${seed} not idempotent`);
    }
  });
});

describe('redact: decisions', () => {
  const kindOf = (text: string): RedactionKind[] => Object.keys(redact(text).counts) as RedactionKind[];

  it('keeps user and host of a URL and redacts only the password', () => {
    assert.equal(
      redact('mysql://root:Sup3rS3cret@127.0.0.1:3306/db').text,
      'mysql://root:[REDACTED:url-password]@127.0.0.1:3306/db',
    );
  });

  it('keeps placeholder passwords in URLs', () => {
    for (const text of ['postgres://user:${DB_PASSWORD}@db/app', 'postgres://user:<password>@db/app', 'redis://:****@cache:6379']) {
      assert.deepEqual(redact(text).counts, {}, text);
    }
  });

  it('redacts a weak-looking password in .env and YAML, but not an ordinary word in prose', () => {
    assert.deepEqual(kindOf('PASSWORD=hunter'), ['env-secret']);
    assert.deepEqual(kindOf('password: hunter'), ['env-secret']);
    assert.deepEqual(kindOf('Reset the password: hunter, then log in'), []);
  });

  it('stops a truncated private key at the first line of prose', () => {
    const g = new Gen(13);
    const key = pem(g, 'RSA PRIVATE' + ' KEY', 4).split('\n').slice(0, 3).join('\n');
    const text = `${key}\ninternationalization is hard, and so is this paste`;
    assert.equal(redact(text).text, '[REDACTED:private-key]\ninternationalization is hard, and so is this paste');
  });

  it('names the more specific kind when a generic detector finds the same secret', () => {
    const g = new Gen(4);
    assert.deepEqual(kindOf(`STRIPE_SECRET_KEY="sk_live_${g.b62(24)}"`), ['stripe-key']);
    assert.deepEqual(kindOf(`token: ghp_${g.b62(36)}`), ['github-token']);
    assert.deepEqual(kindOf(`Authorization: Bearer ${jwt(g)}`), ['jwt']);
  });
});
