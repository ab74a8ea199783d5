import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app. One migration serves SQLite and PostgreSQL.
//
// Passkeys (issue 38 item 2). `passkeys`: a user's WebAuthn credentials, by credential id (base64url):
// the COSE public key (base64url), the signature counter, the transports the browser reported, the
// name the user gave it, when it was added and last used. `webauthn_challenges`: each ceremony's
// challenge, stored server-side so any instance of a cluster can finish what another began, taken
// once, and dead after `expires_at`; `user_id` is null for a passwordless sign-in, whose user is not
// known until the passkey answers.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenges_expiry').on('webauthn_challenges').column('expires_at').execute();
}
