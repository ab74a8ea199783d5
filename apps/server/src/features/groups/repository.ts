import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database, GroupsTable } from '../../db/schema';

/** LIKE pattern for "below this path", with LIKE's own wildcards escaped (ids may hold `_`). */
function belowPattern(path: string): string {
  return `${path.replace(/[\\%_]/g, (char) => `\\${char}`)}/%`;
}

/** The group with its account's app type. */
export function findGroup(db: Kysely<Database>, id: string) {
  return db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findAccountGroupOfKind(db: Kysely<Database>, accountId: string, kind: string) {
  return db
    .selectFrom('groups')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

export function insertGroup(db: Kysely<Database>, group: Insertable<GroupsTable>) {
  return db.insertInto('groups').values(group).execute();
}

export function renameGroup(db: Kysely<Database>, id: string, name: string) {
  return db.updateTable('groups').set({ name }).where('id', '=', id).execute();
}

/** An account's name follows its root group's. */
export function renameAccount(db: Kysely<Database>, id: string, name: string) {
  return db.updateTable('accounts').set({ name }).where('id', '=', id).execute();
}

/** The group at `path` and every group beneath it. */
export function groupsAtOrBelow(db: Kysely<Database>, path: string) {
  return db
    .selectFrom('groups')
    .selectAll()
    .where((eb) => eb.or([eb('path', '=', path), sql<boolean>`path like ${belowPattern(path)} escape '\\'`]))
    .execute();
}

/** Attachment points at `path` or beneath it. */
export function attachmentPointsAtOrBelow(db: Kysely<Database>, path: string) {
  return db
    .selectFrom('attachment_points')
    .selectAll()
    .where((eb) => eb.or([eb('path', '=', path), sql<boolean>`path like ${belowPattern(path)} escape '\\'`]))
    .execute();
}

/** Devices of these groups, with their thing names. */
export function devicesOfGroups(db: Kysely<Database>, groupIds: readonly string[]) {
  return groupIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('devices').select(['id', 'thing_name']).where('group_id', 'in', groupIds).execute();
}

export function moveDevices(db: Kysely<Database>, deviceIds: readonly string[], groupId: string, accountId: string) {
  return deviceIds.length === 0
    ? Promise.resolve([])
    : db
        .updateTable('devices')
        .set({ group_id: groupId, account_id: accountId })
        .where('id', 'in', deviceIds)
        .execute();
}

/**
 * Rewrites every stored path at or beneath `from` to lie beneath `to` instead (a moved group):
 * groups, attachment points and invitations. One statement per table, whatever the subtree's size.
 */
export async function rebasePaths(db: Kysely<Database>, from: string, to: string): Promise<void> {
  const tail = from.length + 1;
  for (const table of ['groups', 'attachment_points', 'invitations'] as const) {
    await sql`update ${sql.table(table)} set path = ${to} || substr(path, ${tail})
      where path = ${from} or path like ${belowPattern(from)} escape '\\'`.execute(db);
  }
}

export function setGroupParent(db: Kysely<Database>, id: string, parentId: string) {
  return db.updateTable('groups').set({ parent_id: parentId }).where('id', '=', id).execute();
}

export function deleteGroups(db: Kysely<Database>, ids: readonly string[]) {
  return db.deleteFrom('groups').where('id', 'in', ids).execute();
}

/** Unused invitations at or beneath a path. */
export function pendingInvitationsAtOrBelow(db: Kysely<Database>, path: string) {
  return db
    .selectFrom('invitations')
    .select(['code_hash', 'email'])
    .where('used_at', 'is', null)
    .where((eb) => eb.or([eb('path', '=', path), sql<boolean>`path like ${belowPattern(path)} escape '\\'`]))
    .execute();
}

export function deleteInvitationsByHash(db: Kysely<Database>, codeHashes: readonly string[]) {
  return codeHashes.length === 0
    ? Promise.resolve([])
    : db.deleteFrom('invitations').where('code_hash', 'in', codeHashes).execute();
}

export function accountsWithRootIn(db: Kysely<Database>, groupIds: readonly string[]) {
  return groupIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('accounts').select('id').where('root_group_id', 'in', groupIds).execute();
}

export function findAccount(db: Kysely<Database>, id: string) {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDevice(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('devices')
    .select(['id', 'name', 'group_id', 'thing_name', 'account_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function updateAttachmentPoint(
  db: Kysely<Database>,
  id: string,
  set: { path: string; account_id: string; app_type: string },
) {
  return db.updateTable('attachment_points').set(set).where('id', '=', id).execute();
}
