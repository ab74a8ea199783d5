import type { Kysely } from 'kysely';
import { isDemoDeviceId } from '@fieldlink/domain/demo';
import { rawTransmitterFullScale } from '@fieldlink/domain/pressure-signal';
import type { Database } from '../db/schema';
import type { DeviceEvents } from '../events';

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
 * Thing name -> device lookup for the broker and ingest hot paths (`_DEMO` devices are never found).
 * Entries are loaded on first use and kept until something changes them: a device provisioned
 * again, or a config frame with channels (which decide the raw transmitters), stored by this
 * instance or, in a cluster, by another and relayed on the event bus. No timer re-reads them: at
 * 100,000 devices a 60 s expiry cost some 1,700 selects a second for nothing.
 */
export class DeviceDirectory {
  private readonly cache = new Map<string, DeviceRef>();
  /** Counts `forget` calls, so a read that started before one does not store what it read. */
  private forgotten = 0;

  constructor(
    private readonly db: Kysely<Database>,
    events: DeviceEvents,
  ) {
    events.on((event) => {
      if (event.type === 'server/deviceConfig' && event.config.channels) this.forget(event.thingName);
    });
  }

  /** The device if it is cached (a `_DEMO` device never is), else undefined: ask {@link find}. */
  cached(thingName: string): DeviceRef | undefined {
    return this.cache.get(thingName);
  }

  async find(thingName: string): Promise<DeviceRef | null> {
    // A `_DEMO` device is simulated in the browser (core §1): it never connects and nothing of it is
    // ingested, whatever its stored secret.
    if (isDemoDeviceId(thingName)) return null;
    const cached = this.cache.get(thingName);
    if (cached) return cached;
    const forgotten = this.forgotten;
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
    if (ref && forgotten === this.forgotten) this.cache.set(thingName, ref);
    return ref;
  }

  forget(thingName: string): void {
    this.forgotten += 1;
    this.cache.delete(thingName);
  }
}
