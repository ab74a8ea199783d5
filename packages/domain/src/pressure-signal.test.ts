import { describe, expect, it } from 'vitest';
import {
  PRESSURE_OFFSET_MA,
  PRESSURE_OFFSET_V,
  PRESSURE_SCALE_SWITCH,
  pressureFromRaw,
  rawTransmitterFullScale,
  transmitterRaw,
} from './pressure-signal';

describe('pressure transmitter signals', () => {
  it('keeps the specification constants', () => {
    expect([PRESSURE_OFFSET_MA, PRESSURE_OFFSET_V, PRESSURE_SCALE_SWITCH]).toEqual([4, 1, 800_000]);
  });

  it.each([
    // raw µA or µV, full scale, pressure
    { raw: 4_000, fullScale: 30, pressure: 0 },
    { raw: 12_000, fullScale: 30, pressure: 15 },
    { raw: 20_000, fullScale: 30, pressure: 30 },
    { raw: 3_900, fullScale: 30, pressure: 0 }, // saturated low: still zero, not a fault
    { raw: 20_400, fullScale: 30, pressure: 30 }, // saturated high
    { raw: 3_000, fullScale: 30, pressure: null }, // broken loop
    { raw: 0, fullScale: 30, pressure: null },
    { raw: 22_000, fullScale: 30, pressure: null },
    { raw: 1_000_000, fullScale: 6, pressure: 0 },
    { raw: 3_000_000, fullScale: 6, pressure: 3 },
    { raw: 5_000_000, fullScale: 6, pressure: 6 },
    { raw: 950_000, fullScale: 6, pressure: 0 }, // voltage saturated low, above the switch
    { raw: 5_600_000, fullScale: 6, pressure: null },
    { raw: 800_000, fullScale: 6, pressure: null }, // at the switch: microamps, far beyond a loop
  ])('reads $raw as $pressure of $fullScale', ({ raw, fullScale, pressure }) => {
    const read = pressureFromRaw(raw, fullScale);
    if (pressure === null) expect(read).toBeNull();
    else expect(read).toBeCloseTo(pressure, 9);
  });

  it.each([
    { output: 'current' as const, pressure: 7.5, fullScale: 30, raw: 8_000 },
    { output: 'current' as const, pressure: -5, fullScale: 30, raw: 3_800 },
    { output: 'current' as const, pressure: 99, fullScale: 30, raw: 20_500 },
    { output: 'voltage' as const, pressure: 1.5, fullScale: 6, raw: 2_000_000 },
    { output: 'voltage' as const, pressure: -1, fullScale: 6, raw: 950_000 },
  ])('a $output transmitter at $pressure of $fullScale reads $raw', ({ output, pressure, fullScale, raw }) => {
    expect(transmitterRaw(output, pressure, fullScale)).toBe(raw);
  });

  it.each(['current', 'voltage'] as const)('round-trips a %s transmitter within its resolution', (output) => {
    const resolution = output === 'current' ? 40 / 16_000 : 6 / 4_000_000;
    for (let pressure = 0; pressure <= 40; pressure += 0.37) {
      const fullScale = output === 'current' ? 40 : 6;
      const shown = Math.min(pressure, fullScale);
      expect(
        Math.abs(pressureFromRaw(transmitterRaw(output, shown, fullScale), fullScale)! - shown),
      ).toBeLessThanOrEqual(resolution);
    }
  });
});

describe('rawTransmitterFullScale: a channel configured to send its raw transmitter signal', () => {
  it.each([
    [{ signal: 'raw', fullScale: 30 }, 30],
    [{ signal: 'raw', fullScale: 2.5, units: 'bar' }, 2.5],
    [{ signal: 'raw' }, null],
    [{ signal: 'raw', fullScale: 0 }, null],
    [{ signal: 'raw', fullScale: -6 }, null],
    [{ signal: 'raw', fullScale: '30' }, null],
    [{ signal: 'scaled', fullScale: 30 }, null],
    [{ fullScale: 30 }, null],
    [undefined, null],
  ])('%j -> %j', (config, expected) => expect(rawTransmitterFullScale(config)).toBe(expected));
});
