// The REST app (createApp) over a facade, served on 127.0.0.1:0, and a small JSON request helper.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { Cairn } from '../../src/service/cairn.js';
import { createApp } from '../../src/interfaces/http/app.js';

export async function loopbackServer(cairn: Cairn, openOnLoopback = true): Promise<{ base: string; close: () => Promise<void> }> {
  const app = createApp(cairn, { openOnLoopback });
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function send(base: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any; text: string }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}
