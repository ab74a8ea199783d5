import {
  MONITOR_ONLY_REFUSAL,
  READ_ONLY_TOKEN_REFUSAL,
  can,
  readablePermission,
  type Capability,
  type PermissionSubject,
} from './permissions';

/**
 * Everything a person can do to a device through the REST calls or the real-time channel, and the
 * capabilities it needs (all of them): the one table both transports check (SECURITY.md 3), so
 * nothing refused over HTTP is allowed over the WebSocket. The names are the device commands of
 * docs/device-protocol.md, plus `watch` for subscribing to a device's live values. Every action needs
 * dashboard access first (core §4: without it no device subscriptions or commands). A new command or
 * real-time action gets its row here; the contract (`packages/api`) maps its messages to a row, and
 * the authorization matrix tries every row against every permission set.
 */
export const DEVICE_ACTION_CAPABILITIES = {
  /**
   * Read a device's data over REST: its record (`GET /device`), latest values, logs, connection
   * history and alarm settings, and the device table with its live feed. The rule of `watch` (core
   * §4: without view-dashboard no device subscriptions): reading needs the same right everywhere
   * (SECURITY.md 23). A page that shows device data is offered only with it (`app-variant.ts`).
   */
  read: ['viewDashboard'],
  /** Subscribe to (and unsubscribe from) a device's live values. */
  watch: ['viewDashboard'],
  readChannel: ['viewDashboard', 'sendDeviceCommands'],
  readRegister: ['viewDashboard', 'sendDeviceCommands'],
  /** Re-read the device's configuration and metadata: changes nothing at the device. */
  refreshMetadata: ['viewDashboard', 'sendDeviceCommands'],
  /** Relays, flags and setpoints. */
  writeChannel: ['viewDashboard', 'sendDeviceCommands', 'operateOutputs'],
  /** The system command FLASH LED. */
  system: ['viewDashboard', 'sendDeviceCommands', 'operateOutputs'],
  /** Registers hold the device's settings. */
  writeRegister: ['viewDashboard', 'sendDeviceCommands', 'configureDevices'],
  /** The time/date command (time zone). */
  timeDate: ['viewDashboard', 'sendDeviceCommands', 'configureDevices'],
  /** Channel names, upload and alarm flags, upload and log intervals (device settings). */
  writeConfig: ['viewDashboard', 'sendDeviceCommands', 'configureDevices'],
} as const satisfies Record<string, readonly Capability[]>;

/** An action on a device. */
export type DeviceAction = keyof typeof DEVICE_ACTION_CAPABILITIES;
type DeviceActionCapability = (typeof DEVICE_ACTION_CAPABILITIES)[DeviceAction][number];

/** Why someone may not change a device's settings (name, site, location, registers, time zone). */
export const CONFIGURE_DEVICES_REFUSAL = `Changing device settings needs the ${readablePermission('ADD_DEVICES')} or ${readablePermission('ADD_EDIT_DELETE_GROUPS')} permission.`;

/** Why a capability is missing, as the console's tooltips, the 403 answers and the real-time replies say it. */
const REFUSALS: Readonly<Record<DeviceActionCapability, string>> = {
  viewDashboard: 'You do not have permission to view dashboards.',
  // Checked before the rest: only a read-only API token lacks it (issue 38 item 3).
  sendDeviceCommands: READ_ONLY_TOKEN_REFUSAL,
  // Dashboard access is checked first, so only a monitor-only user lacks this one.
  operateOutputs: MONITOR_ONLY_REFUSAL,
  configureDevices: CONFIGURE_DEVICES_REFUSAL,
};

/** Why the subject may not take the action on a device in its scope, or null when it may. */
export function deviceActionRefusal(subject: PermissionSubject, action: DeviceAction): string | null {
  const missing = DEVICE_ACTION_CAPABILITIES[action].find((capability) => !can(subject, capability));
  return missing === undefined ? null : REFUSALS[missing];
}

/** True when the subject may read device data (the `read` row): what decides every page that shows it. */
export function readsDevices(subject: PermissionSubject): boolean {
  return deviceActionRefusal(subject, 'read') === null;
}
