// Moves a store between two ends (SQLite file ⇄ PostgreSQL schema) without losing a row: tables in
// foreign-key order, each in key order, one transaction per batch on the target, so an interrupted
// run leaves a prefix of every table and the next run continues after the target's greatest key.
// A marker in the target's store_meta tells such a resume from a target that holds another store.
// At the end every table is counted and checksummed on both sides.
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import { tableChecksum, type TableSum } from './checksum.js';
import type { Row, StoreEnd } from './end.js';
import { assertKnownTables, assertSameColumns, batchFor, COUNTER_COLUMN, MARKER_KEY, sharedShape, TABLE_ORDER, type TableName, type TableShape } from './tables.js';

export interface MigrationProgress {
  table: TableName;
  /** Rows of this table now on the target, and how many the source has. */
  tableDone: number;
  tableTotal: number;
  /** Over all tables. */
  done: number;
  total: number;
  /** Batches written by this run so far. */
  batches: number;
}

export interface MigrateOptions {
  /** Rows per target transaction (default 500). */
  batchSize?: number;
  onProgress?: (p: MigrationProgress) => void;
  /** Called after each committed batch; throwing stops the migration there (tests interrupt it so). */
  afterBatch?: (p: MigrationProgress) => void | Promise<void>;
  now?: () => Date;
}

export interface TableVerification {
  table: TableName;
  sourceRows: number;
  targetRows: number;
  sourceSha256: string;
  targetSha256: string;
  match: boolean;
}

export interface MigrationReport {
  source: string;
  target: string;
  /** fresh: the target was empty; resumed: it held part of this source's copy; complete: it already held all of it. */
  mode: 'fresh' | 'resumed' | 'complete';
  rowsCopied: number;
  batches: number;
  tables: TableVerification[];
  ok: boolean;
}

interface Marker {
  source: string;
  startedAt: string;
}

function parseMarker(value: string | null): Marker | null {
  if (value === null) return null;
  try {
    const parsed = JSON.parse(value) as Partial<Marker>;
    return typeof parsed.source === 'string' ? { source: parsed.source, startedAt: String(parsed.startedAt ?? '') } : null;
  } catch {
    return null;
  }
}

/** Shapes of every table, checked to be the same on both sides. */
async function shapes(source: StoreEnd, target: StoreEnd): Promise<TableShape[]> {
  assertKnownTables(`source (${source.location})`, await source.tables());
  assertKnownTables(`target (${target.location})`, await target.tables());
  const sqliteEnd = source.backend === 'sqlite' ? source : target;
  const pgEnd = source.backend === 'sqlite' ? target : source;
  const out: TableShape[] = [];
  for (const name of TABLE_ORDER) {
    const lite = await sqliteEnd.describe(name);
    const pgShape = await pgEnd.describe(name);
    assertSameColumns(name, lite.columns, pgShape.columns);
    if (lite.key.join() !== pgShape.key.join()) throw new CairnError(ERROR_CODES.STORE, `Table ${name} has primary key (${lite.key}) in SQLite but (${pgShape.key}) in PostgreSQL`);
    out.push(sharedShape(name, lite.columns, lite.key));
  }
  return out;
}

/** store_meta's marker row is the migration's own bookkeeping, never data. */
function isMarkerRow(shape: TableShape): ((row: readonly unknown[]) => boolean) | undefined {
  if (shape.name !== 'store_meta') return undefined;
  const at = shape.columns.indexOf('key');
  return (row) => row[at] === MARKER_KEY;
}

async function verify(source: StoreEnd, target: StoreEnd, all: readonly TableShape[]): Promise<TableVerification[]> {
  const out: TableVerification[] = [];
  for (const shape of all) {
    const skip = isMarkerRow(shape);
    const [a, b]: TableSum[] = [await tableChecksum(source, shape, skip), await tableChecksum(target, shape, skip)];
    out.push({ table: shape.name, sourceRows: a!.rows, targetRows: b!.rows, sourceSha256: a!.sha256, targetSha256: b!.sha256, match: a!.rows === b!.rows && a!.sha256 === b!.sha256 });
  }
  return out;
}

const STORE_META_KEYS: TableShape = { name: 'store_meta', columns: ['key'], key: ['key'] };

async function holdsData(target: StoreEnd, all: readonly TableShape[]): Promise<string[]> {
  const nonEmpty: string[] = [];
  // store_meta is left out: opening any home writes a row or two there (the entry keys version).
  for (const shape of all) {
    if (shape.name === 'store_meta') continue;
    const n = await target.count(shape.name);
    if (n > 0) nonEmpty.push(`${n} ${shape.name}`);
  }
  return nonEmpty;
}

/** Copies `source` into `target` (or continues an interrupted copy), then verifies every table. */
export async function migrateStore(source: StoreEnd, target: StoreEnd, options: MigrateOptions = {}): Promise<MigrationReport> {
  const batchSize = options.batchSize ?? 500;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new CairnError(ERROR_CODES.INVALID_INPUT, `batch size must be a positive integer, got ${batchSize}`);
  const now = options.now ?? (() => new Date());
  const all = await shapes(source, target);
  await source.beginSnapshot();
  try {
    const marker = parseMarker(await target.getMeta(MARKER_KEY));
    let mode: MigrationReport['mode'] = 'fresh';
    if (marker && marker.source !== source.location) {
      throw new CairnError(ERROR_CODES.CONFLICT, `The target ${target.location} holds an unfinished migration from ${marker.source}, not from ${source.location}; finish that one, or migrate into an empty store.`);
    }
    if (marker) mode = 'resumed';
    else {
      const data = await holdsData(target, all);
      if (data.length > 0) {
        const tables = await verify(source, target, all);
        if (tables.every((t) => t.match)) return { source: source.location, target: target.location, mode: 'complete', rowsCopied: 0, batches: 0, tables, ok: true };
        throw new CairnError(ERROR_CODES.CONFLICT, `The target ${target.location} already holds another store (${data.slice(0, 4).join(', ')}${data.length > 4 ? ', …' : ''}); nothing was copied. Migrate into an empty store.`);
      }
      // The empty target's own bookkeeping rows (written when it was opened) give way to the source's.
      for await (const page of target.read(STORE_META_KEYS, null, 1000)) for (const row of page) await target.setMeta(String(row[0]), null);
      await target.setMeta(MARKER_KEY, JSON.stringify({ source: source.location, startedAt: now().toISOString() } satisfies Marker));
    }

    const totals = new Map<TableName, number>();
    for (const shape of all) totals.set(shape.name, await source.count(shape.name));
    const total = [...totals.values()].reduce((a, b) => a + b, 0);
    let done = 0;
    let batches = 0;
    let rowsCopied = 0;
    for (const shape of all) {
      const skip = isMarkerRow(shape);
      // store_meta is small and copied whole each run (its rows replace the target's); every other table continues after the target's greatest key.
      const after = shape.name === 'store_meta' ? null : await target.lastKey(shape);
      let tableDone = shape.name === 'store_meta' ? 0 : await target.count(shape.name);
      done += tableDone;
      const tableTotal = totals.get(shape.name)!;
      options.onProgress?.({ table: shape.name, tableDone, tableTotal, done, total, batches });
      for await (const page of source.read(shape, after, batchFor(shape.name, batchSize))) {
        const rows: Row[] = skip ? page.filter((r) => !skip(r)) : page;
        await target.write(shape, rows);
        batches++;
        rowsCopied += rows.length;
        tableDone += page.length;
        done += page.length;
        const progress = { table: shape.name, tableDone, tableTotal, done, total, batches };
        options.onProgress?.(progress);
        await options.afterBatch?.(progress);
      }
      const column = COUNTER_COLUMN[shape.name];
      if (column) await target.setCounter(shape.name, column, await source.counter(shape.name, column));
    }

    const tables = await verify(source, target, all);
    const ok = tables.every((t) => t.match);
    // Kept when a table differs: the target stays marked as this source's unfinished copy.
    if (ok) await target.setMeta(MARKER_KEY, null);
    return { source: source.location, target: target.location, mode, rowsCopied, batches, tables, ok };
  } finally {
    await source.endSnapshot();
  }
}
