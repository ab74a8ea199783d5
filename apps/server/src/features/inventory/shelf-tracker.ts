import type { Kysely } from 'kysely';
import { advanceShelfProduct, dayStart, type ShelfProductTrack } from '@fieldlink/domain/retail';
import type { Database, RetailShelfDaysTable } from '../../db/schema';
import type { DeviceEvent, DeviceEvents } from '../../events';
import { SerialWork } from '../../serial-work';
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

export interface TrackerLogger {
  error(object: object, message: string): void;
}

/** How often the set of shelf devices is read again, whatever the events said. */
const DIRECTORY_REFRESH_MS = 60_000;

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
export class ShelfTracker {
  private shelves = new Map<string, Shelf>();
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  private readonly work: SerialWork;
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly events: DeviceEvents,
    private readonly logger: TrackerLogger,
  ) {
    this.work = new SerialWork((error, thingName) =>
      this.logger.error({ err: error, thingName }, 'Shelf stock not recorded'),
    );
  }

  async start(): Promise<void> {
    await this.reload();
    this.stopListening = this.events.on((event, origin) => this.onEvent(event, origin));
  }

  /** Waits for the folds under way (tests, shutdown). */
  async idle(): Promise<void> {
    await this.work.idle();
  }

  async stop(): Promise<void> {
    this.stopListening?.();
    await this.idle();
  }

  private async reload(): Promise<void> {
    if (!this.loading) {
      this.loading = allShelfDevices(this.db)
        .then((rows) => {
          this.shelves = new Map(
            rows.map((row) => [row.thing_name, { deviceId: row.id, products: shelfChannelsOf(row.channels) }]),
          );
          this.loadedAt = Date.now();
        })
        .finally(() => (this.loading = null));
    }
    await this.loading;
  }

  private onEvent(event: DeviceEvent, origin: 'local' | 'remote'): void {
    if (event.type === 'server/deviceConfig' && event.config.channels) {
      // A shelf's planogram may have changed, here or on another instance.
      this.work.run(event.thingName, () => this.refreshShelf(event.thingName));
      return;
    }
    if (event.type !== 'server/newRawLogs' || origin !== 'local') return;
    if (Date.now() - this.loadedAt > DIRECTORY_REFRESH_MS) void this.reload().catch(() => undefined);
    const shelf = this.shelves.get(event.thingName);
    if (!shelf) return;
    this.work.run(event.thingName, () => recordShelfReadings(this.db, shelf.deviceId, shelf.products, event.logs));
  }

  private async refreshShelf(thingName: string): Promise<void> {
    const row = await deviceChannelsByThingName(this.db, thingName);
    if (!row) return;
    const products = shelfChannelsOf(row.channels);
    // Only products the planogram names are counted: the overview sums the table as it stands.
    await forgetProductsExcept(this.db, row.id, [...products.keys()]);
    if (products.size === 0) this.shelves.delete(thingName);
    else this.shelves.set(thingName, { deviceId: row.id, products });
  }
}
