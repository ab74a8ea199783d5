import type { Kysely } from 'kysely';
import { overviewDays, retailProductId, type RangeState, type RetailTotals } from '@fieldlink/domain/retail';
import { retailRegionOverview, retailStoreView, retailViewerRights } from '@fieldlink/domain/retail-views';
import { storeDeviceLogs } from '@fieldlink/services/inventory-service';
import { logBinGrid, type ChannelLog } from '@fieldlink/api/device-logs';
import {
  type OverviewAnswer,
  type OverviewQuery,
  type RangeStateCounts,
  type StoreDeviceLogsAnswer,
  type StoreDeviceLogsQuery,
  type StoreStatusAnswer,
  type StoreStatusQuery,
} from '@fieldlink/api/inventory';
import type { Database } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import { groupsUnder } from '../device-table/repository';
import { channelLog } from '../devices/log-repository';
import { findGroup } from '../devices/repository';
import { inScope, permissionSubject, requireCapability } from '../session/access';
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
import { GROUP_NOT_FOUND } from '@fieldlink/api/errors';

/** A shelf device of a store, with its counting channels. */
interface Shelf {
  id: string;
  name: string;
  groupId: string;
  products: Map<string, ShelfChannel>;
}

/**
 * The inventory calls (application §7), answered from the shelf devices' data. The group must lie
 * under one of the caller's attachment points and belong to the named account, else 404 as for a
 * group that does not exist. The overview is for every user in scope; a store's status and chart
 * logs need the store-level capability (`loadStoreStock`, §6), checked first (403 whatever the
 * ids); inefficiency figures only go to holders of REPORTING_PLUS (Financial Loss).
 */
export class InventoryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  async overview(caller: UserContext, query: OverviewQuery): Promise<OverviewAnswer> {
    const group = await this.visibleGroup(caller, query.groupId, query.accountId);
    const now = this.clock();
    const days = overviewDays(now);
    const groups = await groupsUnder(this.db, [group.path]);
    const shelves = await shelfIdsInGroups(
      this.db,
      groups.map((row) => row.id),
    );
    const shelfIds = shelves.map((shelf) => shelf.id);
    const [stateRows, shelfRows, dayRows] = await Promise.all([
      rangeStateCountsOf(this.db, shelfIds),
      shelfTotals(this.db, shelfIds, days[0]!),
      dayTotals(this.db, shelfIds, days[0]!),
    ]);
    const countsByShelf = new Map<string, RangeStateCounts>();
    for (const row of stateRows) {
      const counts = countsByShelf.get(row.device_id) ?? { EMPTY: 0, LOW: 0, GOOD: 0 };
      counts[row.range_state as RangeState] += row.products;
      countsByShelf.set(row.device_id, counts);
    }
    const totalsByShelf = new Map<string, RetailTotals>(
      shelfRows.map((row) => [row.device_id, { unitsSold: row.units_sold, lostSales: row.lost_sales }]),
    );
    const totalsByDay = new Map<number, RetailTotals>(
      dayRows.map((row) => [row.day, { unitsSold: row.units_sold, lostSales: row.lost_sales }]),
    );
    const shelvesByStore = new Map<string, string[]>();
    for (const shelf of shelves)
      shelvesByStore.set(shelf.group_id, [...(shelvesByStore.get(shelf.group_id) ?? []), shelf.id]);
    return retailRegionOverview({
      group: { groupId: group.id, accountId: group.account_id, name: group.name },
      stores: groups
        .filter((row) => shelvesByStore.has(row.id))
        .map((row) => ({
          groupId: row.id,
          name: row.name,
          shelves: shelvesByStore
            .get(row.id)!
            .map((id) => ({ counts: countsByShelf.get(id), totals: totalsByShelf.get(id) })),
        })),
      days: days.map((timestamp) => ({ timestamp, totals: totalsByDay.get(timestamp) })),
      ...retailViewerRights(permissionSubject(caller)),
    });
  }

  async storeStatus(caller: UserContext, query: StoreStatusQuery): Promise<StoreStatusAnswer> {
    requireCapability(caller, 'loadStoreStock');
    const group = await this.visibleGroup(caller, query.groupId, query.accountId);
    const days = overviewDays(this.clock());
    const groups = await groupsUnder(this.db, [group.path]);
    const shelves = await this.shelves(groups.map((row) => row.id));
    const shelfIds = shelves.map((shelf) => shelf.id);
    const [tracks, shelfRows] = await Promise.all([
      productTracks(this.db, shelfIds),
      shelfTotals(this.db, shelfIds, days[0]!),
    ]);
    const byKey = new Map(tracks.map((row) => [retailProductId(row.device_id, row.code), row]));
    const totals = new Map(
      shelfRows.map((row) => [row.device_id, { unitsSold: row.units_sold, lostSales: row.lost_sales }]),
    );
    return retailStoreView(
      { groupId: group.id, accountId: group.account_id, name: group.name },
      shelves.map((shelf) => ({
        id: shelf.id,
        name: shelf.name,
        products: [...shelf.products.values()].flatMap((channel) => {
          const row = byKey.get(retailProductId(shelf.id, channel.code));
          return row ? [{ channel, track: toTrack(row) }] : [];
        }),
        totals: totals.get(shelf.id),
      })),
      retailViewerRights(permissionSubject(caller)).showsInefficiency,
    );
  }

  /** `GET /inv/store-device-logs`: the call of `@fieldlink/services/inventory-service` over the rows in scope. */
  storeDeviceLogs(caller: UserContext, query: StoreDeviceLogsQuery): Promise<StoreDeviceLogsAnswer> {
    requireCapability(caller, 'loadStoreStock');
    return storeDeviceLogs(
      {
        refusal: (status, message) => new HttpError(status, message),
        group: async (groupId) => {
          const group = await findGroup(this.db, groupId);
          return group && inScope(caller, group.path) ? group : undefined;
        },
        shelfProducts: async (group) => {
          const groups = await groupsUnder(this.db, [group.path]);
          const shelves = new Map((await this.shelves(groups.map((row) => row.id))).map((shelf) => [shelf.id, shelf]));
          return (deviceId, code) => shelves.get(deviceId)?.products.has(code) === true;
        },
        productLogs: async (products, { start, end, binCount }) => {
          const grid = logBinGrid(start, end, binCount);
          const logs: Record<string, ChannelLog> = {};
          for (const { id, deviceId, code } of products) {
            logs[id] = await channelLog(this.db, { deviceId, code, start, end }, binCount, grid);
          }
          return { binWidth: grid.width, products: logs };
        },
      },
      query,
      this.clock(),
    );
  }

  private async visibleGroup(caller: UserContext, groupId: string, accountId: string) {
    const group = await findGroup(this.db, groupId);
    if (!group || group.account_id !== accountId || !inScope(caller, group.path)) throw notFound(GROUP_NOT_FOUND);
    return group;
  }

  private async shelves(groupIds: readonly string[]): Promise<Shelf[]> {
    const rows = await shelfDevicesInGroups(this.db, groupIds);
    return rows
      .map((row) => ({ id: row.id, name: row.name, groupId: row.group_id, products: shelfChannelsOf(row.channels) }))
      .filter((shelf) => shelf.products.size > 0);
  }
}
