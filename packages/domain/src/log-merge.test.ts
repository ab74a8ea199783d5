import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeSortedSamples, shouldReplaceLatest, trimSeries } from './log-merge';

const s = (t: number, value = t) => ({ t, value });

describe('shouldReplaceLatest', () => {
  it.each([
    ['no stored value', undefined, s(5), true],
    ['null stored value', null, s(5), true],
    ['newer sample', s(5), s(6), true],
    ['same time', s(5, 1), s(5, 2), true],
    ['older sample', s(5), s(4), false],
  ])('%s -> %s', (_label, current, incoming, expected) =>
    expect(shouldReplaceLatest(current, incoming)).toBe(expected),
  );
});

describe('mergeSortedSamples', () => {
  it.each([
    ['appends later samples', [s(1), s(2)], [s(3), s(4)], [1, 2, 3, 4]],
    ['sorts unsorted input', [s(1)], [s(4), s(3)], [1, 3, 4]],
    ['inserts in the middle', [s(1), s(5)], [s(3)], [1, 3, 5]],
    ['prepends older samples', [s(5)], [s(1)], [1, 5]],
    ['skips a repeated time', [s(1), s(2)], [s(2, 99), s(3)], [1, 2, 3]],
    ['skips repeats within the new samples', [], [s(2), s(2, 99), s(1)], [1, 2]],
    ['keeps the series when nothing is new', [s(1)], [], [1]],
    ['starts an empty series', [], [s(2), s(1)], [1, 2]],
  ])('%s', (_label, existing, incoming, times) =>
    expect(mergeSortedSamples(existing, incoming).map((x) => x.t)).toEqual(times),
  );

  it('keeps the stored sample when a time repeats', () => {
    expect(mergeSortedSamples([s(2, 1)], [s(2, 99)])).toEqual([s(2, 1)]);
    expect(mergeSortedSamples([s(1), s(2, 1)], [s(2, 99)])).toEqual([s(1), s(2, 1)]);
  });

  it('changes neither input', () => {
    const existing = [s(1), s(3)];
    const incoming = [s(4), s(2)];
    mergeSortedSamples(existing, incoming);
    expect(existing).toEqual([s(1), s(3)]);
    expect(incoming).toEqual([s(4), s(2)]);
  });

  it('gives a sorted series of each distinct time, whatever arrives', () => {
    const times = fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 40 });
    fc.assert(
      fc.property(times, times, (a, b) => {
        const existing = [...new Set(a)].sort((x, y) => x - y).map((t) => s(t, -t));
        const merged = mergeSortedSamples(
          existing,
          b.map((t) => s(t)),
        );
        const expectedTimes = [...new Set([...a, ...b])].sort((x, y) => x - y);
        expect(merged.map((x) => x.t)).toEqual(expectedTimes);
        // Stored samples survive a repeat.
        for (const stored of existing) expect(merged).toContainEqual(stored);
      }),
    );
  });
});

describe('trimSeries', () => {
  const series = [s(10), s(20), s(30), s(40), s(50)];
  it.each([
    ['by count', { maxCount: 2 }, [40, 50]],
    ['by age', { maxAgeMs: 25, now: 50 }, [30, 40, 50]],
    ['keeps a sample exactly at the age limit', { maxAgeMs: 20, now: 50 }, [30, 40, 50]],
    ['by both, the stricter wins', { maxCount: 4, maxAgeMs: 15, now: 50 }, [40, 50]],
    ['to nothing when all are too old', { maxAgeMs: 5, now: 100 }, []],
    ['to nothing with a count of 0', { maxCount: 0 }, []],
    ['not at all within the limits', { maxCount: 10, maxAgeMs: 1000, now: 50 }, [10, 20, 30, 40, 50]],
    ['not by age without a clock', { maxAgeMs: 1 }, [10, 20, 30, 40, 50]],
  ])('%s', (_label, options, times) => expect(trimSeries(series, options).map((x) => x.t)).toEqual(times));

  it('returns the same array when nothing is trimmed', () => expect(trimSeries(series, { maxCount: 5 })).toBe(series));

  it('never keeps more than maxCount or anything too old', () =>
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 70 }),
        fc.integer({ min: 0, max: 1000 }),
        (times, maxCount, maxAgeMs) => {
          const sorted = times.sort((x, y) => x - y).map((t) => s(t));
          const kept = trimSeries(sorted, { maxCount, maxAgeMs, now: 1000 });
          expect(kept.length).toBeLessThanOrEqual(maxCount);
          for (const sample of kept) expect(sample.t).toBeGreaterThanOrEqual(1000 - maxAgeMs);
          // What is kept is the newest part of the series.
          expect(kept).toEqual(sorted.slice(sorted.length - kept.length));
          // Nothing kept-worthy is dropped.
          const eligible = sorted.filter((x) => x.t >= 1000 - maxAgeMs);
          expect(kept.length).toBe(Math.min(maxCount, eligible.length));
        },
      ),
    ));
});
