// What a credential looks like, kept apart from the scanner in redact.ts: the stable redaction
// kinds, the provider token shapes, and the value tests that tell a secret from a look-alike
// (placeholder, env lookup, hash, identifier, path). Adding a provider is one rule here.
//
// Every pattern starts with a literal or a negative look-behind, so in a long run of token
// characters only one start position can match: no pattern backtracks more than linearly.

/**
 * Redaction kinds. Stable strings: they are written into `[REDACTED:<kind>]` markers and counted
 * in `cairn status`. Listed in priority order: when two detectors claim the same start, the
 * earlier kind names the marker. One example shape each:
 *
 * - `private-key`: `-----BEGIN (RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP …) PRIVATE KEY( BLOCK)?-----`
 *   through the matching `-----END …-----` (multi-line or `\n`-escaped); a block with no END is
 *   redacted through its base64 body.
 * - `jwt`: `eyJ<header>.<payload>.<signature>` (three base64url parts, header starting `eyJ`).
 * - `anthropic-key`: `sk-ant-api03-…`, `sk-ant-admin01-…`.
 * - `openai-key`: `sk-…`, `sk-proj-…`, `sk-svcacct-…`, `sk-admin-…`.
 * - `aws-access-key`: `AKIA…`, `ASIA…`, `ABIA…`, `ACCA…` + 16 upper-case alphanumerics.
 * - `github-token`: `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` + 30+ alphanumerics; `github_pat_…`.
 * - `gitlab-token`: `glpat-…` (and `gldt-`, `glptt-`, `glrt-`, `glcbt-`, `glimt-`, `glft-`,
 *   `glsoat-`, `gloas-`, `glagent-`).
 * - `slack-token`: `xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xoxe-`, `xoxo-`, `xapp-`; and the
 *   path of `https://hooks.slack.com/services/…` webhooks (scheme and host are kept).
 * - `stripe-key`: `sk_live_`, `sk_test_`, `rk_live_`, `rk_test_`, `whsec_`. Publishable keys
 *   (`pk_live_`, `pk_test_`) are public by design, ship in web pages, and are kept.
 * - `google-api-key`: `AIza` + 35 characters.
 * - `google-oauth`: access tokens `ya29.…`, refresh tokens `1//0…`, client secrets `GOCSPX-…`.
 * - `npm-token`: `npm_` + 36 alphanumerics.
 * - `huggingface-token`: `hf_` + 30+ alphanumerics.
 * - `aws-secret`: a 40-character secret after `aws_secret_access_key`, `SecretAccessKey`, ….
 * - `url-password`: `scheme://user:PASSWORD@host`: only the password goes, user and host stay.
 * - `basic-auth`: `Authorization: Basic <base64>`: the base64 credentials.
 * - `bearer-token`: `Bearer <token>` (header or prose): the token.
 * - `env-secret`: the value in `NAME=value`, `export NAME=value`, `NAME: value`,
 *   `"name": "value"`, `--name=value`, `name := "value"`, `'name' => 'value'` where NAME ends in
 *   SECRET, TOKEN, PASSWORD, PASSWD, PWD, PASS, PASSPHRASE, KEY, API_KEY, PRIVATE, CREDENTIAL(S),
 *   AUTH (any case, snake, kebab or camel). See `classifySecretName` and `isSecretValue`.
 * - `high-entropy`: a random-looking token of 20+ characters within five words after key, token,
 *   secret, password, passwd, pwd, passphrase, credential, auth, authorization or bearer.
 */
export const REDACTION_KINDS = [
  'private-key',
  'jwt',
  'anthropic-key',
  'openai-key',
  'aws-access-key',
  'github-token',
  'gitlab-token',
  'slack-token',
  'stripe-key',
  'google-api-key',
  'google-oauth',
  'npm-token',
  'huggingface-token',
  'aws-secret',
  'url-password',
  'basic-auth',
  'bearer-token',
  'env-secret',
  'high-entropy',
] as const;

export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** Priority of a kind when two detectors claim the same start: lower wins. */
export const KIND_PRIORITY: Readonly<Record<RedactionKind, number>> = Object.fromEntries(
  REDACTION_KINDS.map((kind, i) => [kind, i]),
) as Record<RedactionKind, number>;

/** A provider token shape found by one regular expression. */
export interface TokenRule {
  readonly kind: RedactionKind;
  /** Global regex; has the `d` flag when `group` is set. */
  readonly pattern: RegExp;
  /** Capture group holding the secret; the whole match when absent. */
  readonly group?: number;
  /** Last check on the secret text (placeholders, randomness); accepted when absent. */
  readonly accept?: (secret: string) => boolean;
}

// A token may not start right after a token character (keeps matching linear, avoids suffixes).
const START = '(?<![A-Za-z0-9_-])';

/** Accepts a prefixed token when its body (after `prefix`) looks like a credential. */
function bodyAfter(prefix: RegExp): (secret: string) => boolean {
  return (secret) => isCredentialBody(secret.replace(prefix, ''));
}

/** Provider token shapes, in no particular order (priority comes from the kind). */
export const TOKEN_RULES: readonly TokenRule[] = [
  { kind: 'anthropic-key', pattern: new RegExp(`${START}sk-ant-[A-Za-z0-9_-]{20,}`, 'g'), accept: bodyAfter(/^sk-ant-/) },
  {
    kind: 'openai-key',
    pattern: new RegExp(`${START}sk-(?!ant-)[A-Za-z0-9_-]{20,}`, 'g'),
    accept: bodyAfter(/^sk-(?:proj-|svcacct-|admin-)?/),
  },
  {
    kind: 'aws-access-key',
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    accept: bodyAfter(/^[A-Z]{4}/),
  },
  {
    kind: 'github-token',
    pattern: new RegExp(`${START}(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})`, 'g'),
    accept: bodyAfter(/^(?:gh[pousr]_|github_pat_)/),
  },
  {
    kind: 'gitlab-token',
    pattern: new RegExp(`${START}gl(?:pat|dt|ptt|rt|cbt|imt|ft|soat|oas|agent)-[A-Za-z0-9_-]{20,}`, 'g'),
    accept: bodyAfter(/^gl[a-z]+-/),
  },
  {
    kind: 'slack-token',
    pattern: new RegExp(`${START}(?:xox[abeoprs](?:\\.xox[bp])?|xapp)-[A-Za-z0-9][A-Za-z0-9-]{8,}[A-Za-z0-9]`, 'g'),
    accept: bodyAfter(/^[a-z.]+-/),
  },
  {
    kind: 'slack-token',
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_/-]{10,})/dg,
    group: 1,
    accept: isCredentialBody,
  },
  {
    kind: 'stripe-key',
    pattern: new RegExp(`${START}(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})`, 'g'),
    accept: bodyAfter(/^(?:(?:sk|rk)_(?:live|test)_|whsec_)/),
  },
  {
    kind: 'google-api-key',
    pattern: new RegExp(`${START}AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`, 'g'),
    accept: bodyAfter(/^AIza/),
  },
  {
    kind: 'google-oauth',
    pattern: new RegExp(`${START}(?:ya29\\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,}|1//0[0-9A-Za-z_-]{30,})`, 'g'),
    accept: bodyAfter(/^(?:ya29\.|GOCSPX-|1\/\/0)/),
  },
  { kind: 'npm-token', pattern: new RegExp(`${START}npm_[A-Za-z0-9]{36,}`, 'g'), accept: bodyAfter(/^npm_/) },
  { kind: 'huggingface-token', pattern: new RegExp(`${START}hf_[A-Za-z0-9]{30,}`, 'g'), accept: bodyAfter(/^hf_/) },
  {
    kind: 'jwt',
    pattern: new RegExp(`${START}eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*`, 'g'),
  },
  {
    kind: 'aws-secret',
    pattern:
      /(?:aws[_ -]?secret[_ -]?(?:access[_ -]?)?key|secret[_ -]?access[_ -]?key)["'`\\]{0,3}[ \t]*(?::=|=>|[:=]|[ \t]is)?[ \t]*["'`\\]{0,3}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgi,
    group: 1,
    accept: isCredentialBody,
  },
  {
    kind: 'url-password',
    pattern:
      /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,19}:\/\/[^\s:/?#@"'`<>\\]{0,128}:([^\s/?#"'`<>\\]{1,256})@(?=[A-Za-z0-9[])/dg,
    group: 1,
    accept: (pw) => !isPlaceholder(pw) && !isReference(pw),
  },
  {
    kind: 'basic-auth',
    pattern: /authorization["'`\\]{0,3}[ \t]*[:=][ \t]*["'`\\]{0,3}basic[ \t]+([A-Za-z0-9+/]{8,}={0,2})/dgi,
    group: 1,
    accept: (v) => !isPlaceholder(v),
  },
  {
    kind: 'bearer-token',
    pattern: /(?<![A-Za-z0-9_-])bearer[ \t]+([A-Za-z0-9._~+/-]{12,}={0,2})/dgi,
    group: 1,
    accept: isTokenish,
  },
];

// ---------------------------------------------------------------------------------------------
// Value tests shared by the detectors.

const HEX = /^[0-9a-fA-F]+$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** npm/SRI integrity hashes: public checksums, not secrets. */
const INTEGRITY = /^sha(?:1|256|384|512)-/;
/** Stripe publishable keys: public by design. */
const PUBLISHABLE = /^pk_(?:live|test)_/;
const DATE_OR_VERSION = /^v?\d+(?:[.:-]\d+)+(?:[-+.T][0-9A-Za-z.:+-]*)?$/;

/**
 * Marks of a documentation placeholder, chosen to be unlikely inside a real credential: runs of
 * x or *, ellipses, `your_…`/`…_here`, `example` (the AWS docs keys), `placeholder`, `redacted`.
 */
const PLACEHOLDER_MARK =
  /x{5,}|\*{3,}|\.{3}|…|^your[_-]|^your(?:api)?(?:key|token|secret|password)|[_-]here$|example|placeholder|redacted|^insert[_-]|^replace[_-]?me$/i;
/** Whole values that are templates, masks or empty markers. */
const PLACEHOLDER_SHAPE = /^(?:<[^>]*>|\[[^\]]*\]|\{\{.*\}\}|\*+|[xX]+|\.+|-+|_+|#+|\?+|0+)$/;
const PLACEHOLDER_WORDS = new Set([
  'changeme', 'change_me', 'change-me', 'placeholder', 'secret', 'secrets', 'password', 'passwd', 'pass',
  'token', 'apikey', 'api_key', 'key', 'dummy', 'sample', 'todo', 'tbd', 'fixme', 'none', 'null', 'nil',
  'undefined', 'true', 'false', 'yes', 'no', 'on', 'off', 'empty', 'required', 'optional', 'string', 'str',
  'int', 'integer', 'number', 'bool', 'boolean', 'any', 'bytes', 'object', 'unknown', 'hidden', 'masked',
  'notset', 'not_set', 'n/a', 'na', 'default', 'auto', 'env',
]);

/**
 * A placeholder, not a secret: empty, `<your-key>`, `{{ token }}`, `xxxxx`, `****`, `sk-...`,
 * `YOUR_TOKEN_HERE`, `changeme`, `null`, type names, and the AWS documentation examples
 * (`…EXAMPLE…`). Decision: placeholders are kept so docs and config templates read as written.
 */
export function isPlaceholder(value: string): boolean {
  if (value.length === 0) return true;
  if (PLACEHOLDER_SHAPE.test(value) || PLACEHOLDER_MARK.test(value)) return true;
  return PLACEHOLDER_WORDS.has(value.toLowerCase());
}

/**
 * A reference to where the secret lives, not the secret: `$VAR`, `${VAR}`, `$(cmd)`, `%VAR%`,
 * `{{ secrets.X }}`, `process.env.X`, `os.environ[...]`, `os.getenv(...)`, `ENV[...]`.
 */
export function isReference(value: string): boolean {
  return /^(?:\$[A-Za-z_{(]|%[A-Za-z_]\w*%|\{\{|process\.env\b|os\.environ\b|os\.getenv\b|getenv\b|ENV\[|System\.getenv\b|import\.meta\.env\b)/.test(
    value,
  );
}

/**
 * A file path or URL (URL passwords have their own detector). A random-looking value that
 * merely starts with `/` is base64, not a path.
 */
export function isPathOrUrl(value: string): boolean {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value)) return true;
  return /^(?:\/[\w.~-]|\.{1,2}\/|~\/|[A-Za-z]:\\)/.test(value) && !looksRandom(value);
}

/** Shannon entropy in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const freq = new Map<number, number>();
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    freq.set(c, (freq.get(c) ?? 0) + 1);
  }
  let bits = 0;
  for (const n of freq.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

interface Shape {
  lower: boolean;
  upper: boolean;
  digit: boolean;
  symbol: boolean;
  /** Mean length of runs of one class among letters and digits: ~1.6 for random, 3+ for words. */
  meanRun: number;
}

function shapeOf(value: string): Shape {
  let lower = false;
  let upper = false;
  let digit = false;
  let symbol = false;
  let runs = 0;
  let alnum = 0;
  let prev = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    let cls: string;
    if (c >= 97 && c <= 122) (cls = 'l'), (lower = true);
    else if (c >= 65 && c <= 90) (cls = 'u'), (upper = true);
    else if (c >= 48 && c <= 57) (cls = 'd'), (digit = true);
    else {
      symbol = true;
      prev = '';
      continue;
    }
    alnum++;
    if (cls !== prev) runs++;
    prev = cls;
  }
  return { lower, upper, digit, symbol, meanRun: runs === 0 ? 0 : alnum / runs };
}

/**
 * The body of a prefixed provider token looks like a credential: no placeholder marks, at least
 * two of lower/upper/digit, at least six distinct characters. Keeps `sk-...`,
 * `ghp_xxxxxxxx…`, `xoxb-your-token-here` and hyphenated prose like `sk-learn-style-names`.
 */
export function isCredentialBody(body: string): boolean {
  if (isPlaceholder(body)) return false;
  const s = shapeOf(body);
  if (Number(s.lower) + Number(s.upper) + Number(s.digit) < 2) return false;
  return new Set(body).size >= 6;
}

/** A token after `Bearer`: letters and digits mixed like a credential, not a word or a variable. */
export function isTokenish(value: string): boolean {
  if (isPlaceholder(value) || isReference(value)) return false;
  const s = shapeOf(value);
  const mixed = (s.digit && (s.lower || s.upper)) || (s.lower && s.upper && value.length >= 16);
  return mixed && s.meanRun <= 3;
}

/** Hashes, UUIDs, integrity checksums, publishable keys, dates and versions: never secrets here. */
export function isKnownPublicShape(value: string): boolean {
  return (
    HEX.test(value) ||
    UUID.test(value) ||
    INTEGRITY.test(value) ||
    PUBLISHABLE.test(value) ||
    DATE_OR_VERSION.test(value)
  );
}

/**
 * Random-looking enough to be a credential with no other evidence than a nearby keyword:
 * 20+ characters, three of lower/upper/digit/symbol, entropy >= 3.5 bits per character, and
 * class runs as short as random text has (CamelCase names, kebab-case ids and paths have long
 * runs). Hex strings (git SHAs, digests), UUIDs and integrity hashes are kept: in transcripts
 * they are hashes far more often than secrets, and a named assignment still catches hex secrets.
 */
export function looksRandom(value: string): boolean {
  if (value.length < 20 || isKnownPublicShape(value) || isPlaceholder(value)) return false;
  const s = shapeOf(value);
  if (Number(s.lower) + Number(s.upper) + Number(s.digit) + Number(s.symbol) < 3) return false;
  if (s.meanRun > 2.75) return false;
  return shannonEntropy(value) >= 3.5;
}

/**
 * A value under a weak name (`key`, `token`, `auth` with no qualifier) must look like a
 * credential on its own: 8+ characters, no spaces, letters and digits in short runs, and not a
 * hash, UUID, date or version. Keeps `primary key: id`, `sort_key: created_at`, `key: Enter`.
 */
export function isCredentialShaped(value: string): boolean {
  if (value.length < 8 || /\s/.test(value) || isKnownPublicShape(value)) return false;
  if (looksRandom(value)) return true;
  const s = shapeOf(value);
  return s.digit && (s.lower || s.upper) && s.meanRun <= 3;
}

// ---------------------------------------------------------------------------------------------
// Secret names for env-style assignments.

const STRONG_SEGMENTS = new Set([
  'secret', 'secrets', 'password', 'passwords', 'passwd', 'pwd', 'pass', 'passphrase', 'credential',
  'credentials', 'private', 'apikey', 'accesskey', 'secretkey', 'privatekey', 'accesstoken', 'authtoken',
  'refreshtoken', 'sessiontoken', 'idtoken', 'apitoken', 'clientsecret', 'bearertoken', 'masterkey',
  'signingkey', 'sessionkey', 'authkey',
]);
const WEAK_SEGMENTS = new Set(['key', 'token', 'auth', 'authorization']);
/** A qualifier before `key`/`token` that makes the pair a credential name (`api_key`, `accessToken`). */
const KEY_QUALIFIERS = new Set([
  'api', 'access', 'secret', 'private', 'auth', 'refresh', 'session', 'client', 'bearer', 'id', 'service',
  'master', 'signing', 'encryption', 'webhook', 'app', 'bot', 'personal', 'deploy', 'admin', 'oauth', 'csrf',
  'xsrf', 'hmac', 'license', 'account', 'user', 'integration',
]);
/** Segments allowed after the keyword: `SECRET_KEY_BASE`, `API_KEY_2`, `password_confirmation`. */
const TRAILING_OK = new Set([
  'base', 'value', 'val', 'str', 'b64', 'base64', 'hex', 'raw', 'plain', 'enc', 'encoded', 'data', 'prod',
  'production', 'dev', 'development', 'staging', 'test', 'live', 'old', 'new', 'primary', 'secondary',
  'current', 'next', 'prev', 'previous', 'confirm', 'confirmation', 'hash', 'hashed', 'digest',
]);
const PUBLIC_SEGMENTS = new Set(['public', 'publishable', 'pub']);
const NUMERIC_SECRET_SEGMENTS = new Set(['password', 'passwords', 'passwd', 'pwd', 'passphrase', 'secret', 'pin']);

/** Lower-case name segments split on `_ - .` and camelCase: `OPENAI_API_KEY` → openai, api, key. */
export function nameSegments(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((s) => s.length > 0);
}

/** How sure a name is to hold a secret, or null when it is not a secret name. */
export interface SecretName {
  /** strong: any real value is a secret; weak: only credential-shaped values are. */
  strength: 'strong' | 'weak';
  /** Whether an all-digit value counts (PINs and numeric passwords, not token counts). */
  numeric: boolean;
}

/**
 * Classifies an assignment name. The keyword must be the name's last segment (or be followed
 * only by harmless suffixes), so `max_tokens`, `token_count`, `key_path`, `secret_name` and
 * `PRIVATE_KEY_PATH` are not secret names. Names with `public` are never secret names.
 */
export function classifySecretName(name: string): SecretName | null {
  const segs = nameSegments(name);
  if (segs.some((s) => PUBLIC_SEGMENTS.has(s))) return null;
  let i = segs.length - 1;
  while (i >= 0 && !STRONG_SEGMENTS.has(segs[i]!) && !WEAK_SEGMENTS.has(segs[i]!)) {
    if (!TRAILING_OK.has(segs[i]!) && !/^v?\d+$/.test(segs[i]!)) return null;
    i--;
  }
  if (i < 0) return null;
  const seg = segs[i]!;
  const numeric = segs.some((s) => NUMERIC_SECRET_SEGMENTS.has(s));
  if (STRONG_SEGMENTS.has(seg)) return { strength: 'strong', numeric };
  const envStyle = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(name);
  const qualified = i > 0 && (KEY_QUALIFIERS.has(segs[i - 1]!) || envStyle);
  if ((seg === 'key' || seg === 'token') && qualified) return { strength: 'strong', numeric };
  return { strength: 'weak', numeric };
}

/** How a value was written, for `isSecretValue`. */
export interface ValueContext {
  name: string;
  secretName: SecretName;
  /** The value sat in quotes (a literal), not bare (a literal in .env/YAML, or code). */
  quoted: boolean;
  /** The assignment operator: `=`, `:`, `:=` or `=>`. */
  op: string;
  /** Whitespace around the operator (`x = y`: code style; `X=y`: .env style). */
  spacedOp: boolean;
  /** The name opens its line (YAML/.env), as opposed to sitting in prose. */
  lineStart: boolean;
  /** The character right after a bare value (`(` or `[` means a call or index expression). */
  after: string;
}

const MEMBER_CHAIN = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
/** One word, or camel/PascalCase words of 2+ letters each: `timing`, `NONE`, `SecretStr`. */
const WORD_LIKE = /^(?:[A-Za-z][a-z]*|[A-Z]+|[A-Za-z][a-z]+(?:[A-Z][a-z]+)+)$/;
/** A type name after `name:` (`password: SecretStr`). */
const TYPE_NAME = /^(?:[A-Z][a-z]+){2,}$/;

function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Decides whether the value of a secret-named assignment is a secret. Kept: placeholders and
 * references (see above), code expressions (`os.environ["X"]`, `config.apiKey`, `getToken()`,
 * `token=token`), paths and URLs, booleans and type names (`password: string`), numbers unless
 * the name is a password/secret/PIN, ordinary words after `name:` in prose ("the secret: timing"),
 * and for weak names anything not credential-shaped. Everything else under a strong name goes,
 * including plain words in .env/YAML (`PASSWORD=hunter`): a real password can be a word.
 */
export function isSecretValue(value: string, ctx: ValueContext): boolean {
  if (value.length === 0 || value.startsWith('[REDACTED:')) return false;
  if (isPlaceholder(value) || isReference(value) || isPathOrUrl(value)) return false;
  if (PUBLISHABLE.test(value)) return false;
  const tail = ctx.name.split('.').pop() ?? ctx.name;
  if (squash(value) === squash(tail)) return false;
  if (!ctx.quoted) {
    if (ctx.after === '(' || ctx.after === '[' || MEMBER_CHAIN.test(value)) return false;
  }
  if (/^\d+(?:\.\d+)?$/.test(value)) return ctx.secretName.numeric && value.length >= 4;
  if (ctx.secretName.strength === 'weak') return isCredentialShaped(value);
  if (value.length < 3) return false;
  if (!ctx.quoted) {
    // `password = user_input`: a variable in code, not a literal.
    if (ctx.spacedOp && ctx.op !== ':' && /^[A-Za-z_]+$/.test(value)) return false;
    if (ctx.op === ':' && TYPE_NAME.test(value)) return false; // a type annotation
    if (ctx.op === ':' && !ctx.lineStart && WORD_LIKE.test(value)) return false; // prose
  }
  return true;
}
