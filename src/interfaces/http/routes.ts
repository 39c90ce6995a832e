// The REST API's route table as data: method, path, auth, parameters, body and responses. The app
// registers a handler for each entry and the OpenAPI document is generated from the same table, so
// every route is documented and no documented route is missing.
import type { z } from 'zod';

export type Method = 'get' | 'post' | 'put';

/**
 * none: public; token: any valid token; namespace: a token granted the path's namespace;
 * namespace-token: the same, and a token is needed even where token-less loopback access is open
 * (purge: destructive, so never by whoever can reach the port).
 */
export type AuthKind = 'none' | 'token' | 'namespace' | 'namespace-token';

export interface RouteSpec {
  operationId: string;
  method: Method;
  /** Hono path syntax (`:param`). */
  path: string;
  summary: string;
  description?: string;
  tag: 'memories' | 'knowledge' | 'search' | 'state' | 'context' | 'files' | 'purge' | 'service' | 'mcp';
  auth: AuthKind;
  /** Path parameters other than `ns`, which every `/v1/namespaces/:ns/…` route has. */
  params?: Record<string, z.ZodType>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Success status and the name of its response schema in components.schemas. */
  success: { status: 200 | 201; description: string; schema: string };
  /** Extra success status (e.g. 200 for a duplicate store). */
  alsoSuccess?: { status: 200 | 201; description: string; schema: string };
  /** Error statuses beyond the auth and generic ones every route shares. */
  errors: number[];
}
