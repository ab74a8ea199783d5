import type { Kysely } from 'kysely';
import { retailProductId, type RangeState, type RetailTotals } from '@fieldlink/domain/retail';
import { retailViewerRights, storeShelf } from '@fieldlink/domain/retail-views';
import { InventoryCalls, type InventoryGroup } from '@fieldlink/services/inventory-service';
import { logBinGrid, type ChannelLog } from '@fieldlink/api/device-logs';
import type { RangeStateCounts } from '@fieldlink/api/inventory';
import type { Database } from '../../db/schema';
import { HttpError } from '../../http-errors';
import { groupsUnder } from '../device-table/repository';
import { channelLog } from '../devices/log-repository';
import { findGroup } from '../devices/repository';
import { inScope, permissionSubject } from '../session/access';
import type { UserContext } from '../session/user-context';
import { shelfChannelsOf, toTrack, type ShelfChannel } from './mapper';
import {
  dayTotals,
  productTracks,
  rangeStateCountsOf,
  shelfDevicesInGroups,
  shelfIdsInGroups,
  shelfTotals,
} from './repository';

/** A shelf device of a store, with its counting channels. */
interface Shelf {
  id: string;
  name: string;
  groupId: string;
  products: Map<string, ShelfChannel>;
}

/**
 * The inventory calls (application §7): `@fieldlink/services/inventory-service` over the shelf
 * devices' rows. The group must lie under one of the caller's attachment points (and belong to the
 * named account, which the shared calls check), else 404 as for a group that does not exist. The
 * overview is for every user in scope; a store's status and chart logs need the store-level
 * capability (`loadStoreStock`, §6), checked first (403 whatever the ids); inefficiency figures only
 * go to holders of REPORTING_PLUS (Financial Loss).
 */
export class InventoryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The calls of `@fieldlink/services/inventory-service` over the rows in the caller's scope. */
  calls(caller: UserContext): InventoryCalls<ScopedGroup> {
    const { db } = this;
    const shelvesUnder = (group: ScopedGroup) => groupsUnder(db, [group.path]).then((groups) => this.shelves(groups));
    return new InventoryCalls<ScopedGroup>(
      {
        refusal: (status, message) => new HttpError(status, message),
        rights: () => retailViewerRights(permissionSubject(caller)),
        group: async (groupId) => {
          const group = await findGroup(db, groupId);
          if (!group || !inScope(caller, group.path)) return undefined;
          return { id: group.id, accountId: group.account_id, name: group.name, path: group.path };
        },
        regionFigures: async (region, days) => {
          const groups = await groupsUnder(db, [region.path]);
          const shelves = await shelfIdsInGroups(
            db,
            groups.map((row) => row.id),
          );
          const shelfIds = shelves.map((shelf) => shelf.id);
          const [stateRows, shelfRows, dayRows] = await Promise.all([
            rangeStateCountsOf(db, shelfIds),
            shelfTotals(db, shelfIds, days[0]!),
            dayTotals(db, shelfIds, days[0]!),
          ]);
          const countsByShelf = new Map<string, RangeStateCounts>();
          for (const row of stateRows) {
            const counts = countsByShelf.get(row.device_id) ?? { EMPTY: 0, LOW: 0, GOOD: 0 };
            counts[row.range_state as RangeState] += row.products;
            countsByShelf.set(row.device_id, counts);
          }
          const totalsByShelf = new Map<string, RetailTotals>(shelfRows.map((row) => [row.device_id, totalsOf(row)]));
          const shelvesByStore = new Map<string, string[]>();
          for (const shelf of shelves)
            shelvesByStore.set(shelf.group_id, [...(shelvesByStore.get(shelf.group_id) ?? []), shelf.id]);
          return {
            stores: groups
              .filter((row) => shelvesByStore.has(row.id))
              .map((row) => ({
                groupId: row.id,
                name: row.name,
                shelves: shelvesByStore
                  .get(row.id)!
                  .map((id) => ({ counts: countsByShelf.get(id), totals: totalsByShelf.get(id) })),
              })),
            dayTotals: new Map(dayRows.map((row) => [row.day, totalsOf(row)])),
          };
        },
        storeShelves: async (store, days) => {
          const shelves = await shelvesUnder(store);
          const shelfIds = shelves.map((shelf) => shelf.id);
          const [tracks, shelfRows] = await Promise.all([
            productTracks(db, shelfIds),
            shelfTotals(db, shelfIds, days[0]!),
          ]);
          const byKey = new Map(tracks.map((row) => [retailProductId(row.device_id, row.code), row]));
          const totals = new Map(shelfRows.map((row) => [row.device_id, totalsOf(row)]));
          return shelves.map((shelf) =>
            storeShelf({ ...shelf, totals: totals.get(shelf.id) }, shelf.products.values(), (code) => {
              const row = byKey.get(retailProductId(shelf.id, code));
              return row && toTrack(row);
            }),
          );
        },
        shelfProducts: async (group) => {
          const byId = new Map((await shelvesUnder(group)).map((shelf) => [shelf.id, shelf]));
          return (deviceId, code) => byId.get(deviceId)?.products.has(code) === true;
        },
        productLogs: async (products, { start, end, binCount }) => {
          const grid = logBinGrid(start, end, binCount);
          const logs: Record<string, ChannelLog> = {};
          for (const { id, deviceId, code } of products) {
            logs[id] = await channelLog(db, { deviceId, code, start, end }, binCount, grid);
          }
          return { binWidth: grid.width, products: logs };
        },
      },
      this.clock,
    );
  }

  private async shelves(groups: readonly { id: string }[]): Promise<Shelf[]> {
    const rows = await shelfDevicesInGroups(
      this.db,
      groups.map((row) => row.id),
    );
    return rows
      .map((row) => ({ id: row.id, name: row.name, groupId: row.group_id, products: shelfChannelsOf(row.channels) }))
      .filter((shelf) => shelf.products.size > 0);
  }
}

/** A group the caller may see, with the path its stores are read under. */
type ScopedGroup = InventoryGroup & { path: string };

const totalsOf = (row: { units_sold: number; lost_sales: number }): RetailTotals => ({
  unitsSold: row.units_sold,
  lostSales: row.lost_sales,
});
