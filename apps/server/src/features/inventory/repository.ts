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

/** The shelf devices in the given groups, without their channel lists (the overview's). */
export function shelfIdsInGroups(db: Db, groupIds: readonly string[]) {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('devices')
    .select(['id', 'group_id'])
    .where('group_id', 'in', groupIds)
    .where('channels', 'like', PRODUCT_MARK)
    .execute();
}

/** How many products of each shelf are in each range state, counted in the database. */
export async function rangeStateCountsOf(db: Db, deviceIds: readonly string[]) {
  if (deviceIds.length === 0) return [];
  const rows = await db
    .selectFrom('retail_products')
    .select((eb) => ['device_id', 'range_state', eb.fn.countAll<number | string>().as('products')])
    .where('device_id', 'in', deviceIds)
    .groupBy(['device_id', 'range_state'])
    .execute();
  return rows.map((row) => ({ ...row, products: Number(row.products) }));
}

/** Forgets the products a shelf no longer counts (its planogram changed). */
export async function forgetProductsExcept(db: Db, deviceId: string, codes: readonly string[]): Promise<void> {
  let query = db.deleteFrom('retail_products').where('device_id', '=', deviceId);
  if (codes.length > 0) query = query.where('code', 'not in', codes);
  await query.execute();
}

/** Units sold and lost sales of each shelf from `fromDay` on, summed in the database. */
export async function shelfTotals(db: Db, deviceIds: readonly string[], fromDay: number) {
  if (deviceIds.length === 0) return [];
  const rows = await db
    .selectFrom('retail_shelf_days')
    .select((eb) => [
      'device_id',
      eb.fn.sum<number | string>('units_sold').as('units_sold'),
      eb.fn.sum<number | string>('lost_sales').as('lost_sales'),
    ])
    .where('device_id', 'in', deviceIds)
    .where('day', '>=', fromDay)
    .groupBy('device_id')
    .execute();
  return rows.map((row) => ({ ...row, units_sold: Number(row.units_sold), lost_sales: Number(row.lost_sales) }));
}

/** Units sold and lost sales of these shelves per day from `fromDay` on, summed in the database. */
export async function dayTotals(db: Db, deviceIds: readonly string[], fromDay: number) {
  if (deviceIds.length === 0) return [];
  const rows = await db
    .selectFrom('retail_shelf_days')
    .select((eb) => [
      'day',
      eb.fn.sum<number | string>('units_sold').as('units_sold'),
      eb.fn.sum<number | string>('lost_sales').as('lost_sales'),
    ])
    .where('device_id', 'in', deviceIds)
    .where('day', '>=', fromDay)
    .groupBy('day')
    .execute();
  return rows.map((row) => ({
    day: Number(row.day),
    units_sold: Number(row.units_sold),
    lost_sales: Number(row.lost_sales),
  }));
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
