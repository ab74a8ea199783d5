import { describe, expect, it } from 'vitest';
import { can } from './permissions';
import { demoVisitorRights, isDemoDeviceId } from './demo';

describe('isDemoDeviceId', () => {
  it.each([
    ['TANK1_DEMO', true],
    ['_DEMO', true],
    ['TANK1_demo', false],
    ['TANK1_DEMO2', false],
    ['DEMO', false],
  ])('%s -> %s', (id, expected) => expect(isDemoDeviceId(id)).toBe(expected));
});

describe('demoVisitorRights', () => {
  const visitor = (appType: Parameters<typeof demoVisitorRights>[0]) => ({
    ...demoVisitorRights(appType),
    userVariant: null,
  });
  it.each([
    ['brew', 'endBrew', true],
    ['brew', 'editBrewInfo', true],
    ['brew', 'deleteBrew', true],
    ['brew', 'editScenes', false],
    ['default', 'editGroups', false],
    ['stock', 'reportingPlus', true],
    ['brew', 'reportingPlus', false],
    ['spray', 'respondToAlarms', true],
  ] as const)('a visitor of %s: %s -> %s', (appType, capability, expected) =>
    expect(can(visitor(appType), capability)).toBe(expected),
  );
});
