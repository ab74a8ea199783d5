import { describe, expect, it } from 'vitest';
import { controlReading, isWriteConfirmed, setpointStatusCode, type PendingWrite } from './control-write';
import type { SetpointStatus } from './realtime-store';

const before: SetpointStatus = { state: 'off', value: 0 };
const arrived: SetpointStatus = { state: 'on', value: 1 };

describe('isWriteConfirmed', () => {
  const pending: PendingWrite = { value: 1, setpointAtSend: before, latestTAtSend: 1000 };
  it.each([
    ['nothing new', before, { value: 0, t: 1000 }, false],
    ['a setpoint status arrived', arrived, { value: 0, t: 1000 }, true],
    ['a status equal in content but new', { ...before }, undefined, true],
    ['a newer logged value with the written value', before, { value: 1, t: 2000 }, true],
    ['a newer logged value with another value', before, { value: 0, t: 2000 }, false],
    ['the written value, but not newer', before, { value: 1, t: 1000 }, false],
    ['no status, no value', undefined, undefined, false],
  ] as const)('%s -> %s', (_label, setpoint, latest, expected) =>
    expect(isWriteConfirmed(pending, setpoint, latest)).toBe(expected),
  );

  it('a first logged value confirms a write sent before any', () =>
    expect(
      isWriteConfirmed({ value: 5, setpointAtSend: undefined, latestTAtSend: null }, undefined, { value: 5, t: 1 }),
    ).toBe(true));
});

describe('controlReading', () => {
  it.each([
    ['nothing known', undefined, null, null],
    ['logged on', { value: 1, t: 10 }, null, { value: 1, isOn: true }],
    ['logged off', { value: 0, t: 10 }, null, { value: 0, isOn: false }],
    [
      "status 'on' wins over an older log",
      { value: 0, t: 10 },
      { status: { state: 'on', value: 1 }, latestTAtArrival: 10 },
      { value: 1, isOn: true },
    ],
    [
      "status 'off' reads off whatever its value",
      { value: 1, t: 10 },
      { status: { state: 'off', value: 3 }, latestTAtArrival: 10 },
      { value: 3, isOn: false },
    ],
    [
      'a newer log takes over again',
      { value: 0, t: 20 },
      { status: { state: 'on', value: 1 }, latestTAtArrival: 10 },
      { value: 0, isOn: false },
    ],
    [
      'status without any log',
      undefined,
      { status: { state: 'on', value: 22.5 }, latestTAtArrival: null },
      { value: 22.5, isOn: true },
    ],
  ] as const)('%s', (_label, latest, observed, expected) => expect(controlReading(latest, observed)).toEqual(expected));
});

describe('setpointStatusCode', () => {
  it.each([
    [{ code: 'do1' }, 'do1'],
    [{ code: 'do1', name: 'Pump' }, 'do1'],
    [{ code: 's3', name: 'sp-3' }, 'sp3'],
    [{ code: 'gpf2', name: 'sp-12' }, 'sp12'],
    [{ code: 'sp4', name: 'sp-x' }, 'sp4'],
  ])('%j -> %s', (channel, code) => expect(setpointStatusCode(channel)).toBe(code));
});
