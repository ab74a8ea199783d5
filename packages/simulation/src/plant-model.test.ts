import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEVICE_KINDS } from './device-kind';
import { createModel } from './create-model';
import { reportedChannels } from './plant-model';

const START = Date.UTC(2025, 3, 1, 10);

describe.each(DEVICE_KINDS)('%s model', (kind) => {
  it('reports exactly its channels', () => {
    const model = createModel(kind, { seed: 1, startTimeMs: START });
    expect(Object.keys(model.values()).sort()).toEqual(model.channels.map((channel) => channel.code).sort());
  });

  it('is deterministic for a seed, and differs between seeds', () => {
    const run = (seed: number): Record<string, number>[] => {
      const model = createModel(kind, { seed, startTimeMs: START });
      return [60, 600, 3600, 7].map((seconds) => {
        model.step(seconds);
        return model.values();
      });
    };
    expect(run(11)).toEqual(run(11));
    expect(run(11)).not.toEqual(run(12));
  });

  it('keeps every value finite and within its channel range, whatever the steps', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.array(fc.integer({ min: 1, max: 4 * 3600 }), { minLength: 1, maxLength: 20 }),
        (seed, steps) => {
          const model = createModel(kind, { seed, startTimeMs: START });
          for (const seconds of steps) {
            model.step(seconds);
            const values = model.values();
            for (const channel of model.channels) {
              const value = values[channel.code];
              expect(Number.isFinite(value)).toBe(true);
              expect(value).toBeGreaterThanOrEqual(channel.range[0]);
              expect(value).toBeLessThanOrEqual(channel.range[1]);
            }
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('refuses a write to an unknown channel and to every read-only channel', () => {
    const model = createModel(kind, { seed: 2, startTimeMs: START });
    expect(model.writeChannel('zz9', 1)).toBeUndefined();
    for (const channel of model.channels.filter((candidate) => !candidate.writable)) {
      expect(model.writeChannel(channel.code, channel.range[0])).toBeUndefined();
    }
  });

  it('stores registers as 16-bit words and refuses unknown ones', () => {
    const model = createModel(kind, { seed: 3, startTimeMs: START });
    expect(model.readRegister(65000)).toBeUndefined();
    expect(model.writeRegister(65000, 1)).toBeUndefined();
    const [first] = Object.keys(model.registers());
    if (first === undefined) return;
    const register = Number(first);
    const original = model.readRegister(register) ?? 0;
    expect(model.writeRegister(register, -2)).toBe(65534);
    expect(model.registers()[first]).toBe(65534);
    expect(model.writeRegister(register, 70000)).toBeUndefined();
    model.writeRegister(register, original);
  });
});

describe('a model’s channels as reported', () => {
  const product = { sku: 'MILK-1L', slotCount: 4, depth: 80, planogramId: 'p1' };
  it.each([
    [
      { code: 'a1', name: 'Flow' },
      { code: 'a1', name: 'Flow', upload: true, alarm: false },
    ],
    [
      { code: 'a1', name: 'Flow', units: 'm³/h' },
      { code: 'a1', name: 'Flow', units: 'm³/h', upload: true, alarm: false },
    ],
    [
      { code: 'a2', name: 'Level', units: '' },
      { code: 'a2', name: 'Level', upload: true, alarm: false },
    ],
    [
      { code: 's1', name: 'High level', alarm: true },
      { code: 's1', name: 'High level', upload: true, alarm: true },
    ],
    [
      { code: 'c1', name: 'Milk', product },
      { code: 'c1', name: 'Milk', upload: true, alarm: false, product },
    ],
  ])('reports %j as %j', (channel, expected) => {
    expect(reportedChannels([channel])).toStrictEqual([expected]);
  });
});
