import { useEffect } from 'react';
import { localTimeZone } from '@fieldlink/domain/time-zone';
import { createStore } from './create-store';
import { useStore } from './use-store';

/**
 * The one time zone of the page on screen (core §9, issue 14): a device's page shows its times in
 * the device's zone (what its people read on its clock), every other page in the user's own (the
 * browser's). The connection bar states it once; every date and time on the page formats in it.
 */
const deviceZoneStore = createStore<string | null>(null);

/** The zone of the page: the device's while a device's page declares one, else the user's. */
export function usePageTimeZone(): { timeZone: string; isDevice: boolean } {
  const deviceZone = useStore(deviceZoneStore, (zone) => zone);
  return deviceZone === null
    ? { timeZone: localTimeZone(), isDevice: false }
    : { timeZone: deviceZone, isDevice: true };
}

/** A device's page declares its device's zone (null: the device has none, the user's is used). */
export function useDeviceTimeZone(zone: string | null): void {
  useEffect(() => {
    deviceZoneStore.setState(() => zone);
    return () => deviceZoneStore.setState(() => null);
  }, [zone]);
}
