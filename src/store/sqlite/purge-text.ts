// Rewriting stored text for SQLite (store.ts rewriteTexts): a purged literal, or history redacted
// again with newer rules. Every table that holds text is walked in pages of rows, each page read
// and written in one immediate transaction (a long purge never blocks capture for long), and
// derived data follows: an index entry whose text changed gets its keys again, its keyword index
// row (triggers) and loses its vectors (re-embedded afterwards); a memory that becomes equal to a
// current one is superseded by it. A dry run reads the same pages and writes nothing.
import type { Database } from 'better-sqlite3';
import { dedupKey } from '../../core/text.js';
import type { PurgeChanges, PurgeScope, TextRewrite } from '../purge.js';
import { countRewrite, jsonNeedle, rewriteJson, rewriteSections } from '../purge-rewrite.js';
import { documentBody } from './documents.js';
import { sectionBody } from './digests.js';
import { keysOf } from './keys.js';
import { memoryEntryBody } from './memories.js';
import { emptyChanges } from './purge-records.js';
import { stmt } from './statements.js';

const PAGE = 500;

interface Ctx {
  db: Database;
  rule: TextRewrite;
  dryRun: boolean;
  now: string;
  out: PurgeChanges;
  namespaces: Set<string>;
  /** Entries already counted (a dry run changes nothing, so the entries pass would see them again). */
  entries: Set<number>;
}

/**
 * Reads a table page by page (rows after `k`, the paging key), each page in one transaction with
 * its writes. `where` narrows to rows that may change; `handle` rewrites one row.
 */
function pages<R extends { k: number }>(ctx: Ctx, sql: string, params: Record<string, unknown>, handle: (row: R) => void): void {
  let after = 0;
  for (;;) {
    let rows: R[] = [];
    const step = () => {
      rows = stmt(ctx.db, sql).all({ ...params, after, limit: PAGE }) as R[];
      for (const row of rows) handle(row);
    };
    if (ctx.dryRun) step();
    else ctx.db.transaction(step).immediate();
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.k;
  }
}

/** SQL narrowing a page to the scope and, with `mustContain`, to rows holding it in some column. */
function filter(scope: PurgeScope, rule: TextRewrite, columns: Array<{ name: string; json?: boolean }>): { where: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {};
  const parts: string[] = [];
  if (scope !== null) {
    parts.push('namespace = @scope');
    params.scope = scope;
  }
  if (rule.mustContain !== undefined) {
    params.needle = rule.mustContain;
    params.jsonNeedle = jsonNeedle(rule.mustContain);
    parts.push(`(${columns.map((c) => `instr(${c.name}, ${c.json ? '@jsonNeedle' : '@needle'}) > 0`).join(' OR ')})`);
  }
  return { where: parts.length ? ` AND ${parts.join(' AND ')}` : '', params };
}

/** Sets an entry's text; when it changes, its old text is reported and its vectors dropped. */
function setEntryBody(ctx: Ctx, seq: number, oldBody: string, body: string): void {
  if (body === oldBody || ctx.entries.has(seq)) return;
  ctx.entries.add(seq);
  ctx.out.entriesRewritten++;
  ctx.out.formerTexts.push(oldBody);
  if (ctx.dryRun) {
    ctx.out.vectors += stmt(ctx.db, 'SELECT COUNT(*) FROM vectors WHERE entry_seq = ?').pluck().get(seq) as number;
    return;
  }
  stmt(ctx.db, 'UPDATE entries SET body = ?, keys = ? WHERE seq = ?').run(body, keysOf(ctx.db, body), seq);
  ctx.out.vectors += stmt(ctx.db, 'DELETE FROM vectors WHERE entry_seq = ?').run(seq).changes;
}

function entryOf(ctx: Ctx, kind: string, refId: string): { seq: number; body: string } | undefined {
  return stmt(ctx.db, 'SELECT seq, body FROM entries WHERE kind = ? AND ref_id = ?').get(kind, refId) as { seq: number; body: string } | undefined;
}

function rewriteTurns(ctx: Ctx, scope: PurgeScope): void {
  const rw = (s: string) => ctx.rule.rewrite(s, 'turns');
  const f = filter(scope, ctx.rule, [{ name: 'text' }, { name: 'speaker' }, { name: 'meta', json: true }]);
  type Row = { k: number; id: string; namespace: string; text: string; speaker: string | null; meta: string };
  pages<Row>(ctx, `SELECT seq AS k, id, namespace, text, speaker, meta FROM turns WHERE seq > @after${f.where} ORDER BY seq LIMIT @limit`, f.params, (r) => {
    const text = rw(r.text);
    const speaker = r.speaker === null ? null : rw(r.speaker);
    const meta = rewriteJson(r.meta, rw);
    if (text === r.text && speaker === r.speaker && meta === r.meta) return;
    countRewrite(ctx, 'turns', r.namespace);
    if (ctx.dryRun) return;
    stmt(ctx.db, 'UPDATE turns SET text = ?, speaker = ?, meta = ? WHERE seq = ?').run(text, speaker, meta, r.k);
    if (speaker !== r.speaker) {
      stmt(ctx.db, 'UPDATE speakers SET turns = turns - 1 WHERE namespace = ? AND name = ?').run(r.namespace, r.speaker);
      stmt(ctx.db, 'DELETE FROM speakers WHERE namespace = ? AND name = ? AND turns <= 0').run(r.namespace, r.speaker);
      if (speaker) stmt(ctx.db, 'INSERT INTO speakers (namespace, name, turns) VALUES (?, ?, 1) ON CONFLICT (namespace, name) DO UPDATE SET turns = turns + 1').run(r.namespace, speaker);
    }
  });
}

function rewriteMemories(ctx: Ctx, scope: PurgeScope): void {
  const rw = (s: string) => ctx.rule.rewrite(s, 'memories');
  const f = filter(scope, ctx.rule, [{ name: 'text' }, { name: 'tags', json: true }, { name: 'entities', json: true }, { name: 'provenance', json: true }]);
  type Row = { k: number; id: string; namespace: string; text: string; tags: string; entities: string; provenance: string; valid_to: string | null; dedup_key: string };
  const sql = `SELECT seq AS k, id, namespace, text, tags, entities, provenance, valid_to, dedup_key FROM memories WHERE seq > @after${f.where} ORDER BY seq LIMIT @limit`;
  pages<Row>(ctx, sql, f.params, (r) => {
    const text = rw(r.text);
    const tags = rewriteJson(r.tags, rw);
    const entities = rewriteJson(r.entities, rw);
    const provenance = rewriteJson(r.provenance, rw);
    if (text === r.text && tags === r.tags && entities === r.entities && provenance === r.provenance) return;
    countRewrite(ctx, 'memories', r.namespace);
    const entry = entryOf(ctx, 'memory', r.id);
    const body = memoryEntryBody({ text, tags: JSON.parse(tags) as string[], entities: JSON.parse(entities) as string[] });
    if (entry) setEntryBody(ctx, entry.seq, entry.body, body);
    // A memory is embedded by its own text, not its entry's body: that text's cached vector goes too.
    if (text !== r.text) ctx.out.formerTexts.push(r.text);
    if (ctx.dryRun) return;
    const key = dedupKey(text);
    // Now the same statement as another current memory: that one stands, this one is history.
    const twin = r.valid_to === null && key !== r.dedup_key
      ? (stmt(ctx.db, 'SELECT id FROM memories WHERE namespace = ? AND dedup_key = ? AND valid_to IS NULL AND id <> ?').pluck().get(r.namespace, key, r.id) as string | undefined)
      : undefined;
    stmt(ctx.db, 'UPDATE memories SET text = ?, dedup_key = ?, tags = ?, entities = ?, provenance = ?, valid_to = COALESCE(?, valid_to), superseded_by = COALESCE(?, superseded_by) WHERE seq = ?')
      .run(text, key, tags, entities, provenance, twin ? ctx.now : null, twin ?? null, r.k);
    if (twin) stmt(ctx.db, "UPDATE entries SET current = 0, valid_to = ? WHERE kind = 'memory' AND ref_id = ?").run(ctx.now, r.id);
  });
}

function rewriteDocuments(ctx: Ctx, scope: PurgeScope): void {
  const rw = (s: string) => ctx.rule.rewrite(s, 'documents');
  const f = filter(scope, ctx.rule, [{ name: 'heading' }, { name: 'text' }]);
  type Row = { k: number; id: string; namespace: string; heading: string; text: string };
  pages<Row>(ctx, `SELECT rowid AS k, id, namespace, heading, text FROM documents WHERE rowid > @after${f.where} ORDER BY rowid LIMIT @limit`, f.params, (r) => {
    const heading = rw(r.heading);
    const text = rw(r.text);
    if (heading === r.heading && text === r.text) return;
    countRewrite(ctx, 'documents', r.namespace);
    const entry = entryOf(ctx, 'document', r.id);
    if (entry) setEntryBody(ctx, entry.seq, entry.body, documentBody(heading, text));
    if (!ctx.dryRun) stmt(ctx.db, 'UPDATE documents SET heading = ?, text = ? WHERE rowid = ?').run(heading, text, r.k);
  });
}

/** Digests: the file's text, and each section's heading and text with the entry made of them. */
function rewriteDigests(ctx: Ctx, scope: PurgeScope): void {
  const rw = (s: string) => ctx.rule.rewrite(s, 'digests');
  const f = filter(scope, ctx.rule, [{ name: 'text' }, { name: 'sections', json: true }]);
  type Row = { k: number; id: string; namespace: string; text: string; sections: string };
  pages<Row>(ctx, `SELECT rowid AS k, id, namespace, text, sections FROM digests WHERE rowid > @after${f.where} ORDER BY rowid LIMIT @limit`, f.params, (r) => {
    const text = rw(r.text);
    const { sections: after, changed } = rewriteSections(r.sections, rw);
    if (text === r.text && !changed) return;
    countRewrite(ctx, 'digests', r.namespace);
    after.forEach((s, i) => {
      const entry = entryOf(ctx, 'digest', `${r.id}#${i}`);
      if (entry) setEntryBody(ctx, entry.seq, entry.body, sectionBody(s));
    });
    if (!ctx.dryRun) stmt(ctx.db, 'UPDATE digests SET text = ?, sections = ? WHERE rowid = ?').run(text, JSON.stringify(after), r.k);
  });
}

/** Tables whose text is not indexed: judgments, feedback, hot state. */
function rewritePlain(ctx: Ctx, scope: PurgeScope): void {
  const rw = (table: string) => (s: string) => ctx.rule.rewrite(s, table);
  const j = filter(scope, ctx.rule, [{ name: 'reason' }, { name: 'statement' }]);
  type J = { k: number; namespace: string; reason: string; statement: string | null };
  pages<J>(ctx, `SELECT rowid AS k, namespace, reason, statement FROM judgments WHERE rowid > @after${j.where} ORDER BY rowid LIMIT @limit`, j.params, (r) => {
    const reason = rw('judgments')(r.reason);
    const statement = r.statement === null ? null : rw('judgments')(r.statement);
    if (reason === r.reason && statement === r.statement) return;
    countRewrite(ctx, 'judgments', r.namespace);
    if (!ctx.dryRun) stmt(ctx.db, 'UPDATE judgments SET reason = ?, statement = ? WHERE rowid = ?').run(reason, statement, r.k);
  });
  const fb = filter(scope, ctx.rule, [{ name: 'text' }]);
  type F = { k: number; namespace: string; text: string };
  pages<F>(ctx, `SELECT rowid AS k, namespace, text FROM feedback WHERE rowid > @after${fb.where} ORDER BY rowid LIMIT @limit`, fb.params, (r) => {
    const text = rw('feedback')(r.text);
    if (text === r.text) return;
    countRewrite(ctx, 'feedback', r.namespace);
    if (!ctx.dryRun) stmt(ctx.db, 'UPDATE feedback SET text = ? WHERE rowid = ?').run(text, r.k);
  });
  const hs = filter(scope, ctx.rule, [{ name: 'state', json: true }]);
  type H = { k: number; namespace: string; state: string };
  pages<H>(ctx, `SELECT rowid AS k, namespace, state FROM hot_state WHERE rowid > @after${hs.where} ORDER BY rowid LIMIT @limit`, hs.params, (r) => {
    const state = rewriteJson(r.state, rw('hot_state'));
    if (state === r.state) return;
    countRewrite(ctx, 'hot_state', r.namespace);
    if (!ctx.dryRun) stmt(ctx.db, 'UPDATE hot_state SET state = ? WHERE rowid = ?').run(state, r.k);
  });
}

/**
 * Knowledge (entities, aliases, facts): names and values repeat what memories said, so a secret in
 * them must go too. A slug that held it becomes the entity's id (a slug names a folder, and the
 * rule's replacement need not be file-safe); an alias whose rewritten key another alias already
 * holds is dropped (that one names the same text now).
 */
function rewriteKnowledge(ctx: Ctx, scope: PurgeScope): void {
  const rw = (table: string) => (s: string) => ctx.rule.rewrite(s, table);
  const e = filter(scope, ctx.rule, [{ name: 'name' }, { name: 'slug' }, { name: 'relation' }]);
  type E = { k: number; id: string; namespace: string; name: string; slug: string; relation: string | null };
  pages<E>(ctx, `SELECT seq AS k, id, namespace, name, slug, relation FROM entities WHERE seq > @after${e.where} ORDER BY seq LIMIT @limit`, e.params, (r) => {
    const name = rw('entities')(r.name);
    const slug = rw('entities')(r.slug) === r.slug ? r.slug : r.id.toLowerCase();
    const relation = r.relation === null ? null : rw('entities')(r.relation);
    if (name === r.name && slug === r.slug && relation === r.relation) return;
    countRewrite(ctx, 'entities', r.namespace);
    if (!ctx.dryRun) stmt(ctx.db, 'UPDATE entities SET name = ?, slug = ?, relation = ?, updated_at = ? WHERE seq = ?').run(name, slug, relation, ctx.now, r.k);
  });
  const a = filter(scope, ctx.rule, [{ name: 'key' }, { name: 'display' }]);
  type A = { k: number; namespace: string; key: string; display: string };
  pages<A>(ctx, `SELECT rowid AS k, namespace, key, display FROM entity_aliases WHERE rowid > @after${a.where} ORDER BY rowid LIMIT @limit`, a.params, (r) => {
    const key = rw('entity_aliases')(r.key);
    const display = rw('entity_aliases')(r.display);
    if (key === r.key && display === r.display) return;
    countRewrite(ctx, 'entity_aliases', r.namespace);
    if (ctx.dryRun) return;
    const moved = stmt(ctx.db, 'UPDATE OR IGNORE entity_aliases SET key = ?, display = ? WHERE rowid = ?').run(key, display, r.k).changes;
    if (moved === 0) stmt(ctx.db, 'DELETE FROM entity_aliases WHERE rowid = ?').run(r.k);
  });
  const f = filter(scope, ctx.rule, [{ name: 'subject' }, { name: 'subject_name' }, { name: 'attribute' }, { name: 'value' }, { name: 'provenance', json: true }]);
  type F = { k: number; namespace: string; subject: string; subject_name: string; attribute: string; value: string; provenance: string };
  const sql = `SELECT seq AS k, namespace, subject, subject_name, attribute, value, provenance FROM facts WHERE seq > @after${f.where} ORDER BY seq LIMIT @limit`;
  pages<F>(ctx, sql, f.params, (r) => {
    const next = {
      subject: rw('facts')(r.subject), subject_name: rw('facts')(r.subject_name), attribute: rw('facts')(r.attribute), value: rw('facts')(r.value),
      provenance: rewriteJson(r.provenance, rw('facts')),
    };
    if (Object.entries(next).every(([key, v]) => v === r[key as keyof F])) return;
    countRewrite(ctx, 'facts', r.namespace);
    if (!ctx.dryRun) {
      stmt(ctx.db, 'UPDATE facts SET subject = @subject, subject_name = @subject_name, attribute = @attribute, value = @value, provenance = @provenance WHERE seq = @k').run({ ...next, k: r.k });
    }
  });
}

/** What the index holds beyond the rows above (a turn's index text carries its context, speaker and date). */
function rewriteEntries(ctx: Ctx, scope: PurgeScope): void {
  const f = filter(scope, ctx.rule, [{ name: 'body' }]);
  type E = { k: number; namespace: string; body: string };
  pages<E>(ctx, `SELECT seq AS k, namespace, body FROM entries WHERE seq > @after${f.where} ORDER BY seq LIMIT @limit`, f.params, (r) => {
    const before = ctx.out.entriesRewritten;
    setEntryBody(ctx, r.k, r.body, ctx.rule.rewrite(r.body, 'entries'));
    if (ctx.out.entriesRewritten > before) ctx.namespaces.add(r.namespace);
  });
}

export function rewriteTexts(db: Database, scope: PurgeScope, rule: TextRewrite, dryRun: boolean, now: string): PurgeChanges {
  const ctx: Ctx = { db, rule, dryRun, now, out: emptyChanges(), namespaces: new Set(), entries: new Set() };
  rewriteTurns(ctx, scope);
  rewriteMemories(ctx, scope);
  rewriteDocuments(ctx, scope);
  rewriteDigests(ctx, scope);
  rewritePlain(ctx, scope);
  rewriteKnowledge(ctx, scope);
  rewriteEntries(ctx, scope);
  ctx.out.namespaces = [...ctx.namespaces].sort();
  return ctx.out;
}
