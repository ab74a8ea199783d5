import { describe, expect, it } from 'vitest';
import {
  groupHoldsDevices,
  NO_DEVICE_IN_GROUP,
  addSubgroupRefusal,
  deleteGroupRefusal,
  deviceItemKind,
  groupItemKind,
  groupNameProblem,
  moveRefusal,
  normaliseGroupName,
  renameGroupRefusal,
  userItemKind,
  type DeviceHoldingGroup,
  type GroupKind,
  type MoveFacts,
} from './account-tree';
import type { ExtraFlag, Permission } from './permissions';

describe('item kinds', () => {
  it.each([
    ['root', 'rootGroup'],
    ['group', 'group'],
    ['new', 'newDevicesGroup'],
    ['trash', 'trashGroup'],
  ] as const)('a %s group is a %s item', (kind, item) => {
    expect(groupItemKind(kind)).toBe(item);
  });

  it.each([
    [true, 'deviceConnected'],
    [false, 'deviceDisconnected'],
  ])('a device connected=%s is %s', (connected, kind) => expect(deviceItemKind(connected)).toBe(kind));

  it.each<[Permission[], ExtraFlag[], string]>([
    [['ADMIN'], [], 'adminUser'],
    [[], ['ADMIN'], 'adminUser'],
    [['ADMIN', 'ALARM'], [], 'adminUser'],
    [['ALARM'], [], 'alarmUser'],
    [['ALARM', 'VIEW_DASH'], [], 'alarmUser'],
    [['VIEW_DASH', 'VIEW_ACCOUNTS'], ['OTA_UPDATE'], 'user'],
    [[], [], 'user'],
  ])('a user with %j %j is an %s', (permissions, secretPermissions, kind) =>
    expect(userItemKind({ permissions, secretPermissions })).toBe(kind),
  );
});

describe('group names', () => {
  it.each([
    ['  North   Yard ', 'North Yard', null],
    ['Cellar', 'Cellar', null],
    ['   ', '', 'Please enter a group name.'],
    ['', '', 'Please enter a group name.'],
    ['x'.repeat(101), 'x'.repeat(101), 'A group name has at most 100 characters.'],
    ['x'.repeat(100), 'x'.repeat(100), null],
  ])('%j -> %j (%j)', (name, normalised, problem) => {
    expect(normaliseGroupName(name)).toBe(normalised);
    expect(groupNameProblem(name)).toBe(problem);
  });
});

describe('add, rename and delete', () => {
  it.each<[GroupKind, boolean, boolean]>([
    ['root', true, true],
    ['group', true, true],
    ['new', false, false],
    ['trash', false, false],
  ])('a %s group: add subgroup %s, rename %s', (kind, canAdd, canRename) => {
    expect(addSubgroupRefusal(kind) === null).toBe(canAdd);
    expect(renameGroupRefusal(kind) === null).toBe(canRename);
  });

  it('refuses a group holding other accounts before counting its users', () =>
    expect(deleteGroupRefusal('group', 4, 2)).toBe(
      'This group holds other accounts. Move them to another group first.',
    ));

  it.each<[GroupKind, number, string | null]>([
    ['group', 0, null],
    ['group', 1, 'Move the user of this group to another group first.'],
    ['group', 3, 'Move the 3 users of this group to another group first.'],
    ['root', 0, 'An account’s root group cannot be deleted.'],
    ['new', 0, 'The New Devices and Trash groups cannot be deleted.'],
    ['trash', 0, 'The New Devices and Trash groups cannot be deleted.'],
  ])('deleting a %s group with %d users -> %j', (kind, users, refusal) =>
    expect(deleteGroupRefusal(kind, users)).toBe(refusal),
  );
});

describe('moveRefusal', () => {
  const base = { destinationPath: './r/d', sameAccount: true } as const;
  it.each<[string, MoveFacts, string | null]>([
    ['a device into a group', { ...base, type: 'DEVICE', destinationKind: 'group' }, null],
    ['a device into the root', { ...base, type: 'DEVICE', destinationKind: 'root' }, null],
    ['a device into Trash', { ...base, type: 'DEVICE', destinationKind: 'trash' }, null],
    ['a device into New Devices', { ...base, type: 'DEVICE', destinationKind: 'new' }, null],
    ['a device to another account', { ...base, type: 'DEVICE', destinationKind: 'group', sameAccount: false }, null],
    ['a user into a group', { ...base, type: 'USER', destinationKind: 'group' }, null],
    ['a user to another account', { ...base, type: 'USER', destinationKind: 'root', sameAccount: false }, null],
    [
      'a user into Trash',
      { ...base, type: 'USER', destinationKind: 'trash' },
      'Only devices can be moved into New Devices or Trash.',
    ],
    [
      'a user into New Devices',
      { ...base, type: 'USER', destinationKind: 'new' },
      'Only devices can be moved into New Devices or Trash.',
    ],
    [
      'a group into a sibling',
      { ...base, type: 'GROUP', movedGroupKind: 'group', movedGroupPath: './r/g', destinationKind: 'group' },
      null,
    ],
    [
      'a group into its own subgroup',
      {
        ...base,
        type: 'GROUP',
        movedGroupKind: 'group',
        movedGroupPath: './r/g',
        destinationKind: 'group',
        destinationPath: './r/g/h/i',
      },
      'A group cannot be moved under itself.',
    ],
    [
      'a group into itself',
      {
        ...base,
        type: 'GROUP',
        movedGroupKind: 'group',
        movedGroupPath: './r/g',
        destinationKind: 'group',
        destinationPath: './r/g',
      },
      'A group cannot be moved under itself.',
    ],
    [
      'a group into a group whose id starts alike',
      {
        ...base,
        type: 'GROUP',
        movedGroupKind: 'group',
        movedGroupPath: './r/g',
        destinationKind: 'group',
        destinationPath: './r/g2',
      },
      null,
    ],
    [
      'a group to another account',
      {
        ...base,
        type: 'GROUP',
        movedGroupKind: 'group',
        movedGroupPath: './r/g',
        destinationKind: 'group',
        sameAccount: false,
      },
      'A group can be moved only within its account.',
    ],
    [
      'a group into Trash',
      { ...base, type: 'GROUP', movedGroupKind: 'group', movedGroupPath: './r/g', destinationKind: 'trash' },
      'Only devices can be moved into New Devices or Trash.',
    ],
    [
      'a root group',
      { ...base, type: 'GROUP', movedGroupKind: 'root', movedGroupPath: './r', destinationKind: 'group' },
      'Root, New Devices and Trash groups cannot be moved.',
    ],
    [
      'the New Devices group',
      { ...base, type: 'GROUP', movedGroupKind: 'new', movedGroupPath: './r/n', destinationKind: 'group' },
      'Root, New Devices and Trash groups cannot be moved.',
    ],
    [
      'the Trash group',
      { ...base, type: 'GROUP', movedGroupKind: 'trash', movedGroupPath: './r/t', destinationKind: 'group' },
      'Root, New Devices and Trash groups cannot be moved.',
    ],
  ])('%s -> %j', (_label, facts, refusal) => expect(moveRefusal(facts)).toBe(refusal));
});

describe('groupHoldsDevices', () => {
  const group = (kind: string, deviceIds: string[], groups: DeviceHoldingGroup[] = []): DeviceHoldingGroup => ({
    kind,
    deviceIds,
    groups,
  });
  it.each([
    ['own devices', group('group', ['d1']), true],
    ['a device deeper down', group('root', [], [group('group', [], [group('group', ['d2'])])]), true],
    ['no device anywhere', group('root', [], [group('group', [])]), false],
    ['devices only in the trash', group('root', [], [group('trash', ['d3'])]), false],
    ['the trash itself', group('trash', ['d3']), false],
  ])('%s -> %s', (_name, tree, expected) => expect(groupHoldsDevices(tree)).toBe(expected));

  it('warns with the message of §8', () => expect(NO_DEVICE_IN_GROUP).toBe('No device found in the group.'));
});
