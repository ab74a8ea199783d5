import { describe, expect, it } from 'vitest';
import {
  isOfflineValueStale,
  keptOfflineValues,
  OFFLINE_VALUE_MAX_AGE_MS,
  OFFLINE_VALUE_STALE_AFTER_MS,
  OFFLINE_VALUES_MAX,
  type OfflineValue,
} from './offline-values';

const now = 1_700_000_000_000;
const value = (over: Partial<OfflineValue>): OfflineValue => ({
  thingName: 'thing-a',
  deviceName: 'Pump A',
  code: 'c1',
  channelName: 'Ch_1',
  units: 'bar',
  value: 1,
  t: now - 1000,
  ...over,
});
const keys = (values: OfflineValue[]) => values.map((kept) => `${kept.thingName}/${kept.code}=${kept.value}`);

describe('keptOfflineValues', () => {
  it.each<[string, OfflineValue[], string[]]>([
    ['nothing', [], []],
    ['one value', [value({})], ['thing-a/c1=1']],
    [
      'the newest per device channel, in any order',
      [value({ value: 2, t: now - 10 }), value({ value: 1, t: now - 500 }), value({ value: 3, t: now - 100 })],
      ['thing-a/c1=2'],
    ],
    ['the later of two at one instant', [value({ value: 1 }), value({ value: 2 })], ['thing-a/c1=2']],
    ['exactly a week old is kept', [value({ t: now - OFFLINE_VALUE_MAX_AGE_MS })], ['thing-a/c1=1']],
    ['older than a week is dropped', [value({ t: now - OFFLINE_VALUE_MAX_AGE_MS - 1 })], []],
    ['15 min in the future is kept', [value({ t: now + 900_000 })], ['thing-a/c1=1']],
    ['further in the future is dropped', [value({ t: now + 900_001 })], []],
    ['not a number is dropped', [value({ value: Number.NaN })], []],
    ['no time is dropped', [value({ t: Number.NaN })], []],
    [
      'ordered by device name, then channel layout',
      [
        value({ thingName: 'thing-b', deviceName: 'Boiler', code: 'c2', value: 4 }),
        value({ thingName: 'thing-a', deviceName: 'Pump A', code: 'c10', value: 3 }),
        value({ thingName: 'thing-a', deviceName: 'Pump A', code: 'c2', value: 2 }),
        value({ thingName: 'thing-b', deviceName: 'Boiler', code: 'c1', value: 1 }),
      ],
      ['thing-b/c1=1', 'thing-b/c2=4', 'thing-a/c2=2', 'thing-a/c10=3'],
    ],
  ])('%s', (_label, values, expected) => expect(keys(keptOfflineValues(values, now))).toEqual(expected));

  it(`keeps at most ${OFFLINE_VALUES_MAX}, the most recent`, () => {
    const many = Array.from({ length: OFFLINE_VALUES_MAX + 50 }, (_, index) =>
      value({ thingName: `thing-${String(index).padStart(3, '0')}`, value: index, t: now - index * 1000 }),
    );
    const kept = keptOfflineValues(many, now);
    expect(kept).toHaveLength(OFFLINE_VALUES_MAX);
    expect(Math.max(...kept.map((k) => k.value))).toBe(OFFLINE_VALUES_MAX - 1);
  });
});

describe('isOfflineValueStale', () => {
  it.each([
    ['just measured', now, false],
    ['exactly at the limit', now - OFFLINE_VALUE_STALE_AFTER_MS, false],
    ['just past the limit', now - OFFLINE_VALUE_STALE_AFTER_MS - 1, true],
    ['an hour old', now - 3_600_000, true],
    ['from the future', now + 5000, false],
  ])('%s -> %s', (_label, t, expected) => expect(isOfflineValueStale(t, now)).toBe(expected));

  it('is a quarter of an hour', () => expect(OFFLINE_VALUE_STALE_AFTER_MS).toBe(900_000));
});
