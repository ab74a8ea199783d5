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
