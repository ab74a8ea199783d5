import { useMemo } from 'react';
import { useLiveDevices } from '../../../lib/realtime/use-live-devices';

/** Keeps one device live while a page shows it; returns the state of its latest values' REST read. */
export function useLiveDevice(device: { id: string; thingName: string } | undefined) {
  const devices = useMemo(() => (device ? [device] : []), [device]);
  return useLiveDevices(devices, true);
}
