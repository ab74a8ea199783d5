import { describe, expect, it } from 'vitest';
import { DEVICE_KINDS } from './device-kind';
import { createDeviceIdentity, withLuhnDigit } from './device-identity';

function luhnValid(digits: string): boolean {
  return withLuhnDigit(digits.slice(0, -1)) === digits;
}

describe('device identity', () => {
  it('computes the Luhn check digit of a known IMEI', () => {
    expect(withLuhnDigit('49015420323751')).toBe('490154203237518');
  });

  it.each(DEVICE_KINDS)('gives a %s a stable serial, a hardware family and a modem with valid ids', (kind) => {
    const identity = createDeviceIdentity(kind, 1234);
    expect(createDeviceIdentity(kind, 1234)).toEqual(identity);
    expect(identity.hw.split(':')[0]).toMatch(/^(NIM2|NIM3|ZEN6|ZEN_IOT|ZEN_G3)$/);
    expect(identity.sn).toMatch(/^FL\d{8}$/);
    expect(identity.modemPort.imei).toMatch(/^\d{15}$/);
    expect(identity.modemPort.iccid).toMatch(/^89\d{17}$/);
    expect(luhnValid(identity.modemPort.imei)).toBe(true);
    expect(luhnValid(identity.modemPort.iccid)).toBe(true);
    expect(createDeviceIdentity(kind, 1235).sn).not.toBe(identity.sn);
  });

  it('names a brew tank macro the console marks as a vat (Vats 4.0 or later)', () => {
    expect(createDeviceIdentity('brewTank', 1).custom).toMatch(/Vats 4\.\d/);
  });
});
