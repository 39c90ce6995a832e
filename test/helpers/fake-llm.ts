// A real HTTP server on 127.0.0.1 that speaks the three chat wire formats the LLM clients use
// (OpenAI-compatible /v1/chat/completions, Anthropic /v1/messages, Ollama /api/chat), answering
// from a script: good answers, malformed bodies, odd shapes, 429/500/503, hangs, huge bodies.
// It records every request so tests can assert headers and bodies.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LlmWire = 'openai' | 'anthropic' | 'ollama';

export interface ReceivedRequest {
  wire: LlmWire | null;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (or the raw text when it is not JSON). */
  body: any;
  /** Date.now() when the request arrived. */
  at: number;
}

export type FakeReply =
  /** A well-formed answer in the request's wire format, with `content` as the model's text. */
  | { type: 'answer'; content: string; usage?: { input: number; output: number }; truncated?: boolean; model?: string; delayMs?: number }
  /** An error status with the provider's error body (or `body`). */
  | { type: 'status'; status: number; retryAfter?: string; body?: string }
  /** Exactly these bytes (e.g. malformed JSON with a 200). */
  | { type: 'raw'; status: number; body: string; contentType?: string }
  /** Any JSON value with a 200 (e.g. an odd shape). */
  | { type: 'json'; body: unknown }
  /** Never answer; the client must time out. */
  | { type: 'hang' }
  /** A 200 body of `bytes` bytes, streamed without Content-Length unless `declared`. */
  | { type: 'oversized'; bytes: number; declared?: boolean };

/** Builders for the scripted replies. */
export const reply = {
  answer: (value: unknown, extra: Omit<Extract<FakeReply, { type: 'answer' }>, 'type' | 'content'> = {}): FakeReply => ({
    type: 'answer',
    content: typeof value === 'string' ? value : JSON.stringify(value),
    ...extra,
  }),
  /** A 200 whose model text is not the JSON the caller asked for. */
  invalidContent: (text = 'Sure! I would rate this turn as fairly important.'): FakeReply => ({ type: 'answer', content: text }),
  truncated: (text = '{"score": 7, "reason": "the user decided to'): FakeReply => ({ type: 'answer', content: text, truncated: true }),
  /** A 200 whose body is not JSON at all. */
  malformedBody: (): FakeReply => ({ type: 'raw', status: 200, body: '{"id": "x", "choices": [ {"message": ' }),
  oddShape: (body: unknown = { result: 'ok' }): FakeReply => ({ type: 'json', body }),
  status: (status: number, retryAfter?: string, body?: string): FakeReply => ({
    type: 'status',
    status,
    ...(retryAfter === undefined ? {} : { retryAfter }),
    ...(body === undefined ? {} : { body }),
  }),
  rateLimited: (retryAfter?: string): FakeReply => reply.status(429, retryAfter),
  unavailable: (retryAfter?: string): FakeReply => reply.status(503, retryAfter),
  serverError: (): FakeReply => reply.status(500),
  hang: (): FakeReply => ({ type: 'hang' }),
  oversized: (bytes: number, declared = false): FakeReply => ({ type: 'oversized', bytes, declared }),
};

const ROUTES: Record<string, LlmWire> = {
  '/v1/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
  '/api/chat': 'ollama',
};

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function promptText(body: any): string {
  const msgs: { content?: unknown }[] = Array.isArray(body?.messages) ? body.messages : [];
  return [typeof body?.system === 'string' ? body.system : '', ...msgs.map((m) => (typeof m.content === 'string' ? m.content : ''))].join('\n');
}

function answerBody(wire: LlmWire, req: ReceivedRequest, r: Extract<FakeReply, { type: 'answer' }>): unknown {
  const model = r.model ?? req.body?.model ?? 'fake-model';
  const input = r.usage?.input ?? tokens(promptText(req.body));
  const output = r.usage?.output ?? tokens(r.content);
  if (wire === 'openai') {
    return {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: r.content }, finish_reason: r.truncated ? 'length' : 'stop' }],
      usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
    };
  }
  if (wire === 'anthropic') {
    // Like the real API, continue after a prefilled assistant turn instead of repeating it.
    const last = req.body?.messages?.at?.(-1);
    const prefill = last?.role === 'assistant' && typeof last.content === 'string' ? last.content : '';
    const text = prefill && r.content.startsWith(prefill) ? r.content.slice(prefill.length) : r.content;
    return {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text }],
      stop_reason: r.truncated ? 'max_tokens' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: input, output_tokens: output },
    };
  }
  return {
    model,
    created_at: new Date().toISOString(),
    message: { role: 'assistant', content: r.content },
    done: true,
    done_reason: r.truncated ? 'length' : 'stop',
    total_duration: 1000,
    prompt_eval_count: input,
    eval_count: output,
  };
}

function errorBody(wire: LlmWire | null, status: number): string {
  const message = `fake error ${status}`;
  if (wire === 'anthropic') {
    const type = status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
    return JSON.stringify({ type: 'error', error: { type, message } });
  }
  if (wire === 'ollama') return JSON.stringify({ error: message });
  return JSON.stringify({ error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'error', code: null } });
}

export class FakeLlmServer {
  readonly requests: ReceivedRequest[] = [];
  /** Answers a request when the script is empty. */
  respond: (req: ReceivedRequest) => FakeReply = () => reply.answer({ ok: true });
  private readonly script: FakeReply[] = [];

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<FakeLlmServer> {
    let self: FakeLlmServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => self!.handle(req.method ?? '', req.url ?? '', req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new FakeLlmServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  /** The baseUrl a client of `wire` is configured with. */
  baseUrl(wire: LlmWire): string {
    return wire === 'openai' ? `${this.origin}/v1` : this.origin;
  }

  /** Queues replies, used in order, one per request. */
  enqueue(...replies: FakeReply[]): this {
    this.script.push(...replies);
    return this;
  }

  /** Forgets the script and the recorded requests (the `respond` fallback stays). */
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
      // keep the raw text: the test will see what was sent
    }
    const wire = ROUTES[path] ?? null;
    const received: ReceivedRequest = { wire, method, path, headers, body, at: Date.now() };
    this.requests.push(received);
    if (wire === null || method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(errorBody(wire, 404));
      return;
    }
    const r = this.script.shift() ?? this.respond(received);
    switch (r.type) {
      case 'hang':
        return;
      case 'answer': {
        const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answerBody(wire, received, r)));
        if (r.delayMs) setTimeout(send, r.delayMs);
        else send();
        return;
      }
      case 'status':
        res
          .writeHead(r.status, { 'content-type': 'application/json', ...(r.retryAfter === undefined ? {} : { 'retry-after': r.retryAfter }) })
          .end(r.body ?? errorBody(wire, r.status));
        return;
      case 'raw':
        res.writeHead(r.status, { 'content-type': r.contentType ?? 'application/json' }).end(r.body);
        return;
      case 'json':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(r.body));
        return;
      case 'oversized':
        this.streamOversized(res, r.bytes, r.declared ?? false);
        return;
    }
  }

  private streamOversized(res: ServerResponse, bytes: number, declared: boolean): void {
    res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(bytes) } : {}) });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('error', () => {}); // the client hangs up once it has seen enough
    pump();
  }
}
