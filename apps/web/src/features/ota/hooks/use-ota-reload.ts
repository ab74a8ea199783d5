import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { isOtaFinal, OTA_RELOAD_DELAY_MS, otaReloadAt } from '@fieldlink/domain/ota';
import { deviceQueryKey } from '../../../lib/api/get-device';
import { observeDeviceTable } from '../../../lib/realtime/realtime-connection';
import { useAllOtaProgress } from '../../../lib/realtime/use-realtime';
import { OTA_PENDING_QUERY_KEY } from '../api/get-ota-pending';

type Timers = Map<string, ReturnType<typeof setTimeout>>;

/**
 * A watched device's update heard of this long after its reload was due is not news but the device's
 * current state (a subscription sends it first): what it would read again has been read since it
 * ended or is read when shown (a record is fresh for 30 s, the table follows its feed, the pending
 * list is read every 60 s).
 */
const OVERDUE_MS = OTA_RELOAD_DELAY_MS;

/**
 * Reads the tables, the pending list and (given) the device again 30 s after an update finished
 * (§4, §9), once per `key`.
 */
function reloadLater(queryClient: QueryClient, timers: Timers, key: string, finishedAt: number, deviceId?: string) {
  if (timers.has(key)) return;
  const reload = () => {
    if (deviceId !== undefined) void queryClient.invalidateQueries({ queryKey: deviceQueryKey(deviceId) });
    void queryClient.invalidateQueries({ queryKey: ['device-table'] });
    void queryClient.invalidateQueries({ queryKey: OTA_PENDING_QUERY_KEY });
  };
  timers.set(key, setTimeout(reload, Math.max(0, otaReloadAt(finishedAt) - Date.now())));
}

/**
 * Keeps the console in step with OTA news from the real-time channel. When a device's update finishes, the console reloads that device 30 s later (§4, §9): its cached
 * device and the tables showing it are read again, so the new firmware and the final OTA status show.
 * Mounted once in the shell; each finished update is reloaded once. The news comes from watched
 * devices (`server/otaProgress`) and, on the device table, from the table's feed, which watches none:
 * there a pending mark that changes or an update that ends reads the banner's count again at once.
 */
export function useOtaReload(): void {
  const queryClient = useQueryClient();
  const progress = useAllOtaProgress();
  const scheduled = useRef<Timers>(new Map());
  const pendingSeen = useRef(new Map<string, number | null>());

  useEffect(() => {
    // A device's pending mark changed (submitted, approved, cancelled): the banner's count is read again.
    let pendingChanged = false;
    for (const [thingName, entry] of Object.entries(progress)) {
      const seen = pendingSeen.current;
      // A device first heard of (a subscription's current state) changes the count only if it waits.
      const changed = seen.has(thingName)
        ? seen.get(thingName) !== entry.otaPendingSubmittedAt
        : entry.otaPendingSubmittedAt !== null;
      if (changed) pendingChanged = true;
      seen.set(thingName, entry.otaPendingSubmittedAt);
    }
    if (pendingChanged) void queryClient.invalidateQueries({ queryKey: OTA_PENDING_QUERY_KEY });
    for (const { update, deviceId } of Object.values(progress)) {
      if (!isOtaFinal(update.state) || update.finishedAt === null) continue;
      if (otaReloadAt(update.finishedAt) < Date.now() - OVERDUE_MS) continue;
      reloadLater(queryClient, scheduled.current, update.id, update.finishedAt, deviceId);
    }
  }, [progress, queryClient]);

  useEffect(
    () =>
      observeDeviceTable((batch) => {
        const ended = batch.changes.some((change) => change.otaState && isOtaFinal(change.otaState));
        // One reload for the batch, however many devices of a rollout ended in it: the table is one read.
        if (ended) reloadLater(queryClient, scheduled.current, `table@${batch.at}`, batch.at);
        if (ended || batch.changes.some((change) => change.otaPendingSubmittedAt !== undefined)) {
          void queryClient.invalidateQueries({ queryKey: OTA_PENDING_QUERY_KEY });
        }
      }),
    [queryClient],
  );

  useEffect(() => {
    const timers = scheduled.current;
    return () => timers.forEach((timer) => clearTimeout(timer));
  }, []);
}
