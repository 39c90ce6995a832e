// Nearest neighbours per (model, namespace), cosine. A namespace of a person's size is searched
// exactly over its vectors in memory; past `exactMax` vectors, approximately with usearch HNSW
// (i8-quantised). SQLite holds the vectors (the record); this index is derived data. Each process
// keeps one in memory, loads the newest saved HNSW copy, and catches up from the store past its
// watermark (the highest vector row id it has). Saved files carry the watermark in their name and
// are written temp-then-rename, so concurrent savers can never pair an index with the wrong watermark.
// A saved graph is mapped (usearch `view`), not read: a process that only searches (a cold
// `cairn search`) opens a 10k graph in ~6 ms instead of ~35 ms, and its pages are the file's, shared
// and reclaimable; only the first vector added copies the graph into memory (writableGraph). A
// saved file is never rewritten in place (temp-then-rename, then removal), so a mapping stays whole.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../store/store.js';
import { dot } from './pipeline/cosines.js';
import { ResidentRows } from './resident-vectors.js';
import { addFlat, addToGraph, newGraph, type Flat, type UsearchIndex } from './vector-index-add.js';
import { modelDirOf, newestSavedFile, removeModelDirsExcept, removeQuietly, savedRows, writeSavedFile } from './vector-index-files.js';
import { loadUsearch as requireUsearch } from './usearch-load.js';

type UsearchModule = typeof import('usearch');

let usearch: UsearchModule | undefined;
function loadUsearch(): UsearchModule {
  usearch ??= requireUsearch();
  return usearch;
}

/**
 * Up to this many vectors a namespace is searched exactly: the answer is then a function of its
 * vectors alone, not of the order an HNSW graph was built in (ingest order varies with embedding
 * workers), and nothing is approximated. Measured (512-d): exact search over 2,048 vectors
 * ~0.3 ms; a cold process reads them from the store in ~10 ms (641 in ~3 ms, where loading a
 * saved HNSW took ~1 ms), so past this the saved approximate index is the better trade.
 */
export const EXACT_MAX_VECTORS = 2048;
/** Save again once this many vectors were added since the last save or load. */
const SAVE_AFTER_ADDS = 1000;
const CATCH_UP_PAGE = 5000;
/**
 * Indexes kept in memory across namespaces before the least recently searched are dropped (a
 * dropped one is reloaded or rebuilt when next searched). A server over many namespaces (one per
 * user, or per benchmark question) otherwise grows without bound.
 */
export const MEMORY_BUDGET_BYTES = 256 * 1024 * 1024;
/** HNSW bytes per vector beyond its i8 row: level-0 links (2 × connectivity × 4 B) and bookkeeping. */
const GRAPH_BYTES_PER_VECTOR = 320;

/** What keepVectors checks: the namespace's index and watermark before its vectors were read. */
export interface KeepMark {
  readonly namespace: string;
  readonly entry: object;
  readonly watermark: number;
}

export interface AnnHit {
  seq: number;
  /** Cosine distance (1 − similarity) as computed on quantised vectors. */
  distance: number;
}

interface Loaded {
  /** The HNSW graph past exactMax vectors; null while the namespace is searched exactly. */
  index: UsearchIndex | null;
  /** The vectors searched exactly; null once an HNSW graph holds them. */
  flat: Flat | null;
  dimensions: number;
  watermark: number;
  addedSinceSave: number;
  /** Past exactMax in a store with its own nearest-neighbour index: searched there (the count seen then). */
  remote?: number;
  /** The store's change mark when this was last caught up (see caughtUp). */
  mark?: string;
  /** A graph's stored vectors that searches read, kept (resident-vectors.ts). */
  resident?: ResidentRows;
  /** The saved file `index` is mapped from, read-only, until something is added (writableGraph). */
  mappedFrom?: string;
}

export interface VectorIndexOptions {
  /** Namespaces with up to this many vectors are searched exactly (default EXACT_MAX_VECTORS). */
  exactMax?: number;
  /** Memory for indexes of other namespaces than the one being searched (default MEMORY_BUDGET_BYTES). */
  memoryBudgetBytes?: number;
  /** Stored vectors kept per graph namespace (default RESIDENT_BUDGET_BYTES; 0 keeps none). */
  residentBudgetBytes?: number;
}

export class VectorIndex {
  private readonly loaded = new Map<string, Loaded>();
  /** The store's newest purge when the indexes in memory were loaded (see forgetIfPurged). */
  private purgeMark: number | null = null;
  /** The store's change mark when the purge was last checked. */
  private purgeCheckedAt: string | undefined;
  private readonly exactMax: number;
  private readonly memoryBudget: number;
  private readonly residentBudget: number | undefined;

  constructor(
    private readonly store: Store,
    private readonly model: string,
    /** Folder for saved indexes; null keeps everything in memory. */
    private readonly dir: string | null,
    options: VectorIndexOptions = {},
  ) {
    this.exactMax = options.exactMax ?? EXACT_MAX_VECTORS;
    this.memoryBudget = options.memoryBudgetBytes ?? MEMORY_BUDGET_BYTES;
    this.residentBudget = options.residentBudgetBytes;
  }

  private modelDir(): string | null {
    return this.dir === null ? null : modelDirOf(this.dir, this.model);
  }

  private create(dimensions: number): UsearchIndex {
    return newGraph(loadUsearch(), dimensions);
  }

  private load(namespace: string): Loaded {
    let entry = this.loaded.get(namespace);
    if (entry) {
      // Map order is recency order: the least recently searched namespace comes first.
      this.loaded.delete(namespace);
      this.loaded.set(namespace, entry);
      return entry;
    }
    entry = { index: null, flat: null, dimensions: 0, watermark: 0, addedSinceSave: 0 };
    const dir = this.modelDir();
    const file = dir === null ? null : newestSavedFile(dir, namespace);
    const rows = file ? savedRows(file) : null;
    if (file && (rows === null || rows <= this.exactMax)) {
      // Damaged derived data, or a namespace now searched exactly (a file of an earlier version):
      // dropped here, rebuilt from the store below.
      removeQuietly(file.path);
    } else if (file) {
      const index = this.create(file.dimensions);
      try {
        index.view(file.path);
        entry = { index, flat: null, dimensions: file.dimensions, watermark: file.watermark, addedSinceSave: 0, mappedFrom: file.path };
      } catch {
        // A damaged derived file is rebuilt from the store: start empty, watermark 0.
      }
    }
    this.loaded.set(namespace, entry);
    return entry;
  }

  /** Adds every vector the store has past this index's watermark. Returns how many were added. */
  async catchUp(namespace: string): Promise<number> {
    return (await this.caughtUp(namespace)).added;
  }

  /** Catches the namespace up and returns how many vectors it has. */
  async ready(namespace: string): Promise<number> {
    const { entry } = await this.caughtUp(namespace);
    return entryCount(entry);
  }

  /**
   * A purge (in this process or another) removed vectors: whatever this process holds in memory
   * may include them, so it is dropped unsaved and reloaded from the store and the files the purge
   * left. Returns true when something was dropped.
   */
  private async forgetIfPurged(): Promise<boolean> {
    const mark = await this.store.lastPurgeId();
    const stale = this.purgeMark !== null && mark !== this.purgeMark;
    if (stale) this.loaded.clear();
    this.purgeMark = mark;
    return stale;
  }

  /** Saves changed HNSW indexes, unless a purge happened since they were loaded (then they are dropped). */
  async persist(): Promise<void> {
    if (!(await this.forgetIfPurged())) this.flush();
  }

  /**
   * The namespace's index, caught up (held here: another search may drop it from the cache meanwhile).
   * A search asks twice (ready, then search): when the store says nothing was written since the
   * last catch-up (its change mark, read before looking), neither the purge nor new vectors are
   * asked for again.
   */
  private async caughtUp(namespace: string): Promise<{ entry: Loaded; added: number }> {
    const mark = this.store.changeMark ? await this.store.changeMark() : undefined;
    const held = mark === undefined ? undefined : this.loaded.get(namespace);
    if (held && held.mark === mark && this.purgeCheckedAt === mark) return { entry: this.load(namespace), added: 0 };
    await this.forgetIfPurged();
    this.purgeCheckedAt = mark;
    const entry = this.load(namespace);
    let added = 0;
    if (entry.remote !== undefined) return { entry, added };
    for (;;) {
      const page = await this.store.vectorsAfter(namespace, this.model, entry.watermark, CATCH_UP_PAGE);
      if (page.length === 0) break;
      if (!entry.index && !entry.flat) {
        entry.dimensions = page[0]!.vector.length;
        entry.flat = { data: new Float32Array(0), seqs: [], rows: new Map() };
      }
      const fresh = page.filter((v) => v.vector.length === entry.dimensions);
      if (entry.flat) {
        addFlat(entry.flat, fresh, entry.dimensions);
        if (entry.flat.seqs.length > this.exactMax && this.store.nearestVectors) {
          // The store searches large namespaces itself (pgvector HNSW): nothing more is held here.
          entry.remote = entry.flat.seqs.length;
          entry.flat = null;
          break;
        }
        if (entry.flat.seqs.length > this.exactMax) this.growIntoGraph(entry);
      } else {
        addToGraph(this.writableGraph(entry), fresh, entry.dimensions);
        // A re-embedded entry's kept row is its old vector: read again when next needed.
        if (entry.resident) for (const v of fresh) entry.resident.forget(v.seq);
      }
      entry.watermark = page[page.length - 1]!.id;
      added += fresh.length;
      if (page.length < CATCH_UP_PAGE) break;
    }
    entry.addedSinceSave += added;
    if (entry.index && entry.addedSinceSave >= SAVE_AFTER_ADDS) this.save(namespace, entry);
    entry.mark = mark;
    this.evictBeyondBudget(namespace);
    return { entry, added };
  }

  /** Drops the least recently searched namespaces (saving a changed graph first) until the rest fit. */
  private evictBeyondBudget(keep: string): void {
    let total = 0;
    for (const entry of this.loaded.values()) total += bytesOf(entry);
    for (const [ns, entry] of this.loaded) {
      if (total <= this.memoryBudget) break;
      if (ns === keep) continue;
      if (entry.index && entry.addedSinceSave > 0) this.save(ns, entry);
      this.loaded.delete(ns);
      total -= bytesOf(entry);
    }
  }

  /** Namespaces whose index is in memory, least recently searched first. */
  inMemory(): string[] {
    return [...this.loaded.keys()];
  }

  /**
   * The namespace's graph in memory, where vectors can be added: a mapped one is read from its file
   * first. When that file is gone (another process saved a newer graph and removed it), the mapping
   * still holds this one: it is written to a private temporary file and read from there.
   */
  private writableGraph(entry: Loaded): UsearchIndex {
    const mapped = entry.mappedFrom;
    if (mapped === undefined) return entry.index!;
    const index = this.create(entry.dimensions);
    try {
      index.load(mapped);
    } catch {
      const dir = mkdtempSync(join(tmpdir(), 'cairn-graph-'));
      try {
        const copy = join(dir, 'graph.usearch');
        entry.index!.save(copy);
        index.load(copy);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    entry.index = index;
    entry.mappedFrom = undefined;
    return index;
  }

  /** The namespace outgrew exact search: its vectors move into an HNSW graph, saved from now on. */
  private growIntoGraph(entry: Loaded): void {
    const flat = entry.flat!;
    const index = this.create(entry.dimensions);
    const n = flat.seqs.length;
    index.add(BigUint64Array.from(flat.seqs, (s) => BigInt(s)), flat.data.subarray(0, n * entry.dimensions), 0);
    entry.index = index;
    entry.flat = null;
    entry.addedSinceSave = Math.max(entry.addedSinceSave, SAVE_AFTER_ADDS);
  }

  /** The `k` nearest, the graph exploring at least `explore` candidates (GRAPH_EXPANSION otherwise). */
  async search(namespace: string, query: Float32Array, k: number, explore = 0): Promise<AnnHit[]> {
    const { entry } = await this.caughtUp(namespace);
    const size = entryCount(entry);
    if (size === 0 || query.length !== entry.dimensions) return [];
    if (entry.remote !== undefined) return this.store.nearestVectors!(namespace, this.model, query, k);
    const hits: AnnHit[] = [];
    if (entry.flat) {
      const { exactSearch, MetricKind } = loadUsearch();
      const data = entry.flat.data.subarray(0, size * entry.dimensions);
      // One thread: a server answers searches side by side, and 2,048 rows take ~0.3 ms on one.
      const matches = exactSearch(data, query, entry.dimensions, Math.min(k, size), MetricKind.Cos, 1) as InstanceType<UsearchModule['Matches']>;
      for (let i = 0; i < matches.keys.length; i++) hits.push({ seq: entry.flat.seqs[Number(matches.keys[i])]!, distance: matches.distances[i]! });
      return hits;
    }
    // Asking for more makes the graph keep as many while it walks; only the first k are returned.
    const matches = entry.index!.search(query, Math.min(Math.max(k, explore), size), 0);
    const n = Math.min(k, matches.keys.length);
    for (let i = 0; i < n; i++) hits.push({ seq: Number(matches.keys[i]), distance: matches.distances[i]! });
    return hits;
  }

  /**
   * The cosine of `query` with each stored vector of `seqs` held in memory (a namespace searched
   * exactly holds all, a graph's those kept by keepVectors), equal to the one from the store's
   * copy; a seq not held is left out. Valid until the namespace's next catch-up.
   */
  heldCosines(namespace: string, query: Float32Array, seqs: readonly number[]): Map<number, number> {
    const out = new Map<number, number>();
    const entry = this.loaded.get(namespace);
    if (!entry || query.length !== entry.dimensions) return out;
    const { flat, resident } = entry;
    const dims = entry.dimensions;
    for (const seq of seqs) {
      if (flat) {
        const row = flat.rows.get(seq);
        if (row !== undefined) out.set(seq, dot(query, flat.data, row * dims));
      } else {
        const cos = resident?.dot(seq, query);
        if (cos !== undefined) out.set(seq, cos);
      }
    }
    return out;
  }

  /** Where a namespace stands before its stored vectors are read for keepVectors (null: nothing to keep into). */
  keepMark(namespace: string): KeepMark | null {
    const entry = this.loaded.get(namespace);
    return entry?.index && this.residentBudget !== 0 ? { namespace, entry, watermark: entry.watermark } : null;
  }

  /**
   * Keeps stored vectors (their quantised bytes) a search read of a namespace in an HNSW graph (its
   * graph holds usearch's own copy, not the store's), so the next search rescores them without
   * reading them again. Caught up like the graph: a re-embedded entry's row is forgotten, a purge
   * drops them all. Rows read before a catch-up that came in between (`mark` is from before the
   * read) may be older than what it saw: then none are kept.
   */
  keepVectors(mark: KeepMark | null, vectors: ReadonlyMap<number, Uint8Array>): void {
    if (!mark || vectors.size === 0) return;
    const entry = this.loaded.get(mark.namespace);
    if (entry !== mark.entry || entry.watermark !== mark.watermark || !entry.index) return;
    entry.resident ??= new ResidentRows(entry.dimensions, this.residentBudget);
    for (const [seq, v] of vectors) entry.resident.keep(seq, v);
  }

  size(namespace: string): number {
    const entry = this.loaded.get(namespace);
    return entry ? entryCount(entry) : 0;
  }

  /** Whether the namespace is searched exactly (up to exactMax vectors) rather than by HNSW. */
  isExact(namespace: string): boolean {
    const entry = this.loaded.get(namespace);
    return entry?.index == null && entry?.remote === undefined;
  }

  private save(namespace: string, entry: Loaded): void {
    const dir = this.modelDir();
    const index = entry.index;
    if (dir === null || !index) return;
    writeSavedFile(dir, namespace, entry.dimensions, entry.watermark, (path) => index.save(path));
    entry.addedSinceSave = 0;
  }

  /** Saves every HNSW index that changed (exactly searched namespaces are read from the store). */
  flush(): void {
    for (const [ns, entry] of this.loaded) {
      if (entry.index && entry.addedSinceSave > 0) this.save(ns, entry);
    }
  }

  /** Forgets everything for this model on disk and in memory (after a re-embed). */
  static removeOtherModels(dir: string, keepModel: string): void {
    removeModelDirsExcept(dir, keepModel);
  }

  /** Drops saved files and memory for this model, e.g. before vectors are recomputed. */
  reset(): void {
    this.loaded.clear();
    const dir = this.modelDir();
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
  }
}

function entryCount(entry: Loaded): number {
  return entry.flat?.seqs.length ?? entry.index?.size() ?? entry.remote ?? 0;
}

function bytesOf(entry: Loaded): number {
  if (entry.flat) return entry.flat.data.byteLength + entry.flat.seqs.length * 16;
  return (entry.index?.size() ?? 0) * (entry.dimensions + GRAPH_BYTES_PER_VECTOR) + (entry.resident?.bytes ?? 0);
}
