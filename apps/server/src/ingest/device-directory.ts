import type { Kysely } from 'kysely';
import { isDemoDeviceId } from '@fieldlink/domain/demo';
import { rawTransmitterFullScale } from '@fieldlink/domain/pressure-signal';
import type { Database } from '../db/schema';

/** What ingest needs to know about a device, cached by thing name. */
export interface DeviceRef {
  id: string;
  thingName: string;
  secretHash: string;
  /**
   * Channels that report their transmitter's raw signal (channel config `signal: 'raw'`), by code,
   * with their full scale: ingest turns their readings into pressures.
   */
  rawTransmitters: ReadonlyMap<string, number>;
}

/**
 * How long an entry is trusted. The instance that takes a device's config frame drops the entry at
 * once; in a cluster the others read the device again at most this much later.
 */
export const DEVICE_DIRECTORY_TTL_MS = 60_000;

function rawTransmittersOf(channelsJson: string | null): Map<string, number> {
  const found = new Map<string, number>();
  try {
    for (const channel of JSON.parse(channelsJson ?? '[]') as { code: string; config?: Record<string, never> }[]) {
      const fullScale = rawTransmitterFullScale(channel.config);
      if (fullScale !== null) found.set(channel.code, fullScale);
    }
  } catch {
    // The channel list is the device's own, validated on the way in; an unreadable one scales nothing.
  }
  return found;
}

/**
 * Thing name -> device lookup for the broker and ingest hot paths (`_DEMO` devices are never found). Entries are loaded on first use
 * and dropped when a device is provisioned again or deleted.
 */
export class DeviceDirectory {
  private readonly cache = new Map<string, { ref: DeviceRef; loadedAt: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async find(thingName: string): Promise<DeviceRef | null> {
    // A `_DEMO` device is simulated in the browser (core §1): it never connects and nothing of it is
    // ingested, whatever its stored secret.
    if (isDemoDeviceId(thingName)) return null;
    const cached = this.cache.get(thingName);
    if (cached && this.now() - cached.loadedAt < DEVICE_DIRECTORY_TTL_MS) return cached.ref;
    const row = await this.db
      .selectFrom('devices')
      .select(['id', 'thing_name', 'secret_hash', 'channels'])
      .where('thing_name', '=', thingName)
      .executeTakeFirst();
    const ref = row
      ? {
          id: row.id,
          thingName: row.thing_name,
          secretHash: row.secret_hash,
          rawTransmitters: rawTransmittersOf(row.channels),
        }
      : null;
    // Unknown names are not cached: a device provisioned a moment later must be able to connect.
    if (ref) this.cache.set(thingName, { ref, loadedAt: this.now() });
    else this.cache.delete(thingName);
    return ref;
  }

  forget(thingName: string): void {
    this.cache.delete(thingName);
  }
}
