import type { AlarmConfig, AlarmRecord, AlertRecord } from '@fieldlink/api/alarms';
import { alarmStatus, type AlarmConfig as DomainAlarmConfig, type AlarmSeverity } from '@fieldlink/domain/alarms';
import { channelName } from '@fieldlink/domain/channels';
import type { AlarmConfigsTable } from '../../db/schema';
import type { AlarmRow, selectAlerts } from './repository';

type AlertRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectAlerts>['executeTakeFirst']>>>;

/**
 * A channel as the device's channel list describes it: its own name, else its display name, else its
 * code; and its unit, or empty.
 */
export function channelOf(channelsJson: string, code: string): { name: string; units: string } {
  try {
    const channels = JSON.parse(channelsJson) as { code?: string; name?: string; units?: string }[];
    const own = channels.find((channel) => channel.code === code);
    return { name: channelName(code, own?.name), units: own?.units?.trim() ?? '' };
  } catch {
    // A device's channel list is its own; an unreadable one only costs the name and unit.
    return { name: channelName(code), units: '' };
  }
}

/** The one mapping of a stored alarm row to the API's AlarmRecord. */
export function toAlarmRecord(row: AlarmRow): AlarmRecord {
  const channel = channelOf(row.device_channels, row.code);
  return {
    id: row.id,
    deviceId: row.device_id,
    thingName: row.thing_name,
    deviceName: row.device_name,
    code: row.code,
    channelName: channel.name,
    units: channel.units,
    side: row.side === 'LOW' ? 'LOW' : 'HIGH',
    severity: row.severity as AlarmSeverity,
    threshold: row.threshold,
    value: row.value,
    raisedAt: row.raised_at,
    clearedAt: row.cleared_at,
    clearedValue: row.cleared_value,
    acknowledgedAt: row.acknowledged_at,
    acknowledgedBy: row.acknowledged_by_email ?? null,
    status: alarmStatus({ raisedAt: row.raised_at, clearedAt: row.cleared_at, acknowledgedAt: row.acknowledged_at }),
  };
}

/** A stored configuration as the domain's state machine reads it. */
export function toDomainConfig(row: AlarmConfigsTable): DomainAlarmConfig {
  return {
    code: row.code,
    enabled: row.enabled === 1,
    high: row.high,
    low: row.low,
    hysteresis: row.hysteresis,
    delaySeconds: row.delay_seconds,
    severity: row.severity as AlarmSeverity,
  };
}

export function toAlarmConfig(row: AlarmConfigsTable): AlarmConfig {
  const { code, enabled, high, low, hysteresis, delaySeconds, severity } = toDomainConfig(row);
  return { deviceId: row.device_id, code, enabled, high, low, hysteresis, delaySeconds, severity };
}

export function toAlertRecord(row: AlertRow, mutedDevices: readonly string[]): AlertRecord {
  return {
    id: row.id,
    kind: 'DISCONNECTED',
    deviceId: row.device_id,
    thingName: row.thing_name,
    deviceName: row.device_name,
    t: row.t,
    resolvedAt: row.resolved_at,
    muted: mutedDevices.includes(row.thing_name),
  };
}
