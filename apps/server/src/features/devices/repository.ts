import type { Kysely } from 'kysely';
import type { Database, DevicesTable } from '../../db/schema';

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

/** What identifies a new device; everything it reports about itself starts empty. */
export type NewDevice = Pick<DevicesTable, 'id' | 'account_id' | 'group_id' | 'thing_name' | 'secret_hash' | 'name'> &
  Partial<Pick<DevicesTable, 'sn' | 'site' | 'plan' | 'location' | 'created_at'>>;

/** Inserts a device that has not reported yet (provisioning and demo seed). */
export function insertDevice(db: Kysely<Database>, device: NewDevice) {
  return db
    .insertInto('devices')
    .values({
      sn: null,
      site: null,
      plan: 'FREE',
      location: null,
      fw: null,
      model: null,
      hw: null,
      base: null,
      custom: null,
      esp_fw: null,
      hw_platform: null,
      update_point: null,
      upload_interval: null,
      log_interval: null,
      time_date: null,
      channels: '[]',
      registers: '{}',
      ports: '[]',
      tags: '[]',
      health: null,
      status: '{}',
      is_connected: 0,
      last_connection: null,
      last_disconnection: null,
      ota_pending_submitted_at: null,
      alarms_have_been_read: 1,
      created_at: Date.now(),
      ...device,
    })
    .execute();
}
