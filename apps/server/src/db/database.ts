import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql, type Migration } from 'kysely';
import { registerPostgresPool } from './postgres-copy';
import type { Database } from './schema';
import { startCheckpointer } from './sqlite-checkpointer';
import { openSqliteConnection, RetryingSqliteDialect } from './sqlite-driver';
import * as initial from './migrations/2026-11-21T0000-initial';
import * as deviceMessages from './migrations/2026-11-24T0100-device-messages';
import * as cluster from './migrations/2026-11-26T0000-cluster';
import * as timescale from './migrations/2026-11-26T0100-timescale';
import * as scenes from './migrations/2026-12-01T0000-scenes';
import * as alarms from './migrations/2026-12-01T0100-alarms';
import * as ota from './migrations/2026-12-01T0200-ota';
import * as spray from './migrations/2026-12-02T0300-spray';
import * as inventory from './migrations/2026-12-02T0400-inventory';
import * as reports from './migrations/2026-12-02T0500-reports';
import * as brew from './migrations/2026-12-02T0600-brew';
import * as accountTheme from './migrations/2026-12-03T0000-account-theme';
import * as brewReportFiles from './migrations/2026-12-04T0100-brew-report-files';
import * as retailDayTotals from './migrations/2026-12-04T0200-retail-day-totals';
import * as logPartitionsRollups from './migrations/2026-12-05T0000-log-partitions-rollups';
import * as deviceSettings from './migrations/2026-12-05T0100-device-settings';
import * as fileChunksLz4 from './migrations/2026-12-05T0200-file-chunks-lz4';
import * as rollupsPerBatch from './migrations/2026-12-06T0000-rollups-per-batch';
import * as rollupPacks from './migrations/2026-12-07T0000-rollup-packs';
import * as logBlocks from './migrations/2026-12-07T0300-log-blocks';
import * as logInbox from './migrations/2026-12-08T0100-log-inbox';
import * as accountTreeVersion from './migrations/2026-12-09T0200-account-tree-version';
import * as sprayerCooldowns from './migrations/2026-12-10T0700-sprayer-cooldowns';
import * as workLimits from './migrations/2026-12-10T0800-work-limits';
import * as monitorOnly from './migrations/2026-12-10T0900-monitor-only';
import * as userClock from './migrations/2026-12-11T0300-user-clock';
import * as auditLog from './migrations/2026-12-11T0400-audit-log';
import * as pushSubscriptions from './migrations/2026-12-12T0100-push-subscriptions';
import * as apiTokens from './migrations/2026-12-12T0300-api-tokens';
import * as webhooks from './migrations/2026-12-12T0900-webhooks';
import * as totp from './migrations/2026-12-12T1000-totp';
import * as sessions from './migrations/2026-12-12T1100-sessions';
import * as sms from './migrations/2026-12-12T1200-sms';
import * as requireSecondFactor from './migrations/2026-12-12T1300-require-second-factor';
import * as notificationRouting from './migrations/2026-12-13T0500-notification-routing';
import * as passkeys from './migrations/2026-12-13T0600-passkeys';
import * as logInboxRuns from './migrations/2026-12-14T0100-log-inbox-runs';
import * as logRollupInbox from './migrations/2026-12-15T0100-log-rollup-inbox';
import * as logRollupLatestInbox from './migrations/2026-12-15T0200-log-rollup-latest-inbox';

export type Dialect = 'sqlite' | 'postgres';

export interface Storage {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The SQLite file; null on PostgreSQL and for an in-memory database (which no other connection sees). */
  file: string | null;
  /**
   * `select 1` on a connection of its own (PostgreSQL), so a readiness check tells whether the
   * database answers, not whether the busy pool has a connection free.
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Every migration, in order. Listed here rather than read from disk so a bundle carries them. */
export const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21T0000-initial': initial,
  '2026-11-24T0100-device-messages': deviceMessages,
  '2026-11-26T0000-cluster': cluster,
  '2026-11-26T0100-timescale': timescale,
  '2026-12-01T0000-scenes': scenes,
  '2026-12-01T0100-alarms': alarms,
  '2026-12-01T0200-ota': ota,
  '2026-12-02T0300-spray': spray,
  '2026-12-02T0400-inventory': inventory,
  '2026-12-02T0500-reports': reports,
  '2026-12-02T0600-brew': brew,
  '2026-12-03T0000-account-theme': accountTheme,
  '2026-12-04T0100-brew-report-files': brewReportFiles,
  '2026-12-04T0200-retail-day-totals': retailDayTotals,
  '2026-12-05T0000-log-partitions-rollups': logPartitionsRollups,
  '2026-12-05T0100-device-settings': deviceSettings,
  '2026-12-05T0200-file-chunks-lz4': fileChunksLz4,
  '2026-12-06T0000-rollups-per-batch': rollupsPerBatch,
  '2026-12-07T0000-rollup-packs': rollupPacks,
  '2026-12-07T0300-log-blocks': logBlocks,
  '2026-12-08T0100-log-inbox': logInbox,
  '2026-12-09T0200-account-tree-version': accountTreeVersion,
  '2026-12-10T0700-sprayer-cooldowns': sprayerCooldowns,
  '2026-12-10T0800-work-limits': workLimits,
  '2026-12-10T0900-monitor-only': monitorOnly,
  '2026-12-11T0300-user-clock': userClock,
  '2026-12-11T0400-audit-log': auditLog,
  '2026-12-12T0100-push-subscriptions': pushSubscriptions,
  '2026-12-12T0300-api-tokens': apiTokens,
  '2026-12-12T0900-webhooks': webhooks,
  '2026-12-12T1000-totp': totp,
  '2026-12-12T1100-sessions': sessions,
  '2026-12-12T1200-sms': sms,
  '2026-12-12T1300-require-second-factor': requireSecondFactor,
  '2026-12-13T0500-notification-routing': notificationRouting,
  '2026-12-13T0600-passkeys': passkeys,
  '2026-12-14T0100-log-inbox-runs': logInboxRuns,
  '2026-12-15T0100-log-rollup-inbox': logRollupInbox,
  '2026-12-15T0200-log-rollup-latest-inbox': logRollupLatestInbox,
};

// bigint columns hold unix milliseconds: well inside Number's exact range.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/** True when the URL names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/**
 * Opens the database named by `url` (a `postgres://` URL or a SQLite file path, `:memory:` included).
 * SQLite runs in WAL mode; a statement meeting another process's lock is retried without blocking the
 * event loop (`sqlite-driver.ts`), so reads go on and writes wait a few seconds before failing.
 */
export function openStorage(url: string): Storage {
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // A terminated connection must not crash the process: node-postgres emits 'error' on the idle
    // client (the pool's listener), and on a checked-out client between two queries, which has no
    // listener of its own; the pool discards such a client when it is released.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    registerPostgresPool(db, pool);
    const pingPool = new pg.Pool({ connectionString: url, max: 1 });
    pingPool.on('error', () => undefined);
    pingPool.on('connect', (client) => client.on('error', () => undefined));
    return {
      db,
      dialect: 'postgres',
      file: null,
      ping: async () => void (await pingPool.query('select 1')),
      close: async () => {
        await pingPool.end();
        await db.destroy();
      },
    };
  }
  const file = url.replace(/^sqlite:(\/\/)?/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = openSqliteConnection(file);
  const db = new Kysely<Database>({ dialect: new RetryingSqliteDialect(sqlite) });
  const checkpointer = sqlite.memory ? null : startCheckpointer(file);
  return {
    db,
    dialect: 'sqlite',
    file: sqlite.memory ? null : file,
    ping: async () => void (await sql`select 1`.execute(db)),
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * Brings the schema up to date, or up to the migration named `to` (tests of a migration start from the
 * schema before it); throws with the failing migration's error. A schema a later release has already
 * expanded is left as it is when this code's own migrations are all in it: migrations only add
 * (docs/operations.md, "Upgrades without downtime"), so this release runs on it beside the later one
 * during a rolling upgrade, or after a roll back. Answers the later release's migrations, if any.
 */
export async function migrate(db: Kysely<Database>, to?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  if (to === undefined) {
    const known = await migrator.getMigrations();
    // A new database has no migration table yet.
    const executed = known.some((migration) => migration.executedAt !== undefined)
      ? (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows
      : [];
    const ahead = executed.map((row) => row.name).filter((name) => !(name in MIGRATIONS));
    if (ahead.length > 0) {
      const missing = known.filter((migration) => migration.executedAt === undefined).map((m) => m.name);
      if (missing.length === 0) return ahead.sort();
      throw new Error(
        `The database has migrations of a later release (${ahead.join(', ')}) but not this release's ` +
          `${missing.join(', ')}: start the later release.`,
      );
    }
  }
  const { error, results } = to === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(to);
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  return [];
}
