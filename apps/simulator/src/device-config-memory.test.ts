import { describe, expect, it } from 'vitest';
import { DeviceConfigMemory } from './device-config-memory';

const CODES = ['c1', 'sp1', 'do1'];
const C1 = { code: 'c1', name: 'Temperature', upload: true, alarm: false };

describe('a device keeps its settings', () => {
  it('applies channel names and flags over the plant defaults, and the intervals', () => {
    const memory = new DeviceConfigMemory(1, 5);
    expect(memory.apply({ channels: [{ code: 'c1', name: 'Wort' }], uploadInterval: 5, logInterval: 30 }, CODES)).toBe(
      true,
    );
    expect(memory.apply({ channels: [{ code: 'c1', alarm: true }] }, CODES)).toBe(true);
    expect(memory.channelConfig(C1)).toEqual({ code: 'c1', name: 'Wort', upload: true, alarm: true });
    expect(memory.channelConfig({ code: 'sp1', name: 'Setpoint' })).toEqual({ code: 'sp1', name: 'Setpoint' });
    expect([memory.uploadInterval, memory.logInterval]).toEqual([5, 30]);
  });

  it('reads any spelling of a code as the channel it names', () => {
    const memory = new DeviceConfigMemory(1, 5);
    expect(memory.apply({ channels: [{ code: 'sp-1', upload: false }] }, CODES)).toBe(true);
    expect(memory.channelConfig({ code: 'sp1' })).toEqual({ code: 'sp1', upload: false });
  });

  it.each([
    [{ channels: [{ code: 'c9', name: 'Nowhere' }], uploadInterval: 9 }],
    [
      {
        channels: [
          { code: 'c1', name: 'Wort' },
          { code: 'xdo1', upload: false },
        ],
      },
    ],
  ])('refuses %j whole: a channel the device does not have', (change) => {
    const memory = new DeviceConfigMemory(1, 5);
    expect(memory.apply(change, CODES)).toBe(false);
    expect(memory.channelConfig(C1)).toEqual(C1);
    expect(memory.uploadInterval).toBe(1);
  });
});
