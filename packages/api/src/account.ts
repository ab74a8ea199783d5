import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** Kinds of group node in the account tree. */
export const GroupKind = Type.Union([
  Type.Literal('root'),
  Type.Literal('group'),
  Type.Literal('new'),
  Type.Literal('trash'),
]);
export type GroupKind = Static<typeof GroupKind>;

/** A device as it appears in the tree (the full record comes from `GET /device`). */
export const TreeDevice = Type.Object({
  id: Type.String(),
  name: Type.String(),
  sn: Type.Union([Type.String(), Type.Null()]),
  thingName: Type.String(),
  isConnected: Type.Boolean(),
  lastConnection: Type.Union([Type.Number(), Type.Null()]),
  lastDisconnection: Type.Union([Type.Number(), Type.Null()]),
  /** The device's channels, shown beneath it in the tree. */
  channels: Type.Optional(
    Type.Array(
      Type.Object({ code: Type.String(), name: Type.Optional(Type.String()), units: Type.Optional(Type.String()) }),
    ),
  ),
  /** The device's tags (a water plant's configuration tag picks the page it opens on). */
  tags: Type.Optional(Type.Array(Type.Object({ key: Type.String(), value: Type.String() }))),
});
export type TreeDevice = Static<typeof TreeDevice>;

/** Tree item kind of a user: an administrator, an alarm responder, or any other user. */
export const UserItemKind = Type.Union([Type.Literal('user'), Type.Literal('adminUser'), Type.Literal('alarmUser')]);
export type UserItemKind = Static<typeof UserItemKind>;

export const FullUser = Type.Object({
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  itemKind: Type.Optional(UserItemKind),
});
export type FullUser = Static<typeof FullUser>;

/** An invitation mailed to join at a group and not used yet. */
export const PendingInvitation = Type.Object({
  email: Type.String(),
  /** Unix milliseconds; past it the link no longer works and the invitation can be sent again. */
  expiresAt: Type.Number(),
});
export type PendingInvitation = Static<typeof PendingInvitation>;

export interface GroupNode {
  id: string;
  name: string;
  accountId: string;
  appType: string;
  /** The kind of the group's account (demo, investor …): in a supplier's tree, other accounts' groups. */
  accountKind?: string;
  kind: GroupKind;
  /**
   * True for a group of demo devices simulated in the browser (core §3 group `simulation`). The
   * server always sends it; absent reads as false.
   */
  simulation?: boolean;
  relativePath: string;
  /**
   * Core §3 group `expanded`: true when the account tree opens with this group's contents shown.
   * The server sets it for the top group of each tree the caller sees (the attachment point), so the
   * tree first shows what that top group holds; opening and closing afterwards stays in the browser.
   */
  expanded: boolean;
  groups: GroupNode[];
  devices: TreeDevice[];
  deviceIds: string[];
  scenes: { id: string; name: string }[];
  users: string[];
  fullUsers: FullUser[];
  /** Invitations to join at this group not yet used (shown to users who may invite). */
  invitations?: PendingInvitation[];
}

/** A group's own fields, shared by the plain tree and its compact form (account-columns). */
export const GROUP_NODE_FIELDS = {
  id: Type.String(),
  name: Type.String(),
  accountId: Type.String(),
  appType: Type.String(),
  /**
   * The kind of the account the group belongs to (demo, investor …): a supplier's tree holds other
   * accounts' groups, whose scenes may be read-only by that account's rule (§4).
   */
  accountKind: Type.Optional(Type.String()),
  kind: GroupKind,
  simulation: Type.Optional(Type.Boolean()),
  relativePath: Type.String(),
  expanded: Type.Boolean(),
  scenes: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  users: Type.Array(Type.String()),
  fullUsers: Type.Array(FullUser),
  invitations: Type.Optional(Type.Array(PendingInvitation)),
};

export const GroupNode = Type.Recursive((Self: TSchema) =>
  Type.Object({
    ...GROUP_NODE_FIELDS,
    groups: Type.Array(Self),
    devices: Type.Array(TreeDevice),
    deviceIds: Type.Array(Type.String()),
  }),
);

export const Account = Type.Object({
  id: Type.String(),
  name: Type.String(),
  appType: Type.String(),
  kind: Type.String(),
  userVariant: Type.Union([Type.String(), Type.Null()]),
  /** The account's brand theme (core §1), or null: its users see the installation's default. */
  theme: Type.Union([Type.String(), Type.Null()]),
  rootGroup: GroupNode,
});
export type Account = Omit<Static<typeof Account>, 'rootGroup'> & { rootGroup: GroupNode };

export const AccountAnswer = Type.Object({ accounts: Type.Array(Account) });
export type AccountAnswer = { accounts: Account[] };
