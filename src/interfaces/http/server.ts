// Starts the REST API on a host and port (`cairn serve`, tests). Refuses a non-loopback address
// while the home has no API token: that would hand every namespace to anyone who can connect.
// A home whose tokens are all revoked keeps requiring one unless `noAuth` says otherwise.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import type { Logger } from '../../daemon/logger.js';
import type { Cairn } from '../../service/cairn.js';
import { mcpHttpHandler } from '../mcp/http.js';
import { createApp, DEFAULT_BODY_LIMIT } from './app.js';
import { isLoopbackHost } from './auth.js';

import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js';

export { DEFAULT_HOST, DEFAULT_PORT };

export interface ServeOptions {
  host?: string;
  /** 0 picks a free port (the bound one is in the result). */
  port?: number;
  logger?: Logger;
  bodyLimitBytes?: number;
  /** Mount the MCP server at /mcp (default true). */
  mcp?: boolean;
  /**
   * The user's explicit choice (`cairn serve --no-auth`) of token-less local access although the
   * home had tokens, all revoked now. Refused off loopback and while a token is active.
   */
  noAuth?: boolean;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  /** True when requests without a token are accepted (loopback, no token in the home). */
  open: boolean;
  /** True when every token of the home is revoked and token-less requests stay refused. */
  allRevoked: boolean;
  close(): Promise<void>;
}

export function urlFor(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function startServer(cairn: Cairn, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  const loopback = isLoopbackHost(host);
  const hasTokens = await cairn.hasTokens();
  if (options.noAuth && !loopback) {
    throw new CairnError(ERROR_CODES.CONFIG, `Refusing --no-auth on ${host}: token-less access is only for a loopback address (127.0.0.1, ::1, localhost).`);
  }
  if (options.noAuth && hasTokens) {
    throw new CairnError(
      ERROR_CODES.CONFIG,
      'Refusing --no-auth: this home has an active token, so requests must present one. Revoke every token first ("cairn tokens list", "cairn tokens revoke ID") or start without --no-auth.',
    );
  }
  if (!loopback && !hasTokens) {
    throw new CairnError(
      ERROR_CODES.CONFIG,
      `Refusing to listen on ${host}: it is not a loopback address and no API token exists, so anyone who can reach it could read and write every namespace. ` +
        'Create a token first ("cairn tokens create --grant NAMESPACE", or --grant "*" for all), or bind to 127.0.0.1.',
    );
  }
  const allRevoked = !hasTokens && (await cairn.hasTokens({ includeRevoked: true }));
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const logger = options.logger;
  const app = createApp(cairn, {
    openOnLoopback: loopback,
    openAfterRevoke: options.noAuth === true,
    bodyLimitBytes,
    logger,
    mcp: options.mcp === false ? undefined : mcpHttpHandler(cairn, { maxBodyBytes: bodyLimitBytes, log: (m) => logger?.warn({ component: 'mcp' }, m) }),
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }) as Server;
    const onError = (err: NodeJS.ErrnoException) => {
      s.off('listening', onListening);
      const why = err.code === 'EADDRINUSE' ? `port ${port} is in use` : err.code === 'EADDRNOTAVAIL' ? `${host} is not an address of this machine` : err.message;
      reject(new CairnError(ERROR_CODES.CONFIG, `Cannot listen on ${urlFor(host, port)}: ${why}`));
    };
    const onListening = () => {
      s.off('error', onError);
      resolve(s);
    };
    s.once('error', onError);
    s.once('listening', onListening);
  });
  const bound = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  return {
    url: urlFor(host, bound),
    host,
    port: bound,
    open: loopback && !hasTokens && (!allRevoked || options.noAuth === true),
    allRevoked,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests still running get a moment to finish before their connections are cut.
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      });
      return closing;
    },
  };
}
