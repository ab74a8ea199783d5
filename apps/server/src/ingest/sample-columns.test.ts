import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LogRow } from './frame-writer';
import { fromSampleColumns, toSampleColumns } from './sample-columns';

const row: fc.Arbitrary<LogRow> = fc.record({
  device_id: fc.constantFrom('device-a', 'device-b', 'device-c'),
  code: fc.constantFrom('c1', 'c2', 'c10', 'ch_ünïcode'),
  t: fc.maxSafeInteger(),
  value: fc.double({ noNaN: true }),
});

describe('sample columns (the batch on its way to the SQLite writer thread)', () => {
  it('give back every sample, in order, whatever the devices and channels', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 300 }), (rows) => {
        const { columns, transfer } = toSampleColumns(rows)!;
        // Through a structured clone with the buffers handed over, as postMessage sends them.
        const received = structuredClone(columns, { transfer });
        expect(fromSampleColumns(received)).toEqual(rows);
      }),
    );
  });

  it('name a device once per run of its samples and each channel once', () => {
    const rows = [
      { device_id: 'a', code: 'c1', t: 1, value: 1 },
      { device_id: 'a', code: 'c2', t: 1, value: 2 },
      { device_id: 'b', code: 'c1', t: 1, value: 3 },
      { device_id: 'a', code: 'c1', t: 2, value: 4 },
    ];
    const { columns } = toSampleColumns(rows)!;
    expect(columns.devices).toEqual(['a', 'b', 'a']);
    expect([...columns.deviceRuns]).toEqual([2, 1, 1]);
    expect(columns.codes).toEqual(['c1', 'c2']);
    expect(columns.t.byteLength + columns.value.byteLength).toBe(rows.length * 16);
  });

  it('are not made of a sample whose time or value is not a number (the batch goes as rows)', () => {
    const good = { device_id: 'a', code: 'c1', t: 1, value: 1 };
    expect(toSampleColumns([good, { ...good, value: null as unknown as number }])).toBeNull();
    expect(toSampleColumns([good, { ...good, t: undefined as unknown as number }])).toBeNull();
    expect(toSampleColumns([good, { ...good, value: Number.NaN }])).not.toBeNull();
  });
});
