import { Type, type Static } from '@sinclair/typebox';
import { EntityId, Nullable } from './fields';

/**
 * The caller's signed-in sessions (issue 38 item 4): `GET /sessions` lists the open ones,
 * `DELETE /sessions?id=` signs one out, `DELETE /sessions/others` every one but the caller's own.
 * Times are unix milliseconds.
 */

export const SessionSummary = Type.Object({
  id: Type.String(),
  /** The session this call was made with. */
  current: Type.Boolean(),
  /** The browser as people read it: "Firefox on Windows". */
  browser: Type.String(),
  userAgent: Nullable(Type.String()),
  /** The address it was last seen from. */
  address: Nullable(Type.String()),
  createdAt: Type.Number(),
  /** Written at most once a minute. */
  lastSeenAt: Type.Number(),
});
export type SessionSummary = Static<typeof SessionSummary>;

export const SessionListAnswer = Type.Object({ sessions: Type.Array(SessionSummary) });
export type SessionListAnswer = Static<typeof SessionListAnswer>;

export const SessionDeleteQuery = Type.Object({ id: EntityId }, { additionalProperties: false });
export type SessionDeleteQuery = Static<typeof SessionDeleteQuery>;

export const EndOtherSessionsAnswer = Type.Object({ ended: Type.Integer({ minimum: 0 }) });
export type EndOtherSessionsAnswer = Static<typeof EndOtherSessionsAnswer>;
