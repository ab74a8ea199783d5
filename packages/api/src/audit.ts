import { Type, type Static } from '@sinclair/typebox';
import { AUDIT_ACTOR_KINDS, DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE } from '@fieldlink/domain/audit';
import { EntityId, Nullable, Timestamp } from './fields';

/**
 * The audit trail's calls (issue 38, item 1): `GET /audit-log` lists an account's entries newest
 * first, a page at a time; `GET /audit-log/verify` walks its hash chain. Times are unix milliseconds.
 */

export const AuditLogQuery = Type.Object(
  {
    accountId: EntityId,
    limit: Type.Integer({ minimum: 1, maximum: MAX_AUDIT_PAGE, default: DEFAULT_AUDIT_PAGE }),
    /** The `nextCursor` of the page before. */
    cursor: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,15}$' })),
    /** Entries of one user (its id). */
    userId: Type.Optional(EntityId),
    deviceId: Type.Optional(EntityId),
    /** One action name (`device.command`). */
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    /** From and to this time, both included. */
    from: Type.Optional(Timestamp()),
    to: Type.Optional(Timestamp()),
  },
  { additionalProperties: false },
);
export type AuditLogQuery = Static<typeof AuditLogQuery>;

export const AuditActor = Type.Object({
  kind: Type.Union(AUDIT_ACTOR_KINDS.map((kind) => Type.Literal(kind))),
  id: Type.String(),
  /** A user's e-mail, a token's name, a job's name. */
  name: Type.String(),
});

export const AuditEntry = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  seq: Type.Number(),
  at: Type.Number(),
  actor: AuditActor,
  address: Nullable(Type.String()),
  client: Nullable(Type.String()),
  action: Type.String(),
  target: Nullable(Type.Object({ kind: Type.String(), id: Type.String(), name: Type.Optional(Type.String()) })),
  deviceId: Nullable(Type.String()),
  before: Type.Unknown(),
  after: Type.Unknown(),
  prevHash: Type.String(),
  hash: Type.String(),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditLogAnswer = Type.Object({
  entries: Type.Array(AuditEntry),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: Nullable(Type.String()),
});
export type AuditLogAnswer = Static<typeof AuditLogAnswer>;

/** `GET /audit-log/verify` and `GET /audit-log/choices`: of one account. */
export const AuditAccountQuery = Type.Object({ accountId: EntityId }, { additionalProperties: false });
export type AuditAccountQuery = Static<typeof AuditAccountQuery>;

/**
 * What the audit log's filters offer: every actor and every device the account's trail names
 * (removed users and devices included, each by the name its newest entry gives), by name.
 */
export const AuditChoicesAnswer = Type.Object({
  actors: Type.Array(AuditActor),
  devices: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
});
export type AuditChoicesAnswer = Static<typeof AuditChoicesAnswer>;

export const AuditVerifyAnswer = Type.Object({
  accountId: Type.String(),
  /** True when every entry from the chain's start to its head is whole and in order. */
  intact: Type.Boolean(),
  /** Entries checked. */
  checked: Type.Number(),
  /** Where the chain starts (after retention trimmed it) and ends; null while it has no entry. */
  firstSeq: Nullable(Type.Number()),
  lastSeq: Nullable(Type.Number()),
  /** The first entry that does not fit, and why; null when intact. */
  brokenAt: Nullable(Type.Object({ seq: Type.Number(), id: Nullable(Type.String()), reason: Type.String() })),
});
export type AuditVerifyAnswer = Static<typeof AuditVerifyAnswer>;
