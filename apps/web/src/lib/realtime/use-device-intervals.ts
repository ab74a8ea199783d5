import type { DeviceIntervals } from '@fieldlink/domain/staleness';
import { useDevice } from '../api/get-device';
import { useDeviceConfig } from './use-realtime';

/**
 * A device's upload and log intervals, which set its channels' stale window (core §4): its live
 * config's, else its record's, else none (the rule's 86400 s). The record is read too: after a
 * real-time break the console drops live configs no push renewed (`realtime-connection.ts`), and
 * until the device's next config push only the record, read again then, holds the intervals.
 */
export function useDeviceIntervals(deviceId: string | undefined, thingName: string): Required<DeviceIntervals> {
  const live = useDeviceConfig(thingName);
  const record = useDevice(deviceId).data;
  return {
    uploadInterval: live?.uploadInterval ?? record?.uploadInterval ?? null,
    logInterval: live?.logInterval ?? record?.logInterval ?? null,
  };
}
