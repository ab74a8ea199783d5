import { useEffect, useState } from 'react';
import type { OtaState } from '@fieldlink/domain/ota';
import { watchDeviceTable } from '../../../lib/realtime/realtime-connection';

/** A device's update as the real-time channel last told it, and when (unix ms of the batch). */
export interface LiveOtaState {
  state: OtaState | null;
  percent: number | null;
  at: number;
}

/**
 * The OTA state of every device in the user's scope as it changes, by thing name, from the device
 * table's live feed (one batch a second at most, whatever the size of the rollouts). `onResync` runs
 * when the socket came back after a break (changes may have been missed).
 */
export function useLiveOtaStates(onResync: () => void): ReadonlyMap<string, LiveOtaState> {
  const [states, setStates] = useState<ReadonlyMap<string, LiveOtaState>>(() => new Map());
  useEffect(
    () =>
      watchDeviceTable({
        onChanges: (batch) => {
          const changes = batch.changes.filter((change) => change.otaState !== undefined);
          if (changes.length === 0) return;
          setStates((current) => {
            const next = new Map(current);
            for (const change of changes) {
              next.set(change.thingName, {
                state: change.otaState ?? null,
                percent: change.otaPercent ?? null,
                at: batch.at,
              });
            }
            return next;
          });
        },
        onWatching: () => undefined,
        onResync,
      }),
    // `onResync` refetches the dialog's queries: stable for the life of the dialog.
    [], // eslint-disable-line react-hooks/exhaustive-deps
  );
  return states;
}
