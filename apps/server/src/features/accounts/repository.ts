import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema';

/** LIKE pattern for "below this path", with LIKE's own wildcards escaped (ids may hold `_`). */
function belowPattern(path: string): string {
  return `${path.replace(/[\\%_]/g, (char) => `\\${char}`)}/%`;
}

/** The group at `path` and every group beneath it. */
export function groupsUnder(db: Kysely<Database>, path: string) {
  return db
    .selectFrom('groups')
    .innerJoin('accounts', 'accounts.id', 'groups.account_id')
    .selectAll('groups')
    .select(['accounts.app_type as app_type', 'accounts.kind as account_kind'])
    .where((eb) =>
      eb.or([eb('groups.path', '=', path), sql<boolean>`groups.path like ${belowPattern(path)} escape '\\'`]),
    )
    .orderBy('groups.path')
    .execute();
}

export function devicesInGroups(db: Kysely<Database>, groupIds: readonly string[]) {
  return groupIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('devices')
        .select([
          'id',
          'group_id',
          'name',
          'sn',
          'thing_name',
          'is_connected',
          'last_connection',
          'last_disconnection',
          'channels',
          'tags',
        ])
        .where('group_id', 'in', groupIds)
        .orderBy('name')
        .execute();
}

/** The devices' connection fields in these groups (the narrow read that patches a kept tree). */
export function connectionsInGroups(db: Kysely<Database>, groupIds: readonly string[]) {
  return groupIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('devices')
        .select(['id', 'is_connected', 'last_connection', 'last_disconnection'])
        .where('group_id', 'in', groupIds)
        .execute();
}

/** The counters bumped by every write to what the account tree shows (one row, id 1). */
export async function accountTreeVersions(db: Kysely<Database>) {
  return db
    .selectFrom('account_tree_version')
    .select(['tree', 'connection'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
}

/** Users attached at any of the paths, with the path they are attached at. */
export function usersAttachedAt(db: Kysely<Database>, paths: readonly string[]) {
  return paths.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('attachment_points')
        .innerJoin('users', 'users.id', 'attachment_points.user_id')
        .select([
          'attachment_points.path',
          'attachment_points.user_id',
          'users.email',
          'users.first_name',
          'users.last_name',
        ])
        .where('attachment_points.path', 'in', paths)
        .orderBy('users.email')
        .execute();
}

export function findAccount(db: Kysely<Database>, id: string) {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The first attachment point of each of these users (where permissions come from, §6). */
export async function firstAttachmentPointsOf(db: Kysely<Database>, userIds: readonly string[]) {
  if (userIds.length === 0) return new Map<string, { permissions: string; secret_permissions: string }>();
  const rows = await db
    .selectFrom('attachment_points')
    .select(['user_id', 'permissions', 'secret_permissions'])
    .where('user_id', 'in', userIds)
    .orderBy('ordinal', 'desc')
    .execute();
  // Ordered last to first, so the first point of each user is the one left in the map.
  return new Map(rows.map((row) => [row.user_id, row]));
}

/** Unused invitations at any of the paths. */
export function invitationsAt(db: Kysely<Database>, paths: readonly string[]) {
  return paths.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('invitations')
        .select(['email', 'path', 'expires_at'])
        .where('path', 'in', paths)
        .where('used_at', 'is', null)
        .orderBy('email')
        .execute();
}
