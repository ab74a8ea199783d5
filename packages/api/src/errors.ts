import { Type, type Static } from '@sinclair/typebox';

/** Every failed call answers this shape; `message` is the text the client shows. */
export const ErrorAnswer = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
});
export type ErrorAnswer = Static<typeof ErrorAnswer>;

/** Answer of calls that have nothing else to say. */
export const OkAnswer = Type.Object({ ok: Type.Literal(true) });
export type OkAnswer = Static<typeof OkAnswer>;

/**
 * The 429 answer of a request past one of the stored-work limits (`@fieldlink/domain/work-limits`):
 * the limit's name and value, and the seconds after which trying again may succeed when it may.
 */
export const LimitAnswer = Type.Object({
  statusCode: Type.Literal(429),
  error: Type.String(),
  message: Type.String(),
  limit: Type.String(),
  max: Type.Integer(),
  retryAfterSeconds: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type LimitAnswer = Static<typeof LimitAnswer>;
