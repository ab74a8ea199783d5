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
import type { DeviceIdentity } from '@fieldlink/simulation/device-identity';

/** Builders of the version 4 frames a simulated device publishes (`@fieldlink/api/device-frames`). */

/** The MQTT will: the broker publishes it when the device drops without saying goodbye. */
export const CONN_LOST_FRAME: ConnFrame = { v: 4, type: 'conn', connected: false };

export function connFrame(connected: boolean, t: number): ConnFrame {
  return { v: 4, type: 'conn', connected, t };
}

export interface DeviceConfigInput {
  readonly identity: DeviceIdentity;
  readonly channels: readonly ChannelConfig[];
  readonly registers: Record<string, number>;
  readonly uploadIntervalMinutes: number;
  readonly logIntervalSeconds: number;
  /** Expanded-IO points the device is configured for. */
  readonly expandedIoMax: number;
  readonly timeDate: { readonly tzName: string; readonly tzRule?: string };
}

export function deviceConfigFrame(input: DeviceConfigInput, t: number): ConfigFrame {
  const { identity } = input;
  return {
    v: 4,
    type: 'config',
    subtype: 'device',
    t,
    sn: identity.sn,
    fw: identity.fw,
    model: identity.model,
    hw: identity.hw,
    base: identity.base,
    custom: identity.custom,
    uploadInterval: input.uploadIntervalMinutes,
    logInterval: input.logIntervalSeconds,
    expandedIoMax: input.expandedIoMax,
    timeDate: { ...input.timeDate },
    channels: input.channels.map((channel) => ({ ...channel })),
    registers: { ...input.registers },
    ports: [identity.modemPort],
  };
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
