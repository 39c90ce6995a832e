// The library entry: `import { Cairn } from 'cairn'`. Re-exports only.
export { Cairn } from './service/cairn.js';
export type { OpenOptions, StoreResult, SearchOptions, SearchResponse } from './service/cairn.js';
export type { StatusReport, NamespaceStatus } from './service/status.js';
export type { ImportReport } from './service/jsonl.js';
export type { IngestOptions, IngestResponse } from './service/ingest.js';
export type { AddSourceInput, SourceStatus } from './service/sources.js';
export type { SearchResult } from './search/hybrid.js';
export type { ScoreParts, DecayTier } from './search/ranking.js';
export type { Memory, NewMemory, Turn, NewTurn, Provenance, Category, Kind, Source } from './core/types.js';
export { CATEGORIES, KINDS } from './core/types.js';
export type { CairnConfig, CairnConfigInput, EmbedderConfig } from './core/config.js';
export { CairnError, ERROR_CODES, EXIT_CODES } from './core/errors.js';
export type { ErrorCode } from './core/errors.js';
export type { Embedder, EmbedderInfo } from './embed/embedder.js';
export type { Store } from './store/store.js';
export { SqliteStore } from './store/sqlite/sqlite-store.js';
