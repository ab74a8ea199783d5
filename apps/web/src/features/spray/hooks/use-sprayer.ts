import { useStore } from '../../../lib/use-store';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import type { Device } from '@fieldlink/api/device';

/**
 * A sprayer's live configuration: the registers and channels of its latest config push, else of
 * the REST record; its alarm bits and connection likewise. Each reads one slice of the store.
 */
export function useSprayerLive(device: Device) {
  const config = useStore(realtimeStore, (s) => s.config[device.thingName]);
  const alarmMask = useStore(realtimeStore, (s) => s.alarms[device.thingName]?.sp);
  const connection = useStore(realtimeStore, (s) => s.connection[device.thingName]);
  return {
    registers: config?.registers ?? device.registers,
    channels: config?.channels ?? device.channels,
    timeZone: config?.timeDate?.tzName ?? device.timeDate?.tzName ?? 'Etc/UTC',
    alarmMask: alarmMask ?? device.status.sp ?? 0,
    isConnected: connection?.isConnected ?? device.isConnected,
  };
}
