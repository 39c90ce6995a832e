// The second layer: secretlint's recommended rule preset, a maintained ruleset, run beside the
// hand-written detectors so a shape they miss (or one secretlint learns in a later release) is
// still caught.
//
// Why the rules and not @secretlint/core: `redact()` is synchronous and sits on hot paths (every
// captured turn, every store), and core's `lintSource` is async only. A preset's rules, though,
// are plain objects with a documented contract (@secretlint/types `SecretLintRuleCreator`):
// `create(context, options)` returns handlers, and the text scanners' `file(source)` handler runs
// its regular expressions synchronously and calls `context.report({ message, range })`, where
// `message.data` carries the secret it found. So the rules are created once at load, with a
// context that collects reports, and each call runs every text scanner's `file` handler on the
// text. Rules that only make sense for whole files (the GCP rule reads `.p12` files from disk and
// is async) or that steer other rules (`filter-comments`) are left out; a handler that turns out
// to return a promise is dropped for good, so the layer stays synchronous whatever a later
// release does.
//
// Each report is turned into a span: the secret named in the report, found at or after the
// reported start (a few rules report the whole match or a shifted range), narrowed to the
// password of a URL with credentials (so user and host stay, as with the hand-written layer), and
// kept only when it is not a placeholder or reference.
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintRuleContext, SecretLintRuleCreator, SecretLintRuleReportDescriptor, SecretLintRuleReportHandler, SecretLintSourceCode } from '@secretlint/types';
import type { RedactionKind, Span } from './redact-kinds.js';
import { isCredentialBody, isPlaceholder, isReference } from './redact-values.js';

const LEFT_OUT = new Set(['@secretlint/secretlint-rule-gcp', '@secretlint/secretlint-rule-filter-comments']);

/** The kind a rule's reports get; a rule added by a later release reports `api-token`. */
const KIND_BY_RULE: Readonly<Record<string, RedactionKind>> = {
  '@secretlint/secretlint-rule-aws': 'aws-secret',
  '@secretlint/secretlint-rule-privatekey': 'private-key',
  '@secretlint/secretlint-rule-npm': 'npm-token',
  '@secretlint/secretlint-rule-basicauth': 'url-password',
  '@secretlint/secretlint-rule-database-connection-string': 'url-password',
  '@secretlint/secretlint-rule-slack': 'slack-token',
  '@secretlint/secretlint-rule-sendgrid': 'sendgrid-key',
  '@secretlint/secretlint-rule-shopify': 'shopify-token',
  '@secretlint/secretlint-rule-github': 'github-token',
  '@secretlint/secretlint-rule-openai': 'openai-key',
  '@secretlint/secretlint-rule-anthropic': 'anthropic-key',
  '@secretlint/secretlint-rule-linear': 'linear-key',
};
/** Reports whose message says better than their rule what they found. */
const KIND_BY_MESSAGE: Readonly<Record<string, RedactionKind>> = { PackageJSON_xOauthToken: 'github-token' };
/** Message properties that hold the found secret, by the preset's rules. */
const SECRET_PROPS = ['KEY', 'TOKEN', 'ID', 'CREDENTIAL', 'URI', 'URL'] as const;
/** How far after the reported start the named secret may be found. */
const SEARCH_WINDOW = 1024;

interface Scanner {
  id: string;
  file: NonNullable<SecretLintRuleReportHandler['file']>;
}

/** Reports of the scanner running now (the layer is synchronous: one scan at a time). */
let reports: SecretLintRuleReportDescriptor[] = [];

function createScanner(rule: SecretLintRuleCreator): Scanner | null {
  const { id, type, supportedContentTypes } = rule.meta;
  if (type !== 'scanner' || LEFT_OUT.has(id) || !supportedContentTypes.some((t) => t === 'text' || t === 'all')) return null;
  const context: SecretLintRuleContext = {
    sharedOptions: { locale: 'en', maskSecrets: false },
    createTranslator: (messages) => (messageId, props) => ({
      message: String(messages[messageId as string]?.en(props) ?? messageId),
      messageId: String(messageId),
      data: props,
    }),
    report: (descriptor) => void reports.push(descriptor),
    ignore: () => undefined,
  };
  const handlers = rule.create(context, {});
  return handlers.file === undefined ? null : { id, file: handlers.file.bind(handlers) };
}

let scanners: Scanner[] = (presetRules as unknown as SecretLintRuleCreator[]).map(createScanner).filter((s): s is Scanner => s !== null);

function sourceOf(content: string): SecretLintSourceCode {
  const unused = (): never => {
    throw new Error('not available to redaction scanners');
  };
  return {
    hasBOM: false,
    content,
    filePath: undefined,
    physicalFilePath: undefined,
    contentType: 'text',
    ext: '',
    getFilePath: () => undefined,
    getPhysicalFilePath: () => undefined,
    locationToRange: unused,
    rangeToLocation: unused,
    positionToIndex: unused,
    indexToPosition: unused,
  };
}

const URL_PASSWORD = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^:@/\s]*:([^@/\s]+)@/d;

function toSpan(text: string, kind: RedactionKind, report: SecretLintRuleReportDescriptor): Span | null {
  const [from, to] = report.range;
  const data = (report.message.data ?? {}) as Record<string, unknown>;
  const named = SECRET_PROPS.map((p) => data[p]).find((v): v is string => typeof v === 'string' && v.length > 0);
  let start = from;
  let secret = text.slice(from, to);
  if (named !== undefined) {
    const at = text.startsWith(named, from) ? from : text.indexOf(named, from);
    if (at === -1 || at - from > SEARCH_WINDOW) return null;
    start = at;
    secret = named;
  }
  if (kind === 'url-password' || secret.includes('://')) {
    const m = URL_PASSWORD.exec(secret);
    if (m === null) return null;
    const [pStart, pEnd] = m.indices![1]!;
    const password = secret.slice(pStart, pEnd);
    if (isPlaceholder(password) || isReference(password)) return null;
    return { start: start + pStart, end: start + pEnd, kind: 'url-password' };
  }
  if (isPlaceholder(secret) || isReference(secret) || !isCredentialBody(secret)) return null;
  return { start, end: start + secret.length, kind };
}

/** Spans the preset's rules find in `text`. */
export function findLibrarySpans(text: string, out: Span[]): void {
  if (text.length === 0) return;
  const source = sourceOf(text);
  for (const scanner of scanners) {
    reports = [];
    const result: unknown = scanner.file(source);
    if (result instanceof Promise) {
      result.catch(() => undefined);
      scanners = scanners.filter((s) => s !== scanner); // not synchronous: of no use here
      continue;
    }
    for (const report of reports) {
      const kind = KIND_BY_MESSAGE[report.message.messageId] ?? KIND_BY_RULE[scanner.id] ?? 'api-token';
      const span = toSpan(text, kind, report);
      if (span !== null) out.push(span);
    }
  }
  reports = [];
}

/** Ids of the preset rules in use (for tests and the benchmark). */
export function libraryRuleIds(): string[] {
  return scanners.map((s) => s.id);
}
