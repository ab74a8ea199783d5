import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS, holdsPermission, type ExtraFlag, type Permission, type PermissionSubject } from './permissions';
import {
  mergeSignedInUser,
  INVITATION_TTL_MS,
  inviteRefusal,
  isStaleUserAnswer,
  isStaleUserUpdate,
  parseUserUpdateId,
  permissionsMissingParent,
  userEditRefusal,
  userMoveRefusal,
  userUpdateId,
  type UserPropsChange,
} from './user-rules';

const who = (permissions: Permission[], secretPermissions: ExtraFlag[] = []): PermissionSubject => ({
  permissions,
  secretPermissions,
});
const ADMIN = who(['ADMIN']);
const MANAGER = who(['VIEW_ACCOUNTS', 'INVITE_USERS', 'EDIT_DELETE_USERS', 'VIEW_DASH', 'ALARM'], ['OTA_UPDATE']);
const INVITER = who(['VIEW_ACCOUNTS', 'INVITE_USERS', 'VIEW_DASH']);
const VIEWER = who(['VIEW_DASH']);

describe('permissionsMissingParent', () => {
  it.each<[Permission[], Permission[]]>([
    [['VIEW_DASH', 'ADD_EDIT_DELETE_SCENES'], []],
    [['ADD_EDIT_DELETE_SCENES'], ['ADD_EDIT_DELETE_SCENES']],
    [['INVITE_USERS', 'EDIT_DELETE_USERS', 'VIEW_ACCOUNTS'], []],
    [['REPORTING_PLUS'], ['REPORTING_PLUS']],
    [['ADMIN', 'REPORTING_PLUS'], []],
    [
      ['CUD_REPORTS', 'READ_REPORT_SCHEDULES'],
      ['CUD_REPORTS', 'READ_REPORT_SCHEDULES'],
    ],
    [[], []],
  ])('%j -> %j', (permissions, orphans) => expect(permissionsMissingParent(permissions)).toEqual(orphans));
});

describe('inviteRefusal', () => {
  it.each<[string, PermissionSubject, Permission[], ExtraFlag[], number | null]>([
    ['an admin, anything', ADMIN, ['ADMIN'], ['OTA_UPDATE'], null],
    ['an inviter, what it holds', INVITER, ['VIEW_DASH', 'VIEW_ACCOUNTS'], [], null],
    ['an inviter, nothing at all', INVITER, [], [], null],
    ['an inviter, invite rights it holds', INVITER, ['VIEW_ACCOUNTS', 'INVITE_USERS'], [], null],
    ['an inviter, a permission it lacks', INVITER, ['VIEW_DASH', 'ALARM'], [], 403],
    ['an inviter, ADMIN', INVITER, ['ADMIN'], [], 403],
    ['an inviter, a flag it lacks', INVITER, [], ['OTA_UPDATE'], 403],
    ['a manager, a flag it holds', MANAGER, ['VIEW_DASH'], ['OTA_UPDATE'], null],
    ['an inviter, a child without its parent', INVITER, ['INVITE_USERS'], [], 400],
    ['a viewer (no INVITE_USERS)', VIEWER, ['VIEW_DASH'], [], 403],
    ['INVITE_USERS without VIEW_ACCOUNTS', who(['INVITE_USERS', 'VIEW_DASH']), ['VIEW_DASH'], [], 403],
  ])('%s -> %j', (_label, inviter, permissions, secretPermissions, status) =>
    expect(inviteRefusal(inviter, { permissions, secretPermissions })?.status ?? null).toBe(status),
  );

  it.each<[string, PermissionSubject, boolean | undefined, number | null]>([
    ['an inviter makes a monitor-only user', INVITER, true, null],
    ['a monitor-only inviter makes a monitor-only user', { ...INVITER, monitorOnly: true }, true, null],
    ['a monitor-only inviter makes an operator', { ...INVITER, monitorOnly: true }, false, 403],
    ['a monitor-only inviter, unmarked', { ...INVITER, monitorOnly: true }, undefined, 403],
  ])('%s -> %j', (_label, inviter, monitorOnly, status) =>
    expect(inviteRefusal(inviter, { permissions: ['VIEW_DASH'], monitorOnly })?.status ?? null).toBe(status),
  );

  it('names the missing parent', () =>
    expect(inviteRefusal(INVITER, { permissions: ['INVITE_USERS'] })?.message).toBe(
      '“Invite users” needs “View accounts”.',
    ));

  it('never lets an inviter grant what it does not hold', () =>
    fc.assert(
      fc.property(fc.subarray([...PERMISSIONS]), fc.subarray([...PERMISSIONS]), (held, granted) => {
        const inviter = who(held);
        const refusal = inviteRefusal(inviter, { permissions: granted });
        if (refusal === null) for (const name of granted) expect(holdsPermission(inviter, name)).toBe(true);
      }),
    ));

  it('keeps invitations for a week', () => expect(INVITATION_TTL_MS).toBe(604_800_000));
});

describe('userEditRefusal', () => {
  const target: { permissions: Permission[]; secretPermissions: ExtraFlag[]; monitorOnly?: boolean } = {
    permissions: ['VIEW_DASH'],
    secretPermissions: [],
  };
  const adminTarget = { permissions: ['ADMIN'] as Permission[], secretPermissions: [] as ExtraFlag[] };
  it.each<[string, PermissionSubject, typeof target, boolean, UserPropsChange, number | null]>([
    ['self: theme', VIEWER, target, true, { theme: 'DARK' }, null],
    ['self: muted devices', VIEWER, target, true, { mutedDevices: ['T1'] }, null],
    ['self: name', VIEWER, target, true, { firstName: 'Vi' }, null],
    ['self: own permissions', VIEWER, target, true, { permissions: ['ADMIN'] }, 403],
    ['self as admin: own permissions', ADMIN, adminTarget, true, { permissions: ['VIEW_DASH'] }, 403],
    ['other: theme', ADMIN, target, false, { theme: 'DARK' }, 403],
    ['other: muted devices', ADMIN, target, false, { mutedDevices: [] }, 403],
    ['self: clock', VIEWER, target, true, { timeZone: 'Europe/London', hourCycle: '24', dateOrder: 'dmy' }, null],
    ["self: clock back to the browser's", VIEWER, target, true, { timeZone: null, hourCycle: null }, null],
    ['self: an unknown time zone', VIEWER, target, true, { timeZone: 'Mars/Olympus' }, 400],
    ['other: time zone', ADMIN, target, false, { timeZone: 'Europe/London' }, 403],
    ['other: date order', ADMIN, target, false, { dateOrder: 'mdy' }, 403],
    ['other: name, with EDIT_DELETE_USERS', MANAGER, target, false, { lastName: 'X' }, null],
    ['other: name, without EDIT_DELETE_USERS', INVITER, target, false, { lastName: 'X' }, 403],
    ['other: grant what the editor holds', MANAGER, target, false, { permissions: ['VIEW_DASH', 'ALARM'] }, null],
    ['other: grant what the editor lacks', MANAGER, target, false, { permissions: ['READ_REPORTS'] }, 403],
    ['other: grant a flag the editor holds', MANAGER, target, false, { secretPermissions: ['OTA_UPDATE'] }, null],
    ['other: grant a flag the editor lacks', MANAGER, target, false, { secretPermissions: ['BREW_DELETE'] }, 403],
    ['other: a child without its parent', MANAGER, target, false, { permissions: ['EDIT_DELETE_USERS'] }, 400],
    ['other: an admin, as a manager', MANAGER, adminTarget, false, { lastName: 'X' }, 403],
    ['other: an admin, as an admin', ADMIN, adminTarget, false, { permissions: ['VIEW_DASH'] }, null],
    ['other: make monitor-only', MANAGER, target, false, { monitorOnly: true }, null],
    ['other: make monitor-only, without EDIT_DELETE_USERS', INVITER, target, false, { monitorOnly: true }, 403],
    ['self: own monitor-only mark', VIEWER, target, true, { monitorOnly: false }, 403],
    [
      'other: a monitor-only editor frees a user',
      { ...MANAGER, monitorOnly: true },
      target,
      false,
      { monitorOnly: false },
      403,
    ],
    [
      'other: a monitor-only editor, an operator',
      { ...MANAGER, monitorOnly: true },
      target,
      false,
      { lastName: 'X' },
      403,
    ],
    [
      'other: a monitor-only editor, a monitor-only user',
      { ...MANAGER, monitorOnly: true },
      { ...target, monitorOnly: true },
      false,
      { lastName: 'X' },
      null,
    ],
    [
      'other: take permissions away',
      MANAGER,
      who(['VIEW_DASH', 'ALARM']) as typeof target,
      false,
      { permissions: [] },
      null,
    ],
  ])('%s -> %j', (_label, editor, current, isSelf, change, status) =>
    expect(userEditRefusal(editor, current, isSelf, change)?.status ?? null).toBe(status),
  );
});

describe('userMoveRefusal', () => {
  const MOVER = who(['VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS', 'VIEW_DASH']);
  it.each<[string, PermissionSubject, Permission[], boolean, number | null]>([
    ['a group editor moves a viewer', MOVER, ['VIEW_DASH'], false, null],
    ['a group editor moves a user with nothing', MOVER, [], false, null],
    ['a group editor moves an admin', MOVER, ['ADMIN'], false, 403],
    ['a group editor moves an alarm responder it is not', MOVER, ['ALARM'], false, 403],
    ['a group editor moves itself', MOVER, ['VIEW_DASH'], true, 403],
    ['an admin moves an admin', ADMIN, ['ADMIN'], false, null],
    ['without group edit', INVITER, ['VIEW_DASH'], false, 403],
  ])('%s -> %j', (_label, mover, permissions, isSelf, status) =>
    expect(userMoveRefusal(mover, { permissions }, isSelf)?.status ?? null).toBe(status),
  );
});

describe('mergeSignedInUser (§3)', () => {
  const tree = [
    { email: 'ops@acme.test', firstName: 'Olive', lastName: 'Ops' },
    { email: 'viewer@acme.test', firstName: 'Vic', lastName: 'Viewer' },
  ];
  it.each([
    {
      name: 'fills missing names from the record with the same e-mail, any case',
      user: { email: ' Ops@ACME.test ', firstName: '', lastName: ' ' },
      merged: { email: ' Ops@ACME.test ', firstName: 'Olive', lastName: 'Ops' },
    },
    {
      name: 'keeps the user’s own names',
      user: { email: 'ops@acme.test', firstName: 'Olivia', lastName: '' },
      merged: { email: 'ops@acme.test', firstName: 'Olivia', lastName: 'Ops' },
    },
    {
      name: 'no matching record: unchanged',
      user: { email: 'new@acme.test', firstName: '', lastName: '' },
      merged: { email: 'new@acme.test', firstName: '', lastName: '' },
    },
  ])('$name', ({ user, merged }) => expect(mergeSignedInUser(user, tree)).toEqual(merged));

  it('keeps the user’s other fields', () => {
    expect(mergeSignedInUser({ email: 'ops@acme.test', firstName: '', lastName: '', theme: 'DARK' }, tree)).toEqual({
      email: 'ops@acme.test',
      firstName: 'Olive',
      lastName: 'Ops',
      theme: 'DARK',
    });
  });
});

describe('user update ids', () => {
  it('builds and parses', () => {
    expect(userUpdateId('tab1', 4)).toBe('tab1:4');
    expect(parseUserUpdateId('tab1:4')).toEqual({ series: 'tab1', sequence: 4 });
  });
  it.each(['', 'tab1', 'tab 1:2', 'a:b', ':3', 'a:1:2'])('refuses %j', (id) =>
    expect(parseUserUpdateId(id)).toBeNull(),
  );

  it.each<[string | null, string | null | undefined, boolean]>([
    [null, 'a:1', false],
    ['a:1', null, false],
    ['a:1', 'a:2', false],
    ['a:2', 'a:2', true],
    ['a:3', 'a:2', true],
    ['a:10', 'a:9', true],
    ['a:3', 'b:1', false],
    ['bad', 'a:1', false],
  ])('server: stored %j, incoming %j -> stale %s', (latest, incoming, stale) =>
    expect(isStaleUserUpdate(latest, incoming)).toBe(stale),
  );

  it.each<[string | null, string | null, boolean]>([
    ['a:2', 'a:2', false],
    ['a:2', 'a:1', true],
    ['a:2', null, true],
    [null, 'a:1', false],
    [null, null, false],
  ])('client: latest sent %j, answer %j -> stale %s', (latest, answer, stale) =>
    expect(isStaleUserAnswer(latest, answer)).toBe(stale),
  );
});
