import { describe, expect, it } from 'vitest';
import { createTreeSearch } from '@fieldlink/domain/tree-search';
import { acmeTree } from './fixtures';
import {
  allGroupKeys,
  deviceKey,
  findTarget,
  flattenTree,
  groupKey,
  groupTrailOf,
  initiallyExpandedKeys,
  searchExpandedKeys,
} from './tree-rows';

const labels = (rows: { depth: number; label: string }[]) => rows.map((row) => `${'  '.repeat(row.depth)}${row.label}`);

describe('flattenTree', () => {
  const accounts = [acmeTree()];

  it('shows only the root while nothing is expanded', () =>
    expect(labels(flattenTree(accounts, { expanded: new Set() }))).toEqual(['Acme']));

  it('orders a group: New Devices, groups by name, Trash, then dashboards, devices, users', () => {
    const rows = flattenTree(accounts, { expanded: new Set([groupKey('root'), groupKey('boilers')]) });
    expect(labels(rows)).toEqual([
      'Acme',
      '  New Devices',
      '  Boiler Room',
      '    Lobby',
      '    Boiler 1',
      '    Boiler 2',
      '  Cold Store',
      '  Trash',
      '  Olive Ops',
    ]);
    expect(rows.map((row) => row.kind)).toEqual([
      'rootGroup',
      'newDevicesGroup',
      'group',
      'scene',
      'deviceConnected',
      'deviceDisconnected',
      'group',
      'trashGroup',
      'user',
    ]);
    expect(rows[2]).toMatchObject({ expandable: true, expanded: true, position: 2, siblings: 5 });
  });

  it('shows a device’s channels beneath it when expanded, with display names', () => {
    const rows = flattenTree(accounts, {
      expanded: new Set([groupKey('root'), groupKey('boilers'), deviceKey('b1')]),
    });
    const channels = rows.filter((row) => row.kind === 'channel');
    expect(channels.map((row) => [row.label, row.detail, row.depth])).toEqual([
      ['Ch_1', 'c1', 3],
      ['SP_1', 'sp1', 3],
    ]);
  });

  it('narrows to the matches and the groups above them while searching', () => {
    const search = createTreeSearch(accounts.map((account) => account.rootGroup)).search('freezer')!;
    const rows = flattenTree(accounts, { expanded: searchExpandedKeys(accounts, search), search });
    expect(labels(rows)).toEqual(['Acme', '  Cold Store', '    Freezer']);
  });

  it('shows a matched group whole, closed, and users by name', () => {
    const search = createTreeSearch(accounts.map((account) => account.rootGroup)).search('ann alarm')!;
    const rows = flattenTree(accounts, { expanded: searchExpandedKeys(accounts, search), search });
    expect(labels(rows)).toEqual(['Acme', '  Cold Store', '    Ann Alarm']);
    expect(rows[2]!.kind).toBe('alarmUser');
    const groupHit = createTreeSearch(accounts.map((account) => account.rootGroup)).search('boiler room')!;
    const expanded = searchExpandedKeys(accounts, groupHit);
    expect([...expanded]).toEqual([groupKey('root')]);
    expect(
      labels(flattenTree(accounts, { expanded: new Set([...expanded, groupKey('boilers')]), search: groupHit })),
    ).toEqual(['Acme', '  Boiler Room', '    Lobby', '    Boiler 1', '    Boiler 2']);
  });

  it('leaves New Devices and Trash out of a search unless included', () => {
    const roots = accounts.map((account) => account.rootGroup);
    const excluded = createTreeSearch(roots).search('old boiler')!;
    expect(flattenTree(accounts, { expanded: searchExpandedKeys(accounts, excluded), search: excluded })).toEqual([]);
    const included = createTreeSearch(roots).search('old boiler', { includePlaceholderGroups: true })!;
    expect(
      labels(flattenTree(accounts, { expanded: searchExpandedKeys(accounts, included), search: included })),
    ).toEqual(['Acme', '  Trash', '    Old boiler']);
  });

  it('expands every group with "expand all", and finds a group’s trail', () => {
    expect(allGroupKeys(accounts).size).toBe(5);
    expect(groupTrailOf(accounts, 'cold').map((group) => group.name)).toEqual(['Acme', 'Cold Store']);
    expect(groupTrailOf(accounts, 'nope')).toEqual([]);
  });
});

// Issue 42 item 1: the tree opens on the groups the account answer marks `expanded` (core §3).
describe('initiallyExpandedKeys', () => {
  it('opens the groups marked expanded, at any depth, and no other', () => {
    const tree = acmeTree();
    expect([...initiallyExpandedKeys([tree])]).toEqual([groupKey('root')]);
    const cold = tree.rootGroup.groups.find((group) => group.id === 'cold')!;
    cold.expanded = true;
    expect([...initiallyExpandedKeys([tree])]).toEqual([groupKey('root'), groupKey('cold')]);
    expect(labels(flattenTree([tree], { expanded: initiallyExpandedKeys([tree]) }))).toContain('    Freezer');
    tree.rootGroup.expanded = false;
    expect([...initiallyExpandedKeys([tree])]).toEqual([groupKey('cold')]);
  });
});

describe('findTarget', () => {
  const accounts = [acmeTree()];
  it.each([
    ['group:cold', 'group', 'Cold Store'],
    ['device:b1', 'device', 'Boiler 1'],
    ['channel:b1:sp1', 'channel', 'sp1'],
    ['user:cold:ann@acme.test', 'user', 'ann@acme.test'],
    ['scene:lobby', 'scene', 'Lobby'],
  ])('finds %s', (key, type, name) => {
    const target = findTarget(accounts, key)!;
    expect(target.type).toBe(type);
    const named =
      target.type === 'group'
        ? target.group.name
        : target.type === 'device'
          ? target.device.name
          : target.type === 'channel'
            ? target.channel.code
            : target.type === 'user'
              ? target.user.email
              : target.scene.name;
    expect(named).toBe(name);
  });
  it('answers null for an unknown key', () => expect(findTarget(accounts, 'device:nope')).toBeNull());
});
