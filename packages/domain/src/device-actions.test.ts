import { describe, expect, it } from 'vitest';
import { DEVICE_ACTION_CAPABILITIES, deviceActionRefusal, readsDevices, type DeviceAction } from './device-actions';
import {
  MONITOR_ONLY_REFUSAL,
  PERMISSIONS,
  READ_ONLY_TOKEN_REFUSAL,
  type ExtraFlag,
  type Permission,
} from './permissions';

const DEVICE_ACTIONS = Object.keys(DEVICE_ACTION_CAPABILITIES) as DeviceAction[];
const NO_DASHBOARD = 'You do not have permission to view dashboards.';
const NO_SETTINGS = 'Changing device settings needs the “Add devices” or “Add, edit and delete groups” permission.';

describe('device actions', () => {
  it('names every device command and subscriptions', () =>
    expect(DEVICE_ACTIONS).toEqual([
      'read',
      'watch',
      'readChannel',
      'readRegister',
      'refreshMetadata',
      'writeChannel',
      'system',
      'writeRegister',
      'timeDate',
      'writeConfig',
    ]));

  it.each(DEVICE_ACTIONS)('%s needs dashboard access first', (action) =>
    expect(DEVICE_ACTION_CAPABILITIES[action][0]).toBe('viewDashboard'),
  );

  it('reads with the rule of watching: one right for reading device data over REST and real time', () => {
    expect(DEVICE_ACTION_CAPABILITIES.read).toEqual(DEVICE_ACTION_CAPABILITIES.watch);
    for (const permission of PERMISSIONS) {
      const subject = { permissions: [permission] };
      expect(readsDevices(subject), permission).toBe(deviceActionRefusal(subject, 'watch') === null);
    }
  });

  it.each<[DeviceAction, Permission[], ExtraFlag[], string | null]>([
    // Reading device data needs the socket's right over REST too (issue 34 item 4).
    ['read', ['VIEW_DASH'], [], null],
    ['read', [], ['ADMIN'], null],
    ['read', ['MOBILE_ONLY'], [], NO_DASHBOARD],
    ['read', ['READ_REPORTS', 'CUD_REPORTS'], [], NO_DASHBOARD],
    ['read', ['ALARM'], [], NO_DASHBOARD],
    ['read', ['VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS', 'ADD_DEVICES'], [], NO_DASHBOARD],
    [
      'read',
      ['REPORTING', 'REPORTING_PLUS', 'END_BREW', 'EDIT_BREW_INFO'],
      ['OTA_UPDATE', 'ADV_DEVICE_INFO'],
      NO_DASHBOARD,
    ],
    ['watch', ['VIEW_DASH'], [], null],
    ['watch', ['VIEW_ACCOUNTS', 'ADD_DEVICES'], [], NO_DASHBOARD],
    ['readChannel', ['VIEW_DASH'], [], null],
    ['readRegister', ['VIEW_DASH'], [], null],
    ['refreshMetadata', ['VIEW_DASH'], [], null],
    // Operating outputs is dashboard work (docs/decisions.md, Hardening).
    ['writeChannel', ['VIEW_DASH'], [], null],
    ['writeChannel', ['VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS'], [], NO_DASHBOARD],
    ['system', ['VIEW_DASH'], [], null],
    ['system', [], [], NO_DASHBOARD],
    // Settings the device keeps need configureDevices as well, like POST /device-config.
    ['writeRegister', ['VIEW_DASH'], [], NO_SETTINGS],
    ['writeRegister', ['VIEW_DASH', 'ALARM', 'ADD_EDIT_DELETE_SCENES', 'ADD_EDIT_DELETE_WIDGETS'], [], NO_SETTINGS],
    ['writeRegister', ['VIEW_DASH', 'ADD_DEVICES'], [], null],
    ['writeRegister', ['VIEW_DASH', 'VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS'], [], null],
    ['writeRegister', ['VIEW_DASH', 'ADD_EDIT_DELETE_GROUPS'], [], NO_SETTINGS],
    ['writeRegister', ['ADD_DEVICES'], [], NO_DASHBOARD],
    ['timeDate', ['VIEW_DASH'], [], NO_SETTINGS],
    ['timeDate', ['VIEW_DASH', 'ADD_DEVICES'], [], null],
    ['timeDate', [], ['ADMIN'], null],
    ['timeDate', ['ADMIN'], [], null],
    ['writeConfig', ['VIEW_DASH'], [], NO_SETTINGS],
    ['writeConfig', ['VIEW_DASH', 'ADD_DEVICES'], [], null],
    ['writeConfig', ['ADD_DEVICES'], [], NO_DASHBOARD],
  ])('%s with %j %j -> %s', (action, permissions, secretPermissions, refusal) =>
    expect(deviceActionRefusal({ permissions, secretPermissions }, action)).toBe(refusal),
  );
});

describe('device actions of a monitor-only user (issue 35)', () => {
  it.each<[DeviceAction, Permission[], ExtraFlag[], string | null]>([
    // It sees every value and chart...
    ['watch', ['VIEW_DASH'], [], null],
    ['readChannel', ['VIEW_DASH'], [], null],
    ['readRegister', ['VIEW_DASH'], [], null],
    ['refreshMetadata', ['VIEW_DASH'], [], null],
    // ...but operates nothing: setpoints, relays and flags, FLASH LED, even as an administrator.
    ['writeChannel', ['VIEW_DASH'], [], MONITOR_ONLY_REFUSAL],
    ['system', ['VIEW_DASH'], [], MONITOR_ONLY_REFUSAL],
    ['writeChannel', ['ADMIN'], [], MONITOR_ONLY_REFUSAL],
    ['system', [], ['ADMIN'], MONITOR_ONLY_REFUSAL],
    // Without dashboard access that is said first.
    ['writeChannel', ['VIEW_ACCOUNTS'], [], NO_DASHBOARD],
    // Settings the device keeps follow their own rule.
    ['writeRegister', ['VIEW_DASH', 'ADD_DEVICES'], [], null],
    ['timeDate', ['VIEW_DASH'], [], NO_SETTINGS],
  ])('%s with %j %j -> %s', (action, permissions, secretPermissions, refusal) =>
    expect(deviceActionRefusal({ permissions, secretPermissions, monitorOnly: true }, action)).toBe(refusal),
  );

  it('names no permission code in any refusal', () => {
    for (const action of DEVICE_ACTIONS) {
      for (const subject of [{ permissions: [] }, { permissions: ['VIEW_DASH'] as Permission[] }]) {
        expect(deviceActionRefusal(subject, action) ?? '').not.toMatch(/[A-Z]{2,}_[A-Z_]+/);
      }
    }
  });
});

describe('device actions of an API token (issue 38 item 3)', () => {
  it.each<[DeviceAction, 'readOnly' | 'readWrite', string | null]>([
    // A read-only token reads data and watches values...
    ['read', 'readOnly', null],
    ['watch', 'readOnly', null],
    // ...but sends no command, not even one that only reads the device: it would be queued.
    ['readChannel', 'readOnly', READ_ONLY_TOKEN_REFUSAL],
    ['readRegister', 'readOnly', READ_ONLY_TOKEN_REFUSAL],
    ['refreshMetadata', 'readOnly', READ_ONLY_TOKEN_REFUSAL],
    ['writeChannel', 'readOnly', READ_ONLY_TOKEN_REFUSAL],
    ['system', 'readOnly', READ_ONLY_TOKEN_REFUSAL],
    ['writeRegister', 'readOnly', READ_ONLY_TOKEN_REFUSAL],
    ['timeDate', 'readOnly', READ_ONLY_TOKEN_REFUSAL],
    ['writeConfig', 'readOnly', READ_ONLY_TOKEN_REFUSAL],
    // A read-write token of an administrator does what its owner does.
    ['writeChannel', 'readWrite', null],
    ['writeConfig', 'readWrite', null],
  ])('%s with a %s token of an administrator -> %s', (action, apiToken, refusal) =>
    expect(deviceActionRefusal({ permissions: ['ADMIN'], apiToken }, action)).toBe(refusal),
  );
});
