import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** Device columns with the path of its group. */
export function selectDevices(db: Kysely<Database>) {
  return db
    .selectFrom('devices')
    .innerJoin('groups', 'groups.id', 'devices.group_id')
    .selectAll('devices')
    .select('groups.path as path');
}

export type DeviceWithPath = NonNullable<Awaited<ReturnType<ReturnType<typeof selectDevices>['executeTakeFirst']>>>;

export function findDeviceById(db: Kysely<Database>, id: string) {
  return selectDevices(db).where('devices.id', '=', id).executeTakeFirst();
}

export function findDeviceByThingName(db: Kysely<Database>, thingName: string) {
  return selectDevices(db).where('devices.thing_name', '=', thingName).executeTakeFirst();
}

export function findDevicesByIds(db: Kysely<Database>, ids: readonly string[]) {
  return ids.length === 0 ? Promise.resolve([]) : selectDevices(db).where('devices.id', 'in', ids).execute();
}

export function latestValuesOf(db: Kysely<Database>, deviceIds: readonly string[]) {
  return deviceIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('latest_values').selectAll().where('device_id', 'in', deviceIds).execute();
}

export function findGroup(db: Kysely<Database>, id: string) {
  return db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findNewDevicesGroup(db: Kysely<Database>, accountId: string) {
  return db
    .selectFrom('groups')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('kind', '=', 'new')
    .executeTakeFirst();
}
