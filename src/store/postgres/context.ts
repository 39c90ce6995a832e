// What search needs around a hit, on PostgreSQL: the people who speak in a namespace and the turns
// next to a turn in its session. No cache in the process (SQLite's backend keeps one): other
// machines write to the same database and nothing tells this process cheaply, so each call is one
// query, whatever the number of turns asked about.
import type { NeighbourOptions, NeighbourTurn, NeighbourTurns, SpeakerCount } from '../store.js';
import type { Db } from './connect.js';

/** The namespace's speakers, most turns first (ties by name, byte order). */
export async function speakers(db: Db, namespace: string): Promise<SpeakerCount[]> {
  return (await db.query<SpeakerCount>('SELECT name, turns FROM speakers WHERE namespace = $1 ORDER BY turns DESC, name COLLATE "C"', [namespace])).rows;
}

/**
 * Counts the speakers of newly inserted turns; called inside the turns' transaction. One upsert
 * that adds to the stored count (the row is locked while it does), so writers on other machines
 * counting the same speaker at once never lose an increment; rows in key order, so two of them
 * lock the same rows in the same order and cannot deadlock.
 */
export async function countSpeakers(db: Db, counts: ReadonlyMap<string, ReadonlyMap<string, number>>): Promise<void> {
  const namespaces: string[] = [];
  const names: string[] = [];
  const turns: number[] = [];
  for (const [namespace, byName] of counts) {
    for (const [name, n] of byName) {
      namespaces.push(namespace);
      names.push(name);
      turns.push(n);
    }
  }
  if (namespaces.length === 0) return;
  await db.query(
    `INSERT INTO speakers (namespace, name, turns)
     SELECT namespace, name, turns FROM unnest($1::text[], $2::text[], $3::int[]) AS u(namespace, name, turns)
     ORDER BY namespace COLLATE "C", name COLLATE "C"
     ON CONFLICT (namespace, name) DO UPDATE SET turns = speakers.turns + excluded.turns`,
    [namespaces, names, turns],
  );
}

type Row = { seq: number; id: string; text: string; conversational: boolean; entry_seq: number | null; entry_bytes: number | null };

/** PostgreSQL text cannot hold U+0000, so no turn id has one: asking with it would only fail. */
const storable = (id: string): boolean => !id.includes('\u0000');

/**
 * The turns up to `radius` before and after each turn in its session, in the order asked (unknown
 * ids and turns of other namespaces left out), with what ranking reads of each (NeighbourTurn: a
 * tool turn told by its role or meta.kind, as search/neighbours.ts tells them). One query, so one
 * snapshot: the anchors (through the unique id index) with the seqs of their windows (each a short
 * walk of the (namespace, session, seq) index), then every turn of every window once, with its
 * index entry. Windows of nearby hits overlap; the rows come once and are shared. The LATERAL ...
 * LIMIT 1 lookups keep every read an index probe: as plain joins, the planner hashed whole tables
 * for a few hundred ids.
 */
export async function turnNeighbours(db: Db, namespace: string, turnIds: readonly string[], radius: number, options: NeighbourOptions = {}): Promise<NeighbourTurns[]> {
  const asked = turnIds.filter(storable);
  if (asked.length === 0) return [];
  // LIMIT NULL is no limit: an infinite radius is the whole session, as SQLite's slices give it.
  const width = radius === Infinity ? null : Number.isFinite(radius) ? Math.max(0, Math.floor(radius)) : 0;
  const result = await db.query<Row & { ord: number | null; before: number[] | null; after: number[] | null }>(
    `WITH anchors AS MATERIALIZED (
       SELECT a.ord,
         ARRAY(SELECT b.seq FROM turns b WHERE b.namespace = t.namespace AND b.session_id = t.session_id AND b.seq < t.seq ORDER BY b.seq DESC LIMIT $3) AS before,
         ARRAY(SELECT n.seq FROM turns n WHERE n.namespace = t.namespace AND n.session_id = t.session_id AND n.seq > t.seq ORDER BY n.seq LIMIT $3) AS after
       FROM unnest($2::text[]) WITH ORDINALITY AS a(id, ord)
       CROSS JOIN LATERAL (SELECT seq, namespace, session_id FROM turns WHERE id = a.id AND namespace = $1 LIMIT 1) t
     )
     SELECT a.ord, a.before, a.after, NULL::bigint AS seq, NULL AS id, NULL AS text, NULL::boolean AS conversational, NULL::bigint AS entry_seq, NULL::int AS entry_bytes
     FROM anchors a
     UNION ALL
     SELECT NULL, NULL, NULL, t.seq, t.id, t.text, t.role <> 'tool' AND (t.meta = '{}' OR (t.meta::jsonb ->> 'kind') IS DISTINCT FROM 'tool'), e.seq, e.bytes
     FROM (SELECT DISTINCT unnest(before || after) AS seq FROM anchors) w
     CROSS JOIN LATERAL (SELECT seq, id, text, role, meta FROM turns WHERE seq = w.seq LIMIT 1) t
     LEFT JOIN LATERAL (SELECT seq, CASE WHEN $4 THEN octet_length(body) END AS bytes FROM entries WHERE kind = 'turn' AND ref_id = t.id LIMIT 1) e ON true`,
    [namespace, asked, width, options.entryBytes === true],
  );
  const windows: Array<{ ord: number; before: number[]; after: number[] }> = [];
  const rows = new Map<number, NeighbourTurn>();
  for (const r of result.rows) {
    if (r.ord !== null) windows.push({ ord: r.ord, before: r.before!, after: r.after! });
    else {
      const row: NeighbourTurn = { id: r.id, text: r.text, conversational: r.conversational, entrySeq: r.entry_seq };
      if (options.entryBytes) row.entryBytes = r.entry_bytes;
      rows.set(r.seq, row);
    }
  }
  windows.sort((x, y) => x.ord - y.ord);
  const row = (seq: number): NeighbourTurn => rows.get(seq)!;
  // A turn shared by two windows is one object in both, as SQLite's cache gives it.
  return windows.map((w) => ({ turnId: asked[w.ord - 1]!, before: [...w.before].reverse().map(row), after: w.after.map(row) }));
}
