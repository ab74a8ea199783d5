import { describe, expect, it } from 'vitest';
import { connectionBase, disconnectedCount } from './disconnected-count';
import type { DeviceConnectionState } from './realtime-store';

type Device = { thingName: string; isConnected: boolean };

const state = (isConnected: boolean): DeviceConnectionState => ({
  isConnected,
  lastConnection: null,
  lastDisconnection: null,
});

/** The rule itself, one device at a time: its live state, else its given flag. */
const reference = (devices: readonly Device[], live: Readonly<Record<string, DeviceConnectionState>>) =>
  devices.filter((device) => !(live[device.thingName]?.isConnected ?? device.isConnected)).length;

const A_ON = { thingName: 'A', isConnected: true };
const B_OFF = { thingName: 'B', isConnected: false };
const C_OFF = { thingName: 'C', isConnected: false };

describe('disconnectedCount', () => {
  it.each<[string, Device[], Record<string, DeviceConnectionState>, number]>([
    ['no devices', [], { A: state(false) }, 0],
    ['no live states: the given flags', [A_ON, B_OFF, C_OFF], {}, 2],
    ['a device goes offline live', [A_ON, B_OFF, C_OFF], { A: state(false) }, 3],
    ['a device comes online live', [A_ON, B_OFF, C_OFF], { B: state(true) }, 1],
    ['live states that agree with the flags change nothing', [A_ON, B_OFF], { A: state(true), B: state(false) }, 1],
    ['live states of devices not in the list are ignored', [A_ON, B_OFF], { Z: state(false), Y: state(true) }, 1],
    [
      'a thing listed twice with different flags follows its live state in both',
      [A_ON, { thingName: 'A', isConnected: false }, B_OFF],
      { A: state(false) },
      3,
    ],
    ['the same, online live', [A_ON, { thingName: 'A', isConnected: false }, B_OFF], { A: state(true) }, 1],
  ])('%s', (_case, devices, live, expected) => {
    expect(disconnectedCount(connectionBase(devices), live)).toBe(expected);
    expect(reference(devices, live)).toBe(expected);
  });

  it('equals the rule device by device on a larger fleet with many live states', () => {
    const devices = Array.from({ length: 2000 }, (_, n) => ({ thingName: `T-${n % 1500}`, isConnected: n % 3 === 0 }));
    const live: Record<string, DeviceConnectionState> = {};
    for (let n = 0; n < 3000; n += 7) live[`T-${n}`] = state(n % 2 === 0);
    expect(disconnectedCount(connectionBase(devices), live)).toBe(reference(devices, live));
  });
});
