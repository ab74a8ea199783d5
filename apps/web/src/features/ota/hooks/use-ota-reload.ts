import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isOtaFinal, otaReloadAt } from '@fieldlink/domain/ota';
import { deviceQueryKey } from '../../../lib/api/get-device';
import { observeDeviceTable } from '../../../lib/realtime/realtime-connection';
import { useAllOtaProgress } from '../../../lib/realtime/use-realtime';
import { OTA_PENDING_QUERY_KEY } from '../api/get-ota-pending';

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
  const scheduled = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const pendingSeen = useRef(new Map<string, number | null>());

  useEffect(() => {
    // A device's pending mark changed (submitted, approved, cancelled): the banner's count is read again.
    let pendingChanged = false;
    for (const [thingName, entry] of Object.entries(progress)) {
      if (pendingSeen.current.get(thingName) !== entry.otaPendingSubmittedAt) pendingChanged = true;
      pendingSeen.current.set(thingName, entry.otaPendingSubmittedAt);
    }
    if (pendingChanged) void queryClient.invalidateQueries({ queryKey: OTA_PENDING_QUERY_KEY });
    for (const entry of Object.values(progress)) {
      const { update, deviceId } = entry;
      if (!isOtaFinal(update.state) || update.finishedAt === null || scheduled.current.has(update.id)) continue;
      const timer = setTimeout(
        () => {
          void queryClient.invalidateQueries({ queryKey: deviceQueryKey(deviceId) });
          void queryClient.invalidateQueries({ queryKey: ['device-table'] });
          void queryClient.invalidateQueries({ queryKey: OTA_PENDING_QUERY_KEY });
        },
        Math.max(0, otaReloadAt(update.finishedAt) - Date.now()),
      );
      scheduled.current.set(update.id, timer);
    }
  }, [progress, queryClient]);

  useEffect(
    () =>
      observeDeviceTable((batch) => {
        let pendingChanged = false;
        for (const change of batch.changes) {
          if (change.otaPendingSubmittedAt !== undefined) pendingChanged = true;
          if (!change.otaState || !isOtaFinal(change.otaState)) continue;
          pendingChanged = true;
          const key = `${change.thingName}@${batch.at}`;
          if (scheduled.current.has(key)) continue;
          const reload = () => {
            void queryClient.invalidateQueries({ queryKey: ['device-table'] });
            void queryClient.invalidateQueries({ queryKey: OTA_PENDING_QUERY_KEY });
          };
          scheduled.current.set(key, setTimeout(reload, Math.max(0, otaReloadAt(batch.at) - Date.now())));
        }
        if (pendingChanged) void queryClient.invalidateQueries({ queryKey: OTA_PENDING_QUERY_KEY });
      }),
    [queryClient],
  );

  useEffect(() => {
    const timers = scheduled.current;
    return () => timers.forEach((timer) => clearTimeout(timer));
  }, []);
}
