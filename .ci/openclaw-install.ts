// CI's install step for the real-OpenClaw test (test/integrations/openclaw-real.test.ts): brings
// OpenClaw and npm's Node 24 from the npm registry into the cache before the tests run, so the
// tests themselves reach nothing beyond loopback. A second run finds the cache and returns at once.
import { ensureOpenClaw } from '../test/helpers/openclaw-install.js';

const started = Date.now();
const install = await ensureOpenClaw();
const what = install.installed ? `installed in ${(install.installed.wallMs / 1000).toFixed(1)} s` : `cache reused (${Date.now() - started} ms)`;
console.log(`openclaw ${what}: ${(install.bytes / 2 ** 20).toFixed(0)} MiB at ${install.dir}`);
