// The store part's public surface: the interface and the backends.
export type * from './store.js';
export { SqliteStore } from './sqlite/sqlite-store.js';
