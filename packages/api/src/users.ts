import { Type, type Static } from '@sinclair/typebox';
import { THEME_NAMES } from '@fieldlink/domain/app-variant';
import { DATE_ORDERS, HOUR_CYCLES } from '@fieldlink/domain/date-format';
import { USER_UPDATE_ID_PATTERN } from '@fieldlink/domain/user-rules';
import { Email, EntityId } from './fields';
import { THING_NAME_PATTERN } from './mqtt-topics';
import { ExtraFlagName, LinkedAccount, PermissionName } from './session';

/** User calls of core §7: read and edit a user, invite and re-invite. */

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

/**
 * A user's clock (issue 36 item 2), each part null when not chosen (the browser's zone and locale
 * decide). The zone is an IANA name the server's time-zone data knows (checked by the user rules).
 */
const ClockTimeZone = Type.Union([
  Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_+/-]+$' }),
  Type.Null(),
]);
const ClockHourCycle = Type.Union([...HOUR_CYCLES.map((cycle) => Type.Literal(cycle)), Type.Null()]);
const ClockDateOrder = Type.Union([...DATE_ORDERS.map((order) => Type.Literal(order)), Type.Null()]);
const ClockFields = { timeZone: ClockTimeZone, hourCycle: ClockHourCycle, dateOrder: ClockDateOrder };
const GroupPathText = Type.String({ minLength: 3, maxLength: 2000, pattern: '^\\./' });
const Permissions = Type.Array(PermissionName, { maxItems: 32, uniqueItems: true });
const SecretPermissions = Type.Array(ExtraFlagName, { maxItems: 16, uniqueItems: true });

/** `GET /user?email=&accountId=`: a user in the caller's scope (or the caller). */
export const UserQuery = Type.Object(
  { email: Email, accountId: Type.Optional(EntityId) },
  { additionalProperties: false },
);
export type UserQuery = Static<typeof UserQuery>;

/** A user as the user panel shows it. Attachment points outside the caller's scope are left out. */
export const User = Type.Object({
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  theme: Type.Union([Type.String(), Type.Null()]),
  /** Effective permissions: those of the first attachment point (§6). */
  permissions: Type.Array(PermissionName),
  secretPermissions: Type.Array(ExtraFlagName),
  /** Sees every value and chart but operates nothing (issue 35); kept with the user. */
  monitorOnly: Type.Boolean(),
  /** Thing names whose disconnection alerts this user muted (shown to the user only). */
  mutedDevices: Type.Array(Type.String()),
  latestUserUpdateId: Type.Union([Type.String(), Type.Null()]),
  linkedAccounts: Type.Array(LinkedAccount),
  isSelf: Type.Boolean(),
  /** The user's clock: shown to the user only (null to others). */
  ...ClockFields,
});
export type User = Static<typeof User>;

/** What `PUT /user` may change. Theme and muted devices are the user's own; permissions are others'. */
export const UserProps = Type.Object(
  {
    firstName: Type.Optional(Name),
    lastName: Type.Optional(Name),
    /** One of the console's themes (null: none chosen); it follows the user to every browser. */
    theme: Type.Optional(Type.Union([...THEME_NAMES.map((name) => Type.Literal(name)), Type.Null()])),
    mutedDevices: Type.Optional(
      Type.Array(Type.String({ pattern: THING_NAME_PATTERN }), { maxItems: 10_000, uniqueItems: true }),
    ),
    permissions: Type.Optional(Permissions),
    secretPermissions: Type.Optional(SecretPermissions),
    /** Another user's monitor-only mark, changed like its permissions. */
    monitorOnly: Type.Optional(Type.Boolean()),
    /** The user's own clock; null: back to the browser's. */
    timeZone: Type.Optional(ClockTimeZone),
    hourCycle: Type.Optional(ClockHourCycle),
    dateOrder: Type.Optional(ClockDateOrder),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UserProps = Static<typeof UserProps>;

/** `PUT /user`. `updateId` (`{series}:{sequence}`) lets stale updates be ignored (§4). */
export const PutUserBody = Type.Object(
  { email: Email, props: UserProps, updateId: Type.Optional(Type.String({ pattern: USER_UPDATE_ID_PATTERN })) },
  { additionalProperties: false },
);
export type PutUserBody = Static<typeof PutUserBody>;

export const PutUserAnswer = Type.Object({
  email: Type.String(),
  props: Type.Object({
    firstName: Type.String(),
    lastName: Type.String(),
    theme: Type.Union([Type.String(), Type.Null()]),
    mutedDevices: Type.Array(Type.String()),
    permissions: Type.Array(PermissionName),
    secretPermissions: Type.Array(ExtraFlagName),
    monitorOnly: Type.Boolean(),
    ...ClockFields,
  }),
  latestUserUpdateId: Type.Union([Type.String(), Type.Null()]),
  /** False when the update was stale (an older update of the same series) and nothing changed. */
  applied: Type.Boolean(),
});
export type PutUserAnswer = Static<typeof PutUserAnswer>;

/** `POST /invite-user`: invite someone to join at a group with these permissions. */
export const InviteUserBody = Type.Object(
  {
    email: Email,
    /** Group path to attach the new user at. */
    path: GroupPathText,
    permissions: Permissions,
    secretPermissions: Type.Optional(SecretPermissions),
    /** The new user sees every value and chart but operates nothing (absent: it operates). */
    monitorOnly: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type InviteUserBody = Static<typeof InviteUserBody>;

/** An invited user, not signed up yet. */
export const InvitedUser = Type.Object({
  email: Type.String(),
  accountId: Type.String(),
  groupId: Type.String(),
  path: Type.String(),
  permissions: Type.Array(PermissionName),
  secretPermissions: Type.Array(ExtraFlagName),
  monitorOnly: Type.Boolean(),
  /** Unix milliseconds. */
  expiresAt: Type.Number(),
});
export type InvitedUser = Static<typeof InvitedUser>;

/** Answer of `POST /invite-user` and `POST /reinvite-user` (the client reads `data.user`). */
export const InviteUserAnswer = Type.Object({ user: InvitedUser });
export type InviteUserAnswer = Static<typeof InviteUserAnswer>;

/** `POST /reinvite-user`: mail a pending invitation again, with a new link and a new week. */
export const ReinviteUserBody = Type.Object({ email: Email }, { additionalProperties: false });
export type ReinviteUserBody = Static<typeof ReinviteUserBody>;
