import type { Account, GroupNode, TreeDevice } from '@fieldlink/api/account';

// Test data: the account tree's nodes with plain defaults; a test names only what it is about.

export const treeDevice = (id: string, partial: Partial<TreeDevice> = {}): TreeDevice => ({
  id,
  name: id,
  sn: null,
  thingName: id,
  isConnected: true,
  lastConnection: null,
  lastDisconnection: null,
  ...partial,
});

export const treeGroup = (id: string, partial: Partial<GroupNode> = {}): GroupNode => ({
  id,
  name: id,
  accountId: 'acc1',
  appType: 'default',
  kind: 'group',
  relativePath: `./${id}`,
  expanded: false,
  groups: [],
  devices: [],
  deviceIds: [],
  scenes: [],
  users: [],
  fullUsers: [],
  ...partial,
});

export const treeAccount = (rootGroup: GroupNode, partial: Partial<Account> = {}): Account => ({
  id: 'acc1',
  name: 'Acme',
  appType: 'default',
  kind: 'customer',
  userVariant: null,
  theme: null,
  rootGroup,
  ...partial,
});
