import { useEffect, useMemo } from 'react';
import type { LatestValue } from '@fieldlink/api/realtime';
import { showToast } from '../../../lib/app-store/app-store';
import { watchDevices } from '../../../lib/realtime/realtime-connection';
import { mergeLatestValues, realtimeStore } from '../../../lib/realtime/realtime-store';
import { useLatestValues } from '../api/get-latest-values';

/**
 * Keeps one device live while a page shows it: reads its latest values over REST into the real-time
 * store (through the same merge rule, so a slow answer never overwrites a newer pushed value) and
 * subscribes to its pushes. Returns the state of the REST read.
 */
export function useLiveDevice(device: { id: string; thingName: string } | undefined) {
  const ids = useMemo(() => (device ? [device.id] : []), [device]);
  const latest = useLatestValues(ids);
  const thingName = device?.thingName;
  const deviceId = device?.id;

  useEffect(() => {
    if (!latest.data || !thingName || !deviceId) return;
    const values = latest.data[deviceId] ?? {};
    const samples: Record<string, LatestValue[]> = {};
    for (const [code, value] of Object.entries(values)) samples[code] = [value];
    realtimeStore.setState((s) => mergeLatestValues(s, thingName, samples, Date.now()));
  }, [latest.data, thingName, deviceId]);

  useEffect(() => {
    if (!thingName) return;
    return watchDevices([thingName], (error) => showToast('error', error.message));
  }, [thingName]);

  return latest;
}
