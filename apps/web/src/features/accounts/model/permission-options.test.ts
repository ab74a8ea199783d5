import { describe, expect, it } from 'vitest';
import type { Permission } from '@fieldlink/domain/permissions';
import {
  emptyGrant,
  FLAG_OPTIONS,
  OTHER_PERMISSIONS,
  PERMISSION_TREE,
  canOffer,
  optionLabel,
  toggleFlag,
  togglePermission,
} from './permission-options';

describe('the permission editor', () => {
  it('lists the top-level permissions with each sub-permission under its parent', () =>
    expect(PERMISSION_TREE.map((option) => [option.name, option.children.map((child) => child.name)])).toEqual([
      ['VIEW_DASH', ['ADD_EDIT_DELETE_SCENES', 'ADD_EDIT_DELETE_WIDGETS']],
      ['VIEW_ACCOUNTS', ['ADD_EDIT_DELETE_GROUPS', 'INVITE_USERS', 'EDIT_DELETE_USERS']],
      ['READ_REPORTS', ['CUD_REPORTS', 'READ_REPORT_SCHEDULES', 'CUD_REPORT_SCHEDULES']],
      ['ALARM', []],
      ['REPORTING', ['REPORTING_PLUS']],
    ]));

  it('offers the rest apart, ADMIN first, and the extra flags without ADMIN', () => {
    expect(OTHER_PERMISSIONS).toEqual(['ADMIN', 'ADD_DEVICES', 'MOBILE_ONLY', 'END_BREW', 'EDIT_BREW_INFO']);
    expect(FLAG_OPTIONS).not.toContain('ADMIN');
  });

  it.each([
    ['ALARM', 'Alarm Responder'],
    ['REPORTING_PLUS', 'Financial Loss'],
    ['VIEW_DASH', 'View dashboards'],
    ['OTA_UPDATE', 'Over-the-air updates'],
  ] as const)('labels %s "%s"', (name, label) => expect(optionLabel(name)).toBe(label));

  it.each<[string, Permission[], Permission, boolean, Permission[]]>([
    ['a child brings its parent', [], 'INVITE_USERS', true, ['VIEW_ACCOUNTS', 'INVITE_USERS']],
    [
      'a parent takes its children',
      ['VIEW_ACCOUNTS', 'INVITE_USERS', 'VIEW_DASH'],
      'VIEW_ACCOUNTS',
      false,
      ['VIEW_DASH'],
    ],
    ['a child goes alone', ['VIEW_ACCOUNTS', 'INVITE_USERS'], 'INVITE_USERS', false, ['VIEW_ACCOUNTS']],
    ['order follows the specification', ['READ_REPORTS'], 'VIEW_DASH', true, ['VIEW_DASH', 'READ_REPORTS']],
  ])('%s', (_label, before, name, on, after) =>
    expect(togglePermission({ ...emptyGrant({ permissions: [] }), permissions: before }, name, on).permissions).toEqual(
      after,
    ),
  );

  it('toggles flags', () => {
    const on = toggleFlag(emptyGrant({ permissions: [] }), 'OTA_UPDATE', true);
    expect(on.secretPermissions).toEqual(['OTA_UPDATE']);
    expect(toggleFlag(on, 'OTA_UPDATE', false).secretPermissions).toEqual([]);
  });

  it.each([
    [['VIEW_ACCOUNTS', 'INVITE_USERS'], 'VIEW_ACCOUNTS', true],
    [['VIEW_ACCOUNTS', 'INVITE_USERS'], 'VIEW_DASH', false],
    [['INVITE_USERS'], 'INVITE_USERS', false],
    [['ADMIN'], 'OTA_UPDATE', true],
    [['VIEW_DASH'], 'OTA_UPDATE', false],
  ] as const)('a granter with %j can offer %s: %s', (permissions, name, offered) =>
    expect(canOffer({ permissions: [...permissions] }, name)).toBe(offered),
  );
});

describe('emptyGrant (issue 35)', () => {
  it('starts monitor-only for a monitor-only granter, who can make no other users', () => {
    expect(emptyGrant({ permissions: ['VIEW_DASH'] }).monitorOnly).toBe(false);
    expect(emptyGrant({ permissions: ['VIEW_DASH'], monitorOnly: true }).monitorOnly).toBe(true);
  });
});
