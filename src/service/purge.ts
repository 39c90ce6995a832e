// `cairn purge` (CLI, REST, library — never an agent tool): the one deletion DESIGN allows, for
// secrets and legal removal. Three rules: records by id (removed, with what was derived from
// them), a literal (every occurrence becomes `[REDACTED:purged]`, the rest of each text stays), or
// the current redaction rules over all stored history. A purge reaches every table, the keyword
// and vector indexes (saved files and what processes hold in memory), the embedding cache, the
// Markdown Cairn wrote, the logs and the backups, then scrubs the database files; an audit entry
// says what was removed and when, never the removed text. Scoped to one namespace unless asked
// for all. A dry run reports the same without changing anything.
import { dropPreparedBriefs } from './context-prep.js';
import { z } from 'zod';
import { redact } from '../capture/redact.js';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import type { HomePaths } from '../core/home.js';
import { RECORD_ID_PATTERN } from '../core/ids.js';
import { sha256 } from '../core/text.js';
import type { Turn } from '../core/types.js';
import { PASSAGE_POLICIES, passagesOf } from '../embed/passages.js';
import { removeSavedIndexes } from '../search/vector-index-files.js';
import { PURGED_MARKER, type PurgeChanges, type PurgeRecord, type PurgeScope, type PurgedKind, type RemovedDigest, type Store, type TextRewrite } from '../store/store.js';
import { parseInput } from './inputs.js';
import { purgeBackups, type BackupOutcome } from './purge-backups.js';
import { purgeLogFiles, purgeNamespaceFiles, removeDigestFiles, userFilesHolding, withoutCitingLines, withoutTurnBlocks, type FileOutcome } from './purge-files.js';
import { addRedactionCounts, type RedactionCounts } from './redaction-gate.js';

export const PURGE_LIMITS = { minTextChars: 4, maxTextChars: 10_000, maxIds: 1000 } as const;
/** A purged record's text is also cut from the Markdown Cairn wrote, when it is at least this long (shorter is too common a string). */
const MIN_QUOTED_CHARS = 12;

export interface PurgeInput {
  /** Memory, turn or document chunk ids (as search results give them). */
  ids?: string[];
  /** A literal (case-sensitive): every occurrence becomes `[REDACTED:purged]`. */
  text?: string;
  /** Redact all stored history again with the current rules. */
  secrets?: boolean;
  dryRun?: boolean;
}

export const purgeInputSchema = z
  .strictObject({
    ids: z.array(z.string().regex(RECORD_ID_PATTERN, 'not a Cairn id (like m_01h…, t_…, x_…)')).min(1, 'ids is empty').max(PURGE_LIMITS.maxIds).optional(),
    text: z
      .string()
      .refine((t) => t.trim().length >= PURGE_LIMITS.minTextChars, `text must have at least ${PURGE_LIMITS.minTextChars} characters (a shorter string is in too many texts)`)
      .refine((t) => t.length <= PURGE_LIMITS.maxTextChars, `text is longer than ${PURGE_LIMITS.maxTextChars} characters`)
      .refine((t) => !PURGED_MARKER.includes(t), `text must not be part of the marker ${PURGED_MARKER}`)
      .optional(),
    secrets: z.boolean().optional(),
    dryRun: z.boolean().optional(),
  })
  .refine((p) => [p.ids !== undefined, p.text !== undefined, p.secrets === true].filter(Boolean).length === 1, 'give exactly one rule: ids, text, or secrets: true');

/** What a purge did (or, dry, would do). Holds no removed text: it is what the audit keeps. */
export type PurgeReport = {
  dryRun: boolean;
  /** The audit entry (`cairn purge log`); null for a dry run. */
  auditId: number | null;
  /** Null: every namespace. */
  namespace: string | null;
  rule: Record<string, unknown>;
  removed: Array<{ kind: PurgedKind; id: string; namespace: string }>;
  /** Rows whose text was rewritten, per table. */
  rewritten: Record<string, number>;
  /** `secrets`: what was redacted in the store, per kind. */
  redactions: RedactionCounts;
  entries: { removed: number; rewritten: number };
  vectors: number;
  cachedVectors: number;
  /** New vectors for entries whose text changed. */
  reembedded: number;
  /** Digests removed because they cite a removed record: the next consolidation writes them again. */
  digests: Array<Omit<RemovedDigest, 'id'>>;
  /** Files Cairn wrote that were rewritten (relative to the home). */
  files: string[];
  /** Files of removed digests deleted (relative to the home); MEMORY.md and topic pages only lose the lines citing it. */
  deletedFiles: string[];
  /** Saved vector indexes removed (rebuilt from the store when next searched). */
  indexFiles: string[];
  backups: BackupOutcome;
  /** The person's own files (transcripts, indexed notes) that still hold it: Cairn never edits them. */
  userFiles: string[];
  /** False when the database files could not be scrubbed completely (another process had them open). */
  scrubbed: boolean;
  warnings: string[];
};

export interface PurgeDeps {
  store: Store;
  paths: HomePaths;
  scope: PurgeScope;
  via: string;
  /** Embeds what lacks a vector in a namespace (null without an embedder). */
  embed: ((namespace: string) => Promise<number>) | null;
  /** Drops this process's vector index (it may hold purged vectors). */
  forgetVectorIndex: () => void;
  busyTimeoutMs?: number;
}

/** How one rule changes the store and the files. */
interface Plan {
  rule: Record<string, unknown>;
  apply: (store: Store, dryRun: boolean) => Promise<PurgeChanges>;
  /** For a backup: only what it has (a backup may predate some records). */
  applyBackup: (store: Store) => Promise<PurgeChanges>;
  raw: (text: string) => string;
  other: (text: string) => string;
  /** Logs are cleaned for a literal and for secrets (a record's text never goes to the logs). */
  logs: ((text: string) => string) | null;
  userFiles: (namespaces: readonly string[]) => Promise<string[]>;
}

const replaceAll = (text: string, literal: string): string => (text.includes(literal) ? text.split(literal).join(PURGED_MARKER) : text);

function cutTexts(texts: readonly string[]): (text: string) => string {
  const long = texts.filter((t) => t.length >= MIN_QUOTED_CHARS);
  return (text) => long.reduce((t, x) => replaceAll(t, x), text);
}

async function idsPlan(deps: PurgeDeps, ids: readonly string[]): Promise<Plan> {
  const { store, scope } = deps;
  const probe = await store.purgeRecords(scope, ids, { dryRun: true });
  if (probe.missing.length > 0) {
    const where = scope === null ? 'any namespace' : `namespace ${scope}`;
    throw new CairnError(ERROR_CODES.NOT_FOUND, `No record ${probe.missing.slice(0, 10).join(', ')}${probe.missing.length > 10 ? ' …' : ''} in ${where}; nothing was purged`, { missing: probe.missing });
  }
  // What goes, as it is now: the Markdown views show it, and the person's files may hold it.
  const turns: Turn[] = [];
  const texts: string[] = [];
  const held = new Set<string>();
  for (const r of probe.removed) {
    if (r.kind === 'turn') {
      const turn = await store.getTurn(r.namespace, r.id);
      if (!turn) continue;
      turns.push(turn);
      texts.push(turn.text);
      if (typeof turn.meta.path === 'string') held.add(turn.meta.path);
    } else if (r.kind === 'memory') {
      const memory = await store.getMemory(r.namespace, r.id);
      if (memory) texts.push(memory.text);
    } else {
      const chunk = await store.getDocumentChunk(r.namespace, r.id);
      if (chunk) held.add(chunk.path);
    }
  }
  const cutQuotes = cutTexts(texts);
  // Digest lines cite a record by its id in backticks (and quote it cut short): the line goes.
  const cited = probe.removed.filter((r) => r.kind !== 'document').map((r) => r.id);
  const cut = (t: string) => cutQuotes(withoutCitingLines(t, cited));
  const present = async (s: Store) => {
    const found = await s.purgeRecords(scope, ids, { dryRun: true });
    const here = ids.filter((id) => !found.missing.includes(id));
    return s.purgeRecords(scope, here);
  };
  return {
    rule: { kind: 'ids', ids: [...new Set(ids)] },
    apply: async (s, dry) => (dry ? probe : s.purgeRecords(scope, ids)),
    applyBackup: present,
    raw: (t) => cut(withoutTurnBlocks(t, turns)),
    other: cut,
    logs: null,
    userFiles: async () => [...held].sort(),
  };
}

function textPlan(deps: PurgeDeps, literal: string): Plan {
  const rewrite: TextRewrite = { rewrite: (t) => replaceAll(t, literal), mustContain: literal };
  const edit = (t: string) => replaceAll(t, literal);
  return {
    rule: { kind: 'text', chars: literal.length },
    apply: (s, dryRun) => s.rewriteTexts(deps.scope, rewrite, { dryRun }),
    applyBackup: (s) => s.rewriteTexts(deps.scope, rewrite),
    raw: edit,
    other: edit,
    logs: edit,
    userFiles: (namespaces) => holding(deps.store, namespaces, (t) => t.includes(literal)),
  };
}

function secretsPlan(deps: PurgeDeps, counts: RedactionCounts): Plan {
  const plain: TextRewrite = { rewrite: (t) => redact(t).text };
  const counted: TextRewrite = {
    // Counted where the text is kept, not again for the index's copy of it.
    rewrite: (t, table) => {
      const r = redact(t);
      if (table !== 'entries') addRedactionCounts(counts, r.counts);
      return r.text;
    },
  };
  const edit = (t: string) => redact(t).text;
  return {
    rule: { kind: 'secrets' },
    apply: (s, dryRun) => s.rewriteTexts(deps.scope, counted, { dryRun }),
    applyBackup: (s) => s.rewriteTexts(deps.scope, plain),
    raw: edit,
    other: edit,
    logs: edit,
    userFiles: (namespaces) => holding(deps.store, namespaces, (t) => Object.keys(redact(t).counts).length > 0),
  };
}

async function holding(store: Store, namespaces: readonly string[], holds: (text: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  for (const ns of namespaces) out.push(...(await userFilesHolding(store, ns, holds)));
  return [...new Set(out)].sort();
}

/** Cache keys of texts that were embedded: the text itself and each of its passages. */
function cacheHashes(texts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const t of texts) {
    out.add(sha256(t));
    // Every policy's passages: a home may hold cached vectors of one it used before.
    for (const policy of PASSAGE_POLICIES) for (const p of passagesOf(t, policy)) out.add(sha256(p));
  }
  return [...out];
}

export async function runPurge(deps: PurgeDeps, rawInput: unknown): Promise<PurgeReport> {
  if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput)) throw new CairnError(ERROR_CODES.INVALID_INPUT, 'Invalid purge request: expected an object with ids, text or secrets');
  const input = parseInput(purgeInputSchema, rawInput, 'purge request');
  const { store, paths, scope } = deps;
  const dryRun = input.dryRun ?? false;
  const redactions: RedactionCounts = {};
  const plan = input.ids ? await idsPlan(deps, input.ids) : input.text !== undefined ? textPlan(deps, input.text) : secretsPlan(deps, redactions);
  const audit: PurgeRecord | null = dryRun ? null : await store.startPurge({ namespace: scope, via: deps.via, rule: plan.rule });

  const changes = await plan.apply(store, dryRun);
  const files: FileOutcome = { rewritten: [], warnings: [] };
  const report: PurgeReport = {
    dryRun, auditId: audit?.id ?? null, namespace: scope, rule: plan.rule, removed: changes.removed, rewritten: changes.rewritten, redactions,
    entries: { removed: changes.entriesRemoved, rewritten: changes.entriesRewritten }, vectors: changes.vectors, cachedVectors: 0, reembedded: 0,
    digests: changes.digests.map(({ namespace, kind, path }) => ({ namespace, kind, path })),
    files: files.rewritten, deletedFiles: [], indexFiles: [], backups: { purged: [], skipped: [] }, userFiles: [], scrubbed: !dryRun, warnings: files.warnings,
  };
  const indexChanged = changes.entriesRemoved + changes.entriesRewritten > 0;
  if (!dryRun) {
    report.cachedVectors = await store.dropCachedVectors(cacheHashes(changes.formerTexts));
    dropPreparedBriefs(paths);
    if (indexChanged) {
      report.indexFiles = removeSavedIndexes(paths.indexDir, changes.namespaces);
      deps.forgetVectorIndex();
    }
  }

  // A literal or a secret may be in files whatever the store held: every namespace in scope.
  const namespaces = input.ids ? changes.namespaces : scope !== null ? [scope] : (await store.namespaceStats()).map((s) => s.namespace);
  // Before the folders are cleaned, so a file about to go is not rewritten first.
  report.deletedFiles = removeDigestFiles(paths, changes.digests, dryRun);
  for (const ns of namespaces) await purgeNamespaceFiles(store, paths, ns, { raw: plan.raw, other: plan.other }, files, dryRun);
  if (plan.logs) purgeLogFiles(paths, plan.logs, files, dryRun);
  report.userFiles = await plan.userFiles(namespaces);
  report.backups = await purgeBackups(paths, {
    audit: { namespace: scope, via: deps.via, rule: plan.rule },
    apply: async (s) => {
      const ch = await plan.applyBackup(s);
      await s.dropCachedVectors(cacheHashes(ch.formerTexts));
      return ch;
    },
    dryRun,
    busyTimeoutMs: deps.busyTimeoutMs,
  });
  for (const b of report.backups.skipped) files.warnings.push(`backup ${b.path}: ${b.reason}`);
  if (store.backend === 'postgres') {
    files.warnings.push("the PostgreSQL server's own backups (pg_dump files, archived WAL) are beyond Cairn and may still hold what was purged; other homes sharing this database keep their own Markdown, logs and backups: run the same purge in each");
  }

  if (!dryRun && audit) {
    if (deps.embed && changes.entriesRewritten > 0) {
      for (const ns of changes.namespaces) {
        try {
          report.reembedded += await deps.embed(ns);
        } catch (err) {
          files.warnings.push(`vectors of ${ns} not rebuilt: ${(err as Error).message}; run "cairn reembed"`);
        }
      }
    }
    try {
      const scrub = await store.scrub();
      report.scrubbed = scrub.complete;
      if (!scrub.complete) files.warnings.push('another process holds the database open: its write-ahead log still has old pages until it closes; run the purge again then (or stop the daemon first)');
    } catch (err) {
      // The purge itself is done; only the file's free space is not rewritten yet.
      report.scrubbed = false;
      files.warnings.push(`the database file was not rewritten (${(err as Error).message}): deleted bytes may remain in its free space until a purge runs again (e.g. "cairn purge --secrets")`);
    }
    const { dryRun: _d, auditId: _a, namespace: _n, rule: _r, ...result } = report;
    await store.finishPurge(audit.id, result);
    // A process that saved an index between the purge and now saved what it held: gone too.
    if (indexChanged) removeSavedIndexes(paths.indexDir, changes.namespaces);
  }
  return report;
}

/** The audit, newest first; a namespace narrows it to the purges scoped to that namespace. */
export async function purgeLog(store: Store, options: { namespace?: string | null; limit?: number } = {}): Promise<PurgeRecord[]> {
  const limit = options.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new CairnError(ERROR_CODES.INVALID_INPUT, 'limit must be an integer from 1 to 10000');
  const all = await store.listPurges({ limit: options.namespace ? 10_000 : limit });
  return (options.namespace ? all.filter((p) => p.namespace === options.namespace) : all).slice(0, limit);
}
