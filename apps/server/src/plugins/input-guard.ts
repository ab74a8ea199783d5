import type { FastifyRequest } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { TIMESTAMP } from '@fieldlink/api/fields';
import { toMillis } from '@fieldlink/domain/timestamps';
import { HttpError } from '../http-errors';

/** Deeper JSON than this is no request the console makes; walking it further risks the stack. */
export const MAX_INPUT_DEPTH = 32;

/**
 * What the schemas cannot say: every number a caller sends is finite (`?limit=1e400` and a JSON
 * `1e400` both arrive as Infinity and pass an integer's maximum), no text holds a NUL character
 * (PostgreSQL cannot store one: found by the API fuzz run, where a name or an id with U+0000 answered
 * 500), and no body nests deeper than {@link MAX_INPUT_DEPTH} (a deeply nested free-form field
 * overflowed the stack when stored). Walked without recursion, so the walk itself cannot overflow.
 * Runs after validation, before every handler.
 */
export async function rejectUnsafeInput(request: FastifyRequest): Promise<void> {
  for (const [part, root] of [
    ['params', request.params],
    ['querystring', request.query],
    ['body', request.body],
  ] as const) {
    const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
    while (stack.length > 0) {
      const { value, path, depth } = stack.pop()!;
      if (typeof value === 'number' && !Number.isFinite(value)) {
        throw new HttpError(400, `${part}${path || ''} must be a finite number`);
      }
      if (typeof value === 'string' && value.includes('\u0000')) {
        throw new HttpError(400, `${part}${path || ''} must not contain a NUL character`);
      }
      if (value === null || typeof value !== 'object') continue;
      if (depth >= MAX_INPUT_DEPTH) throw new HttpError(400, `${part} nests deeper than ${MAX_INPUT_DEPTH} levels`);
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) throw new HttpError(400, `${part}${path || ''} must not contain a NUL character`);
        stack.push({ value: child, path: `${path}/${key}`, depth: depth + 1 });
      }
    }
  }
}

/**
 * Applies the timestamp rule (12 digits or fewer are seconds) to every field the route's schema marks
 * as a `Timestamp`, in the query and the body, so every handler sees unix milliseconds. Runs after
 * {@link rejectUnsafeInput}.
 */
export async function normaliseTimestamps(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema;
  if (schema?.querystring) normalise(schema.querystring as TSchema, request.query);
  if (schema?.body) normalise(schema.body as TSchema, request.body);
}

/** Walks a validated value beside its schema (objects, arrays, unions), converting marked numbers in place. */
function normalise(schema: TSchema, value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  for (const branch of (schema.anyOf as TSchema[] | undefined) ?? []) normalise(branch, value);
  if (Array.isArray(value)) {
    const items = schema.items as TSchema | undefined;
    if (!items) return;
    value.forEach((item, index) => {
      if ((items as { [TIMESTAMP]?: true })[TIMESTAMP] && typeof item === 'number') value[index] = toMillis(item);
      else normalise(items, item);
    });
    return;
  }
  const record = value as Record<string, unknown>;
  for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, TSchema>)) {
    const field = record[key];
    if ((property as { [TIMESTAMP]?: true })[TIMESTAMP] && typeof field === 'number') record[key] = toMillis(field);
    else normalise(property, field);
  }
}
