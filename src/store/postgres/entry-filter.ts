// The EntryFilter of keyword search and filterEntries as a PostgreSQL WHERE fragment, the same
// conditions as sqlite/entries.ts filterSql, with every value a bound parameter (arrays as
// `= ANY($n)` rather than SQLite's json_each).
import type { Layer } from '../../core/types.js';
import type { EntryFilter } from '../store.js';

/** Positional parameters collected while a statement is built: add() returns the placeholder. */
export class Params {
  readonly values: unknown[] = [];
  constructor(...initial: unknown[]) {
    this.values.push(...initial);
  }
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** ` AND …` conditions on the entry aliased `alias`, or '' when nothing narrows. */
export function filterSql(filter: EntryFilter | undefined, params: Params, alias = 'e'): string {
  return filterConditions(filter, params, alias).map((c) => ` AND ${c}`).join('');
}

/** The same conditions as one boolean expression (TRUE when nothing narrows). */
export function filterExpression(filter: EntryFilter | undefined, params: Params, alias = 'e'): string {
  const conditions = filterConditions(filter, params, alias);
  return conditions.length ? conditions.join(' AND ') : 'TRUE';
}

function filterConditions(filter: EntryFilter | undefined, params: Params, alias: string): string[] {
  const where: string[] = [];
  if (!filter?.includeSuperseded) {
    // As of a moment: what stopped being current after it was still current then.
    if (filter?.validAt !== undefined) where.push(`(${alias}.current = 1 OR ${alias}.valid_to > ${params.add(filter.validAt)})`);
    else where.push(`${alias}.current = 1`);
  }
  if (filter?.memoryIds !== undefined) where.push(`(${alias}.kind = 'memory' AND ${alias}.ref_id = ANY(${params.add([...filter.memoryIds])}::text[]))`);
  if (filter?.kinds?.length) where.push(`${alias}.kind = ANY(${params.add([...filter.kinds])}::text[])`);
  if (filter?.categories?.length) where.push(`${alias}.category = ANY(${params.add([...filter.categories])}::text[])`);
  if (filter?.minImportance !== undefined) where.push(`${alias}.importance >= ${params.add(filter.minImportance)}`);
  if (filter?.layers?.length) where.push(layerSql(filter.layers, params, alias));
  if (filter?.since) where.push(`${alias}.time >= ${params.add(filter.since)}`);
  if (filter?.until) where.push(`${alias}.time <= ${params.add(filter.until)}`);
  return where;
}

/**
 * Entries of the given layers: turns are layer 4, memories and documents 3 by kind, a digest
 * entry's layer is its digest row's (the ref_id up to '#'), as in sqlite/entries.ts layerSql.
 */
function layerSql(layers: readonly Layer[], params: Params, alias: string): string {
  const either: string[] = [];
  if (layers.includes(4)) either.push(`${alias}.kind = 'turn'`);
  if (layers.includes(3)) either.push(`${alias}.kind IN ('memory', 'document')`);
  const digestLayers = [...new Set(layers.filter((l) => l <= 3))];
  if (digestLayers.length) {
    either.push(`(${alias}.kind = 'digest' AND EXISTS (SELECT 1 FROM digests d
      WHERE d.id = split_part(${alias}.ref_id, '#', 1) AND d.layer = ANY(${params.add(digestLayers)}::int[])))`);
  }
  return either.length ? `(${either.join(' OR ')})` : 'FALSE';
}
