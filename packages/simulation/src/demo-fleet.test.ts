import { describe, expect, it } from 'vitest';
import { APP_TYPES } from '@fieldlink/domain/app-variant';
import { DEMO_ACCOUNT_KIND, isDemoDeviceId } from '@fieldlink/domain/demo';
import { ACCOUNTS_USER_VARIANT } from '@fieldlink/domain/user-variant';
import { DEMO_FLEETS, demoFleet, demoFleetAccount, demoFleetDeviceNamed, demoFleetDevices } from './demo-fleet';

describe('demo fleets', () => {
  it('has one fleet per app variant, every device a _DEMO device named once', () => {
    expect(DEMO_FLEETS.map((fleet) => fleet.appType).sort()).toEqual([...APP_TYPES].sort());
    const thingNames = DEMO_FLEETS.flatMap((fleet) => demoFleetDevices(fleet).map((device) => device.thingName));
    expect(thingNames.every(isDemoDeviceId)).toBe(true);
    expect(new Set(thingNames).size).toBe(thingNames.length);
  });

  it.each([
    ['the default fleet as it is', 'default', undefined, 3, 2],
    ['a default fleet of 50 controllers, ten to a site', 'default', 50, 50, 5],
    ['at most 200 devices', 'default', 1000, 200, 20],
    ['a size smaller than the fleet changes nothing', 'default', 2, 3, 2],
    ['only the default fleet grows', 'brew', 50, 4, 2],
  ] as const)('%s', (_name, appType, count, devices, groups) => {
    const fleet = demoFleet(appType, count);
    const all = demoFleetDevices(fleet);
    expect(all.length).toBe(devices);
    expect(fleet.groups.length).toBe(groups);
    expect(new Set(all.map((device) => device.thingName)).size).toBe(devices);
    expect(all.every((device) => isDemoDeviceId(device.thingName))).toBe(true);
  });

  it.each([
    ['a brewery tank', 'FV01_DEMO', 'brewTank'],
    ['a water plant', 'WTP02_DEMO', 'waterPlant'],
    ['a default controller', 'CTL03_DEMO', 'generic'],
    ['a thing name of no fleet', 'XYZ_DEMO', null],
    ['a real device', 'ACME-BLR01', null],
  ] as const)('finds the fleet device of %s by its thing name', (_name, thingName, kind) => {
    expect(demoFleetDeviceNamed(thingName)?.kind ?? null).toBe(kind);
  });

  it.each([
    ['brew', 'Northgate Brewing', null],
    ['stock', 'Corner Retail', ACCOUNTS_USER_VARIANT],
    ['default', 'Acme Controls', null],
  ] as const)('runs the %s fleet in a demo account named %s, user variant %s', (appType, name, userVariant) => {
    expect(demoFleetAccount(demoFleet(appType))).toEqual({
      name,
      appType,
      kind: DEMO_ACCOUNT_KIND,
      userVariant,
      theme: null,
    });
  });
});
