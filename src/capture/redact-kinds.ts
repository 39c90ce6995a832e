// The stable vocabulary of redaction: which kinds of secret exist (written into
// `[REDACTED:<kind>]` markers and counted in `cairn status`), which kind names a span when two
// detectors claim the same start, and the span every detector proposes.

/**
 * Redaction kinds. Stable strings. Listed in priority order: when two detectors claim the same
 * start, the earlier kind names the marker, so specific shapes come before generic ones. One
 * example shape each (where the shape is known the kind says who issued it):
 *
 * - `private-key`: `-----BEGIN … PRIVATE KEY-----` blocks through their END (or base64 body), and
 *   age secret keys `AGE-SECRET-KEY-1…`.
 * - `jwt`: `eyJ<header>.<payload>.<signature>`.
 * - `anthropic-key` `sk-ant-…`; `openai-key` `sk-…`, `sk-proj-…`; `aws-access-key` `AKIA…`;
 *   `github-token` `ghp_…`, `github_pat_…`; `gitlab-token` `glpat-…`; `slack-token` `xoxb-…` and
 *   webhook paths; `stripe-key` `sk_live_…`, `rk_…`, `whsec_…` (publishable `pk_…` are kept);
 *   `google-api-key` `AIza…` and FCM server keys; `google-oauth` `ya29.…`, `GOCSPX-…`, `1//0…`;
 *   `npm-token` `npm_…`; `huggingface-token` `hf_…`, `api_org_…`.
 * - `sendgrid-key` `SG.<22>.<43>`; `twilio-key` `SK<32 hex>`; `vault-token` `hvs.…`, `hvb.…`;
 *   `doppler-token` `dp.pt.…`, `dp.st.…`; `sentry-key` the key of a DSN `https://<key>@…/<id>`
 *   and `sntryu_`/`sntrys_` tokens; `discord-token` bot tokens (all three parts) and the token of
 *   a webhook URL; `telegram-token` `<bot id>:AA…`; `pypi-token` `pypi-AgEIcHlwaS5vcmc…`;
 *   `shopify-token` `shpat_…`, `shpss_…`; `mailgun-key` `key-<32 hex>`; `mailchimp-key`
 *   `<32 hex>-us<n>`; `heroku-key` `HRKU-AA…`; `digitalocean-token` `dop_v1_…`; `azure-key`
 *   SAS `sig=…` and AD client secrets `…8Q~…`; `square-token` `sq0atp-…`, `EAAA…`;
 *   `paypal-token` Braintree `access_token$production$…`; `atlassian-token` `ATATT3…`, `ATBB…`;
 *   `linear-key` `lin_api_…`; `notion-token` `ntn_…`, `secret_…`; `okta-token` after `SSWS`;
 *   `newrelic-key` `NRAK-…`, `…NRAL`; `postman-key` `PMAK-…`; `grafana-token` `glsa_…`, `glc_…`.
 * - `api-token`: other vendors' tokens known by their prefix (Databricks, Pulumi, Groq, xAI,
 *   OpenRouter, Replicate, LangSmith, Perplexity, Supabase, Brevo, Dynatrace, 1Password,
 *   Alibaba, Twitter, Facebook, Mapbox, Contentful, …; see redact-tokens-more.ts).
 * - `aws-secret`: a 40-character secret after `aws_secret_access_key` and the like.
 * - `password-hash`: crypt and htpasswd hashes (`$apr1$…`, `$2y$…`, `$6$…`, `{SHA}…`).
 * - `session-cookie`: the value of `connect.sid`, `sessionid`, `PHPSESSID`, `JSESSIONID`,
 *   `*_session` and similar session cookies.
 * - `url-password`: `scheme://user:PASSWORD@host`: only the password goes.
 * - `basic-auth`: `Authorization: Basic <base64>`.
 * - `bearer-token`: the token after `Bearer`, `Token`, `Bot` (header or prose).
 * - `env-secret`: the value in `NAME=value`, `NAME: value`, `"name": "value"`, `--name=value`
 *   where NAME names a secret (see `classifySecretName`).
 * - `high-entropy`: a random-looking token of 20+ characters within five words after a
 *   credential word.
 * - `credential`: a key, token or secret named in prose: `my datadog api key is <hex>`.
 * - `password`: a password, passphrase, PIN or Wi-Fi key given in prose (`the wifi password is
 *   …`, `admin / …`) or on a command line (`mysql -p…`, `--password …`, `sshpass -p`, …).
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
  'sendgrid-key',
  'twilio-key',
  'vault-token',
  'doppler-token',
  'sentry-key',
  'discord-token',
  'telegram-token',
  'pypi-token',
  'shopify-token',
  'mailgun-key',
  'mailchimp-key',
  'heroku-key',
  'digitalocean-token',
  'azure-key',
  'square-token',
  'paypal-token',
  'atlassian-token',
  'linear-key',
  'notion-token',
  'okta-token',
  'newrelic-key',
  'postman-key',
  'grafana-token',
  'api-token',
  'aws-secret',
  'password-hash',
  'session-cookie',
  'url-password',
  'basic-auth',
  'bearer-token',
  'env-secret',
  'high-entropy',
  'credential',
  'password',
] as const;

export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** Priority of a kind when two detectors claim the same start: lower wins. */
export const KIND_PRIORITY: Readonly<Record<RedactionKind, number>> = Object.fromEntries(
  REDACTION_KINDS.map((kind, i) => [kind, i]),
) as Record<RedactionKind, number>;

/** A stretch of text a detector found to be a secret: `[start, end)` in UTF-16 units. */
export interface Span {
  start: number;
  end: number;
  kind: RedactionKind;
}
