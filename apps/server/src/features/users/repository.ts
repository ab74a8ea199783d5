import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database, InvitationsTable, UsersTable } from '../../db/schema';

/** LIKE pattern for "below this path", with LIKE's own wildcards escaped (ids may hold `_`). */
export function belowPattern(path: string): string {
  return `${path.replace(/[\\%_]/g, (char) => `\\${char}`)}/%`;
}

export async function updateUser(
  db: Kysely<Database>,
  id: string,
  set: Partial<
    Pick<
      UsersTable,
      | 'first_name'
      | 'last_name'
      | 'theme'
      | 'muted_devices'
      | 'latest_user_update_id'
      | 'monitor_only'
      | 'time_zone'
      | 'hour_cycle'
      | 'date_order'
    >
  >,
): Promise<void> {
  // Nothing of the user row to change (a permissions-only edit): an empty SET is no statement.
  if (Object.keys(set).length === 0) return;
  await db.updateTable('users').set(set).where('id', '=', id).execute();
}

/** Sets the permissions of a user's first attachment point, where permissions come from (§6). */
export function updateFirstAttachmentPermissions(
  db: Kysely<Database>,
  attachmentPointId: string,
  permissions: string,
  secretPermissions: string,
) {
  return db
    .updateTable('attachment_points')
    .set({ permissions, secret_permissions: secretPermissions })
    .where('id', '=', attachmentPointId)
    .execute();
}

/** The group at a path, with its account's app type. */
export function findGroupByPath(db: Kysely<Database>, path: string) {
  return db
    .selectFrom('groups')
    .innerJoin('accounts', 'accounts.id', 'groups.account_id')
    .selectAll('groups')
    .select('accounts.app_type as app_type')
    .where('groups.path', '=', path)
    .executeTakeFirst();
}

/** Unused invitations of an e-mail, newest first. */
export function pendingInvitationsOf(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .orderBy('expires_at', 'desc')
    .execute();
}

export function insertInvitation(db: Kysely<Database>, invitation: InvitationsTable) {
  return db.insertInto('invitations').values(invitation).execute();
}

export function deleteInvitations(db: Kysely<Database>, codeHashes: readonly string[]) {
  return codeHashes.length === 0
    ? Promise.resolve([])
    : db.deleteFrom('invitations').where('code_hash', 'in', codeHashes).execute();
}

/** Gives an invitation a new code and a new expiry (a re-invite). */
export function renewInvitation(db: Kysely<Database>, codeHash: string, newCodeHash: string, expiresAt: number) {
  return db
    .updateTable('invitations')
    .set({ code_hash: newCodeHash, expires_at: expiresAt })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
}

/** Devices (thing names) among these whose group lies at or below one of the paths. */
export async function thingNamesUnder(
  db: Kysely<Database>,
  thingNames: readonly string[],
  paths: readonly string[],
): Promise<Set<string>> {
  if (thingNames.length === 0 || paths.length === 0) return new Set();
  const rows = await db
    .selectFrom('devices')
    .innerJoin('groups', 'groups.id', 'devices.group_id')
    .select('devices.thing_name')
    .where('devices.thing_name', 'in', thingNames)
    .where((eb) =>
      eb.or(
        paths.flatMap((path) => [
          eb('groups.path', '=', path),
          sql<boolean>`groups.path like ${belowPattern(path)} escape '\\'`,
        ]),
      ),
    )
    .execute();
  return new Set(rows.map((row) => row.thing_name));
}
