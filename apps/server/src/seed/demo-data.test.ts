import { describe, expect, it } from 'vitest';
import { createDeviceIdentity } from '@fieldlink/simulation/device-identity';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import { DEMO_CUSTOMERS, DEMO_SUPPLIER, type DemoDevice, type DemoGroup } from './demo-data';

const devicesOf = (groups: readonly DemoGroup[]): DemoDevice[] =>
  groups.flatMap((group) => [...group.devices, ...devicesOf(group.groups ?? [])]);

describe('the demo installation', () => {
  const devices = [DEMO_SUPPLIER, ...DEMO_CUSTOMERS].flatMap((account) => devicesOf(account.groups));

  it('gives each device the serial its simulated controller reports, so the table and its page agree', () => {
    expect(devices.length).toBeGreaterThan(10);
    for (const device of devices) {
      expect(device.sn, device.thingName).toBe(createDeviceIdentity(device.kind, seedFromText(device.thingName)).sn);
    }
    expect(new Set(devices.map((device) => device.sn)).size).toBe(devices.length);
  });
});
