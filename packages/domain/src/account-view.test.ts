import { describe, expect, it } from 'vitest';
import { accountGroups, groupTree, treeChannel, type TreeGroupSource } from './account-view';

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

describe('an account as it is set up', () => {
  const outline = {
    name: 'Corner Retail',
    kind: 'customer',
    userVariant: '2',
    groups: [
      { name: 'North', devices: [], groups: [{ name: 'Main Street', devices: ['shelf1', 'shelf2'] }] },
      { name: 'Central', devices: ['shelf3'] },
    ],
  };
  const counted = () => {
    let count = 0;
    return (kind: string) => `${kind}${++count}`;
  };
  const shape = (groups: ReturnType<typeof accountGroups<string>>) =>
    groups.map(({ id, name, kind, path, parentId, devices }) => [id, name, kind, path, parentId, devices]);

  it('has its root, New Devices and Trash, then its own groups each before its subgroups', () => {
    expect(shape(accountGroups(outline, counted()))).toEqual([
      ['root1', 'Corner Retail', 'root', './root1', null, []],
      ['new2', 'New Stock', 'new', './root1/new2', 'root1', []],
      ['trash3', 'Trash', 'trash', './root1/trash3', 'root1', []],
      ['group4', 'North', 'group', './root1/group4', 'root1', []],
      ['group5', 'Main Street', 'group', './root1/group4/group5', 'group4', ['shelf1', 'shelf2']],
      ['group6', 'Central', 'group', './root1/group6', 'root1', ['shelf3']],
    ]);
  });

  it('hangs its root under a parent group when given one', () => {
    const [root, newDevices] = accountGroups({ ...outline, userVariant: null }, counted(), { id: 'c', path: './s/c' });
    expect([root!.path, root!.parentId, newDevices!.name]).toEqual(['./s/c/root1', 'c', 'New Devices']);
  });

  it.each([
    ['demo', true],
    ['customer', false],
  ])('marks every group of a %s account as simulated: %s', (kind, simulation) => {
    const groups = accountGroups({ ...outline, kind }, counted());
    expect(groups.map((group) => group.simulation)).toEqual(groups.map(() => simulation));
  });
});
