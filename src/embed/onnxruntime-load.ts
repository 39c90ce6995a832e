// How the use-lite runner gets onnxruntime-node: from node_modules, by require(). A cold hybrid
// `cairn search` ends when the model thread has its vector, and that thread spent ~19 ms of it
// resolving and compiling onnxruntime-node's and onnxruntime-common's ~20 modules one by one (their
// native binding's dlopen is another ~7). The embedding worker's bundle (scripts/bundle-cli.mjs)
// therefore replaces this module with one that runs that JavaScript compiled in, requiring only
// the binding from the installed package, when that package is the version the bundle was built
// with (scripts/bundle-native.mjs); another version is require()d as here.
import { createRequire } from 'node:module';
import type * as Ort from 'onnxruntime-node';

/** onnxruntime-node as installed beside Cairn; throws MODULE_NOT_FOUND when it is not. */
export function loadOnnxRuntime(): typeof Ort {
  // require(), not import(): onnxruntime-node is CommonJS, and an import() has Node scan its
  // source and onnxruntime-common's for their exports first (cjs-module-lexer), ~25 ms of a fresh
  // model thread's CPU before the first vector; require() gives the same module.
  return createRequire(import.meta.url)('onnxruntime-node') as typeof Ort;
}
