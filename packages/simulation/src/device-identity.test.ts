import { describe, expect, it } from 'vitest';
import { DEVICE_KINDS } from './device-kind';
import { expandedIoPoints } from './channel-codes';
import { createModel } from './create-model';
import {
  createDeviceIdentity,
  deviceConfig,
  simulatedDeviceConfig,
  SIMULATED_LOG_INTERVAL_SECONDS,
  SIMULATED_TIME_DATE,
  SIMULATED_UPLOAD_INTERVAL_MINUTES,
  withLuhnDigit,
} from './device-identity';

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

  it.each(DEVICE_KINDS)('reports a %s as its config frame describes it, before anyone changes its settings', (kind) => {
    const identity = createDeviceIdentity(kind, 7);
    const model = createModel(kind, { seed: 7, startTimeMs: 0 });
    const config = simulatedDeviceConfig(identity, model.channels, model.registers());
    expect(config).toMatchObject({
      sn: identity.sn,
      fw: identity.fw,
      custom: identity.custom,
      uploadInterval: SIMULATED_UPLOAD_INTERVAL_MINUTES,
      logInterval: SIMULATED_LOG_INTERVAL_SECONDS,
      timeDate: SIMULATED_TIME_DATE,
      registers: model.registers(),
      ports: [identity.modemPort],
    });
    expect(config.expandedIoMax).toBe(expandedIoPoints(model.channels.map((channel) => channel.code)));
    expect(config.channels.map((channel) => channel.code)).toEqual(model.channels.map((channel) => channel.code));
    // Every channel uploads; an alarm only where the model sets one; a unit only where it has one.
    expect(config.channels.every((channel) => channel.upload && typeof channel.alarm === 'boolean')).toBe(true);
    expect(config.channels.some((channel) => 'units' in channel && channel.units === undefined)).toBe(false);
  });

  const identity = createDeviceIdentity('generic', 3);
  it.each([
    {
      case: 'the simulation defaults',
      settings: {
        channels: [{ code: 'c1', name: 'Flow', upload: true, alarm: false }],
        uploadInterval: 1,
        logInterval: 10,
        timeDate: SIMULATED_TIME_DATE,
      },
      expandedIoMax: 0,
    },
    {
      case: 'what a person set',
      settings: {
        channels: [
          { code: 'c1', name: 'Inlet', upload: false, alarm: true },
          { code: 'x40', name: 'Aux 40', upload: true, alarm: false },
        ],
        uploadInterval: 15,
        logInterval: 60,
        timeDate: { tzName: 'Australia/Perth', tzRule: 'AWST-8' },
      },
      expandedIoMax: 8,
    },
  ])('reports its identity and $case as a config frame says them', ({ settings, expandedIoMax }) => {
    const registers = { r1: 2 };
    const config = deviceConfig(identity, settings, registers, expandedIoMax);
    const { sn, fw, model, hw, base, custom, modemPort } = identity;
    expect(config).toEqual({
      sn,
      fw,
      model,
      hw,
      base,
      custom,
      ...settings,
      expandedIoMax,
      registers,
      ports: [modemPort],
    });
    // A copy: the device's memory changing later changes no frame already built.
    expect(config.channels[0]).not.toBe(settings.channels[0]);
    expect(config.timeDate).not.toBe(settings.timeDate);
    expect(config.registers).not.toBe(registers);
    expect(config.ports[0]).not.toBe(modemPort);
  });
});
