import type { Device } from '@fieldlink/api/device';
import type { ClockPreferences } from '@fieldlink/domain/date-format';
import { queryClient } from '../query-client';
import { realtimeStore } from '../realtime/realtime-store';
import { collectOfflineValues, recordLastValues } from './last-values-recorder';
import { indexedDbLastValues, type LastValuesRecord, type LastValuesStorage } from './last-values-storage';

/**
 * The signed-in user's last values in this browser (issue 39 item 1): recorded while they are signed
 * in, read by the offline screen, forgotten at sign-out. One record per user id, and only the
 * signed-in user's is ever kept: another person on this browser never sees them.
 */
let storage: LastValuesStorage | null | undefined;
function lastValuesStorage(): LastValuesStorage | null {
  storage ??= typeof indexedDB === 'undefined' ? null : indexedDbLastValues(indexedDB);
  return storage;
}

const isDevice = (value: unknown): value is Device =>
  typeof value === 'object' && value !== null && 'thingName' in value && 'channels' in value;

let stopRecording: (() => void) | null = null;

/** Starts recording `userId`'s values (after the account was read); anyone else's are forgotten first. */
export function recordSignedInUserValues(userId: string, clock: ClockPreferences): void {
  const kept = lastValuesStorage();
  stopRecording?.();
  stopRecording = null;
  if (!kept) return;
  void kept.clear(userId).catch(() => undefined);
  stopRecording = recordLastValues({
    userId,
    clock,
    storage: kept,
    now: Date.now,
    collect: () =>
      collectOfflineValues(
        realtimeStore.getState().latest,
        queryClient
          .getQueriesData({ queryKey: ['device'] })
          .map(([, data]) => data)
          .filter(isDevice),
      ),
    subscribe: (onChange) => {
      const stopLive = realtimeStore.subscribe(onChange);
      const stopDevices = queryClient.getQueryCache().subscribe((event) => {
        if (event.type === 'updated' && event.query.queryKey[0] === 'device') onChange();
      });
      return () => {
        stopLive();
        stopDevices();
      };
    },
  });
}

/** Sign-out: recording stops and every user's values leave this browser. */
export function forgetLastValues(): void {
  stopRecording?.();
  stopRecording = null;
  void lastValuesStorage()
    ?.clear()
    .catch(() => undefined);
}

/** The values `userId` last saw in this browser, or null (none kept, or no storage). */
export async function readLastValues(userId: string): Promise<LastValuesRecord | null> {
  try {
    return (await lastValuesStorage()?.read(userId)) ?? null;
  } catch {
    return null;
  }
}
