import { describe, expect, it } from 'vitest';
import type { Permission } from './permissions';
import { TREE_ITEM_KINDS, treeMenuEntries, type TreeItemKind } from './tree-menu';

const GROUP_EDIT: Permission[] = ['VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS'];
const INVITE: Permission[] = ['VIEW_ACCOUNTS', 'INVITE_USERS'];
const BOTH: Permission[] = ['VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS', 'INVITE_USERS'];

describe('treeMenuEntries', () => {
  it.each<[TreeItemKind, Permission[], string[]]>([
    ['rootGroup', BOTH, ['Add Subgroup', 'Invite User']],
    ['rootGroup', GROUP_EDIT, ['Add Subgroup']],
    ['rootGroup', INVITE, ['Invite User']],
    ['rootGroup', ['VIEW_ACCOUNTS'], []],
    ['group', BOTH, ['Move', 'Delete', 'Add Subgroup', 'Invite User']],
    ['group', GROUP_EDIT, ['Move', 'Delete', 'Add Subgroup']],
    ['group', INVITE, ['Invite User']],
    ['group', ['ADD_EDIT_DELETE_GROUPS', 'INVITE_USERS'], []],
    ['device', GROUP_EDIT, ['Move']],
    ['deviceConnected', GROUP_EDIT, ['Move']],
    ['deviceDisconnected', GROUP_EDIT, ['Move']],
    ['device', INVITE, []],
    ['user', GROUP_EDIT, ['Move']],
    ['adminUser', GROUP_EDIT, ['Move']],
    ['alarmUser', GROUP_EDIT, ['Move']],
    ['user', INVITE, []],
    ['newDevicesGroup', ['ADMIN'], ['Add Device', 'Import Devices']],
    ['newDevicesGroup', ['VIEW_ACCOUNTS', 'ADD_DEVICES'], ['Add Device', 'Import Devices']],
    ['newDevicesGroup', GROUP_EDIT, []],
    ['rootGroup', ['VIEW_ACCOUNTS', 'ADD_DEVICES'], ['Add Device', 'Import Devices']],
    [
      'group',
      [...BOTH, 'ADD_DEVICES'],
      ['Move', 'Delete', 'Add Subgroup', 'Invite User', 'Add Device', 'Import Devices'],
    ],
    ['trashGroup', ['ADMIN'], []],
    ['scene', ['ADMIN'], []],
    ['channel', ['ADMIN'], []],
    ['group', ['ADMIN'], ['Move', 'Delete', 'Add Subgroup', 'Invite User', 'Add Device', 'Import Devices']],
  ])('%s with %j -> %j', (kind, permissions, entries) =>
    expect(treeMenuEntries(kind, { permissions })).toEqual(entries),
  );

  it.each(TREE_ITEM_KINDS)('offers nothing on %s to a user without permissions', (kind) =>
    expect(treeMenuEntries(kind, { permissions: [] })).toEqual([]),
  );
});
