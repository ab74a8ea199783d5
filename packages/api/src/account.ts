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
});
export type TreeDevice = Static<typeof TreeDevice>;

export const FullUser = Type.Object({ firstName: Type.String(), lastName: Type.String(), email: Type.String() });

export interface GroupNode {
  id: string;
  name: string;
  accountId: string;
  appType: string;
  kind: GroupKind;
  relativePath: string;
  groups: GroupNode[];
  devices: TreeDevice[];
  deviceIds: string[];
  scenes: { id: string; name: string }[];
  users: string[];
  fullUsers: Static<typeof FullUser>[];
}

export const GroupNode = Type.Recursive((Self: TSchema) =>
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    accountId: Type.String(),
    appType: Type.String(),
    kind: GroupKind,
    relativePath: Type.String(),
    groups: Type.Array(Self),
    devices: Type.Array(TreeDevice),
    deviceIds: Type.Array(Type.String()),
    scenes: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
    users: Type.Array(Type.String()),
    fullUsers: Type.Array(FullUser),
  }),
);

export const Account = Type.Object({
  id: Type.String(),
  name: Type.String(),
  appType: Type.String(),
  kind: Type.String(),
  userVariant: Type.Union([Type.String(), Type.Null()]),
  rootGroup: GroupNode,
});
export type Account = Omit<Static<typeof Account>, 'rootGroup'> & { rootGroup: GroupNode };

export const AccountAnswer = Type.Object({ accounts: Type.Array(Account) });
export type AccountAnswer = { accounts: Account[] };
