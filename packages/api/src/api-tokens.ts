import { Type, type Static } from '@sinclair/typebox';
import { API_TOKEN_NAME_MAX_LENGTH } from '@fieldlink/domain/api-tokens';
import { EntityId, Nullable, Timestamp } from './fields';

/**
 * Personal API tokens (issue 38 item 3): `POST /api-tokens` makes one and answers its secret once,
 * `GET /api-tokens` lists the caller's own with their last use, `DELETE /api-tokens?id=` revokes one
 * at once. An integration sends the token as `Authorization: Bearer <token>`. Times are unix milliseconds.
 */

export const ApiTokenCreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: API_TOKEN_NAME_MAX_LENGTH, pattern: '\\S' }),
    /** When it stops working; absent: 90 days from now. At most 365 days ahead. */
    expiresAt: Type.Optional(Timestamp()),
    /** A read-only token reads what its owner may read and changes nothing. */
    readOnly: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ApiTokenCreateBody = Static<typeof ApiTokenCreateBody>;

export const ApiTokenSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  readOnly: Type.Boolean(),
  createdAt: Type.Number(),
  expiresAt: Type.Number(),
  /** Written at most once a minute; null when never used. */
  lastUsedAt: Nullable(Type.Number()),
  /** The address of that use. */
  lastUsedAddress: Nullable(Type.String()),
});
export type ApiTokenSummary = Static<typeof ApiTokenSummary>;

/** The new token: `token` is its secret, shown this once and never again. */
export const ApiTokenCreateAnswer = Type.Composite([ApiTokenSummary, Type.Object({ token: Type.String() })]);
export type ApiTokenCreateAnswer = Static<typeof ApiTokenCreateAnswer>;

export const ApiTokenListAnswer = Type.Object({ tokens: Type.Array(ApiTokenSummary) });
export type ApiTokenListAnswer = Static<typeof ApiTokenListAnswer>;

export const ApiTokenDeleteQuery = Type.Object({ id: EntityId }, { additionalProperties: false });
export type ApiTokenDeleteQuery = Static<typeof ApiTokenDeleteQuery>;
