import { describe, expect, it } from 'vitest';
import { isDemoDeviceId } from './demo';

describe('isDemoDeviceId', () => {
  it.each([
    ['TANK1_DEMO', true],
    ['_DEMO', true],
    ['TANK1_demo', false],
    ['TANK1_DEMO2', false],
    ['DEMO', false],
  ])('%s -> %s', (id, expected) => expect(isDemoDeviceId(id)).toBe(expected));
});
