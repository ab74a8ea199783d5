import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http-errors';

/** Deeper JSON than this is no request the console makes; walking it further risks the stack. */
export const MAX_INPUT_DEPTH = 32;

/**
 * What the schemas cannot say: every number a caller sends is finite (`?limit=1e400` and a JSON
 * `1e400` both arrive as Infinity and pass an integer's maximum), and no body nests deeper than
 * {@link MAX_INPUT_DEPTH} (a deeply nested free-form field overflowed the stack when stored). Walked
 * without recursion, so the walk itself cannot overflow. Runs after validation, before every handler.
 */
export async function rejectUnsafeInput(request: FastifyRequest): Promise<void> {
  for (const [part, root] of [
    ['querystring', request.query],
    ['body', request.body],
  ] as const) {
    const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
    while (stack.length > 0) {
      const { value, path, depth } = stack.pop()!;
      if (typeof value === 'number' && !Number.isFinite(value)) {
        throw new HttpError(400, `${part}${path || ''} must be a finite number`);
      }
      if (value === null || typeof value !== 'object') continue;
      if (depth >= MAX_INPUT_DEPTH) throw new HttpError(400, `${part} nests deeper than ${MAX_INPUT_DEPTH} levels`);
      for (const [key, child] of Object.entries(value))
        stack.push({ value: child, path: `${path}/${key}`, depth: depth + 1 });
    }
  }
}
