import { describe, expect, it } from 'vitest';
import { groupTree, treeChannel, type TreeGroupSource } from './account-view';

const group = (id: string, path: string, parentId: string | null, kind: TreeGroupSource['kind'] = 'group') => ({
  id,
  name: id.toUpperCase(),
  accountId: 'acc',
  appType: 'brewing',
  accountKind: 'customer',
  kind,
  simulation: false,
  path,
  parentId,
});
const GROUPS = [
  group('root', './root', null, 'root'),
  group('cellar', './root/cellar', 'root'),
  group('tanks', './root/cellar/tanks', 'cellar'),
  group('trash', './root/trash', 'root', 'trash'),
];
const none = { devices: [], scenes: [], users: [], invitations: null };

describe('the account tree', () => {
  it('nests each group under its parent, in the order given, and opens on the top group', () => {
    const tree = groupTree({ topPath: './root', groups: GROUPS, ...none })!;
    expect(tree.root.groups.map((node) => node.id)).toEqual(['cellar', 'trash']);
    expect(tree.root.groups[0]!.groups.map((node) => node.id)).toEqual(['tanks']);
    expect([...tree.groups.values()].map((node) => [node.id, node.expanded])).toEqual([
      ['root', true],
      ['cellar', false],
      ['tanks', false],
      ['trash', false],
    ]);
    expect(tree.root).toMatchObject({
      relativePath: './root',
      accountKind: 'customer',
      kind: 'root',
      simulation: false,
    });
    expect(tree.root).not.toHaveProperty('invitations');
  });

  it.each([
    ['the account root', './root', 'root', ['cellar', 'trash']],
    ['a group inside (the user’s attachment point)', './root/cellar', 'cellar', ['tanks']],
  ])('answers the subtree of %s', (_name, topPath, rootId, children) => {
    const tree = groupTree({ topPath, groups: GROUPS.filter((entry) => entry.path.startsWith(topPath)), ...none })!;
    expect([tree.root.id, tree.root.expanded, tree.root.groups.map((node) => node.id)]).toEqual([
      rootId,
      true,
      children,
    ]);
  });

  it('answers null without a group at the top path', () => {
    expect(groupTree({ topPath: './other', groups: GROUPS, ...none })).toBeNull();
  });

  it('places device ids, scenes, users with their item kind and invitations in their groups', () => {
    const tree = groupTree({
      topPath: './root',
      groups: GROUPS,
      devices: [
        { id: 'd1', groupId: 'tanks' },
        { id: 'd2', groupId: 'tanks' },
        { id: 'elsewhere', groupId: 'unknown' },
      ],
      scenes: [{ id: 's1', name: 'Overview', groupId: 'root' }],
      users: [
        { email: 'a@x', firstName: 'A', lastName: 'Admin', path: './root', subject: { permissions: ['ADMIN'] } },
        { email: 'b@x', firstName: 'B', lastName: 'Brewer', path: './root', subject: { permissions: ['ALARM'] } },
        { email: 'c@x', firstName: 'C', lastName: 'Viewer', path: './root/cellar', subject: { permissions: [] } },
      ],
      invitations: [{ email: 'new@x', expiresAt: 5, path: './root/cellar' }],
    })!;
    const [cellar] = tree.root.groups;
    expect(tree.groups.get('tanks')!.deviceIds).toEqual(['d1', 'd2']);
    expect(tree.root.scenes).toEqual([{ id: 's1', name: 'Overview' }]);
    expect(tree.root.fullUsers.map((user) => [user.email, user.itemKind])).toEqual([
      ['a@x', 'adminUser'],
      ['b@x', 'alarmUser'],
    ]);
    expect([cellar!.users, cellar!.fullUsers[0]!.itemKind]).toEqual([['c@x'], 'user']);
    expect([cellar!.invitations, tree.root.invitations]).toEqual([[{ email: 'new@x', expiresAt: 5 }], []]);
  });

  it.each([
    [{ code: 'a1' }, { code: 'a1' }],
    [
      { code: 'a1', name: 'Pressure', units: 'kPa' },
      { code: 'a1', name: 'Pressure', units: 'kPa' },
    ],
    [
      { code: 'c2', name: 'CO2 flow', units: undefined },
      { code: 'c2', name: 'CO2 flow' },
    ],
  ])('carries a channel %j as %j', (channel, expected) => {
    expect(treeChannel(channel)).toStrictEqual(expected);
  });
});
