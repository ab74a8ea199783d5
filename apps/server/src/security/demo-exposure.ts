import type { Kysely } from 'kysely';
import { PUBLISHED_DEMO_PASSWORD } from '../config';
import type { Database } from '../db/schema';
import { demoSignIns } from '../seed/seed';
import { isLoopbackAddress } from './loopback';
import { verifyPassword } from './passwords';

/** Where the server listens when `HOST` is not set and no demo user has the published password. */
const ALL_INTERFACES = '0.0.0.0';
const LOOPBACK = '127.0.0.1';

/**
 * The first demo user (the supplier's ADMIN first) whose password is still `published`, or null.
 * Checks the stored hashes, so it holds whatever the environment says now: a user who changed the
 * password no longer counts, a database seeded with the published password still does.
 */
async function demoUserWithPassword(db: Kysely<Database>, published: string): Promise<string | null> {
  const emails = demoSignIns().map((signIn) => signIn.email);
  const users = await db.selectFrom('users').select(['email', 'password_hash']).where('email', 'in', emails).execute();
  const hashes = new Map(users.map((user) => [user.email, user.password_hash]));
  for (const email of emails) {
    const hash = hashes.get(email);
    if (hash !== undefined && (await verifyPassword(published, hash))) return email;
  }
  return null;
}

/** Where the server listens, and the demo user that kept it on loopback (null when none did). */
export interface ListenAddress {
  host: string;
  publishedPasswordUser: string | null;
}

/**
 * Where `npm start` listens. A supplier ADMIN whose password is printed in the README must not be
 * reachable from the network: while any demo user still has the published password, the server
 * listens on 127.0.0.1 only when `HOST` is not set, and refuses to start on another address when it
 * is. Otherwise `HOST`, or every interface.
 */
export async function listenAddress(
  db: Kysely<Database>,
  configuredHost: string | null,
  published = PUBLISHED_DEMO_PASSWORD,
): Promise<ListenAddress> {
  if (configuredHost !== null && isLoopbackAddress(configuredHost)) {
    return { host: configuredHost, publishedPasswordUser: null };
  }
  const user = await demoUserWithPassword(db, published);
  if (user === null) return { host: configuredHost ?? ALL_INTERFACES, publishedPasswordUser: null };
  if (configuredHost === null) return { host: LOOPBACK, publishedPasswordUser: user };
  throw new Error(
    `HOST=${configuredHost} would open the console to the network while the demo user ${user} still has the ` +
      `published password. Change the demo users' passwords (or start on an empty database with ` +
      `FIELDLINK_DEMO_PASSWORD set, or FIELDLINK_DEMO=0), or listen on 127.0.0.1.`,
  );
}
