import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Timestamp } from '@fieldlink/api/fields';
import { normaliseTimestamps } from './input-guard';

/** A request as far as the hook reads it: the route's schema and the validated query and body. */
const request = (schema: Record<string, unknown>, query: unknown, body: unknown) =>
  ({ routeOptions: { schema }, query, body }) as unknown as FastifyRequest;

describe('timestamps a caller sends', () => {
  const SECONDS = 1_767_225_600; // 2026-01-01 in seconds: 10 digits
  const MILLIS = SECONDS * 1000;

  it.each([
    ['10 digits (seconds)', SECONDS, MILLIS],
    ['12 digits (seconds)', 999_999_999_999, 999_999_999_999_000],
    ['13 digits (milliseconds)', MILLIS, MILLIS],
    ['0', 0, 0],
  ])('reads %s', async (_name, sent, expected) => {
    const query = { before: sent, limit: 5 };
    await normaliseTimestamps(
      request(
        { querystring: Type.Object({ before: Type.Optional(Timestamp()), limit: Type.Integer() }) },
        query,
        undefined,
      ),
    );
    expect(query).toEqual({ before: expected, limit: 5 });
  });

  it('applies the rule inside bodies: nested objects, arrays and unions, and nothing else', async () => {
    const body = {
      window: { start: SECONDS, end: MILLIS, count: SECONDS },
      times: [SECONDS, MILLIS],
      choice: { at: SECONDS },
    };
    const schema = Type.Object({
      window: Type.Object({ start: Timestamp(), end: Timestamp(), count: Type.Integer() }),
      times: Type.Array(Timestamp()),
      choice: Type.Union([Type.Object({ at: Timestamp() }), Type.Object({ other: Type.String() })]),
    });
    await normaliseTimestamps(request({ body: schema }, {}, body));
    expect(body).toEqual({
      window: { start: MILLIS, end: MILLIS, count: SECONDS },
      times: [MILLIS, MILLIS],
      choice: { at: MILLIS },
    });
  });
});
