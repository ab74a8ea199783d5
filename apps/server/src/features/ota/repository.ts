import type { Kysely, Transaction } from 'kysely';
import { OTA_IN_FLIGHT_STATES, OTA_STATES, isOtaFinal, type OtaState } from '@fieldlink/domain/ota';
import type { Database, OtaRolloutsTable, OtaUpdatesTable } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

export type OtaUpdateRow = OtaUpdatesTable;
export type OtaRolloutRow = OtaRolloutsTable;

/** States of an update that is not finished: a device has at most one such update. */
export const UNFINISHED_STATES: readonly OtaState[] = OTA_STATES.filter((state) => !isOtaFinal(state));

/** Devices with their group path (for the scope check) and what OTA calls read of them. */
function selectOtaDevices(db: Db) {
  return db
    .selectFrom('devices')
    .innerJoin('groups', 'groups.id', 'devices.group_id')
    .select([
      'devices.id',
      'devices.thing_name',
      'devices.name',
      'devices.account_id',
      'devices.fw',
      'devices.is_connected',
      'devices.ota_pending_submitted_at',
      'devices.ota_update',
      'groups.path',
    ]);
}

/** Devices among `ids`, for the scope check. */
export function devicesWithPaths(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return selectOtaDevices(db).where('devices.id', 'in', ids).execute();
}

/** The latest update of each of these devices. */
export async function latestUpdatesOf(db: Db, deviceIds: readonly string[]): Promise<Map<string, OtaUpdateRow>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('ota_updates')
    .selectAll()
    .where('device_id', 'in', deviceIds)
    .orderBy('submitted_at')
    .orderBy('id')
    .execute();
  // Ascending, so the last one of a device wins.
  return new Map(rows.map((row) => [row.device_id, row]));
}

export function findUpdate(db: Db, id: string) {
  return db.selectFrom('ota_updates').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findRollout(db: Db, id: string) {
  return db.selectFrom('ota_rollouts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Count of a rollout's updates per state. */
export async function stateCounts(db: Db, rolloutId: string): Promise<Partial<Record<OtaState, number>>> {
  const rows = await db
    .selectFrom('ota_updates')
    .select(['state', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('rollout_id', '=', rolloutId)
    .groupBy('state')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.n)]));
}

/** Queued updates of the rollout whose device is online, oldest first. */
export function queuedForOnlineDevices(db: Db, rolloutId: string, limit: number) {
  return db
    .selectFrom('ota_updates')
    .innerJoin('devices', 'devices.id', 'ota_updates.device_id')
    .selectAll('ota_updates')
    .select('devices.thing_name')
    .where('ota_updates.rollout_id', '=', rolloutId)
    .where('ota_updates.state', '=', 'QUEUED')
    .where('devices.is_connected', '=', 1)
    .orderBy('ota_updates.position')
    .limit(limit)
    .execute();
}

/** Updates of the rollout the device holds and has not reported on since `before`. */
export function silentInFlight(db: Db, rolloutId: string, before: number) {
  return db
    .selectFrom('ota_updates')
    .selectAll()
    .where('rollout_id', '=', rolloutId)
    .where('state', 'in', OTA_IN_FLIGHT_STATES)
    .where((eb) =>
      eb.or([
        eb.and([eb('last_report_at', 'is', null), eb('sent_at', '<', before)]),
        eb('last_report_at', '<', before),
      ]),
    )
    .execute();
}

/**
 * Moves an update from one state to another only if it is still in that state, and at `fromPercent`
 * when given (compare-and-set): answers whether this caller made the change, so two instances never
 * both act on it, and a device's report read against a row another report has moved since is not
 * written over it.
 */
export async function moveUpdate(
  db: Db,
  id: string,
  from: OtaState | readonly OtaState[],
  set: Partial<OtaUpdateRow>,
  fromPercent?: number | null,
): Promise<boolean> {
  const states = typeof from === 'string' ? [from] : [...from];
  let update = db.updateTable('ota_updates').set(set).where('id', '=', id).where('state', 'in', states);
  if (fromPercent !== undefined)
    update = fromPercent === null ? update.where('percent', 'is', null) : update.where('percent', '=', fromPercent);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Devices with an update awaiting approval, oldest first, with their latest update. */
export function pendingDevices(db: Db) {
  return selectOtaDevices(db)
    .where('devices.ota_pending_submitted_at', 'is not', null)
    .orderBy('devices.ota_pending_submitted_at')
    .orderBy('devices.id')
    .execute();
}

/** E-mails of users by id, with the paths of their attachment points (to show only users in scope). */
export async function submittersOf(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, { email: string; paths: string[] }>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .innerJoin('attachment_points', 'attachment_points.user_id', 'users.id')
    .select(['users.id', 'users.email', 'attachment_points.path'])
    .where('users.id', 'in', userIds)
    .execute();
  const byId = new Map<string, { email: string; paths: string[] }>();
  for (const row of rows) {
    const entry = byId.get(row.id) ?? { email: row.email, paths: [] };
    entry.paths.push(row.path);
    byId.set(row.id, entry);
  }
  return byId;
}

/** Rollouts still running or finished since `since`, newest first. */
export function recentRollouts(db: Db, since: number, limit: number) {
  return db
    .selectFrom('ota_rollouts')
    .selectAll()
    .where((eb) => eb.or([eb('state', '=', 'RUNNING'), eb('finished_at', '>=', since)]))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The updates of these rollouts with their device and its group path (for the scope check), in order. */
export function rolloutUpdates(db: Db, rolloutIds: readonly string[]) {
  if (rolloutIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('ota_updates')
    .innerJoin('devices', 'devices.id', 'ota_updates.device_id')
    .innerJoin('groups', 'groups.id', 'devices.group_id')
    .select([
      'ota_updates.rollout_id',
      'ota_updates.device_id',
      'ota_updates.state',
      'ota_updates.percent',
      'ota_updates.error',
      'devices.thing_name',
      'devices.name',
      'groups.path',
    ])
    .where('ota_updates.rollout_id', 'in', rolloutIds)
    .orderBy('ota_updates.rollout_id')
    .orderBy('ota_updates.position')
    .execute();
}
