import type { Device } from '@fieldlink/api/device';
import type { LatestValue } from '@fieldlink/api/realtime';
import type { ClockPreferences } from '@fieldlink/domain/date-format';
import { describeChannel } from '@fieldlink/domain/channel-presentation';
import { keptOfflineValues, OFFLINE_SAVE_INTERVAL_MS, type OfflineValue } from '@fieldlink/domain/offline-values';
import type { LastValuesStorage } from './last-values-storage';

/**
 * The values the console knows, named as it shows them: each device's last logs as `GET /device`
 * answered them, and every live value since (the real-time store's, by thing name then channel code).
 * A value of a device whose details were never read is named by its thing name.
 */
export function collectOfflineValues(
  latest: Readonly<Record<string, Readonly<Record<string, LatestValue>>>>,
  devices: readonly Pick<Device, 'thingName' | 'name' | 'channels'>[],
): OfflineValue[] {
  const byThing = new Map(devices.map((device) => [device.thingName, device]));
  const named = (thingName: string, code: string, sample: LatestValue): OfflineValue => {
    const device = byThing.get(thingName);
    const channel = describeChannel(device?.channels.find((known) => known.code === code) ?? { code });
    return {
      thingName,
      deviceName: device?.name ?? thingName,
      code,
      channelName: channel.title,
      units: channel.units || null,
      value: sample.value,
      t: sample.t,
    };
  };
  const values: OfflineValue[] = [];
  for (const device of devices)
    for (const channel of device.channels)
      if (channel.latestLog) values.push(named(device.thingName, channel.code, channel.latestLog));
  for (const [thingName, channels] of Object.entries(latest))
    for (const [code, sample] of Object.entries(channels)) values.push(named(thingName, code, sample));
  return values;
}

export interface LastValuesRecording {
  userId: string;
  clock: ClockPreferences;
  storage: LastValuesStorage;
  /** Every value the console knows now (kept ones are chosen from them). */
  collect: () => OfflineValue[];
  /** Calls `onChange` when the known values may have changed; returns the unsubscribe. */
  subscribe: (onChange: () => void) => () => void;
  now: () => number;
}

/**
 * Writes the user's last values down as they change, at most once per {@link OFFLINE_SAVE_INTERVAL_MS}:
 * a change only starts a timer (the live path does no more), and the timer collects and writes once.
 * Returns the stop; after it nothing more is written.
 */
export function recordLastValues(recording: LastValuesRecording): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const save = () => {
    timer = null;
    if (stopped) return;
    const now = recording.now();
    recording.storage
      .write({
        userId: recording.userId,
        savedAt: now,
        clock: recording.clock,
        values: keptOfflineValues(recording.collect(), now),
      })
      // Storage full or refused (private mode): the console works on, only without an offline copy.
      .catch(() => undefined);
  };
  const unsubscribe = recording.subscribe(() => {
    timer ??= setTimeout(save, OFFLINE_SAVE_INTERVAL_MS);
  });
  return () => {
    stopped = true;
    unsubscribe();
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
}
