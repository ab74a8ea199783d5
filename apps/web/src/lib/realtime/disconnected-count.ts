import type { DeviceConnectionState } from './realtime-store';

/** A list of devices' connection flags as given, counted once: the fallback of the live states. */
export interface ConnectionBase {
  /** Devices of the list disconnected by their given flag. */
  disconnected: number;
  /** Per thing name, how many entries of the list are connected and how many not by their given flag. */
  byThing: ReadonlyMap<string, { connected: number; disconnected: number }>;
}

export function connectionBase(devices: readonly { thingName: string; isConnected: boolean }[]): ConnectionBase {
  const byThing = new Map<string, { connected: number; disconnected: number }>();
  let disconnected = 0;
  for (const device of devices) {
    let entry = byThing.get(device.thingName);
    if (!entry) {
      entry = { connected: 0, disconnected: 0 };
      byThing.set(device.thingName, entry);
    }
    if (device.isConnected) entry.connected += 1;
    else {
      entry.disconnected += 1;
      disconnected += 1;
    }
  }
  return { disconnected, byThing };
}

/**
 * How many devices of the list are disconnected, a device's live state first, then its given flag:
 * the base count corrected for the devices that have a live state, so the cost is the number of live
 * states rather than the size of the fleet.
 */
export function disconnectedCount(base: ConnectionBase, live: Readonly<Record<string, DeviceConnectionState>>): number {
  let count = base.disconnected;
  for (const thingName in live) {
    const entry = base.byThing.get(thingName);
    if (!entry) continue;
    count += live[thingName]!.isConnected ? -entry.disconnected : entry.connected;
  }
  return count;
}
