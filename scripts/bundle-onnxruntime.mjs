// The embedding worker's bundle (dist/bin/embed-worker.cjs) carries onnxruntime-node's JavaScript
// and onnxruntime-common's. A cold hybrid `cairn search` ends when the model thread has its vector,
// and that thread spent ~19 ms of it resolving, reading and compiling their ~20 modules from
// node_modules one by one (measured in a worker on this machine; the binding's dlopen is another
// ~7 ms and stays). Only the native binding is still loaded from the installed package:
//  - dist/embed/onnxruntime-load.js (which require()s the package) becomes a require() esbuild
//    bundles, run on first use like the module it replaces;
//  - onnxruntime-node's binding.js finds its `.node` file in the package installed beside Cairn
//    instead of beside the bundle, after checking that package is the version whose JavaScript
//    was bundled (the binding and its JavaScript are one release: package.json pins it exactly).
// Without onnxruntime-node at build time (an optional peer), the worker requires it as before.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** The line of onnxruntime-node's dist/binding.js that loads the binding, relative to itself. */
export const BINDING_REQUIRE = 'require(`../bin/napi-v6/${process.platform}/${process.arch}/onnxruntime_binding.node`)';

/** Replaces the load: the binding of the installed package, refused when its version is another. */
const installedBinding = (version) => `(() => {
  const { createRequire } = require('node:module');
  const { dirname, join } = require('node:path');
  const installed = createRequire(__cairnBundleUrl);
  const manifest = installed.resolve('onnxruntime-node/package.json');
  const { version } = installed(manifest);
  if (version !== ${JSON.stringify(version)}) throw new Error('onnxruntime-node ' + version + ' is installed; Cairn\\'s embedding worker was built with ${version}');
  return installed(join(dirname(manifest), 'bin', 'napi-v6', process.platform, process.arch, 'onnxruntime_binding.node'));
})()`;

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
      b.onLoad({ filter: /[\\/]dist[\\/]embed[\\/]onnxruntime-load\.js$/ }, () => ({
        contents: "export function loadOnnxRuntime() { return require('onnxruntime-node'); }\n",
        loader: 'js',
      }));
      b.onLoad({ filter: /[\\/]onnxruntime-node[\\/]dist[\\/]binding\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes(BINDING_REQUIRE)) throw new Error(`bundle-onnxruntime: ${args.path} no longer loads its binding as expected; update BINDING_REQUIRE`);
        return { contents: source.replace(BINDING_REQUIRE, installedBinding(version)), loader: 'js' };
      });
    },
  };
}
