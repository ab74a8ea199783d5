import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * A secret generated once per installation and kept in the database, so every instance of a cluster
 * shares it and no build ships a default (SECURITY.md 6 and 20).
 */
export async function installationSecret(
  db: Kysely<Database>,
  key: 'jwt_secret' | 'demo_key' | 'file_link_secret',
): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
