import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** The path of an account's root group (the scope its users and entries fall under), or undefined for an unknown account. */
export async function accountRootPath(db: Kysely<Database>, accountId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('accounts')
    .innerJoin('groups', 'groups.id', 'accounts.root_group_id')
    .select('groups.path')
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
  return row?.path;
}
