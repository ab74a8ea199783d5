import { describe, expect, it } from 'vitest';
import { PressureTransmitter } from './transmitter';

describe('a pressure transmitter on a controller input', () => {
  it.each([
    { output: 'current' as const, fullScale: 30, shown: 12.3456, reported: 12.3456, within: 30 / 16_000 },
    { output: 'current' as const, fullScale: 30, shown: -2, reported: 0, within: 0 },
    { output: 'current' as const, fullScale: 30, shown: 45, reported: 30, within: 0 },
    { output: 'voltage' as const, fullScale: 10, shown: 4.567, reported: 4.567, within: 10 / 4_000_000 },
    { output: 'voltage' as const, fullScale: 2.5, shown: 3, reported: 2.5, within: 0 },
  ])('a $output transmitter over $fullScale showing $shown reports $reported', (row) => {
    const reported = new PressureTransmitter(row.output, row.fullScale).read(row.shown);
    expect(Math.abs(reported - row.reported)).toBeLessThanOrEqual(row.within + 1e-12);
  });
});
