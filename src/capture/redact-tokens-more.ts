// The long tail of credential shapes (after gitleaks' rule list): vendor tokens known by their
// prefix, all reported as `api-token`; password hashes; session cookies. Same rules of the road as
// redact-tokens.ts: a literal or a look-behind first, a cheap needle, a body that must look like a
// credential.
import { prefixed, type TokenRule } from './redact-tokens.js';
import { isCredentialBody, isCredentialShaped, isPlaceholder, isReference, looksRandom } from './redact-values.js';

/** Prefix, body pattern, and whether the prefix is distinctive enough to be found glued to a word. */
const VENDOR_TOKENS: ReadonlyArray<readonly [prefix: string, body: string, glued?: boolean]> = [
  ['dapi', '[a-f0-9]{32}(?:-\\d)?(?![A-Za-z0-9])', false], // Databricks
  ['pul-', '[a-f0-9]{40}(?![A-Za-z0-9])', false], // Pulumi
  ['gsk_', '[A-Za-z0-9]{48,}'], // Groq
  ['xai-', '[A-Za-z0-9]{70,}'], // xAI
  ['sk-or-v1-', '[a-f0-9]{64}'], // OpenRouter
  ['r8_', '[A-Za-z0-9]{37}(?![A-Za-z0-9])', false], // Replicate
  ['lsv2_', '(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}'], // LangSmith
  ['pplx-', '[A-Za-z0-9]{48}'], // Perplexity
  ['sbp_', '[a-f0-9]{40}'], // Supabase
  ['sb_secret_', '[A-Za-z0-9_-]{24,}'], // Supabase secret keys
  ['xkeysib-', '[a-f0-9]{64}-[A-Za-z0-9]{16}'], // Brevo (Sendinblue)
  ['xsmtpsib-', '[a-f0-9]{64}-[A-Za-z0-9]{16}'], // Brevo SMTP
  ['dt0c01.', '[A-Z0-9]{24}\\.[A-Z0-9]{64}'], // Dynatrace
  ['ops_eyJ', '[A-Za-z0-9+/]{100,}={0,3}'], // 1Password service accounts
  ['LTAI', '[A-Za-z0-9]{20}(?![A-Za-z0-9])', false], // Alibaba Cloud
  ['AAAAAAAAAAAAAAAAAAAAA', '[A-Za-z0-9%]{80,}', false], // Twitter/X app bearer tokens
  ['sk.eyJ', '[A-Za-z0-9_-]{40,4096}\\.[A-Za-z0-9_-]{20,}', false], // Mapbox secret tokens (pk. is public)
  ['CFPAT-', '[A-Za-z0-9_-]{43}'], // Contentful
  ['AKCp', '[A-Za-z0-9]{69}', false], // JFrog Artifactory
  ['cmVmdGtu', '[A-Za-z0-9]{56}', false], // JFrog reference tokens
  ['AGE-SECRET-KEY-1', '[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}'], // age (reported as private-key below)
  ['rdme_', '[a-z0-9]{70}'], // ReadMe
  ['rubygems_', '[a-f0-9]{48}'], // RubyGems
  ['pnu_', '[A-Za-z0-9]{36}'], // Prefect
  ['tk-us-', '[A-Za-z0-9_-]{48}'], // Scalingo
  ['shippo_', '(?:live|test)_[a-f0-9]{40}'], // Shippo
  ['sgp_', '(?:[a-f0-9]{16}_)?[a-f0-9]{40}'], // Sourcegraph
  ['ico-', '[A-Za-z0-9]{32}(?![A-Za-z0-9])', false], // Infracost
  ['fo1_', '[A-Za-z0-9_-]{43}'], // Fly.io
  ['fm2_', '[A-Za-z0-9+/]{100,}={0,3}'], // Fly.io macaroons
  ['fio-u-', '[A-Za-z0-9_=-]{64}'], // Frame.io
  ['duffel_', '(?:test|live)_[A-Za-z0-9_=-]{43}'], // Duffel
  ['EZAK', '[A-Za-z0-9]{54}', false], // EasyPost
  ['EZTK', '[A-Za-z0-9]{54}', false], // EasyPost test
  ['FLWSECK', '(?:_TEST)?-[a-h0-9]{32}-X'], // Flutterwave
  ['pscale_', '(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}'], // PlanetScale
  ['CLOJARS_', '[a-z0-9]{60}'], // Clojars
  ['pat.', '[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}', false], // Harness
  ['atlasv1.', '[A-Za-z0-9_=-]{60,70}'], // Terraform Cloud (after a 14-character id)
  ['p8e-', '[A-Za-z0-9]{32}(?![A-Za-z0-9])', false], // Adobe
  ['nfp_', '[A-Za-z0-9]{36}'], // Netlify
  ['napi_', '[a-z0-9]{64}'], // Neon
  ['phx_', '[A-Za-z0-9]{40,}'], // PostHog personal keys (phc_ project keys are public)
  ['pcsk_', '[A-Za-z0-9_]{50,}'], // Pinecone
  ['tvly-', '[A-Za-z0-9]{32,}'], // Tavily
  ['csk-', '[a-z0-9]{48}', false], // Cerebras
  ['fw_', '[A-Za-z0-9]{24,}', false], // Fireworks
  ['sl.', '[A-Za-z0-9_=-]{130,}', false], // Dropbox short-lived tokens
  ['glpat-', '[A-Za-z0-9_-]{20,}'], // (GitLab, kept here only as a fallback for odd lengths)
];

const COOKIE_NAME =
  /(?:^|[^A-Za-z0-9_.-])((?:__Secure-|__Host-)?(?:connect\.sid|express\.sid|sessionid|session_id|session-id|sessid|phpsessid|jsessionid|asp\.net_sessionid|aspsessionid[a-z]{0,12}|laravel_session|ci_session|rack\.session|next-auth\.session-token|authjs\.session-token|_?[a-z0-9-]{1,40}_session|session|sid))$/i;

export const MORE_TOKEN_RULES: readonly TokenRule[] = [
  ...VENDOR_TOKENS.map(([prefix, body, glued]) => {
    const rule = prefixed('api-token', prefix, body, glued ?? true);
    return prefix.startsWith('AGE-') ? { ...rule, kind: 'private-key' as const } : rule;
  }),
  {
    // Facebook user and page tokens: EAA + the app's letter + a long body.
    kind: 'api-token',
    pattern: /EAA[B-Z][A-Za-z0-9]{90,}/g,
    accept: (t) => isCredentialBody(t.slice(4)),
    needle: 'EAA',
    boundary: 'token',
  },
  {
    // Crypt formats: `$apr1$salt$hash` (htpasswd), `$2y$10$…` (bcrypt), `$6$…` (shadow),
    // `$argon2id$v=19$m=…$salt$hash`. A user name before it stays; the hash goes.
    kind: 'password-hash',
    pattern: /(?<![\w$])\$(?:apr1|[1567]|2[abxy]?|y|gy|md5|sha(?:1|256|512)|argon2(?:id|i|d)|pbkdf2(?:-sha(?:1|256|512))?|scrypt)\$[A-Za-z0-9./+=,-]{1,64}\$[A-Za-z0-9./+=,$-]{16,400}/g,
    accept: (h) => isCredentialBody(h.slice(h.lastIndexOf('$') + 1)) || isCredentialBody(h),
    needle: '$',
    scope: 'text',
  },
  {
    kind: 'password-hash',
    pattern: /\{(?:S?SHA(?:256|384|512)?|S?MD5|CRYPT|PBKDF2[A-Za-z0-9-]*|ARGON2|BCRYPT)\}[A-Za-z0-9+/=.$]{16,}/g,
    accept: (h) => isCredentialBody(h.slice(h.indexOf('}') + 1)),
    needle: '}',
    scope: 'text',
  },
  {
    // ~/.pgpass: `host:port:database:user:password`, one per line.
    kind: 'password',
    pattern: /(?:^|\n|\\n)[A-Za-z0-9_.*-]+:(?:\d{1,5}|\*):[^:\s\\]+:[^:\s\\]+:((?:[^\s:\\]|\\[:\\]){4,256})(?=\r?\n|\\n|$)/dg,
    group: 1,
    accept: (pw) => !isPlaceholder(pw) && !isReference(pw) && !/^[0-9a-fA-F]{1,4}$/.test(pw),
    needle: ':',
  },
  {
    // Wi-Fi QR codes: `WIFI:S:<ssid>;T:WPA;P:<password>;;`.
    kind: 'password',
    pattern: /WIFI:[^\n]{0,200}?(?<=[:;])P:((?:[^;\\\n]|\\.){1,128});/dg,
    group: 1,
    accept: (pw) => !isPlaceholder(pw) && !isReference(pw),
    needle: 'WIFI:',
  },
  {
    // PuTTY private keys: the base64 lines after `Private-Lines: <n>`.
    kind: 'private-key',
    pattern: /Private-Lines:[ \t]*\d{1,3}(?:\r?\n|\\n)((?:[A-Za-z0-9+/=]{4,128}(?:\r?\n|\\n|$)){1,64})/dg,
    group: 1,
    needle: 'Private-Lines:',
  },
  {
    // Session cookies: whoever has the value is logged in as the user. Generic names (`session`,
    // `sid`) need a random-looking value; named ones (`connect.sid`, `PHPSESSID`) any real value.
    // The scan starts at `=` (rare in prose) and reads the name before it.
    kind: 'session-cookie',
    pattern: /=([^\s;,"'&<>=][^\s;,"'&<>]{15,4095})/dg,
    group: 1,
    needle: '=',
    accept: (value, m) => {
      const name = COOKIE_NAME.exec(m.input!.slice(Math.max(0, m.index! - 80), m.index))?.[1];
      if (name === undefined || isPlaceholder(value) || isReference(value) || new Set(value).size < 8) return false;
      if (/^(?:__Secure-|__Host-)?(?:session|sid)$/i.test(name)) return looksRandom(value) || isCredentialShaped(value);
      return true;
    },
  },
];
