import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app (docs/decisions.md, "Cold open at 100,000
// devices").
//
// `account_tree_version`: one row of two counters that triggers bump in the transaction of every write
// to what the account tree (`GET /account`) shows, so the server can keep built trees and know at the
// cost of one row's read whether one is still exact, whichever path or cluster instance wrote.
// - `tree`: accounts, groups, users, attachment points, invitations, scenes, and the devices' own
//   fields in the tree (inserted, deleted, or one of those fields changed).
// - `connection`: the devices' connection fields, which change all the time in a large fleet; a tree
//   whose only change is these is patched from a narrow read rather than built again.

/** Per table: the columns the tree shows or is shaped by (an UPDATE of another column bumps nothing). */
const TREE_COLUMNS = {
  accounts: ['id', 'name', 'app_type', 'kind', 'user_variant', 'theme'],
  groups: ['id', 'account_id', 'parent_id', 'name', 'kind', 'path', 'simulation'],
  users: ['id', 'email', 'first_name', 'last_name'],
  attachment_points: ['id', 'user_id', 'account_id', 'ordinal', 'path', 'permissions', 'secret_permissions'],
  invitations: ['email', 'path', 'expires_at', 'used_at'],
  scenes: ['id', 'group_id', 'name', 'position', 'created_at'],
  devices: ['id', 'group_id', 'name', 'sn', 'thing_name', 'channels', 'tags'],
} as const;

const CONNECTION_COLUMNS = ['is_connected', 'last_connection', 'last_disconnection'] as const;

/** `old.a is not new.a or …` (SQLite) / `old.a is distinct from new.a or …` (PostgreSQL). */
function changed(columns: readonly string[], differs: string): string {
  return columns.map((column) => `old.${column} ${differs} new.${column}`).join(' or ');
}

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await sql`create table account_tree_version (
      id integer primary key,
      tree bigint not null,
      connection bigint not null
    )`.execute(db);
  await sql`insert into account_tree_version (id, tree, connection) values (1, 1, 1)`.execute(db);
  const bumpTree = 'update account_tree_version set tree = tree + 1 where id = 1';
  const bumpConnection = 'update account_tree_version set connection = connection + 1 where id = 1';
  if (sqlite) {
    // SQLite triggers are per row; the UPDATE ones fire only when a watched value really changed.
    for (const [table, columns] of Object.entries(TREE_COLUMNS)) {
      const name = `account_tree_${table}`;
      await sql.raw(`create trigger ${name}_insert after insert on ${table} begin ${bumpTree}; end`).execute(db);
      await sql.raw(`create trigger ${name}_delete after delete on ${table} begin ${bumpTree}; end`).execute(db);
      await sql
        .raw(
          `create trigger ${name}_update after update of ${columns.join(', ')} on ${table}
           when ${changed(columns, 'is not')} begin ${bumpTree}; end`,
        )
        .execute(db);
    }
    await sql
      .raw(
        `create trigger account_tree_devices_connection after update of ${CONNECTION_COLUMNS.join(', ')} on devices
         when ${changed(CONNECTION_COLUMNS, 'is not')} begin ${bumpConnection}; end`,
      )
      .execute(db);
    return;
  }
  // PostgreSQL: constraint triggers deferred to the commit, so a writer takes the counter's row lock
  // last, just before it commits, and holds it only that long: two transactions that write devices
  // in different orders cannot deadlock on it, and concurrent writers queue only at their commits.
  // Each transaction bumps a counter once, however many rows it wrote (a transaction-local setting
  // remembers it), so a bulk load of devices costs one update of the counter's row.
  for (const counter of ['tree', 'connection'] as const) {
    await sql
      .raw(
        `create function fieldlink_account_${counter}_bump() returns trigger language plpgsql as $$
         begin
           if current_setting('fieldlink.account_${counter}_bumped', true) is distinct from '1' then
             perform set_config('fieldlink.account_${counter}_bumped', '1', true);
             ${counter === 'tree' ? bumpTree : bumpConnection};
           end if;
           return null;
         end $$`,
      )
      .execute(db);
  }
  const deferred = 'deferrable initially deferred for each row';
  for (const [table, columns] of Object.entries(TREE_COLUMNS)) {
    const name = `account_tree_${table}`;
    await sql
      .raw(
        `create constraint trigger ${name}_insert_delete after insert or delete on ${table}
         ${deferred} execute function fieldlink_account_tree_bump()`,
      )
      .execute(db);
    await sql
      .raw(
        `create constraint trigger ${name}_update after update of ${columns.join(', ')} on ${table}
         ${deferred} when (${changed(columns, 'is distinct from')}) execute function fieldlink_account_tree_bump()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create constraint trigger account_tree_devices_connection after update of ${CONNECTION_COLUMNS.join(', ')}
       on devices ${deferred} when (${changed(CONNECTION_COLUMNS, 'is distinct from')})
       execute function fieldlink_account_connection_bump()`,
    )
    .execute(db);
}
