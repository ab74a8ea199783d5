import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app. One migration serves SQLite and PostgreSQL.
//
// Each user's clock (issue 36 item 2): the time zone (an IANA name) and the format (12 or 24 hours,
// day-month or month-day order) every date and time is shown to them in, on screen, in reports and
// in mails. Null: not chosen; the console then uses the browser's zone and locale.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['time_zone', 'hour_cycle', 'date_order']) {
    await db.schema.alterTable('users').addColumn(column, 'text').execute();
  }
}
