// Rewriting stored text for PostgreSQL (store.ts rewriteTexts), as sqlite/purge-text.ts does: a
// purged literal, or history redacted again with newer rules. Every table that holds text is
// walked in pages of rows, each page read and written in one transaction (a long purge never
// holds rows for long), and derived data follows: an index entry whose text changed gets its keys
// and terms again (entry-terms.ts) and loses its vectors (re-embedded afterwards); a memory that
// becomes equal to a current one is superseded by it. A dry run reads the same pages and writes
// nothing.
//
// Concurrency: a page's rows are read FOR UPDATE, so a writer changing one of them meanwhile waits
// for the page (and one that got there first is read after it, re-checked by PostgreSQL). Pages
// follow a key that the rewrite never changes (seq, or the row's id). A page that loses a deadlock
// to another writer fails the call (STORE_LOCKED): the pages before it stay done, and running it
// again finds only what still holds the text.
import { dedupKey } from '../../core/text.js';
import type { PurgeChanges, PurgeScope, TextRewrite } from '../purge.js';
import { countRewrite, jsonNeedle, rewriteJson, rewriteSections } from '../purge-rewrite.js';
import { documentBody } from '../sqlite/documents.js';
import { sectionBody } from '../sqlite/digests.js';
import { memoryEntryBody } from '../sqlite/memories.js';
import { pgCode, PG, transaction, type Db } from './connect.js';
import { setEntryBody as writeEntryBody } from './entry-terms.js';
import { notePurgeWrite } from './purge-log.js';
import { emptyChanges } from './purge-records.js';

const PAGE = 500;

interface Ctx {
  db: Db;
  rule: TextRewrite;
  dryRun: boolean;
  now: string;
  out: PurgeChanges;
  namespaces: Set<string>;
  /** Entries already counted (a dry run changes nothing, so the entries pass would see them again). */
  entries: Set<number>;
}

/** How many changes were counted so far: a page that moved it wrote (scrub must know, purge-log.ts). */
function tally(ctx: Ctx): number {
  return ctx.out.entriesRewritten + Object.values(ctx.out.rewritten).reduce((a, b) => a + b, 0);
}

/** Runs one page: read-only in a dry run, else one transaction that notes itself when it changed text. */
async function inPage(ctx: Ctx, step: (c: Db) => Promise<void>): Promise<void> {
  if (ctx.dryRun) return step(ctx.db);
  await transaction(ctx.db, async (c) => {
    const before = tally(ctx);
    await step(c);
    if (tally(ctx) > before) await notePurgeWrite(c);
  });
}

/** Conditions narrowing rows to the scope and, with `mustContain`, to rows holding it in some column ($1.. in params). */
interface Filter {
  conds: string[];
  params: unknown[];
}

function filter(scope: PurgeScope, rule: TextRewrite, columns: Array<{ name: string; json?: boolean }>): Filter {
  const params: unknown[] = [];
  const conds: string[] = [];
  if (scope !== null) {
    params.push(scope);
    conds.push(`namespace = $${params.length}`);
  }
  if (rule.mustContain !== undefined) {
    const forms = { plain: rule.mustContain, json: jsonNeedle(rule.mustContain) };
    const placeholders: Partial<Record<keyof typeof forms, string>> = {};
    const placeholder = (form: keyof typeof forms): string => {
      if (!placeholders[form]) {
        params.push(forms[form]);
        placeholders[form] = `$${params.length}`;
      }
      return placeholders[form];
    };
    conds.push(`(${columns.map((c) => `strpos(${c.name}, ${placeholder(c.json ? 'json' : 'plain')}) > 0`).join(' OR ')})`);
  }
  return { conds, params };
}

/**
 * Reads a table page by page in `key` order (rows after the last one's key), each page in one
 * transaction with its writes and its rows locked; `handle` rewrites one row with the page's client.
 */
async function pages<R extends { k: number | string }>(
  ctx: Ctx,
  table: string,
  key: string,
  columns: string,
  f: Filter,
  handle: (c: Db, row: R) => Promise<void>,
): Promise<void> {
  let after: number | string | null = null;
  for (;;) {
    const params = [...f.params];
    const conds = [...f.conds];
    if (after !== null) {
      params.push(after);
      conds.push(`${key} > $${params.length}`);
    }
    params.push(PAGE);
    const sql = `SELECT ${key} AS k, ${columns} FROM ${table}${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''} ORDER BY ${key} LIMIT $${params.length}${ctx.dryRun ? '' : ' FOR UPDATE'}`;
    let rows: R[] = [];
    const step = async (c: Db): Promise<void> => {
      rows = (await c.query<R>(sql, params)).rows;
      for (const row of rows) await handle(c, row);
    };
    await inPage(ctx, step);
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.k;
  }
}

/** Sets an entry's text; when it changes, its old text is reported and its vectors dropped. */
async function setEntryBody(ctx: Ctx, c: Db, seq: number, oldBody: string, body: string): Promise<void> {
  if (body === oldBody || ctx.entries.has(seq)) return;
  ctx.entries.add(seq);
  ctx.out.entriesRewritten++;
  ctx.out.formerTexts.push(oldBody);
  if (ctx.dryRun) {
    ctx.out.vectors += (await c.query<{ n: number }>('SELECT COUNT(*) AS n FROM vectors WHERE entry_seq = $1', [seq])).rows[0]!.n;
    return;
  }
  await writeEntryBody(c, seq, body);
  ctx.out.vectors += (await c.query('DELETE FROM vectors WHERE entry_seq = $1', [seq])).rowCount ?? 0;
}

async function entryOf(c: Db, kind: string, refId: string): Promise<{ seq: number; body: string } | undefined> {
  return (await c.query<{ seq: number; body: string }>('SELECT seq, body FROM entries WHERE kind = $1 AND ref_id = $2', [kind, refId])).rows[0];
}

async function rewriteTurns(ctx: Ctx, scope: PurgeScope): Promise<void> {
  const rw = (s: string) => ctx.rule.rewrite(s, 'turns');
  const f = filter(scope, ctx.rule, [{ name: 'text' }, { name: 'speaker' }, { name: 'meta', json: true }]);
  type Row = { k: number; id: string; namespace: string; text: string; speaker: string | null; meta: string };
  await pages<Row>(ctx, 'turns', 'seq', 'id, namespace, text, speaker, meta', f, async (c, r) => {
    const text = rw(r.text);
    const speaker = r.speaker === null ? null : rw(r.speaker);
    const meta = rewriteJson(r.meta, rw);
    if (text === r.text && speaker === r.speaker && meta === r.meta) return;
    countRewrite(ctx, 'turns', r.namespace);
    if (ctx.dryRun) return;
    await c.query('UPDATE turns SET text = $1, speaker = $2, meta = $3 WHERE seq = $4', [text, speaker, meta, r.k]);
    if (speaker !== r.speaker) {
      await c.query('UPDATE speakers SET turns = turns - 1 WHERE namespace = $1 AND name = $2', [r.namespace, r.speaker]);
      await c.query('DELETE FROM speakers WHERE namespace = $1 AND name = $2 AND turns <= 0', [r.namespace, r.speaker]);
      if (speaker) await c.query('INSERT INTO speakers (namespace, name, turns) VALUES ($1, $2, 1) ON CONFLICT (namespace, name) DO UPDATE SET turns = speakers.turns + 1', [r.namespace, speaker]);
    }
  });
}

/**
 * Writes a rewritten memory. Now the same statement as another current memory: that one stands,
 * this one is history. A writer on another connection may store that statement between the look
 * and the write (the partial unique index memories_current_dedup refuses the second current copy):
 * then the write is undone to its savepoint and the twin looked for again.
 */
async function writeMemory(ctx: Ctx, c: Db, r: { k: number; id: string; namespace: string; valid_to: string | null; dedup_key: string }, fields: { text: string; tags: string; entities: string; provenance: string }): Promise<void> {
  const key = dedupKey(fields.text);
  for (let attempt = 0; ; attempt++) {
    const twin = r.valid_to === null && key !== r.dedup_key
      ? (await c.query<{ id: string }>('SELECT id FROM memories WHERE namespace = $1 AND dedup_key = $2 AND valid_to IS NULL AND id <> $3 FOR UPDATE', [r.namespace, key, r.id])).rows[0]?.id
      : undefined;
    await c.query('SAVEPOINT rewrite_memory');
    try {
      await c.query(
        'UPDATE memories SET text = $1, dedup_key = $2, tags = $3, entities = $4, provenance = $5, valid_to = COALESCE($6, valid_to), superseded_by = COALESCE($7, superseded_by) WHERE seq = $8',
        [fields.text, key, fields.tags, fields.entities, fields.provenance, twin ? ctx.now : null, twin ?? null, r.k],
      );
      await c.query('RELEASE SAVEPOINT rewrite_memory');
    } catch (err) {
      await c.query('ROLLBACK TO SAVEPOINT rewrite_memory');
      if (pgCode(err) !== PG.UNIQUE || attempt >= 2) throw err;
      continue;
    }
    if (twin) await c.query("UPDATE entries SET current = 0, valid_to = $1 WHERE kind = 'memory' AND ref_id = $2", [ctx.now, r.id]);
    return;
  }
}

async function rewriteMemories(ctx: Ctx, scope: PurgeScope): Promise<void> {
  const rw = (s: string) => ctx.rule.rewrite(s, 'memories');
  const f = filter(scope, ctx.rule, [{ name: 'text' }, { name: 'tags', json: true }, { name: 'entities', json: true }, { name: 'provenance', json: true }]);
  type Row = { k: number; id: string; namespace: string; text: string; tags: string; entities: string; provenance: string; valid_to: string | null; dedup_key: string };
  await pages<Row>(ctx, 'memories', 'seq', 'id, namespace, text, tags, entities, provenance, valid_to, dedup_key', f, async (c, r) => {
    const text = rw(r.text);
    const tags = rewriteJson(r.tags, rw);
    const entities = rewriteJson(r.entities, rw);
    const provenance = rewriteJson(r.provenance, rw);
    if (text === r.text && tags === r.tags && entities === r.entities && provenance === r.provenance) return;
    countRewrite(ctx, 'memories', r.namespace);
    const entry = await entryOf(c, 'memory', r.id);
    const body = memoryEntryBody({ text, tags: JSON.parse(tags) as string[], entities: JSON.parse(entities) as string[] });
    if (entry) await setEntryBody(ctx, c, entry.seq, entry.body, body);
    // A memory is embedded by its own text, not its entry's body: that text's cached vector goes too.
    if (text !== r.text) ctx.out.formerTexts.push(r.text);
    if (!ctx.dryRun) await writeMemory(ctx, c, r, { text, tags, entities, provenance });
  });
}

async function rewriteDocuments(ctx: Ctx, scope: PurgeScope): Promise<void> {
  const rw = (s: string) => ctx.rule.rewrite(s, 'documents');
  const f = filter(scope, ctx.rule, [{ name: 'heading' }, { name: 'text' }]);
  type Row = { k: string; namespace: string; heading: string; text: string };
  await pages<Row>(ctx, 'documents', 'id', 'namespace, heading, text', f, async (c, r) => {
    const heading = rw(r.heading);
    const text = rw(r.text);
    if (heading === r.heading && text === r.text) return;
    countRewrite(ctx, 'documents', r.namespace);
    const entry = await entryOf(c, 'document', r.k);
    if (entry) await setEntryBody(ctx, c, entry.seq, entry.body, documentBody(heading, text));
    if (!ctx.dryRun) await c.query('UPDATE documents SET heading = $1, text = $2 WHERE id = $3', [heading, text, r.k]);
  });
}

/** Digests: the file's text, and each section's heading and text with the entry made of them. */
async function rewriteDigests(ctx: Ctx, scope: PurgeScope): Promise<void> {
  const rw = (s: string) => ctx.rule.rewrite(s, 'digests');
  const f = filter(scope, ctx.rule, [{ name: 'text' }, { name: 'sections', json: true }]);
  type Row = { k: string; namespace: string; text: string; sections: string };
  await pages<Row>(ctx, 'digests', 'id', 'namespace, text, sections', f, async (c, r) => {
    const text = rw(r.text);
    const { sections: after, changed } = rewriteSections(r.sections, rw);
    if (text === r.text && !changed) return;
    countRewrite(ctx, 'digests', r.namespace);
    for (const [i, s] of after.entries()) {
      const entry = await entryOf(c, 'digest', `${r.k}#${i}`);
      if (entry) await setEntryBody(ctx, c, entry.seq, entry.body, sectionBody(s));
    }
    if (!ctx.dryRun) await c.query('UPDATE digests SET text = $1, sections = $2 WHERE id = $3', [text, JSON.stringify(after), r.k]);
  });
}

/** Tables whose text is not indexed: judgments, feedback, hot state. */
async function rewritePlain(ctx: Ctx, scope: PurgeScope): Promise<void> {
  const rw = (table: string) => (s: string) => ctx.rule.rewrite(s, table);
  type J = { k: string; namespace: string; reason: string; statement: string | null };
  await pages<J>(ctx, 'judgments', 'turn_id', 'namespace, reason, statement', filter(scope, ctx.rule, [{ name: 'reason' }, { name: 'statement' }]), async (c, r) => {
    const reason = rw('judgments')(r.reason);
    const statement = r.statement === null ? null : rw('judgments')(r.statement);
    if (reason === r.reason && statement === r.statement) return;
    countRewrite(ctx, 'judgments', r.namespace);
    if (!ctx.dryRun) await c.query('UPDATE judgments SET reason = $1, statement = $2 WHERE turn_id = $3', [reason, statement, r.k]);
  });
  type F = { k: number; namespace: string; text: string };
  await pages<F>(ctx, 'feedback', 'seq', 'namespace, text', filter(scope, ctx.rule, [{ name: 'text' }]), async (c, r) => {
    const text = rw('feedback')(r.text);
    if (text === r.text) return;
    countRewrite(ctx, 'feedback', r.namespace);
    if (!ctx.dryRun) await c.query('UPDATE feedback SET text = $1 WHERE seq = $2', [text, r.k]);
  });
  type H = { k: string; state: string };
  await pages<H>(ctx, 'hot_state', 'namespace', 'state', filter(scope, ctx.rule, [{ name: 'state', json: true }]), async (c, r) => {
    const state = rewriteJson(r.state, rw('hot_state'));
    if (state === r.state) return;
    countRewrite(ctx, 'hot_state', r.k);
    if (!ctx.dryRun) await c.query('UPDATE hot_state SET state = $1 WHERE namespace = $2', [state, r.k]);
  });
}

/** Aliases, in the order they were learned (seq, SQLite's rowid): one whose rewritten key another alias already holds is dropped (that one names the same text now). */
async function rewriteAliases(ctx: Ctx, scope: PurgeScope): Promise<void> {
  const rw = (s: string) => ctx.rule.rewrite(s, 'entity_aliases');
  type A = { k: number; namespace: string; key: string; display: string };
  await pages<A>(ctx, 'entity_aliases', 'seq', 'namespace, key, display', filter(scope, ctx.rule, [{ name: 'key' }, { name: 'display' }]), async (c, r) => {
    const key = rw(r.key);
    const display = rw(r.display);
    if (key === r.key && display === r.display) return;
    countRewrite(ctx, 'entity_aliases', r.namespace);
    if (ctx.dryRun) return;
    const moved = (await c.query(
      `UPDATE entity_aliases SET key = $1, display = $2 WHERE namespace = $3 AND key = $4
         AND ($1 = $4 OR NOT EXISTS (SELECT 1 FROM entity_aliases t WHERE t.namespace = $3 AND t.key = $1))`,
      [key, display, r.namespace, r.key],
    )).rowCount;
    if (!moved) await c.query('DELETE FROM entity_aliases WHERE namespace = $1 AND key = $2', [r.namespace, r.key]);
  });
}

/**
 * Knowledge (entities, aliases, facts): names and values repeat what memories said, so a secret in
 * them must go too. A slug that held it becomes the entity's id (a slug names a folder, and the
 * rule's replacement need not be file-safe).
 */
async function rewriteKnowledge(ctx: Ctx, scope: PurgeScope): Promise<void> {
  const rw = (table: string) => (s: string) => ctx.rule.rewrite(s, table);
  type E = { k: number; id: string; namespace: string; name: string; slug: string; relation: string | null };
  const e = filter(scope, ctx.rule, [{ name: 'name' }, { name: 'slug' }, { name: 'relation' }]);
  await pages<E>(ctx, 'entities', 'seq', 'id, namespace, name, slug, relation', e, async (c, r) => {
    const name = rw('entities')(r.name);
    const slug = rw('entities')(r.slug) === r.slug ? r.slug : r.id.toLowerCase();
    const relation = r.relation === null ? null : rw('entities')(r.relation);
    if (name === r.name && slug === r.slug && relation === r.relation) return;
    countRewrite(ctx, 'entities', r.namespace);
    if (!ctx.dryRun) await c.query('UPDATE entities SET name = $1, slug = $2, relation = $3, updated_at = $4 WHERE seq = $5', [name, slug, relation, ctx.now, r.k]);
  });
  await rewriteAliases(ctx, scope);
  type F = { k: number; namespace: string; subject: string; subject_name: string; attribute: string; value: string; provenance: string };
  const f = filter(scope, ctx.rule, [{ name: 'subject' }, { name: 'subject_name' }, { name: 'attribute' }, { name: 'value' }, { name: 'provenance', json: true }]);
  await pages<F>(ctx, 'facts', 'seq', 'namespace, subject, subject_name, attribute, value, provenance', f, async (c, r) => {
    const next = {
      subject: rw('facts')(r.subject), subject_name: rw('facts')(r.subject_name), attribute: rw('facts')(r.attribute), value: rw('facts')(r.value),
      provenance: rewriteJson(r.provenance, rw('facts')),
    };
    if (Object.entries(next).every(([key, v]) => v === r[key as keyof F])) return;
    countRewrite(ctx, 'facts', r.namespace);
    if (!ctx.dryRun) {
      await c.query('UPDATE facts SET subject = $1, subject_name = $2, attribute = $3, value = $4, provenance = $5 WHERE seq = $6', [
        next.subject, next.subject_name, next.attribute, next.value, next.provenance, r.k,
      ]);
    }
  });
}

/** What the index holds beyond the rows above (a turn's index text carries its context, speaker and date). */
async function rewriteEntries(ctx: Ctx, scope: PurgeScope): Promise<void> {
  type E = { k: number; namespace: string; body: string };
  await pages<E>(ctx, 'entries', 'seq', 'namespace, body', filter(scope, ctx.rule, [{ name: 'body' }]), async (c, r) => {
    const before = ctx.out.entriesRewritten;
    await setEntryBody(ctx, c, r.k, r.body, ctx.rule.rewrite(r.body, 'entries'));
    if (ctx.out.entriesRewritten > before) ctx.namespaces.add(r.namespace);
  });
}

export async function rewriteTexts(db: Db, scope: PurgeScope, rule: TextRewrite, dryRun: boolean, now: string): Promise<PurgeChanges> {
  const ctx: Ctx = { db, rule, dryRun, now, out: emptyChanges(), namespaces: new Set(), entries: new Set() };
  // PostgreSQL text holds no NUL: no stored text contains such a literal (and a parameter with one is refused).
  if (rule.mustContain?.includes('\u0000')) return ctx.out;
  await rewriteTurns(ctx, scope);
  await rewriteMemories(ctx, scope);
  await rewriteDocuments(ctx, scope);
  await rewriteDigests(ctx, scope);
  await rewritePlain(ctx, scope);
  await rewriteKnowledge(ctx, scope);
  await rewriteEntries(ctx, scope);
  ctx.out.namespaces = [...ctx.namespaces].sort();
  return ctx.out;
}
