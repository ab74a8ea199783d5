import type { Kysely, Transaction } from 'kysely';
import type { Database, RetailProductsTable, RetailShelfDaysTable } from '../../db/schema';

/**
 * Queries of the retail stock (features/inventory). A shelf device is one whose channels carry a
 * product (its planogram, from its `config` frame); `retail_products` keeps where each product
 * stands and `retail_shelf_days` each shelf's sales and lost sales per UTC day.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** Marks the stored channel list of a device counting products, so other devices are skipped cheaply. */
const PRODUCT_MARK = '%"product":%';

/** The shelf devices in the given groups, with their channel lists. */
export function shelfDevicesInGroups(db: Db, groupIds: readonly string[]) {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('devices')
    .select(['id', 'name', 'group_id', 'channels'])
    .where('group_id', 'in', groupIds)
    .where('channels', 'like', PRODUCT_MARK)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Every shelf device, by thing name (the tracker's directory). */
export function allShelfDevices(db: Db) {
  return db
    .selectFrom('devices')
    .select(['id', 'thing_name', 'channels'])
    .where('channels', 'like', PRODUCT_MARK)
    .execute();
}

/** The channel list of the device with this thing name. */
export function deviceChannelsByThingName(db: Db, thingName: string) {
  return db.selectFrom('devices').select(['id', 'channels']).where('thing_name', '=', thingName).executeTakeFirst();
}

/** Where the products of these shelves stand. */
export function productTracks(db: Db, deviceIds: readonly string[]) {
  if (deviceIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('retail_products').selectAll().where('device_id', 'in', deviceIds).execute();
}

/** The shelves' days from `fromDay` on. */
export function shelfDays(db: Db, deviceIds: readonly string[], fromDay: number) {
  if (deviceIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('retail_shelf_days')
    .select(['device_id', 'day', 'units_sold', 'lost_sales'])
    .where('device_id', 'in', deviceIds)
    .where('day', '>=', fromDay)
    .execute();
}

/** Stores where products stand now. */
export async function saveProductTracks(trx: Db, rows: readonly RetailProductsTable[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('retail_products')
    .values([...rows])
    .onConflict((oc) =>
      oc.columns(['device_id', 'code']).doUpdateSet((eb) => ({
        t: eb.ref('excluded.t'),
        count: eb.ref('excluded.count'),
        range_state: eb.ref('excluded.range_state'),
        decreased_at: eb.ref('excluded.decreased_at'),
        restocked_at: eb.ref('excluded.restocked_at'),
        range_state_changed_at: eb.ref('excluded.range_state_changed_at'),
        sold_weight: eb.ref('excluded.sold_weight'),
        stocked_hours: eb.ref('excluded.stocked_hours'),
      })),
    )
    .execute();
}

/** Adds sales and lost sales to the shelves' days. */
export async function addToShelfDays(trx: Db, rows: readonly RetailShelfDaysTable[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('retail_shelf_days')
    .values([...rows])
    .onConflict((oc) =>
      oc.columns(['device_id', 'day']).doUpdateSet((eb) => ({
        units_sold: eb(eb.ref('retail_shelf_days.units_sold'), '+', eb.ref('excluded.units_sold')),
        lost_sales: eb(eb.ref('retail_shelf_days.lost_sales'), '+', eb.ref('excluded.lost_sales')),
      })),
    )
    .execute();
}
