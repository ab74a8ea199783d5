import { binWidthOf, type ChannelLog } from '@fieldlink/api/device-logs';
import { addRetailTotals, countRangeStates, shelfProductChannel } from '@fieldlink/domain/retail';
import { storeShelf, type StoreShelf } from '@fieldlink/domain/retail-views';
import { InventoryCalls, type InventoryGroup } from '@fieldlink/services/inventory-service';
import { DemoCallError } from './demo-call-error';
import { DEMO_ACCOUNT_ID, type DemoDataset } from './demo-dataset';
import type { SimulationLink } from './simulation-link';

type Shelf = Awaited<ReturnType<SimulationLink['snapshots']>>[number] & { name: string };

/** What a simulated shelf holds, as the domain's retail views read a shelf (its sales over `days`). */
function simulatedShelf(shelf: Shelf, days: readonly number[]): StoreShelf {
  const channels = shelf.channels.flatMap(({ code, name, product }) =>
    product ? [shelfProductChannel(code, name, product)] : [],
  );
  const totals = addRetailTotals(days.map((day) => shelf.shelf?.days[String(day)]));
  return storeShelf({ id: shelf.thingName, name: shelf.name, totals }, channels, (code) => shelf.shelf?.tracks[code]);
}

/**
 * The inventory calls (`@fieldlink/services/inventory-service`, which decides as on the server) over
 * the demo's stores: its groups with smart shelves, as the worker follows them. The account's root
 * is the region of them all.
 */
export function demoInventoryCalls(
  dataset: DemoDataset,
  link: SimulationLink,
  rights: () => { showsInefficiency: boolean; showsStores: boolean },
  now: number,
): InventoryCalls<InventoryGroup> {
  const root = { id: dataset.rootId, accountId: DEMO_ACCOUNT_ID, name: dataset.fleet.accountName };
  /** The stores under a group (every one under the root), each with its shelves. */
  const stores = async (group: InventoryGroup) => {
    const found: { group: InventoryGroup; shelves: Shelf[] }[] = [];
    for (const { id, name, devices } of dataset.groups.filter((entry) => group === root || entry.id === group.id)) {
      const snapshots = await link.snapshots(devices.map((device) => device.thingName));
      const shelves = snapshots.flatMap((snapshot) =>
        snapshot.shelf ? [{ ...snapshot, name: dataset.devices.get(snapshot.thingName)!.fleet.name }] : [],
      );
      if (shelves.length > 0) found.push({ group: { id, accountId: DEMO_ACCOUNT_ID, name }, shelves });
    }
    return found;
  };
  const shelvesUnder = async (group: InventoryGroup) => (await stores(group)).flatMap((store) => store.shelves);
  return new InventoryCalls(
    {
      refusal: (status, message) => new DemoCallError(status, message),
      rights,
      group: async (groupId) => {
        if (groupId === root.id) return root;
        const group = dataset.groups.find((entry) => entry.id === groupId);
        return group && { id: group.id, accountId: DEMO_ACCOUNT_ID, name: group.name };
      },
      regionFigures: async (region, days) => {
        const found = await stores(region);
        const shelves = found.flatMap((store) => store.shelves);
        return {
          stores: found.map(({ group, shelves: own }) => ({
            groupId: group.id,
            name: group.name,
            shelves: own.map((shelf) => {
              const { products, totals } = simulatedShelf(shelf, days);
              return { counts: countRangeStates(products.map(({ track }) => track.rangeState)), totals };
            }),
          })),
          dayTotals: new Map(
            days.map((day) => [day, addRetailTotals(shelves.map((shelf) => shelf.shelf?.days[String(day)]))]),
          ),
        };
      },
      storeShelves: async (store, days) => (await shelvesUnder(store)).map((shelf) => simulatedShelf(shelf, days)),
      shelfProducts: async (group) => {
        const shelves = await shelvesUnder(group);
        return (deviceId, code) =>
          shelves.some(
            (shelf) =>
              shelf.thingName === deviceId &&
              shelf.channels.some((channel) => channel.code === code && channel.product),
          );
      },
      productLogs: async (products, { start, end, binCount }) => {
        const logs: Record<string, ChannelLog> = {};
        for (const { id, deviceId, code } of products) {
          logs[id] = (await link.logs({ thingName: deviceId, codes: [code], start, end, binCount }))[code]!;
        }
        return { binWidth: binWidthOf(start, end, binCount), products: logs };
      },
    },
    () => now,
  );
}
