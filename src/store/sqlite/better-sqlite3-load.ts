// How the store gets better-sqlite3: from node_modules, by require(). Its JavaScript is 14 modules
// a cold command resolved and compiled one by one (~6–11 ms of a cold `cairn search`'s main
// thread). The CLI's bundle (scripts/bundle-cli.mjs) therefore replaces this module with one that
// runs that JavaScript compiled in, when the installed package is the version the bundle was built
// with (scripts/bundle-native.mjs); another version is require()d as here.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/** better-sqlite3 as installed beside Cairn; throws MODULE_NOT_FOUND when it is not. */
export function loadBetterSqlite3(): typeof BetterSqlite3 {
  return createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
}
