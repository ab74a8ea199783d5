import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LatestValue } from '@fieldlink/api/realtime';
import { OFFLINE_SAVE_INTERVAL_MS, OFFLINE_VALUES_MAX, type OfflineValue } from '@fieldlink/domain/offline-values';
import { collectOfflineValues, recordLastValues } from './last-values-recorder';
import type { LastValuesRecord, LastValuesStorage } from './last-values-storage';

/** The storage contract in memory: one record per user id, as the IndexedDB one keeps them. */
function memoryStorage(): LastValuesStorage & { records: Map<string, LastValuesRecord>; writes: number } {
  const records = new Map<string, LastValuesRecord>();
  const storage = {
    records,
    writes: 0,
    read: async (userId: string) => records.get(userId) ?? null,
    write: async (record: LastValuesRecord) => {
      storage.writes += 1;
      records.set(record.userId, record);
    },
    clear: async (keepUserId?: string) => {
      for (const userId of [...records.keys()]) if (userId !== keepUserId) records.delete(userId);
    },
  };
  return storage;
}

const now = 1_700_000_000_000;
const sample = (value: number, t = now - 1000): LatestValue => ({ t, value }) as LatestValue;
const clock = { timeZone: 'UTC', hourCycle: '24' as const, dateOrder: 'dmy' as const };

describe('collectOfflineValues', () => {
  const device = {
    thingName: 'pump-1',
    name: 'North pump',
    channels: [
      { code: 'c1', name: 'Pressure', units: 'bar', latestLog: sample(3, now - 60_000) },
      { code: 'r1', latestLog: null },
    ],
  } as unknown as Parameters<typeof collectOfflineValues>[1][number];

  it('names values as the console shows them, from the device details and the live store', () => {
    expect(collectOfflineValues({ 'pump-1': { c1: sample(4) }, stranger: { c2: sample(7) } }, [device])).toEqual([
      {
        thingName: 'pump-1',
        deviceName: 'North pump',
        code: 'c1',
        channelName: 'Pressure',
        units: 'bar',
        value: 3,
        t: now - 60_000,
      },
      {
        thingName: 'pump-1',
        deviceName: 'North pump',
        code: 'c1',
        channelName: 'Pressure',
        units: 'bar',
        value: 4,
        t: now - 1000,
      },
      {
        thingName: 'stranger',
        deviceName: 'stranger',
        code: 'c2',
        channelName: 'Ch_2',
        units: null,
        value: 7,
        t: now - 1000,
      },
    ]);
  });
});

describe('recordLastValues', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function recording(values: () => OfflineValue[]) {
    const storage = memoryStorage();
    const listeners = new Set<() => void>();
    const collect = vi.fn(values);
    const stop = recordLastValues({
      userId: 'user-1',
      clock,
      storage,
      collect,
      now: () => now,
      subscribe: (onChange) => {
        listeners.add(onChange);
        return () => listeners.delete(onChange);
      },
    });
    const change = () => listeners.forEach((listener) => listener());
    return { storage, collect, stop, change, listeners };
  }
  const value = (thingName: string, t = now - 1000): OfflineValue => ({
    thingName,
    deviceName: thingName,
    code: 'c1',
    channelName: 'Ch_1',
    units: null,
    value: 1,
    t,
  });

  it('writes a burst of changes once, after the interval, for the signed-in user', async () => {
    const { storage, collect, change } = recording(() => [value('pump-1')]);
    for (let index = 0; index < 1000; index += 1) change();
    // The live path only starts a timer: nothing is collected or written yet.
    expect(collect).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(OFFLINE_SAVE_INTERVAL_MS - 1);
    expect(storage.writes).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(storage.writes).toBe(1);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(storage.records.get('user-1')).toEqual({ userId: 'user-1', savedAt: now, clock, values: [value('pump-1')] });
    change();
    await vi.advanceTimersByTimeAsync(OFFLINE_SAVE_INTERVAL_MS);
    expect(storage.writes).toBe(2);
  });

  it('keeps only what the domain rule keeps (bounded, no week-old values)', async () => {
    const many = Array.from({ length: OFFLINE_VALUES_MAX + 30 }, (_, index) => value(`thing-${index}`));
    const { storage, change } = recording(() => [...many, value('old', now - 8 * 86_400_000)]);
    change();
    await vi.advanceTimersByTimeAsync(OFFLINE_SAVE_INTERVAL_MS);
    const kept = storage.records.get('user-1')!.values;
    expect(kept).toHaveLength(OFFLINE_VALUES_MAX);
    expect(kept.some((kept) => kept.thingName === 'old')).toBe(false);
  });

  it('writes nothing after it stops, even with a write pending, and unsubscribes', async () => {
    const { storage, stop, change, listeners } = recording(() => [value('pump-1')]);
    change();
    stop();
    expect(listeners.size).toBe(0);
    await vi.advanceTimersByTimeAsync(OFFLINE_SAVE_INTERVAL_MS * 3);
    expect(storage.writes).toBe(0);
  });

  it('survives a storage that refuses the write', async () => {
    const { storage, change } = recording(() => [value('pump-1')]);
    storage.write = () => Promise.reject(new Error('QuotaExceededError'));
    change();
    await vi.advanceTimersByTimeAsync(OFFLINE_SAVE_INTERVAL_MS);
    change();
    await vi.advanceTimersByTimeAsync(OFFLINE_SAVE_INTERVAL_MS);
    expect(storage.records.size).toBe(0);
  });
});
