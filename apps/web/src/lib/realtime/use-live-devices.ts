import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { LatestValue } from '@fieldlink/api/realtime';
import { latestValuesQuery } from '../api/get-latest-values';
import { showToast } from '../app-store/app-store';
import { watchDevices } from './realtime-connection';
import { mergeLatestValues, realtimeStore } from './realtime-store';

/**
 * Keeps devices live while a page shows them (a device's dash, a scene, the spray overview): their
 * latest values read once over REST into the real-time store (through the store's merge rule, so a
 * slow answer never replaces a newer push) and their pushes subscribed; unsubscribed on leaving.
 * Nothing happens unless `enabled` (§6: without view-dashboard no device subscriptions are made).
 * Returns the state of the REST read.
 */
export function useLiveDevices(devices: readonly { id: string; thingName: string }[], enabled: boolean) {
  const ids = devices.map((device) => device.id);
  const key = devices.map((device) => `${device.id}=${device.thingName}`).join(',');
  const latest = useQuery({ ...latestValuesQuery(ids), enabled: enabled && ids.length > 0 });

  useEffect(() => {
    if (!latest.data) return;
    const now = Date.now();
    realtimeStore.setState((state) => {
      let next = state;
      for (const device of devices) {
        const values = latest.data[device.id];
        if (!values) continue;
        const samples: Record<string, LatestValue[]> = {};
        for (const [code, value] of Object.entries(values)) samples[code] = [value];
        next = mergeLatestValues(next, device.thingName, samples, now);
      }
      return next;
    });
    // `key` names the devices; `devices` itself is a new array on every render.
  }, [latest.data, key]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (!enabled || key === '') return;
    const thingNames = key.split(',').map((pair) => pair.slice(pair.indexOf('=') + 1));
    return watchDevices(thingNames, (error) => showToast('error', error.message));
  }, [enabled, key]);

  return latest;
}
