import type { Device } from '@fieldlink/api/device';
import {
  activeSprayerAlarms,
  countedSprayerAlarms,
  nextScheduledSpray,
  schedulesFromRegisters,
  sprayBlockedBy,
  weekTimeAt,
} from '@fieldlink/domain/spray';
import { utcOffsetMinutes } from '@fieldlink/domain/time-zone';
import { useNow } from '../../../lib/clock';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useStore } from '../../../lib/use-store';
import { sprayerReadings } from '../model/sprayer-card';
import { useSprayerLive } from './use-sprayer';

/**
 * What a sprayer card shows: its latest values, next scheduled spray (in the device's zone, on the
 * shared clock), alarms and what they block, and whether it is online or spraying.
 */
export function useSprayerCard(device: Device) {
  const live = useSprayerLive(device);
  const latest = useStore(realtimeStore, (s) => s.latest[device.thingName]);
  const readings = sprayerReadings((code) => latest?.[code]?.value);
  const now = useNow();
  const schedules = schedulesFromRegisters(live.registers);
  const next = nextScheduledSpray(schedules, weekTimeAt(now, safeOffset(live.timeZone, now)));
  return {
    live,
    readings,
    next,
    nextSteps: next ? (schedules[next.index]?.durationSteps ?? 0) : 0,
    alarms: activeSprayerAlarms(live.alarmMask),
    counted: countedSprayerAlarms(live.alarmMask, live.channels),
    blockedManual: sprayBlockedBy(live.alarmMask, 'manual'),
    blockedTest: sprayBlockedBy(live.alarmMask, 'test'),
    offline: !live.isConnected,
    spraying: readings.zoneOn[0] || readings.zoneOn[1],
  };
}

export type SprayerCardState = ReturnType<typeof useSprayerCard>;

/** The zone's offset from UTC now; a zone the browser does not know is read as UTC. */
function safeOffset(timeZone: string, now: number): number {
  try {
    return utcOffsetMinutes(timeZone, now);
  } catch {
    return 0;
  }
}
