// How a secret value differs from its look-alikes: placeholders, references to where a secret
// lives, paths, hashes, identifiers, versions, ordinary words; and which assignment names hold
// secrets. Shared by every detector, so "what counts" has one answer.

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
  'notset', 'not_set', 'n/a', 'na', 'default', 'auto', 'env', 'x-oauth-basic',
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
  'signingkey', 'sessionkey', 'authkey', 'psk', 'wpapsk',
]);
/**
 * Strong keywords also found glued to a prefix in one segment: `PGPASSWORD`, `DBPASS` is not (too
 * short to tell from `bypass`), `JWTSECRET`, `OPENAIAPIKEY`.
 */
const STRONG_SUFFIXES = ['password', 'passwd', 'passphrase', 'secret', 'apikey', 'secretkey', 'privatekey', 'accesstoken', 'authtoken', 'apitoken'];
const WEAK_SEGMENTS = new Set(['key', 'token', 'auth', 'authorization']);
/** A qualifier before `key`/`token` that makes the pair a credential name (`api_key`, `accessToken`). */
const KEY_QUALIFIERS = new Set([
  'api', 'access', 'secret', 'private', 'auth', 'refresh', 'session', 'client', 'bearer', 'id', 'service',
  'master', 'signing', 'encryption', 'webhook', 'app', 'bot', 'personal', 'deploy', 'admin', 'oauth', 'csrf',
  'xsrf', 'hmac', 'license', 'account', 'user', 'integration', 'application', 'shared', 'storage', 'sas',
]);
/** Segments allowed after the keyword: `SECRET_KEY_BASE`, `API_KEY_2`, `password_confirmation`. */
const TRAILING_OK = new Set([
  'base', 'value', 'val', 'str', 'b64', 'base64', 'hex', 'raw', 'plain', 'enc', 'encoded', 'data', 'prod',
  'production', 'dev', 'development', 'staging', 'test', 'live', 'old', 'new', 'primary', 'secondary',
  'current', 'next', 'prev', 'previous', 'confirm', 'confirmation', 'hash', 'hashed', 'digest',
]);
const PUBLIC_SEGMENTS = new Set(['public', 'publishable', 'pub']);
const NUMERIC_SECRET_SEGMENTS = new Set(['password', 'passwords', 'passwd', 'pwd', 'passphrase', 'secret', 'pin']);

function isStrongSegment(seg: string): boolean {
  return STRONG_SEGMENTS.has(seg) || STRONG_SUFFIXES.some((k) => seg.length > k.length && seg.endsWith(k));
}

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
  while (i >= 0 && !isStrongSegment(segs[i]!) && !WEAK_SEGMENTS.has(segs[i]!)) {
    if (!TRAILING_OK.has(segs[i]!) && !/^v?\d+$/.test(segs[i]!)) return null;
    i--;
  }
  if (i < 0) return null;
  const seg = segs[i]!;
  const numeric = segs.some((s) => NUMERIC_SECRET_SEGMENTS.has(s) || STRONG_SUFFIXES.some((k) => s.endsWith(k) && NUMERIC_SECRET_SEGMENTS.has(k)));
  if (isStrongSegment(seg)) return { strength: 'strong', numeric };
  // SCREAMING_SNAKE (`DD_API_KEY`) and HTTP header style (`DD-APPLICATION-KEY`, `X-Auth-Token`).
  const envStyle = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(name) || /^[A-Z][A-Za-z0-9]*(?:-[A-Z][A-Za-z0-9]*)+$/.test(name);
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
  /** The assignment operator: `=`, `:`, `:=`, `=>` or `is`. */
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
    if ((ctx.op === ':' || ctx.op === 'is') && !ctx.lineStart && WORD_LIKE.test(value)) return false; // prose
  }
  return true;
}
