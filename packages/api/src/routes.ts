import type { TSchema } from '@sinclair/typebox';

/**
 * An HTTP call declared once: its method, its path (`url`, as Fastify names it) and its schema (the
 * request parts the call takes, its answers by status, and its OpenAPI words). The server registers
 * it as it is (`app.route({ ...route, handler })`); the browser demo answers it at the same path and
 * checks the request by the same schemas, so neither restates a path or a shape.
 */
export interface ApiRoute<S extends RouteSchema = RouteSchema> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  schema: S;
}

/** What a route takes and answers, and how the API's pages describe it. */
export interface RouteSchema {
  tags: string[];
  summary: string;
  description?: string;
  querystring?: TSchema;
  body?: TSchema;
  response: Record<number, TSchema>;
}

/** A route's declaration, its method kept as a literal (the demo's table and the server read it). */
export const apiRoute = <M extends ApiRoute['method'], S extends RouteSchema>(
  method: M,
  url: string,
  schema: S,
): ApiRoute<S> & { method: M } => ({ method, url, schema });

/** The name of a call in a table of calls: `METHOD /path`. */
export const routeKey = (route: Pick<ApiRoute, 'method' | 'url'>): string => `${route.method} ${route.url}`;
