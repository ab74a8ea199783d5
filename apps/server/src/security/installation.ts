import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * A secret generated once per installation and kept in the database, so every instance of a cluster
 * shares it and no build ships a default (SECURITY.md 6 and 20).
 */
export async function installationSecret(
  db: Kysely<Database>,
  key: 'jwt_secret' | 'demo_key' | 'file_link_secret' | 'mfa_key' | 'phone_code_key' | 'alarm_link_secret',
): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}

/** The installation's VAPID key pair (RFC 8292), base64url, as web-push makes and reads it. */
export interface VapidKeyPair {
  publicKey: string;
  privateKey: string;
}

/**
 * The VAPID key pair Web Push messages are signed with, made at first start and kept in the database:
 * one pair for a cluster (the first instance's insert wins), so a browser's subscription, bound to the
 * public key, stays valid on every instance and across restarts.
 */
export async function vapidKeyPair(db: Kysely<Database>, generate: () => VapidKeyPair): Promise<VapidKeyPair> {
  await db
    .insertInto('settings')
    .values({ key: 'vapid_keys', value: JSON.stringify(generate()) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'vapid_keys').executeTakeFirstOrThrow();
  return JSON.parse(row.value) as VapidKeyPair;
}
