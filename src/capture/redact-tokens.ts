// Provider token shapes: one regular expression each, found wherever they occur. Adding a
// provider is one rule here (the long tail of vendors lives in redact-tokens-more.ts).
//
// Boundaries (issue 30 item 3): a token normally starts after a character that cannot be part of
// it, or right after a `\n`, `\t` or `\r` escape written out as two characters (a JSON string
// shown inside a message). A distinctive prefix (`sk-proj-`, `ghp_`, `hvs.`, …) is also found
// glued to the word before it (`…jumpssk-proj-…`), since nothing else starts that way.
//
// Patterns start with their literal prefix, so the regex engine skips ahead to it; the start
// boundary is checked in code rather than by a leading look-behind, which would be tried at every
// position of a 5 MB text. A match that fails the boundary can only sit inside a run of token
// characters, where no token may start, so the scan resumes after that run: still linear.
import { toTextPosition, type Candidates } from './redact-candidates.js';
import type { RedactionKind, Span } from './redact-kinds.js';
import { isCredentialBody, isPlaceholder, isReference, isTokenish } from './redact-values.js';

/** A provider token shape found by one regular expression. */
export interface TokenRule {
  readonly kind: RedactionKind;
  /** Global regex; has the `d` flag when `group` is set. */
  readonly pattern: RegExp;
  /** Capture group holding the secret; the whole match when absent. */
  readonly group?: number;
  /** Last check on the secret text (placeholders, randomness) and its match; accepted when absent. */
  readonly accept?: (secret: string, match: RegExpMatchArray) => boolean;
  /** A literal every match contains: a text without it skips the rule (one cheap indexOf). */
  readonly needle?: string;
  /** What may not come right before the match (a written-out escape always may). */
  readonly boundary?: Boundary;
  /**
   * `text`: the rule reads the words around the token (a URL, a header, a name), so it runs on the
   * whole text. Otherwise (and for no rule with a `group`) it runs on the candidate runs only.
   */
  readonly scope?: 'text';
}

/** Characters that cannot come right before a token (`token`) or an alphanumeric key (`alnum`). */
export type Boundary = 'token' | 'alnum';

/**
 * A look-behind placed right after a literal prefix: the prefix stands at a token start. After the
 * literal (not before it) so the engine still skips ahead to the literal, and a failed attempt
 * cannot repeat at every copy of the prefix inside one long run.
 */
export function atStart(literal: string): string {
  return `(?<=(?:^|[^A-Za-z0-9_-]|\\\\[ntr])${literal})`;
}

/** A rule for `prefix` + body: glued prefixes may follow a letter, others need a token start. */
export function prefixed(kind: RedactionKind, prefix: string, body: string, glued = true): TokenRule {
  const literal = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    kind,
    pattern: new RegExp(`${literal}${glued ? '' : atStart(literal)}${body}`, 'g'),
    accept: (secret) => isCredentialBody(secret.slice(prefix.length)),
    needle: prefix,
  };
}

/** Accepts a prefixed token when its body (after `prefix`) looks like a credential. */
export function bodyAfter(prefix: RegExp): (secret: string) => boolean {
  return (secret) => isCredentialBody(secret.replace(prefix, ''));
}

/** A Discord bot token's first part is its bot's numeric id in base64: that tells it from noise. */
function isDiscordBotToken(token: string): boolean {
  const id = Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('latin1');
  return /^\d{17,20}$/.test(id) && isCredentialBody(token.slice(token.lastIndexOf('.') + 1));
}

const SCHEME_BEFORE = /(?:^|[^A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,19}$/;

/** A URL scheme (2–20 characters, starting with a letter) ends at `at`. */
function hasScheme(text: string, at: number): boolean {
  return SCHEME_BEFORE.test(text.slice(Math.max(0, at - 21), at));
}

/** Major providers, in no particular order (priority comes from the kind). */
export const TOKEN_RULES: readonly TokenRule[] = [
  prefixed('anthropic-key', 'sk-ant-', '[A-Za-z0-9_-]{20,}'),
  {
    kind: 'openai-key',
    // `sk-proj-`, `sk-svcacct-` and `sk-admin-` are distinctive; a bare `sk-` needs a boundary.
    pattern: /sk-(?!ant-|or-v1-)[A-Za-z0-9_-]{20,}/g,
    accept: bodyAfter(/^sk-(?:proj-|svcacct-|admin-)?/),
    needle: 'sk-',
    boundary: 'token',
  },
  {
    // `sk-proj-`, `sk-svcacct-` and `sk-admin-` are distinctive: found glued to a word too.
    kind: 'openai-key',
    pattern: /sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/g,
    accept: bodyAfter(/^sk-[a-z]+-/),
    needle: 'sk-',
  },
  {
    kind: 'aws-access-key',
    pattern: /A(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    accept: bodyAfter(/^[A-Z0-9]{4}/),
    boundary: 'alnum',
  },
  {
    kind: 'github-token',
    pattern: /gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}/g,
    accept: bodyAfter(/^(?:gh[pousr]_|github_pat_)/),
  },
  {
    kind: 'gitlab-token',
    pattern: /gl(?:pat|dt|ptt|rt|cbt|imt|ft|soat|oas|agent|ffct)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,}/g,
    accept: bodyAfter(/^(?:gl[a-z]+-|GR1348941)/),
  },
  {
    kind: 'slack-token',
    pattern: /(?:xox[abeoprs](?:\.xox[bp])?|xapp)-[A-Za-z0-9][A-Za-z0-9-]{8,}[A-Za-z0-9]/g,
    accept: bodyAfter(/^[a-z.]+-/),
  },
  {
    kind: 'slack-token',
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_/-]{10,})/dg,
    group: 1,
    accept: isCredentialBody,
    needle: '//hooks.slack.com',
  },
  {
    kind: 'stripe-key',
    pattern: /(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{24,}/g,
    accept: bodyAfter(/^(?:(?:sk|rk)_(?:live|test|prod)_|whsec_)/),
  },
  prefixed('google-api-key', 'AIza', '[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])', false),
  prefixed('google-api-key', 'AAAA', '[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}', false),
  {
    kind: 'google-oauth',
    pattern: /ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,}|1\/\/0[0-9A-Za-z_-]{30,}/g,
    accept: bodyAfter(/^(?:ya29\.|GOCSPX-|1\/\/0)/),
    boundary: 'token',
  },
  prefixed('npm-token', 'npm_', '[A-Za-z0-9]{36,}'),
  prefixed('huggingface-token', 'hf_', '[A-Za-z0-9]{30,}', false),
  prefixed('huggingface-token', 'api_org_', '[A-Za-z]{30,}'),
  { kind: 'jwt', pattern: new RegExp(`eyJ${atStart('eyJ')}[A-Za-z0-9_-]{8,4096}\\.[A-Za-z0-9_-]{8,65536}\\.[A-Za-z0-9_-]*`, 'g'), needle: 'eyJ' },
  prefixed('sendgrid-key', 'SG.', '[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])', false),
  prefixed('twilio-key', 'SK', '[0-9a-fA-F]{32}(?![A-Za-z0-9])', false),
  { kind: 'vault-token', pattern: /hv[sbr]\.[A-Za-z0-9_-]{24,}/g, accept: bodyAfter(/^hv[sbr]\./), needle: 'hv' },
  {
    kind: 'doppler-token',
    pattern: /dp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_-]{1,30}\.)?[A-Za-z0-9]{40,}/g,
    accept: bodyAfter(/^dp\.[a-z]+\.(?:[a-z0-9_-]+\.)?/),
    needle: 'dp.',
  },
  prefixed('sentry-key', 'sntryu_', '[a-f0-9]{64}'),
  prefixed('sentry-key', 'sntrys_', 'eyJ[A-Za-z0-9+/=_-]{50,}'),
  {
    // The public key of a DSN (`https://<key>@o1.ingest.sentry.io/42`): it lets anyone post events.
    kind: 'sentry-key',
    pattern: /https?:\/\/([0-9a-f]{32})(?::[0-9a-f]{32})?@[A-Za-z0-9.-]{1,253}(?::\d{1,5})?\/(?:[\w.-]{1,64}\/){0,4}\d{1,12}(?![\w/])/dg,
    group: 1,
    needle: '@',
  },
  {
    kind: 'discord-token',
    pattern: /https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api(?:\/v\d{1,2})?\/webhooks\/\d{15,20}\/([A-Za-z0-9_-]{60,80})/dg,
    group: 1,
    accept: isCredentialBody,
    needle: '/webhooks/',
  },
  {
    kind: 'discord-token',
    pattern: /[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g,
    accept: isDiscordBotToken,
    needle: '.',
    boundary: 'token',
  },
  {
    // `<bot id>:<35 characters>`, also glued after `bot` in an API URL.
    kind: 'telegram-token',
    pattern: /(?<![\d:])\d{5,16}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])/g,
    accept: (t) => isCredentialBody(t.slice(t.indexOf(':') + 1)),
    needle: ':A',
  },
  prefixed('pypi-token', 'pypi-AgEIcHlwaS5vcmc', '[A-Za-z0-9_-]{50,}'),
  { kind: 'shopify-token', pattern: /shp(?:at|ca|pa|ss)_[A-Za-z0-9]{32,}/g, accept: bodyAfter(/^shp[a-z]{2}_/), needle: 'shp' },
  prefixed('mailgun-key', 'key-', '[0-9a-f]{32}(?![0-9A-Za-z])', false),
  { kind: 'mailgun-key', pattern: /[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}(?![0-9A-Za-z-])/g, needle: '-', boundary: 'token' },
  { kind: 'mailchimp-key', pattern: /[0-9a-f]{32}-us\d{1,2}(?![0-9A-Za-z])/g, needle: '-us', boundary: 'token' },
  prefixed('heroku-key', 'HRKU-AA', '[0-9a-zA-Z_-]{58}'),
  { kind: 'digitalocean-token', pattern: /do[opr]_v1_[a-f0-9]{64}/g, accept: bodyAfter(/^do[a-z]_v1_/), needle: '_v1_' },
  {
    // A shared access signature in a URL: whoever has it has the storage access it grants.
    kind: 'azure-key',
    pattern: /[?&;]sig=([A-Za-z0-9%+/=_-]{20,})/dg,
    group: 1,
    accept: isCredentialBody,
    needle: '=',
  },
  {
    kind: 'azure-key',
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
    accept: bodyAfter(/^.{4}Q~/),
    needle: 'Q~',
  },
  { kind: 'square-token', pattern: /sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}/g, accept: bodyAfter(/^sq0[a-z]{3}-/), needle: 'sq0' },
  prefixed('square-token', 'EAAA', '[A-Za-z0-9_-]{60,}', false),
  prefixed('paypal-token', 'access_token$', '(?:production|sandbox)\\$[0-9a-z]{16}\\$[0-9a-f]{32}'),
  prefixed('atlassian-token', 'ATATT3', '[A-Za-z0-9_=-]{150,}'),
  prefixed('atlassian-token', 'ATCTT3', '[A-Za-z0-9_=-]{150,}'),
  prefixed('atlassian-token', 'ATBB', '[A-Za-z0-9]{32,}', false),
  { kind: 'linear-key', pattern: /lin_(?:api|oauth)_[A-Za-z0-9]{32,}/g, accept: bodyAfter(/^lin_[a-z]+_/), needle: 'lin_' },
  prefixed('notion-token', 'ntn_', '[0-9]{11}[A-Za-z0-9]{32,}'),
  prefixed('notion-token', 'secret_', '[A-Za-z0-9]{43}(?![A-Za-z0-9_-])', false),
  { kind: 'okta-token', pattern: /\bSSWS[ \t]+(00[A-Za-z0-9_-]{40})/dg, group: 1, accept: isCredentialBody, needle: 'SSWS' },
  { kind: 'newrelic-key', pattern: /NR(?:AK|II|AA|IQ|SP|JS)-[A-Za-z0-9]{19,}/g, accept: bodyAfter(/^NR[A-Z]{2}-/), needle: 'NR' },
  { kind: 'newrelic-key', pattern: /[a-f0-9]{36}NRAL(?![A-Za-z0-9])/g, needle: 'NRAL', boundary: 'token' },
  prefixed('postman-key', 'PMAK-', '[a-f0-9]{24}-[a-f0-9]{34}'),
  prefixed('grafana-token', 'glsa_', '[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}'),
  prefixed('grafana-token', 'glc_', '[A-Za-z0-9+/]{32,}={0,2}'),
  prefixed('grafana-token', 'eyJrIjoi', '[A-Za-z0-9]{40,}={0,2}', false),
  {
    kind: 'aws-secret',
    pattern:
      /(?:aws[_ -]?secret[_ -]?(?:access[_ -]?)?key|secret[_ -]?access[_ -]?key)["'`\\]{0,3}[ \t]*(?::=|=>|[:=]|[ \t]is)?[ \t]*["'`\\]{0,3}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgi,
    group: 1,
    accept: isCredentialBody,
  },
  {
    kind: 'aws-secret',
    pattern: /X-Amz-Security-Token=([A-Za-z0-9%+/=_-]{20,})/dg,
    group: 1,
    accept: isCredentialBody,
    needle: 'X-Amz-Security-Token=',
    scope: 'text',
  },
  {
    // `scheme://user:PASSWORD@host`. The match starts at `://` (the engine skips to it); the
    // scheme before it is checked in code.
    kind: 'url-password',
    pattern: /:\/\/[^\s:/?#@"'`<>\\]{0,128}:([^\s/?#"'`<>\\]{1,256})@(?=[A-Za-z0-9[])/dg,
    group: 1,
    accept: (pw, m) => hasScheme(m.input!, m.index!) && !isPlaceholder(pw) && !isReference(pw),
    needle: '://',
  },
  {
    kind: 'basic-auth',
    pattern: /authorization["'`\\]{0,3}[ \t]*[:=][ \t]*["'`\\]{0,3}basic[ \t]+([A-Za-z0-9+/]{8,}={0,2})/dgi,
    group: 1,
    accept: (v) => !isPlaceholder(v),
  },
  {
    kind: 'bearer-token',
    pattern: /bearer[ \t]+([A-Za-z0-9._~+/-]{12,}={0,2})/dgi,
    group: 1,
    accept: isTokenish,
    boundary: 'token',
  },
  {
    // Other schemes of an Authorization header: `Token` (Django REST, GitHub), `Bot`, `Api-Key`.
    kind: 'bearer-token',
    pattern: /authorization["'`\\]{0,3}[ \t]*[:=][ \t]*["'`\\]{0,3}(?:token|bot|api-?key)[ \t]+([A-Za-z0-9._~+/-]{12,}={0,2})/dgi,
    group: 1,
    accept: isTokenish,
  },
];

function isBoundaryChar(c: number, boundary: Boundary): boolean {
  const alnum = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  return !(alnum || (boundary === 'token' && (c === 95 || c === 45)));
}

/** `at` may start a token: after a boundary character, at the start, or after a `\n`-style escape. */
export function atTokenStart(text: string, at: number, boundary: Boundary = 'token'): boolean {
  if (at === 0 || isBoundaryChar(text.charCodeAt(at - 1), boundary)) return true;
  return at >= 2 && text[at - 2] === '\\' && 'ntr'.includes(text[at - 1]!);
}

/** Adds every match of `rule` in `text` to `out`. */
export function findTokens(text: string, rule: TokenRule, out: Span[]): void {
  if (rule.needle !== undefined && !text.includes(rule.needle)) return;
  const pattern = rule.pattern;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (rule.boundary !== undefined && !atTokenStart(text, m.index, rule.boundary)) {
      // Inside a run of token characters: nothing can start before the run ends.
      let i = m.index;
      while (i < text.length && !isBoundaryChar(text.charCodeAt(i), rule.boundary)) i++;
      pattern.lastIndex = Math.max(i, m.index + 1);
      continue;
    }
    if (m[0].length === 0) pattern.lastIndex++;
    let start = m.index;
    let end = start + m[0].length;
    if (rule.group !== undefined) {
      const range = m.indices?.[rule.group];
      if (range === undefined) continue;
      [start, end] = range;
    }
    if (rule.accept !== undefined && !rule.accept(text.slice(start, end), m)) continue;
    out.push({ start, end, kind: rule.kind });
  }
}

/** Runs `rules`: those that need their surroundings on `text`, the others on the candidate runs. */
export function findTokenSpans(text: string, candidates: Candidates, rules: readonly TokenRule[], out: Span[]): void {
  const inRuns: Span[] = [];
  for (const rule of rules) {
    if (rule.scope === 'text' || rule.group !== undefined) findTokens(text, rule, out);
    else if (candidates.joined.length > 0) findTokens(candidates.joined, rule, inRuns);
  }
  for (const s of inRuns) {
    out.push({ start: toTextPosition(candidates, s.start), end: toTextPosition(candidates, s.end - 1) + 1, kind: s.kind });
  }
}
