// A real HTTP server on 127.0.0.1 that answers OpenAI-compatible POST /v1/embeddings with small
// vectors derived from each text, and can be told to stop answering after a number of requests.
// A held request is a deterministic kill point: the process that sent it is known to be waiting
// on embedding, with everything before it committed.
import { createHash } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const DIMS = 8;

function vectorOf(text: string): number[] {
  const h = createHash('sha256').update(text).digest();
  return Array.from({ length: DIMS }, (_, i) => h[i]! - 127.5);
}

export class FakeEmbeddingServer {
  /** The texts of every request received, in order (answered or held). */
  readonly requests: string[][] = [];
  /** Requests answered before the server starts holding them; Infinity: answer all. */
  answerFirst = Infinity;
  private readonly held: ServerResponse[] = [];

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<FakeEmbeddingServer> {
    let self: FakeEmbeddingServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => self!.handle(req.url ?? '', Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new FakeEmbeddingServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  /** The `embedder` section of a config that uses this server. */
  config(): { provider: 'openai'; baseUrl: string; model: string; timeoutMs: number } {
    return { provider: 'openai', baseUrl: `${this.origin}/v1`, model: 'fake-embed', timeoutMs: 120_000 };
  }

  /** The modelId vectors from this server are stored under. */
  get modelId(): string {
    return 'openai:fake-embed';
  }

  /** Answers every request from now on (held ones stay held: their sender is gone). */
  answerAll(): void {
    this.answerFirst = Infinity;
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(url: string, raw: string, res: ServerResponse): void {
    if (url !== '/v1/embeddings') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no such route"}}');
      return;
    }
    const input = (JSON.parse(raw) as { input?: string[] }).input ?? [];
    this.requests.push(input);
    if (this.requests.length > this.answerFirst) {
      this.held.push(res);
      return;
    }
    const data = input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', model: 'fake-embed', data }));
  }
}
