import type { FastifyInstance } from 'fastify';

/**
 * `METHOD /path` of every route of the app, read from Fastify's own route tree (HEAD is implied by
 * GET): what the authorization matrix and the API fuzz run go through, so a new route is in both.
 */
export function routeTable(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (depth === 0 ? '' : stack[depth - 1]!) + match[2]!;
    stack[depth] = path;
    for (const method of (match[3] ?? '').split(',').map((name) => name.trim())) {
      if (method && method !== 'HEAD') routes.push(`${method} ${path}`);
    }
  }
  return [...new Set(routes)].sort();
}
