// An isolated OpenClaw for a test: its own HOME and OPENCLAW_STATE_DIR under a temporary folder,
// an openclaw.json whose only model is a loopback fake (a custom `openai-completions` provider),
// an agent workspace, update checks and telemetry off, no provider keys or proxies inherited from
// the caller, and the real `openclaw` CLI (the cached install) run with Node 24 first on PATH.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenClawInstall } from './openclaw-install.js';
import { HANG_GUARD_MS, type RunResult } from './cli.js';

export const FAKE_PROVIDER = 'fake';
export const FAKE_MODEL = 'fake-model';

export interface OpenClawEnv {
  root: string;
  home: string;
  stateDir: string;
  configPath: string;
  workspace: string;
  /** Runs `openclaw ...args` to its end (rejects only on the hang guard or a spawn failure). */
  run(args: readonly string[], options?: { env?: Record<string, string | undefined>; timeoutMs?: number; input?: string }): Promise<RunResult>;
  /** The current openclaw.json. */
  config(): any;
  /** Rewrites openclaw.json with `edit` applied to a copy of it. */
  editConfig(edit: (config: any) => void): void;
  remove(): void;
}

/** The config OpenClaw starts from: the fake model only, a workspace, nothing that calls out. */
export function baseConfig(modelBaseUrl: string, workspace: string): object {
  return {
    update: { checkOnStart: false, auto: { enabled: false } },
    telemetry: { enabled: false },
    models: {
      // replace: no bundled provider catalog is merged in, so nothing but the fake is selectable.
      mode: 'replace',
      providers: {
        [FAKE_PROVIDER]: {
          baseUrl: modelBaseUrl,
          apiKey: 'fake-key-not-a-secret',
          api: 'openai-completions',
          models: [{ id: FAKE_MODEL, name: 'Fake model', reasoning: false, input: ['text'], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 4096 }],
        },
      },
    },
    agents: { defaults: { model: { primary: `${FAKE_PROVIDER}/${FAKE_MODEL}` }, workspace, timeoutSeconds: 600 } },
    // The minimal profile keeps the prompt and tool list small (a turn costs less on a loaded
    // machine); memory tools stay, and tool search is off so the model sees memory_search itself
    // rather than behind a search/call bridge.
    tools: { profile: 'minimal', alsoAllow: ['group:memory', 'memory_store'], toolSearch: false },
  };
}

/** Variables the caller may have that would reach a real provider or proxy, or move OpenClaw's paths. */
function scrubbed(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    if (/^OPENCLAW_|^CLAWHUB_/.test(k)) continue;
    if (/_API_KEY$|_API_TOKEN$|_OAUTH_TOKEN$|^HTTPS?_PROXY$|^ALL_PROXY$|^NO_PROXY$/i.test(k)) continue;
    env[k] = v;
  }
  return env;
}

/** `extraEnv` is what every OpenClaw run gets besides (e.g. CAIRN_HOME, as a user's shell would have it). */
export function createOpenClawEnv(install: OpenClawInstall, modelBaseUrl: string, extraEnv: Record<string, string> = {}): OpenClawEnv {
  const root = mkdtempSync(join(tmpdir(), 'cairn-openclaw-'));
  const home = join(root, 'home');
  const stateDir = join(root, 'state');
  const workspace = join(root, 'workspace');
  const configPath = join(stateDir, 'openclaw.json');
  for (const d of [home, stateDir, workspace]) mkdirSync(d, { recursive: true });
  writeFileSync(configPath, JSON.stringify(baseConfig(modelBaseUrl, workspace), null, 2));
  const env: NodeJS.ProcessEnv = {
    ...scrubbed(process.env),
    HOME: home,
    OPENCLAW_HOME: home,
    OPENCLAW_STATE_DIR: stateDir,
    OPENCLAW_CONFIG_PATH: configPath,
    OPENCLAW_NO_AUTO_UPDATE: '1',
    OPENCLAW_DISABLE_BONJOUR: '1',
    OPENCLAW_OFFLINE: '1',
    PATH: install.path,
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    ...extraEnv,
  };
  return {
    root,
    home,
    stateDir,
    configPath,
    workspace,
    run(args, options = {}) {
      const timeoutMs = options.timeoutMs ?? HANG_GUARD_MS;
      const childEnv = { ...env };
      for (const [k, v] of Object.entries(options.env ?? {})) {
        if (v === undefined) delete childEnv[k];
        else childEnv[k] = v;
      }
      const started = Date.now();
      return new Promise((resolve, reject) => {
        const child = spawn(install.node, [install.entry, ...args], { cwd: workspace, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout.on('data', (d: Buffer) => out.push(d));
        child.stderr.on('data', (d: Buffer) => err.push(d));
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`openclaw ${args.join(' ').slice(0, 200)} hung for ${timeoutMs} ms\nstderr: ${Buffer.concat(err).toString().slice(-3000)}`));
        }, timeoutMs);
        child.on('error', (e) => {
          clearTimeout(timer);
          reject(e);
        });
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ms: Date.now() - started });
        });
        child.stdin.on('error', () => undefined);
        child.stdin.end(options.input ?? '');
      });
    },
    config: () => JSON.parse(readFileSync(configPath, 'utf8')),
    editConfig(edit) {
      const c = JSON.parse(readFileSync(configPath, 'utf8'));
      edit(c);
      writeFileSync(configPath, JSON.stringify(c, null, 2));
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Parses the JSON an `openclaw … --json` command printed, failing with its output when it exited non-zero. */
export function openclawJson<T = any>(res: RunResult, what: string): T {
  if (res.code !== 0) throw new Error(`openclaw ${what} exited ${res.code} (signal ${res.signal})\nstdout: ${res.stdout.slice(-3000)}\nstderr: ${res.stderr.slice(-3000)}`);
  try {
    return JSON.parse(res.stdout) as T;
  } catch {
    throw new Error(`openclaw ${what} printed no JSON: ${res.stdout.slice(0, 1000)}\nstderr: ${res.stderr.slice(-2000)}`);
  }
}
