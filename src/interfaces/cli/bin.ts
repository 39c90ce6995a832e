// The bundled CLI's entry (scripts/bundle-cli.mjs bundles it into dist/bin/cli.cjs, which the
// `cairn` executable, bundle-loader.ts, runs from V8's code cache). It starts the query model's
// thread before anything else loads: commander, the command modules and the service are ~1 MB of
// code that takes the main thread 100 ms or more to compile without the cache, and a cold hybrid
// search ends when the thread's vector is ready. Imported in full only then, main.ts runs the
// command (and stays the unbundled entry point, dist/interfaces/cli/main.js).
import { usePrivateUmask } from '../../core/private-files.js';
import { startModelEarly } from './early-model.js';

// Private from the start: the thread may write the model's cached graph into the home.
usePrivateUmask();
startModelEarly(process.argv.slice(2));
// Not awaited: the bundle is CommonJS (no top-level await); main.ts reports its own errors.
void import('./main.js');
