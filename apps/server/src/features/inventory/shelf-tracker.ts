import type { Kysely } from 'kysely';
import { advanceShelfProduct, dayStart, type ShelfProductTrack } from '@fieldlink/domain/retail';
import type { Database, RetailShelfDaysTable } from '../../db/schema';
import { DeviceFollower, type FollowerLogger } from '../../device-follower';
import type { DeviceEvent, DeviceEvents, EventOrigin } from '../../events';
import { shelfChannelsOf, toTrack, toTrackRow, type ShelfChannel } from './mapper';
import {
  addToShelfDays,
  allShelfDevices,
  deviceChannelsByThingName,
  forgetProductsExcept,
  productTracks,
  saveProductTracks,
} from './repository';

/** Readings of a shelf's channels: per code, samples oldest first. */
export type ShelfReadings = Readonly<Record<string, readonly { readonly t: number; readonly value: number }[]>>;

/**
 * Folds a shelf's readings into where its products stand and into its days (domain
 * `advanceShelfProduct`), in one transaction. Used for live frames and for the demo's history.
 */
export async function recordShelfReadings(
  db: Kysely<Database>,
  deviceId: string,
  products: ReadonlyMap<string, ShelfChannel>,
  readings: ShelfReadings,
): Promise<void> {
  const codes = Object.keys(readings).filter((code) => products.has(code) && (readings[code]?.length ?? 0) > 0);
  if (codes.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const stored = new Map(
      (await productTracks(trx, [deviceId])).map((row) => [row.code, toTrack(row)] as [string, ShelfProductTrack]),
    );
    const days = new Map<number, RetailShelfDaysTable>();
    const tracks = codes.map((code) => {
      const space = products.get(code)!;
      let track = stored.get(code) ?? null;
      for (const sample of readings[code]!) {
        const result = advanceShelfProduct(track, { t: sample.t, count: sample.value }, space);
        track = result.track;
        if (result.unitsSold === 0 && result.lostSales === 0) continue;
        const day = dayStart(sample.t);
        const row = days.get(day) ?? { device_id: deviceId, day, units_sold: 0, lost_sales: 0 };
        row.units_sold += result.unitsSold;
        row.lost_sales += result.lostSales;
        days.set(day, row);
      }
      return toTrackRow(deviceId, code, track!);
    });
    await saveProductTracks(trx, tracks);
    await addToShelfDays(trx, [...days.values()]);
  });
}

interface Shelf {
  deviceId: string;
  products: Map<string, ShelfChannel>;
}

/**
 * Follows the shelves' stock as frames are stored: it listens to the events of frames this
 * instance stored (`local`), like the alarm evaluator, so each reading is folded once in a cluster.
 * A device that counts no product costs one map lookup per frame. One fold at a time per shelf, in
 * the order frames were committed.
 */
export class ShelfTracker extends DeviceFollower<Shelf> {
  constructor(
    private readonly db: Kysely<Database>,
    events: DeviceEvents,
    logger: FollowerLogger,
  ) {
    super(events, logger, 'Shelf stock not recorded');
  }

  protected async readDirectory(): Promise<Map<string, Shelf>> {
    const rows = await allShelfDevices(this.db);
    return new Map(rows.map((row) => [row.thing_name, { deviceId: row.id, products: shelfChannelsOf(row.channels) }]));
  }

  protected onEvent(event: DeviceEvent, origin: EventOrigin): void {
    if (event.type === 'server/deviceConfig' && event.config.channels) {
      // A shelf's planogram may have changed, here or on another instance.
      this.work.run(event.thingName, () => this.refreshShelf(event.thingName));
      return;
    }
    if (event.type !== 'server/newRawLogs' || origin !== 'local') return;
    this.refreshWhenStale();
    const shelf = this.directory.get(event.thingName);
    if (!shelf) return;
    this.work.run(event.thingName, () => recordShelfReadings(this.db, shelf.deviceId, shelf.products, event.logs));
  }

  private async refreshShelf(thingName: string): Promise<void> {
    const row = await deviceChannelsByThingName(this.db, thingName);
    if (!row) return;
    const products = shelfChannelsOf(row.channels);
    // Only products the planogram names are counted: the overview sums the table as it stands.
    await forgetProductsExcept(this.db, row.id, [...products.keys()]);
    if (products.size === 0) this.directory.delete(thingName);
    else this.directory.set(thingName, { deviceId: row.id, products });
  }
}
