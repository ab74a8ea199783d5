import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openStorage, type Storage } from '../../db/database';
import { DIALECTS, freshDatabase } from '../../../testing/test-app';
import { intervalBins, type LogBin } from './log-repository';

const MINUTE = 60_000;
const WIDTH = 15 * MINUTE;
const START = Date.UTC(2026, 9, 3);
const END = START + 26 * 60 * MINUTE;

/** Samples at uneven times (some bins empty, some with one sample), values with fractions and signs. */
const samples = Array.from({ length: 900 }, (_, index) => ({
  t: START - 5 * MINUTE + index * 103_001 + (index % 7) * 1_009,
  value: Math.round(Math.sin(index / 11) * 1000) / 7 - (index % 5),
})).filter((sample) => sample.t < START + 20 * 60 * MINUTE || sample.t > START + 22 * 60 * MINUTE);

/** The bins computed here, sample by sample: what the database must answer. */
function expectedBins(): LogBin[] {
  const bins = new Map<number, { min: number; max: number; sum: number; count: number; last: number; lastT: number }>();
  for (const { t, value } of samples) {
    if (t < START || t >= END) continue;
    const index = Math.floor((t - START) / WIDTH);
    const bin = bins.get(index);
    if (!bin) {
      bins.set(index, { min: value, max: value, sum: value, count: 1, last: value, lastT: t });
      continue;
    }
    bin.min = Math.min(bin.min, value);
    bin.max = Math.max(bin.max, value);
    bin.sum += value;
    bin.count += 1;
    if (t > bin.lastT) {
      bin.last = value;
      bin.lastT = t;
    }
  }
  return [...bins.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, bin]) => ({ index, min: bin.min, max: bin.max, avg: bin.sum / bin.count, last: bin.last }));
}

describe.each(DIALECTS)("a report's interval bins on %s", (dialect) => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let storage: Storage;

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    storage = openStorage(database.url);
    await migrate(storage.db);
    const rows = samples.map((sample) => ({ device_id: 'bins-device', code: 'c1', ...sample }));
    // Inserted newest first, so no order of the table stands in for the order of t.
    await storage.db.insertInto('logs').values(rows.reverse()).execute();
  });

  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });

  it('answers min, max, mean and last of the stored samples per bin, empty bins left out', async () => {
    const columns = await intervalBins(
      storage.db,
      { deviceId: 'bins-device', code: 'c1', start: START, end: END },
      WIDTH,
    );
    const bins: LogBin[] = Array.from({ length: columns.length }, (_, at) => ({
      index: columns.index[at]!,
      min: columns.min[at]!,
      max: columns.max[at]!,
      avg: columns.avg[at]!,
      last: columns.last[at]!,
    }));
    const expected = expectedBins();
    expect(bins.map((bin) => bin.index)).toEqual(expected.map((bin) => bin.index));
    expect(bins.length).toBeLessThan(Math.ceil((END - START) / WIDTH));
    for (const [at, bin] of bins.entries()) {
      const want = expected[at]!;
      expect(bin.min).toBe(want.min);
      expect(bin.max).toBe(want.max);
      expect(bin.last).toBe(want.last);
      expect(bin.avg).toBeCloseTo(want.avg, 9);
    }
  });
});
