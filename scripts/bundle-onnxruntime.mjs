// The embedding worker's bundle (dist/bin/embed-worker.cjs) carries onnxruntime-node's JavaScript
// and onnxruntime-common's. A cold hybrid `cairn search` ends when the model thread has its vector,
// and that thread spent ~19 ms of it resolving, reading and compiling their ~20 modules from
// node_modules one by one (measured in a worker on this machine; the binding's dlopen is another
// ~7 ms and stays). Only the native binding is still loaded from the installed package:
//  - dist/embed/onnxruntime-load.js (which require()s the package) becomes a function that finds
//    the package installed beside Cairn and, when it is the version whose JavaScript was bundled
//    (the binding and its JavaScript are one release), runs the bundled JavaScript, first used
//    then like the module it replaces; another version is require()d as installed, as before;
//  - onnxruntime-node's binding.js finds its `.node` file in that installed package instead of
//    beside the bundle.
// Without onnxruntime-node at build time (an optional peer), the worker requires it as before.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** The line of onnxruntime-node's dist/binding.js that loads the binding, relative to itself. */
export const BINDING_REQUIRE = 'require(`../bin/napi-v6/${process.platform}/${process.arch}/onnxruntime_binding.node`)';

/** Replaces that line: the binding of the package installed beside Cairn (loadOnnxRuntime checked its version). */
const INSTALLED_BINDING = `(() => {
  const { createRequire } = require('node:module');
  const { dirname, join } = require('node:path');
  const installed = createRequire(__cairnBundleUrl);
  const manifest = installed.resolve('onnxruntime-node/package.json');
  return installed(join(dirname(manifest), 'bin', 'napi-v6', process.platform, process.arch, 'onnxruntime_binding.node'));
})()`;

/**
 * dist/embed/onnxruntime-load.js in the worker's bundle: the bundled JavaScript for the installed
 * package of the bundled version, the installed package itself for another version (a missing one
 * throws MODULE_NOT_FOUND naming it, as require() does).
 */
const bundledLoader = (version) => `import { createRequire } from 'node:module';
export function loadOnnxRuntime() {
  const installed = createRequire(__cairnBundleUrl);
  const manifest = installed.resolve('onnxruntime-node/package.json');
  if (installed(manifest).version !== ${JSON.stringify(version)}) return installed('onnxruntime-node');
  return require('onnxruntime-node');
}
`;

/** The version of onnxruntime-node installed for the build, or null when it is not. */
export function buildTimeOnnxRuntime(root) {
  try {
    const require = createRequire(`${root}/package.json`);
    return { version: require(require.resolve('onnxruntime-node/package.json')).version };
  } catch {
    return null;
  }
}

/** The esbuild plugin, for the worker's build only (it must come before plugins that load dist/ files). */
export function bundledOnnxRuntime({ version }) {
  return {
    name: 'bundled-onnxruntime',
    setup(b) {
      b.onLoad({ filter: /[\\/]dist[\\/]embed[\\/]onnxruntime-load\.js$/ }, () => ({ contents: bundledLoader(version), loader: 'js' }));
      b.onLoad({ filter: /[\\/]onnxruntime-node[\\/]dist[\\/]binding\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes(BINDING_REQUIRE)) throw new Error(`bundle-onnxruntime: ${args.path} no longer loads its binding as expected; update BINDING_REQUIRE`);
        return { contents: source.replace(BINDING_REQUIRE, INSTALLED_BINDING), loader: 'js' };
      });
    },
  };
}
