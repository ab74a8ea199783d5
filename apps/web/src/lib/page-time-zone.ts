import { useEffect, useMemo } from 'react';
import { localeClockFormat, resolveClock, type Clock, type ClockPreferences } from '@fieldlink/domain/date-format';
import { localTimeZone } from '@fieldlink/domain/time-zone';
import { appStore } from './app-store/app-store';
import { createStore } from './create-store';
import { useStore } from './use-store';

/**
 * The one time zone of the page on screen (core §9, issue 14): a device's page shows its times in
 * the device's zone (what its people read on its clock), every other page in the user's own (their
 * profile's, else the browser's). The connection bar states it once; every date and time on the
 * page formats in it, in the user's format (issue 36 item 2).
 */
const deviceZoneStore = createStore<string | null>(null);

let browser: Clock | null = null;
/** This browser's clock: its zone, and the format of its locale (read once). */
export function browserClock(): Clock {
  browser ??= { timeZone: localTimeZone(), ...localeClockFormat(navigator.language) };
  return browser;
}

/** The reader's own clock: the profile's choices over this browser's zone and locale. */
export function readerClock(preferences: ClockPreferences): Clock {
  return resolveClock(preferences, browserClock());
}

/** The signed-in user's clock, in their own zone (not the page's). */
export function useReaderClock(): Clock {
  const preferences = useStore(appStore, (s) => s.session.clock);
  return useMemo(() => readerClock(preferences), [preferences]);
}

/** The zone of the page: the device's while a device's page declares one, else the user's. */
export function usePageTimeZone(): { timeZone: string; isDevice: boolean } {
  const { timeZone } = usePageClock();
  const deviceZone = useStore(deviceZoneStore, (zone) => zone);
  return { timeZone, isDevice: deviceZone !== null };
}

/**
 * The clock every date and time of the page is written with: the user's format in the page's zone
 * (the device's on a device's page, else the user's own).
 */
export function usePageClock(): Clock {
  const reader = useReaderClock();
  const deviceZone = useStore(deviceZoneStore, (zone) => zone);
  return useMemo(() => (deviceZone === null ? reader : { ...reader, timeZone: deviceZone }), [reader, deviceZone]);
}

/** A device's page declares its device's zone (null: the device has none, the user's is used). */
export function useDeviceTimeZone(zone: string | null): void {
  useEffect(() => {
    deviceZoneStore.setState(() => zone);
    return () => deviceZoneStore.setState(() => null);
  }, [zone]);
}
