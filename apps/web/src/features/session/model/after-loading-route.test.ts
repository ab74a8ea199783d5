import { describe, expect, it } from 'vitest';
import type { Account, GroupNode, TreeDevice } from '@fieldlink/api/account';
import type { AttachmentPoint, SelfAnswer } from '@fieldlink/api/session';
import type { Capability, ExtraFlag, Permission } from '@fieldlink/domain/permissions';
import type { SessionState } from '../../../lib/app-store/app-store';
import { permissionSubject } from '../../../lib/session/permission-subject';
import { treeAccount, treeDevice, treeGroup } from '../../../lib/tree-fixtures';
import { sessionCan, sessionDeviceActionRefusal } from '../../../lib/session/session-capabilities';
import { routeAfterLoading, summariseSession } from './after-loading-route';

const device = (thingName: string): TreeDevice => treeDevice(`id-${thingName}`, { name: thingName, thingName });

const group = (id: string, devices: TreeDevice[], groups: GroupNode[] = [], kind: GroupNode['kind'] = 'group') =>
  treeGroup(id, { kind, relativePath: './', groups, devices, deviceIds: devices.map((d) => d.id) });

const account = (userVariant: string | null, root: GroupNode, appType = 'default'): Account =>
  treeAccount(root, { userVariant, appType });

const self = (...points: (Pick<AttachmentPoint, 'permissions'> & Partial<AttachmentPoint>)[]): SelfAnswer => ({
  id: 'u1',
  email: 'a@b.c',
  firstName: 'A',
  monitorOnly: false,
  lastName: 'B',
  theme: null,
  timeZone: null,
  hourCycle: null,
  dateOrder: null,
  linkedAccounts: [
    {
      accountId: 'acc1',
      attachmentPoints: points.map((p) => ({ path: './', secretPermissions: [], appType: 'default', ...p })),
    },
  ],
});

// Trash first and empty groups on the way: the first device is found depth-first, trash skipped.
const tree = group(
  'root',
  [],
  [group('trash', [device('TRASHED_1')], [], 'trash'), group('empty', []), group('north', [device('PUMP_7')])],
  'root',
);

describe('routeAfterLoading', () => {
  it.each([
    { name: 'VIEW_DASH to the first device', permissions: ['VIEW_DASH'], variant: null, expected: '/dash/PUMP_7' },
    { name: 'ADMIN implies VIEW_DASH', permissions: ['ADMIN'], variant: null, expected: '/dash/PUMP_7' },
    {
      name: 'VIEW_ACCOUNTS only to the tree',
      permissions: ['VIEW_ACCOUNTS'],
      variant: null,
      expected: '/accounts/treeview',
    },
    {
      name: 'no dashboard permission denied',
      permissions: ['READ_REPORTS'],
      variant: null,
      expected: '/dashAccessDeny',
    },
    { name: 'variant 2 needs VIEW_ACCOUNTS', permissions: ['VIEW_DASH'], variant: '2', expected: '/dashAccessDeny' },
    {
      name: 'variant 2 with VIEW_ACCOUNTS',
      permissions: ['VIEW_ACCOUNTS'],
      variant: '2',
      expected: '/accounts/treeview',
    },
    { name: 'variant 5 with VIEW_DASH', permissions: ['VIEW_DASH'], variant: '5', expected: '/dash/PUMP_7' },
  ] as const)('$name', ({ permissions, variant, expected }) => {
    expect(routeAfterLoading(self({ permissions: [...permissions] }), [account(variant, tree)], null)).toBe(expected);
  });

  it.each([
    { appType: 'brew', permissions: ['ADMIN'], variant: '5', subdomain: '', expected: '/brew/summary/north' },
    { appType: 'brew', permissions: ['VIEW_ACCOUNTS'], variant: '5', subdomain: '', expected: '/accounts/treeview' },
    { appType: 'stock', permissions: ['VIEW_ACCOUNTS'], variant: '2', subdomain: '', expected: '/inv/cig' },
    { appType: 'spray', permissions: ['VIEW_DASH'], variant: '5', subdomain: '', expected: '/spray/root' },
    { appType: 'filtec', permissions: ['ADMIN'], variant: '5', subdomain: '', expected: '/dash/PUMP_7' },
    { appType: 'filtec moe', permissions: ['VIEW_DASH'], variant: '5', subdomain: '', expected: '/dash/PUMP_7' },
    { appType: 'default', permissions: ['ADMIN'], variant: '5', subdomain: 'brew', expected: '/brew/summary/north' },
    { appType: 'brew', permissions: ['ADMIN'], variant: '5', subdomain: 'filtec', expected: '/dash/PUMP_7' },
  ] as const)(
    'lands the $appType app with $permissions on $subdomain at $expected',
    ({ appType, permissions, variant, subdomain, expected }) => {
      const accounts = [account(variant, tree, appType)];
      expect(routeAfterLoading(self({ permissions: [...permissions] }), accounts, null, subdomain)).toBe(expected);
    },
  );

  it('lands a water-plant app on the first device with a plant dashboard, other apps on the first device', () => {
    const plant = { ...device('PLANT_2'), tags: [{ key: 'filtecMoeConfig', value: 'waterTank' }] };
    const plants = group('root', [], [group('bores', [device('BORE_1')]), group('plants', [plant])], 'root');
    const moe = [account('5', { ...plants, appType: 'filtec moe' }, 'filtec moe')];
    const withAppType = (root: GroupNode, appType: string): GroupNode => ({
      ...root,
      appType,
      groups: root.groups.map((child) => withAppType(child, appType)),
    });
    moe[0]!.rootGroup = withAppType(plants, 'filtec moe');
    expect(routeAfterLoading(self({ permissions: ['VIEW_DASH'] }), moe, null)).toBe('/dash/PLANT_2');
    // The filtec tag on a filtec moe plant is not its configuration tag.
    const filtec = [account('5', withAppType(plants, 'filtec'), 'filtec')];
    expect(routeAfterLoading(self({ permissions: ['VIEW_DASH'] }), filtec, null)).toBe('/dash/BORE_1');
    // A supplier's administrator (default app) lands on the first device, not on a customer's plant.
    const supplier = [account(null, withAppType(plants, 'filtec moe'), 'default')];
    expect(routeAfterLoading(self({ permissions: ['ADMIN'] }), supplier, null)).toBe('/dash/BORE_1');
  });

  it('uses only the first attachment point', () => {
    const user = self({ permissions: ['READ_REPORTS'] }, { permissions: ['ADMIN'] });
    expect(routeAfterLoading(user, [account(null, tree)], null)).toBe('/dashAccessDeny');
  });

  it('opens the remembered path once access is granted', () => {
    const accounts = [account(null, tree)];
    expect(routeAfterLoading(self({ permissions: ['VIEW_DASH'] }), accounts, '/reports?x=1')).toBe('/reports?x=1');
    expect(routeAfterLoading(self({ permissions: [] }), accounts, '/reports')).toBe('/dashAccessDeny');
  });

  it.each([
    ['the device last opened', 'NORTH_2', '/dash/NORTH_2'],
    ['the first device when the last one is gone', 'SOLD_9', '/dash/PUMP_7'],
    ['the first device when the last one is in the trash', 'TRASHED_1', '/dash/PUMP_7'],
    ['the first device when none was opened', null, '/dash/PUMP_7'],
  ])('lands on %s', (_name, lastDevice, expected) => {
    const withTwo = group(
      'root',
      [],
      [group('trash', [device('TRASHED_1')], [], 'trash'), group('north', [device('PUMP_7'), device('NORTH_2')])],
      'root',
    );
    const accounts = [account(null, withTwo)];
    expect(routeAfterLoading(self({ permissions: ['VIEW_DASH'] }), accounts, null, '', lastDevice)).toBe(expected);
  });

  it('falls back to the device picker when the account has no device', () => {
    expect(
      routeAfterLoading(self({ permissions: ['VIEW_DASH'] }), [account(null, group('root', [], [], 'root'))], null),
    ).toBe('/dash');
  });

  it('summarises view-dashboard for the real-time subscriptions', () => {
    const accounts = [account(null, tree)];
    expect(summariseSession(permissionSubject(self({ permissions: ['VIEW_ACCOUNTS'] }), accounts)).canViewDash).toBe(
      false,
    );
    expect(summariseSession(permissionSubject(self({ permissions: ['ADMIN'] }), accounts))).toMatchObject({
      canViewDash: true,
      isAdmin: true,
    });
  });

  it('carries the extra flags of the first attachment point, so flag capabilities can be checked', () => {
    const accounts = [account(null, tree)];
    const sprayer = self({ permissions: ['VIEW_DASH'], secretPermissions: ['MOSNIX_BROADCAST_SPRAY'] });
    expect(summariseSession(permissionSubject(sprayer, accounts))).toMatchObject({
      permissions: ['VIEW_DASH'],
      flags: ['MOSNIX_BROADCAST_SPRAY'],
      isAdmin: false,
    });
    expect(summariseSession(permissionSubject(self({ permissions: ['VIEW_DASH'] }), accounts)).flags).toEqual([]);
  });

  const sessionOf = (...points: Parameters<typeof self>): SessionState => ({
    email: null,
    displayName: null,
    ...summariseSession(permissionSubject(self(...points), [account(null, tree)])),
    appType: 'brew',
    account: null,
    clock: { timeZone: null, hourCycle: null, dateOrder: null },
  });

  // The brewing capabilities (§6): two from permissions, two from extra flags; the console's useCan
  // answers from the session the loading screen summarised.
  it.each<{ capability: Capability; permissions: Permission[]; flags: ExtraFlag[] }>([
    { capability: 'endBrew', permissions: ['VIEW_DASH', 'END_BREW'], flags: [] },
    { capability: 'editBrewInfo', permissions: ['VIEW_DASH', 'EDIT_BREW_INFO'], flags: [] },
    { capability: 'deleteBrew', permissions: ['VIEW_DASH'], flags: ['BREW_DELETE'] },
    { capability: 'calibrateCo2TotalGain', permissions: ['VIEW_DASH'], flags: ['BREW_CALIB_CO2_TOTAL_GAIN'] },
  ])(
    'lets the console offer $capability to a user granted it, and to nobody else',
    ({ capability, permissions, flags }) => {
      const granted = { permissions, secretPermissions: flags };
      expect(sessionCan(sessionOf(granted), capability)).toBe(true);
      expect(sessionCan(sessionOf({ permissions: ['VIEW_DASH'] }), capability)).toBe(false);
      // Granted on a later attachment point only, it does not count (§6: the first one's permissions).
      expect(sessionCan(sessionOf({ permissions: ['VIEW_DASH'] }, { ...granted, path: './other' }), capability)).toBe(
        false,
      );
      expect(sessionCan(sessionOf({ permissions: ['ADMIN'] }), capability)).toBe(true);
    },
  );

  // The tank view's setpoint and calibration controls are channel writes: the device action table
  // decides, as the server does for the same real-time action; brewing permissions alone do not operate outputs.
  it.each<{ permissions: Permission[]; refusal: string | null }>([
    { permissions: ['END_BREW', 'EDIT_BREW_INFO'], refusal: 'You do not have permission to view dashboards.' },
    { permissions: ['VIEW_DASH'], refusal: null },
    { permissions: ['ADMIN'], refusal: null },
  ])('answers a brew tank setpoint write by $permissions with $refusal', ({ permissions, refusal }) => {
    expect(sessionDeviceActionRefusal(sessionOf({ permissions }), 'writeChannel')).toBe(refusal);
  });
});
