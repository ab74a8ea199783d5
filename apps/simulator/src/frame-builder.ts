import type {
  ChannelConfig,
  ConfigFrame,
  ConnFrame,
  DeviceHealth,
  HealthFrame,
  LogFrame,
  ReplyFrame,
  StatusFrame,
} from '@fieldlink/api/device-frames';
import type { deviceConfig } from '@fieldlink/simulation/device-identity';

/** Builders of the version 4 frames a simulated device publishes (`@fieldlink/api/device-frames`). */

/** The MQTT will: the broker publishes it when the device drops without saying goodbye. */
export const CONN_LOST_FRAME: ConnFrame = { v: 4, type: 'conn', connected: false };

export function connFrame(connected: boolean, t: number): ConnFrame {
  return { v: 4, type: 'conn', connected, t };
}

/** A device's config frame: what it says of itself (`@fieldlink/simulation` `deviceConfig`), at `t`. */
export function deviceConfigFrame(config: ReturnType<typeof deviceConfig<ChannelConfig>>, t: number): ConfigFrame {
  return { v: 4, type: 'config', subtype: 'device', t, ...config };
}

export function healthFrame(health: DeviceHealth, t: number): HealthFrame {
  return { v: 4, type: 'health', t, health };
}

export function logFrame(values: Record<string, number>, t: number): LogFrame {
  return { v: 4, type: 'log', t, values };
}

export function statusFrame(alarmBits: number, t: number): StatusFrame {
  return { v: 4, type: 'status', t, status: { sp: alarmBits } };
}

export function replyFrame(id: string, result: 'OK' | 'FAIL', value?: number | string): ReplyFrame {
  return value === undefined ? { v: 4, type: 'reply', id, result } : { v: 4, type: 'reply', id, result, value };
}
