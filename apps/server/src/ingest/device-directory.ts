import type { Kysely } from 'kysely';
import { isDemoDeviceId } from '@fieldlink/domain/demo';
import type { Database } from '../db/schema';

/** What ingest needs to know about a device, cached by thing name. */
export interface DeviceRef {
  id: string;
  thingName: string;
  secretHash: string;
}

/**
 * Thing name -> device lookup for the broker and ingest hot paths (`_DEMO` devices are never found). Entries are loaded on first use
 * and dropped when a device is provisioned again or deleted.
 */
export class DeviceDirectory {
  private readonly cache = new Map<string, DeviceRef | null>();

  constructor(private readonly db: Kysely<Database>) {}

  async find(thingName: string): Promise<DeviceRef | null> {
    // A `_DEMO` device is simulated in the browser (core §1): it never connects and nothing of it is
    // ingested, whatever its stored secret.
    if (isDemoDeviceId(thingName)) return null;
    const cached = this.cache.get(thingName);
    if (cached !== undefined) return cached;
    const row = await this.db
      .selectFrom('devices')
      .select(['id', 'thing_name', 'secret_hash'])
      .where('thing_name', '=', thingName)
      .executeTakeFirst();
    const ref = row ? { id: row.id, thingName: row.thing_name, secretHash: row.secret_hash } : null;
    // Unknown names are not cached: a device provisioned a moment later must be able to connect.
    if (ref) this.cache.set(thingName, ref);
    return ref;
  }

  forget(thingName: string): void {
    this.cache.delete(thingName);
  }
}
