import type { Kysely, Transaction } from 'kysely';
import type { Database, ReportSchedulesTable, ReportsTable } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

export type ReportRow = ReportsTable;
export type ScheduleRow = ReportSchedulesTable;

export function findReport(db: Db, id: string) {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

export function reportsOfAccount(db: Db, accountId: string) {
  return db
    .selectFrom('reports')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .execute();
}

export function findReportByPublicToken(db: Db, token: string) {
  return db.selectFrom('reports').selectAll().where('public_token', '=', token).executeTakeFirst();
}

export function insertReport(db: Db, row: ReportRow) {
  return db.insertInto('reports').values(row).execute();
}

export function updateReport(db: Db, id: string, set: Partial<Omit<ReportRow, 'id'>>) {
  return db.updateTable('reports').set(set).where('id', '=', id).execute();
}

export function deleteReport(db: Db, id: string) {
  return db.deleteFrom('reports').where('id', '=', id).execute();
}

/** Reports made before `before` (retention), oldest first. */
export function reportsCreatedBefore(db: Db, before: number, limit: number) {
  return db
    .selectFrom('reports')
    .select(['id', 'file_id'])
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

export function findSchedule(db: Db, id: string) {
  return db.selectFrom('report_schedules').selectAll().where('id', '=', id).executeTakeFirst();
}

export function schedulesOfAccounts(db: Db, accountIds: readonly string[]) {
  if (accountIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('report_schedules')
    .selectAll()
    .where('account_id', 'in', accountIds)
    .orderBy('created_at', 'desc')
    .execute();
}

export function insertSchedule(db: Db, row: ScheduleRow) {
  return db.insertInto('report_schedules').values(row).execute();
}

export function updateSchedule(db: Db, id: string, set: Partial<Omit<ScheduleRow, 'id'>>) {
  return db.updateTable('report_schedules').set(set).where('id', '=', id).execute();
}

export function deleteSchedule(db: Db, id: string) {
  return db.deleteFrom('report_schedules').where('id', '=', id).execute();
}

/** An account and the path of its root group. */
export function accountWithRoot(db: Db, accountId: string) {
  return db
    .selectFrom('accounts')
    .innerJoin('groups', 'groups.id', 'accounts.root_group_id')
    .select(['accounts.id', 'accounts.name', 'accounts.app_type', 'accounts.theme', 'groups.path as rootPath'])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
}

/** Every group of an account: id and path. */
export function groupsOfAccount(db: Db, accountId: string) {
  return db.selectFrom('groups').select(['id', 'path']).where('account_id', '=', accountId).execute();
}

/** Devices by id with their group path. */
export function devicesWithPaths(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('devices')
    .innerJoin('groups', 'groups.id', 'devices.group_id')
    .select([
      'devices.id',
      'devices.account_id',
      'devices.name',
      'devices.thing_name',
      'devices.sn',
      'devices.channels',
      'groups.path as path',
    ])
    .where('devices.id', 'in', ids)
    .execute();
}

export type ReportDeviceRow = Awaited<ReturnType<typeof devicesWithPaths>>[number];

/** Ids looked up per query in {@link devicePathsOf}: far below either database's bound on parameters. */
const PATH_LOOKUP_CHUNK = 1000;

/** The group path of each of these devices that still exists, by id (any number of ids, in chunks). */
export async function devicePathsOf(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const paths = new Map<string, string>();
  for (let index = 0; index < unique.length; index += PATH_LOOKUP_CHUNK) {
    const rows = await db
      .selectFrom('devices')
      .innerJoin('groups', 'groups.id', 'devices.group_id')
      .select(['devices.id', 'groups.path'])
      .where('devices.id', 'in', unique.slice(index, index + PATH_LOOKUP_CHUNK))
      .execute();
    for (const row of rows) paths.set(row.id, row.path);
  }
  return paths;
}

/** A user's attachment points in every account, with the user's e-mail, first point first. */
export function attachmentPointsOfUser(db: Db, userId: string) {
  return db
    .selectFrom('attachment_points')
    .innerJoin('users', 'users.id', 'attachment_points.user_id')
    .select([
      'users.email',
      'attachment_points.account_id as accountId',
      'attachment_points.path',
      'attachment_points.ordinal',
      'attachment_points.permissions',
      'attachment_points.secret_permissions as secretPermissions',
    ])
    .where('attachment_points.user_id', '=', userId)
    .orderBy('attachment_points.ordinal')
    .execute();
}

/** The users attached somewhere in an account, with each attachment point in it. */
export async function usersOfAccount(db: Db, accountId: string) {
  const rows = await db
    .selectFrom('attachment_points')
    .innerJoin('users', 'users.id', 'attachment_points.user_id')
    .select([
      'users.id',
      'users.email',
      'attachment_points.path',
      'attachment_points.ordinal',
      'attachment_points.permissions',
      'attachment_points.secret_permissions',
    ])
    .where('attachment_points.account_id', '=', accountId)
    .orderBy('attachment_points.ordinal')
    .execute();
  return rows;
}

export type AccountUserRow = Awaited<ReturnType<typeof usersOfAccount>>[number];

/** The last connection change of a device before `t`, and the changes within [start, end). */
export async function connectionChanges(db: Db, deviceId: string, start: number, end: number) {
  const [before, within] = await Promise.all([
    db
      .selectFrom('connections')
      .select(['t', 'connected'])
      .where('device_id', '=', deviceId)
      .where('t', '<', start)
      .orderBy('t', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('connections')
      .select(['t', 'connected'])
      .where('device_id', '=', deviceId)
      .where('t', '>=', start)
      .where('t', '<', end)
      .orderBy('t')
      .execute(),
  ]);
  return { before, within };
}

/** Alarms of the devices raised or acknowledged within [start, end), with who acknowledged them. */
export function alarmsInPeriod(db: Db, deviceIds: readonly string[], start: number, end: number) {
  if (deviceIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('alarms')
    .leftJoin('users', 'users.id', 'alarms.acknowledged_by')
    .select([
      'alarms.device_id',
      'alarms.code',
      'alarms.side',
      'alarms.severity',
      'alarms.threshold',
      'alarms.value',
      'alarms.raised_at',
      'alarms.cleared_at',
      'alarms.acknowledged_at',
      'users.email as acknowledged_by',
    ])
    .where('alarms.device_id', 'in', deviceIds)
    .where((eb) =>
      eb.or([
        eb.and([eb('alarms.raised_at', '>=', start), eb('alarms.raised_at', '<', end)]),
        eb.and([eb('alarms.acknowledged_at', '>=', start), eb('alarms.acknowledged_at', '<', end)]),
      ]),
    )
    .orderBy('alarms.raised_at')
    .execute();
}

/**
 * What the report limits count (`@fieldlink/domain/work-limits`): reports generating and reports kept
 * (every state but DELETING) of a user across accounts and of an account. Read inside the adding
 * transaction, after `lockLimitedWork`.
 */
export async function reportCounts(db: Db, accountId: string, userId: string) {
  const count = (scope: 'account_id' | 'created_by', id: string, generatingOnly: boolean) =>
    db
      .selectFrom('reports')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where(scope, '=', id)
      .where('state', generatingOnly ? '=' : '<>', generatingOnly ? 'GENERATING' : 'DELETING')
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  const [userGenerating, accountGenerating, userKept, accountKept] = await Promise.all([
    count('created_by', userId, true),
    count('account_id', accountId, true),
    count('created_by', userId, false),
    count('account_id', accountId, false),
  ]);
  return { userGenerating, accountGenerating, userKept, accountKept };
}

/** What the schedule limits count: a user's schedules across accounts and an account's. */
export async function scheduleCounts(db: Db, accountId: string, userId: string) {
  const count = (scope: 'account_id' | 'created_by', id: string) =>
    db
      .selectFrom('report_schedules')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where(scope, '=', id)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  const [user, account] = await Promise.all([count('created_by', userId), count('account_id', accountId)]);
  return { user, account };
}
