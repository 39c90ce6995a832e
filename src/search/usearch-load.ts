// How the vector index gets usearch: from node_modules, by require(). A cold hybrid `cairn search`
// loads it on the main thread's way to the query's vector search: its module, node-gyp-build's
// search of its prebuilds and the `bindings` package took ~12 ms there, where the addon's dlopen
// is 1.3. The CLI's bundle (scripts/bundle-cli.mjs) therefore replaces this module with one that
// runs usearch's JavaScript compiled in, loading only the addon from the installed package, when
// that package is the version the bundle was built with (scripts/bundle-native.mjs); another
// version is require()d as here.
import { createRequire } from 'node:module';

type UsearchModule = typeof import('usearch');

/** usearch as installed beside Cairn; throws MODULE_NOT_FOUND when it is not. */
export function loadUsearch(): UsearchModule {
  return createRequire(import.meta.url)('usearch') as UsearchModule;
}
