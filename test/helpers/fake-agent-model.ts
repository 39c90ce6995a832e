// A model for real agent turns: a loopback HTTP server speaking what OpenClaw's `openai-completions`
// adapter (its default for a custom provider with a baseUrl) sends, POST /v1/chat/completions with
// `stream: true`, answered as server-sent `chat.completion.chunk` events ending in `data: [DONE]`
// (a non-streaming request gets one `chat.completion` body). A turn is text or tool calls; the
// script decides each answer, and every request is recorded so a test can read the prompt the model
// was given and the tool results it got back.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (or the raw text when it is not JSON). */
  body: any;
}

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export type ModelTurn =
  | { type: 'text'; text: string }
  | { type: 'tools'; calls: ToolCall[] }
  /** An error status with an OpenAI-shaped error body. */
  | { type: 'status'; status: number };

export const turn = {
  text: (text: string): ModelTurn => ({ type: 'text', text }),
  tool: (name: string, args: Record<string, unknown>): ModelTurn => ({ type: 'tools', calls: [{ name, arguments: args }] }),
  status: (status: number): ModelTurn => ({ type: 'status', status }),
};

interface ChatMessage {
  role?: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
}

/** A message's text, whether content is a string or OpenAI's array of parts. */
export function messageText(m: ChatMessage): string {
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content)) return m.content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

export function messages(req: ModelRequest): ChatMessage[] {
  return Array.isArray(req.body?.messages) ? (req.body.messages as ChatMessage[]) : [];
}

/** Everything the model was shown before answering: system/developer text and user turns, joined. */
export function promptText(req: ModelRequest): string {
  return messages(req)
    .filter((m) => m.role === 'system' || m.role === 'developer' || m.role === 'user')
    .map(messageText)
    .join('\n');
}

/** Names of the tools offered to the model in this request. */
export function toolNames(req: ModelRequest): string[] {
  const tools: { function?: { name?: unknown } }[] = Array.isArray(req.body?.tools) ? req.body.tools : [];
  return tools.map((t) => t.function?.name).filter((n): n is string => typeof n === 'string');
}

/** The tool results sent back to the model, with the name of the call each answers. */
export function toolResults(req: ModelRequest): { name: string | null; text: string }[] {
  const msgs = messages(req);
  const names = new Map<string, string>();
  for (const m of msgs) for (const c of m.tool_calls ?? []) if (c.id && c.function?.name) names.set(c.id, c.function.name);
  return msgs.filter((m) => m.role === 'tool').map((m) => ({ name: (m.tool_call_id && names.get(m.tool_call_id)) || null, text: messageText(m) }));
}

/** True when the last message is a tool result: the model is being asked to go on after its call. */
export function followsToolResult(req: ModelRequest): boolean {
  return messages(req).at(-1)?.role === 'tool';
}

export class FakeAgentModel {
  readonly requests: ModelRequest[] = [];
  /** Answers a chat request when the script is empty: a plain text answer by default. */
  respond: (req: ModelRequest) => ModelTurn = () => turn.text('OK.');
  private readonly script: ModelTurn[] = [];
  private calls = 0;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<FakeAgentModel> {
    let self: FakeAgentModel | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => self!.handle(req.method ?? '', req.url ?? '', req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new FakeAgentModel(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  /** The provider baseUrl (OpenAI-compatible clients append /chat/completions). */
  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  /** Queues turns, used in order, one per chat request. */
  enqueue(...turns: ModelTurn[]): this {
    this.script.push(...turns);
    return this;
  }

  /** The chat requests received (other paths are recorded in `requests` too). */
  chatRequests(): ModelRequest[] {
    return this.requests.filter((r) => r.path === '/v1/chat/completions');
  }

  reset(): void {
    this.script.length = 0;
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(method: string, url: string, headers: IncomingHttpHeaders, raw: string, res: ServerResponse): void {
    const path = url.split('?')[0]!;
    let body: any = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // keep the raw text: the test sees what was sent
    }
    const req: ModelRequest = { method, path, headers, body };
    this.requests.push(req);
    if (method === 'GET' && path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [] }));
      return;
    }
    if (method !== 'POST' || path !== '/v1/chat/completions' || typeof body !== 'object' || body === null) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${method} ${path}`, type: 'invalid_request_error' } }));
      return;
    }
    const t = this.script.shift() ?? this.respond(req);
    if (t.type === 'status') {
      res.writeHead(t.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `fake error ${t.status}`, type: 'server_error', code: null } }));
      return;
    }
    const id = `chatcmpl-fake-${++this.calls}`;
    const model = typeof body.model === 'string' ? body.model : 'fake-model';
    const toolCalls = t.type === 'tools' ? t.calls.map((c, i) => ({ index: i, id: `call_${this.calls}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) : undefined;
    const finish = t.type === 'tools' ? 'tool_calls' : 'stop';
    const usage = { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: 8, total_tokens: Math.ceil(raw.length / 4) + 8 };
    const created = Math.floor(Date.now() / 1000);
    if (body.stream !== true) {
      const message = t.type === 'text' ? { role: 'assistant', content: t.text } : { role: 'assistant', content: null, tool_calls: toolCalls!.map(({ index: _i, ...c }) => c) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (delta: object, finishReason: string | null, extra: object = {}) =>
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`);
    send({ role: 'assistant', content: '' }, null);
    if (t.type === 'text') {
      // Two pieces, so the client really assembles a streamed text.
      const cut = Math.ceil(t.text.length / 2);
      send({ content: t.text.slice(0, cut) }, null);
      send({ content: t.text.slice(cut) }, null);
    } else {
      // The name first, then the arguments in two pieces, as OpenAI streams them.
      for (const c of toolCalls!) {
        const args = c.function.arguments;
        const cut = Math.ceil(args.length / 2);
        send({ tool_calls: [{ index: c.index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] }, null);
        send({ tool_calls: [{ index: c.index, function: { arguments: args.slice(0, cut) } }] }, null);
        send({ tool_calls: [{ index: c.index, function: { arguments: args.slice(cut) } }] }, null);
      }
    }
    send({}, finish, body.stream_options?.include_usage ? {} : { usage });
    if (body.stream_options?.include_usage) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
    res.end('data: [DONE]\n\n');
  }
}
