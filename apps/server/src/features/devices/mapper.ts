import type { Device, DeviceMessage, DeviceMessageStatus, QueuedDeviceMessage } from '@fieldlink/api/device';
import type { DeviceMessageRow } from './message-repository';
import type { DeviceWithPath } from './repository';

function json<T>(text: string | null, fallback: T): T {
  return text ? (JSON.parse(text) as T) : fallback;
}

/**
 * The one mapping of a stored device row to the API's Device. `mutedDevices` are the caller's: with
 * them the answer says whether the caller has muted this device.
 */
export function toDevice(row: DeviceWithPath, mutedDevices?: readonly string[]): Device {
  return {
    id: row.id,
    accountId: row.account_id,
    groupId: row.group_id,
    name: row.name,
    sn: row.sn,
    thingName: row.thing_name,
    fw: row.fw,
    model: row.model,
    hw: row.hw,
    site: row.site,
    plan: row.plan === 'PREMIUM' ? 'PREMIUM' : 'FREE',
    base: row.base,
    custom: row.custom,
    espFw: row.esp_fw,
    hwPlatform: row.hw_platform,
    updatePoint: row.update_point,
    uploadInterval: row.upload_interval,
    logInterval: row.log_interval,
    timeDate: json(row.time_date, null),
    channels: json(row.channels, []),
    registers: json(row.registers, {}),
    expandedIoMax: row.expanded_io_max,
    customAttributes: json(row.custom_attributes, {}),
    ports: json(row.ports, []),
    location: json(row.location, null),
    path: row.path,
    createdAt: row.created_at,
    isConnected: row.is_connected === 1,
    lastConnection: row.last_connection,
    lastDisconnection: row.last_disconnection,
    otaPendingSubmittedAt: row.ota_pending_submitted_at,
    update: json(row.ota_update, null),
    tags: json(row.tags, []),
    health: json(row.health, null),
    status: json(row.status, {}),
    alarmsHaveBeenRead: row.alarms_have_been_read === 1,
    ...(mutedDevices ? { muted: mutedDevices.includes(row.thing_name) } : {}),
  };
}

/** The one mapping of a queued message row to the API's QueuedDeviceMessage. */
export function toQueuedMessage(row: DeviceMessageRow): QueuedDeviceMessage {
  return {
    id: row.id,
    deviceId: row.device_id,
    message: JSON.parse(row.message) as DeviceMessage,
    status: row.status as DeviceMessageStatus,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}
