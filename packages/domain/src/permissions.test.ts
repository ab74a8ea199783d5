import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CAPABILITY_RULES,
  READING_CAPABILITIES,
  refusedAsReadOnlyToken,
  EXTRA_FLAGS,
  PERMISSION_PARENTS,
  PERMISSIONS,
  TOP_LEVEL_PERMISSIONS,
  can,
  canGrant,
  effectivePermissions,
  heldFlags,
  heldPermissions,
  holdsFlag,
  holdsPermission,
  isAdmin,
  landingAfterDeviceRead,
  readablePermission,
  refusedAsMonitorOnly,
  READABLE_NAMES,
  type Capability,
  type ExtraFlag,
  type Permission,
  type PermissionSubject,
} from './permissions';

const CAPABILITIES = Object.keys(CAPABILITY_RULES) as Capability[];

const subject = (permissions: Permission[], secretPermissions: ExtraFlag[] = [], userVariant?: string) => ({
  permissions,
  secretPermissions,
  userVariant,
});

describe('PERMISSIONS', () => {
  it('lists ADMIN first', () => expect(PERMISSIONS[0]).toBe('ADMIN'));
  it('has the top-level list of the specification', () =>
    expect(TOP_LEVEL_PERMISSIONS).toEqual(['VIEW_DASH', 'VIEW_ACCOUNTS', 'READ_REPORTS', 'ALARM', 'REPORTING']));
  it.each([
    ['ALARM', 'Alarm Responder'],
    ['REPORTING_PLUS', 'Financial Loss'],
    ['VIEW_DASH', 'View dashboards'],
  ] as const)('labels %s as %s', (name, label) => expect(READABLE_NAMES[name]).toBe(label));
});

describe('READABLE_NAMES', () => {
  it('names every permission and flag for people, with the specification’s own labels', () => {
    for (const name of [...PERMISSIONS, ...EXTRA_FLAGS]) expect(READABLE_NAMES[name]).not.toMatch(/_|^[A-Z]+$/);
    expect(readablePermission('ALARM')).toBe('“Alarm Responder”');
    expect(readablePermission('ADD_DEVICES')).toBe('“Add devices”');
  });
});

describe('sub-permissions need their parent', () => {
  it.each([
    ['ADD_EDIT_DELETE_SCENES', 'VIEW_DASH'],
    ['ADD_EDIT_DELETE_WIDGETS', 'VIEW_DASH'],
    ['ADD_EDIT_DELETE_GROUPS', 'VIEW_ACCOUNTS'],
    ['INVITE_USERS', 'VIEW_ACCOUNTS'],
    ['EDIT_DELETE_USERS', 'VIEW_ACCOUNTS'],
    ['CUD_REPORTS', 'READ_REPORTS'],
    ['READ_REPORT_SCHEDULES', 'READ_REPORTS'],
    ['CUD_REPORT_SCHEDULES', 'READ_REPORTS'],
    ['REPORTING_PLUS', 'REPORTING'],
  ] as const)('%s needs %s', (child, parent) => {
    expect(PERMISSION_PARENTS[child]).toBe(parent);
    expect(holdsPermission(subject([child]), child)).toBe(false);
    expect(holdsPermission(subject([child, parent]), child)).toBe(true);
    expect(holdsPermission(subject([parent]), child)).toBe(false);
  });

  it('has no other parents', () => expect(Object.keys(PERMISSION_PARENTS)).toHaveLength(9));

  it.each(PERMISSIONS.filter((name) => PERMISSION_PARENTS[name] === undefined))('%s stands alone', (name) =>
    expect(holdsPermission(subject([name]), name)).toBe(true),
  );
});

describe('ADMIN', () => {
  it.each([
    ['as a permission', subject(['ADMIN'])],
    ['as an extra flag', subject([], ['ADMIN'])],
  ])('%s implies every permission, flag and capability', (_label, admin) => {
    expect(isAdmin(admin)).toBe(true);
    expect(heldPermissions(admin)).toEqual([...PERMISSIONS]);
    expect(heldFlags(admin)).toEqual([...EXTRA_FLAGS]);
    for (const capability of CAPABILITIES) expect(can(admin, capability)).toBe(true);
  });

  it('holds for any set that includes ADMIN, whatever the variant', () =>
    fc.assert(
      fc.property(
        fc.subarray([...PERMISSIONS]),
        fc.constantFrom('2', '5', null, undefined),
        fc.constantFrom(...CAPABILITIES),
        (permissions, userVariant, capability) => {
          expect(can({ permissions: [...permissions, 'ADMIN'], userVariant }, capability)).toBe(true);
        },
      ),
    ));
});

describe('extra flags', () => {
  it.each([
    ['held through secretPermissions', subject([], ['OTA_UPDATE']), 'OTA_UPDATE', true],
    ['not held without it', subject(['VIEW_DASH'], ['BREW_DELETE']), 'OTA_UPDATE', false],
    ['held by ADMIN', subject(['ADMIN']), 'MOSNIX_BROADCAST_SPRAY', true],
    ['not held by a missing list', { permissions: ['VIEW_DASH'] as Permission[] }, 'ADV_DEVICE_INFO', false],
  ] as const)('%s', (_label, who, flag, expected) => expect(holdsFlag(who, flag)).toBe(expected));
});

describe('dashboard access', () => {
  it.each([
    ['variant 2 with VIEW_ACCOUNTS', ['VIEW_ACCOUNTS'], '2', true],
    ['variant 2 with VIEW_DASH only', ['VIEW_DASH'], '2', false],
    ['variant 2 with both', ['VIEW_DASH', 'VIEW_ACCOUNTS'], '2', true],
    ['variant 5 with VIEW_DASH', ['VIEW_DASH'], '5', true],
    ['variant 5 with VIEW_ACCOUNTS', ['VIEW_ACCOUNTS'], '5', true],
    ['no variant with VIEW_DASH', ['VIEW_DASH'], undefined, true],
    ['no variant with VIEW_ACCOUNTS', ['VIEW_ACCOUNTS'], undefined, true],
    ['no variant with reports only', ['READ_REPORTS', 'ALARM'], undefined, false],
    ['variant 2 with nothing', [], '2', false],
    ['variant 2 as ADMIN', ['ADMIN'], '2', true],
  ] as const)('%s -> %s', (_label, permissions, userVariant, expected) =>
    expect(can(subject([...permissions], [], userVariant), 'accessDashboard')).toBe(expected),
  );
});

describe('can', () => {
  it.each<[Capability, Permission[], ExtraFlag[], boolean]>([
    ['viewDashboard', ['VIEW_DASH'], [], true],
    ['viewDashboard', ['VIEW_ACCOUNTS'], [], false],
    ['editScenes', ['VIEW_DASH', 'ADD_EDIT_DELETE_SCENES'], [], true],
    ['editScenes', ['ADD_EDIT_DELETE_SCENES'], [], false],
    ['editWidgets', ['VIEW_DASH', 'ADD_EDIT_DELETE_WIDGETS'], [], true],
    ['editWidgets', ['VIEW_DASH', 'ADD_EDIT_DELETE_SCENES'], [], false],
    ['viewAccounts', ['VIEW_ACCOUNTS'], [], true],
    ['editGroups', ['VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS'], [], true],
    ['editGroups', ['ADD_EDIT_DELETE_GROUPS'], [], false],
    ['inviteUsers', ['VIEW_ACCOUNTS', 'INVITE_USERS'], [], true],
    ['inviteUsers', ['INVITE_USERS'], [], false],
    ['editUsers', ['VIEW_ACCOUNTS', 'EDIT_DELETE_USERS'], [], true],
    ['editUsers', ['VIEW_ACCOUNTS'], [], false],
    ['addDevices', ['ADD_DEVICES'], [], true],
    ['addDevices', ['VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS'], [], false],
    ['respondToAlarms', ['ALARM'], [], true],
    ['readReports', ['READ_REPORTS'], [], true],
    ['editReports', ['READ_REPORTS', 'CUD_REPORTS'], [], true],
    ['editReports', ['CUD_REPORTS'], [], false],
    ['readReportSchedules', ['READ_REPORTS', 'READ_REPORT_SCHEDULES'], [], true],
    ['editReportSchedules', ['READ_REPORTS', 'CUD_REPORT_SCHEDULES'], [], true],
    ['editReportSchedules', ['CUD_REPORT_SCHEDULES', 'READ_REPORT_SCHEDULES'], [], false],
    ['reporting', ['REPORTING'], [], true],
    ['reportingPlus', ['REPORTING', 'REPORTING_PLUS'], [], true],
    ['reportingPlus', ['REPORTING_PLUS'], [], false],
    ['endBrew', ['END_BREW'], [], true],
    ['editBrewInfo', ['EDIT_BREW_INFO'], [], true],
    ['editBrewInfo', ['END_BREW'], [], false],
    ['submitOta', [], ['OTA_UPDATE'], true],
    ['submitOta', ['VIEW_DASH'], [], false],
    ['viewAdvancedDeviceInfo', [], ['ADV_DEVICE_INFO'], true],
    ['deleteBrew', [], ['BREW_DELETE'], true],
    ['calibrateCo2TotalGain', [], ['BREW_CALIB_CO2_TOTAL_GAIN'], true],
    ['broadcastSpray', [], ['MOSNIX_BROADCAST_SPRAY'], true],
    ['broadcastSpray', [], ['OTA_UPDATE'], false],
    ['viewDevicePlan', ['VIEW_DASH', 'VIEW_ACCOUNTS'], ['OTA_UPDATE'], false],
    ['viewDevicePlan', [], ['ADMIN'], true],
    ['viewPendingOta', [], ['OTA_UPDATE'], false],
    ['viewPendingOta', ['ADMIN'], [], true],
    ['readAuditLog', ['VIEW_ACCOUNTS', 'EDIT_DELETE_USERS', 'ADD_EDIT_DELETE_GROUPS'], ['OTA_UPDATE'], false],
    ['readAuditLog', [], ['ADMIN'], true],
    ['readAuditLog', ['ADMIN'], [], true],
    [
      'manageWebhooks',
      ['VIEW_ACCOUNTS', 'EDIT_DELETE_USERS', 'ADD_EDIT_DELETE_GROUPS', 'ALARM'],
      ['OTA_UPDATE'],
      false,
    ],
    ['manageWebhooks', [], ['ADMIN'], true],
    ['manageWebhooks', ['ADMIN'], [], true],
    ['requireSecondFactor', ['VIEW_ACCOUNTS', 'EDIT_DELETE_USERS', 'ADD_EDIT_DELETE_GROUPS'], ['OTA_UPDATE'], false],
    ['requireSecondFactor', [], ['ADMIN'], true],
    ['requireSecondFactor', ['ADMIN'], [], true],
    ['manageOnCallRota', ['VIEW_ACCOUNTS', 'EDIT_DELETE_USERS', 'ALARM'], ['OTA_UPDATE'], false],
    ['manageOnCallRota', ['ADMIN'], [], true],
    ['chooseOwnNotifications', [], [], true],
    ['muteOwnDevices', [], [], true],
    ['configureDevices', ['VIEW_DASH'], [], false],
    ['configureDevices', ['ADD_DEVICES'], [], true],
    ['configureDevices', ['VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS'], [], true],
    ['configureDevices', ['ADD_EDIT_DELETE_GROUPS'], [], false],
    ['configureAlarms', ['VIEW_DASH'], [], false],
    ['configureAlarms', ['ALARM'], [], true],
    ['loadStoreStock', ['VIEW_ACCOUNTS'], [], true],
    ['loadStoreStock', ['VIEW_DASH'], [], true],
    ['loadStoreStock', ['READ_REPORTS', 'REPORTING', 'REPORTING_PLUS'], [], false],
    ['configureAlarms', ['ADD_DEVICES'], [], true],
    ['configureAlarms', ['VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS'], [], true],
  ])('%s with %j %j -> %s', (capability, permissions, flags, expected) =>
    expect(can(subject(permissions, flags), capability)).toBe(expected),
  );

  it('takes from a monitor-only user exactly what operates a device, and keeps all the rest', () => {
    const everything = subject(['ADMIN'], ['ADMIN']);
    const watcher = { ...everything, monitorOnly: true };
    expect(CAPABILITIES.filter((capability) => can(everything, capability) && !can(watcher, capability))).toEqual([
      'operateOutputs',
      'calibrateCo2TotalGain',
      'calibrateTankLevel',
      'broadcastSpray',
    ]);
  });

  it.each<[Capability, Permission[], ExtraFlag[], boolean]>([
    ['calibrateTankLevel', ['EDIT_BREW_INFO'], [], true],
    ['calibrateTankLevel', ['END_BREW'], [], false],
    ['operateOutputs', ['VIEW_DASH'], [], true],
  ])('%s with %j %j -> %s', (capability, permissions, flags, expected) =>
    expect(can(subject(permissions, flags), capability)).toBe(expected),
  );

  it.each<[Capability, Permission[], ExtraFlag[], boolean | undefined, boolean]>([
    ['broadcastSpray', ['VIEW_DASH'], ['MOSNIX_BROADCAST_SPRAY'], true, true],
    ['broadcastSpray', ['VIEW_DASH'], [], true, false],
    ['broadcastSpray', ['VIEW_DASH'], ['MOSNIX_BROADCAST_SPRAY'], false, false],
    ['operateOutputs', ['VIEW_DASH'], [], true, true],
    ['operateOutputs', ['VIEW_ACCOUNTS'], [], true, false],
    ['viewDashboard', ['VIEW_DASH'], [], true, false],
  ])(
    '%s with %j %j, monitor-only %s: refused as monitor-only -> %s',
    (capability, permissions, flags, monitorOnly, expected) =>
      expect(refusedAsMonitorOnly({ ...subject(permissions, flags), monitorOnly }, capability)).toBe(expected),
  );

  it('grants nothing but muting, choosing its notifications and managing its own credentials to a user without permissions', () => {
    const nobody = subject([]);
    // Sending device commands is held by all but read-only tokens; every command also needs
    // dashboard access (device-actions.ts), so alone it reaches no device.
    expect(CAPABILITIES.filter((capability) => can(nobody, capability))).toEqual([
      'chooseOwnNotifications',
      'muteOwnDevices',
      'sendDeviceCommands',
      'manageOwnCredentials',
    ]);
  });
});

describe('effectivePermissions', () => {
  const point = (permissions: Permission[], secretPermissions: ExtraFlag[] = []) => ({
    path: './a',
    permissions,
    secretPermissions,
    appType: 'default',
  });
  it.each([
    ['no linked accounts', [], [], []],
    [
      'the first point of the first account',
      [{ attachmentPoints: [point(['VIEW_DASH'], ['OTA_UPDATE']), point(['ADMIN'])] }],
      ['VIEW_DASH'],
      ['OTA_UPDATE'],
    ],
    [
      'not the second account',
      [{ attachmentPoints: [point(['ALARM'])] }, { attachmentPoints: [point(['ADMIN'])] }],
      ['ALARM'],
      [],
    ],
    [
      'passing over an account without points',
      [{ attachmentPoints: [] }, { attachmentPoints: [point(['READ_REPORTS'])] }],
      ['READ_REPORTS'],
      [],
    ],
    [
      'a point without secret permissions',
      [{ attachmentPoints: [{ permissions: ['VIEW_DASH'] as Permission[] }] }],
      ['VIEW_DASH'],
      [],
    ],
  ])('%s', (_label, linkedAccounts, permissions, secretPermissions) =>
    expect(effectivePermissions(linkedAccounts)).toEqual({ permissions, secretPermissions }),
  );

  it('returns copies, not the stored lists', () => {
    const stored: Permission[] = ['VIEW_DASH'];
    const result = effectivePermissions([{ attachmentPoints: [{ permissions: stored }] }]);
    result.permissions.push('ADMIN');
    expect(stored).toEqual(['VIEW_DASH']);
  });
});

describe('canGrant', () => {
  const manager = subject(['VIEW_ACCOUNTS', 'INVITE_USERS', 'VIEW_DASH', 'ADD_EDIT_DELETE_SCENES'], ['OTA_UPDATE']);
  it.each<[string, PermissionSubject, Permission[], ExtraFlag[], boolean]>([
    ['what it holds', manager, ['VIEW_DASH', 'INVITE_USERS'], [], true],
    ['nothing', manager, [], [], true],
    ['a flag it holds', manager, [], ['OTA_UPDATE'], true],
    ['a permission it lacks', manager, ['VIEW_DASH', 'READ_REPORTS'], [], false],
    ['ADMIN without being admin', manager, ['ADMIN'], [], false],
    ['a flag it lacks', manager, [], ['BREW_DELETE'], false],
    ['ADMIN as a flag without being admin', manager, [], ['ADMIN'], false],
    [
      'a sub-permission whose parent it lacks',
      subject(['ADD_EDIT_DELETE_GROUPS']),
      ['ADD_EDIT_DELETE_GROUPS'],
      [],
      false,
    ],
    ['anything, as admin', subject(['ADMIN']), [...PERMISSIONS], [...EXTRA_FLAGS], true],
  ])('%s -> %s', (_label, granter, permissions, secretPermissions, expected) =>
    expect(canGrant(granter, { permissions, secretPermissions })).toBe(expected),
  );

  it('allows exactly the permissions held', () =>
    fc.assert(
      fc.property(fc.subarray([...PERMISSIONS]), fc.constantFrom(...PERMISSIONS), (permissions, extra) => {
        const granter = subject(permissions);
        expect(canGrant(granter, { permissions: heldPermissions(granter) })).toBe(true);
        expect(canGrant(granter, { permissions: [extra] })).toBe(holdsPermission(granter, extra));
      }),
    ));
});

describe('landingAfterDeviceRead', () => {
  it.each([
    [['VIEW_DASH', 'VIEW_ACCOUNTS'], 'dash'],
    [['VIEW_DASH'], 'dash'],
    [['VIEW_ACCOUNTS'], 'accounts'],
    [['READ_REPORTS'], null],
    [['ADMIN'], 'dash'],
  ] as const)('%j -> %j', (permissions, expected) =>
    expect(landingAfterDeviceRead(subject([...permissions]))).toBe(expected),
  );
});

describe('API tokens (issue 38 item 3)', () => {
  const CAPABILITIES = Object.keys(CAPABILITY_RULES) as Capability[];
  const admin = subject(['ADMIN']);
  // Capabilities only a signed-in session holds: a token must not change how its owner signs in.
  const SESSION_ONLY: readonly Capability[] = ['manageOwnCredentials', 'requireSecondFactor'];

  it.each(CAPABILITIES)(
    'a read-write token of an administrator holds %s as its owner does, but for managing credentials',
    (capability) => {
      const owner = can(admin, capability);
      expect(can({ ...admin, apiToken: 'readWrite' }, capability)).toBe(
        SESSION_ONLY.includes(capability) ? false : owner,
      );
    },
  );

  it.each(CAPABILITIES)('a read-only token of an administrator holds %s only when it changes nothing', (capability) => {
    expect(can({ ...admin, apiToken: 'readOnly' }, capability)).toBe(READING_CAPABILITIES.has(capability));
    expect(refusedAsReadOnlyToken({ ...admin, apiToken: 'readOnly' }, capability)).toBe(
      !READING_CAPABILITIES.has(capability) && !SESSION_ONLY.includes(capability),
    );
  });

  it('never holds more than its owner', () =>
    fc.assert(
      fc.property(
        fc.subarray([...PERMISSIONS]),
        fc.subarray([...EXTRA_FLAGS]),
        fc.boolean(),
        fc.constantFrom('readOnly' as const, 'readWrite' as const),
        fc.constantFrom(...CAPABILITIES),
        (permissions, secretPermissions, monitorOnly, apiToken, capability) => {
          const owner = { permissions, secretPermissions, monitorOnly };
          if (can({ ...owner, apiToken }, capability)) expect(can(owner, capability)).toBe(true);
        },
      ),
    ));

  it.each([
    ['a signed-in session', undefined, true],
    ['a read-write token', 'readWrite', false],
    ['a read-only token', 'readOnly', false],
  ] as const)('%s may manage tokens and sessions: %s', (_name, apiToken, expected) => {
    expect(can({ ...subject([]), apiToken }, 'manageOwnCredentials')).toBe(expected);
  });
});
