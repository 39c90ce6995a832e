// The parts of OpenClaw's plugin API (openclaw/plugin-sdk, 2026.9) this plugin uses, written out
// structurally: the plugin ships without a runtime or build-time dependency on the `openclaw`
// package, and OpenClaw passes objects of these shapes (see its plugin-sdk types:
// OpenClawPluginApi, MemoryPluginCapability, MemorySearchManager, MemorySearchResult).

export type MemorySource = 'memory' | 'sessions';

/** One hit as OpenClaw's memory_search and MemorySearchManager.search return it. */
export interface MemorySearchResult {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
  source: MemorySource;
  citation?: string;
}

export type MemoryReadResult =
  | { status: 'ok'; text: string; path: string; from?: number; lines?: number; truncated?: boolean; nextFrom?: number }
  | { status: 'not_found'; text: ''; path: string };

/** What `openclaw memory status` and the Control UI print for a memory backend. */
export interface MemoryProviderStatus {
  backend: 'builtin';
  provider: string;
  model?: string;
  files?: number;
  chunks?: number;
  dirty?: boolean;
  lastSyncError?: string;
  workspaceDir?: string;
  dbPath?: string;
  sources?: MemorySource[];
  vector?: { enabled: boolean; available?: boolean; storeAvailable?: boolean; semanticAvailable?: boolean; index?: { state: 'empty' | 'complete' | 'incomplete' | 'unverified' } };
  fts?: { enabled: boolean; available: boolean; error?: string };
  custom?: Record<string, unknown>;
}

export interface MemorySearchManager {
  search(query: string, opts?: { maxResults?: number; minScore?: number; sessionKey?: string; sources?: MemorySource[]; signal?: AbortSignal }): Promise<MemorySearchResult[]>;
  readFile(params: { relPath: string; from?: number; lines?: number }): Promise<MemoryReadResult>;
  status(): MemoryProviderStatus;
  sync?(params?: { reason?: string; force?: boolean }): Promise<void>;
  probeEmbeddingAvailability(): Promise<{ ok: boolean; error?: string }>;
  probeVectorAvailability(): Promise<boolean>;
  close?(): Promise<void>;
}

export interface MemoryPluginRuntime {
  getMemorySearchManager(params: { cfg: unknown; agentId: string; purpose?: 'default' | 'status' | 'cli' }): Promise<{ manager: MemorySearchManager | null; error?: string }>;
  resolveMemoryBackendConfig(params: { cfg: unknown; agentId: string }): { backend: 'builtin' };
  authorizeSearchHits?(params: { cfg: unknown; agentId: string; requesterSessionKey: string | undefined; sandboxed: boolean; hits: MemorySearchResult[] }): Promise<MemorySearchResult[]>;
}

export interface MemoryPluginCapability {
  promptBuilder?: (params: { availableTools: ReadonlySet<string>; citationsMode?: string; agentId?: string }) => string[];
  runtime?: MemoryPluginRuntime;
  deterministicRecallToolName?: string;
  supportsPrivateTranscriptRecall?: boolean;
}

export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  details: unknown;
}

export interface AgentTool {
  name: string;
  label?: string;
  description: string;
  parameters: Record<string, unknown>;
  execute(toolCallId: string, params: unknown, signal?: AbortSignal): Promise<ToolResult>;
}

/** The trusted context OpenClaw hands a tool factory: which agent and session the tool serves. */
export interface ToolContext {
  agentId?: string;
  sessionKey?: string;
  sessionId?: string;
}

export interface HookContext {
  agentId?: string;
  sessionKey?: string;
  sessionId?: string;
  trigger?: string;
  hookInvocation?: { assertActive(): void };
}

export interface PluginLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug?(message: string): void;
}

/** A commander Command, as OpenClaw hands it to CLI registrars. */
export interface CliCommand {
  command(spec: string): CliCommand;
  description(text: string): CliCommand;
  option(flags: string, description: string, defaultValue?: string): CliCommand;
  action(fn: (...args: any[]) => unknown): CliCommand;
}

export interface PluginApi {
  id: string;
  pluginConfig?: Record<string, unknown>;
  logger: PluginLogger;
  registerTool(factory: (ctx: ToolContext) => AgentTool, opts?: { names?: string[]; name?: string }): void;
  registerMemoryCapability(capability: MemoryPluginCapability): void;
  registerCli(registrar: (ctx: { program: CliCommand }) => void | Promise<void>, opts?: { descriptors?: Array<{ name: string; description: string; hasSubcommands: boolean }> }): void;
  on(hook: string, handler: (event: any, ctx: HookContext) => unknown, opts?: { priority?: number; timeoutMs?: number }): void;
}
