import type { FastifyInstance } from 'fastify';
import {
  buildApp,
  loadConfig,
  type LogRetention,
  migrate,
  openStorage,
  moveInbox,
  seedDemo,
  withClusterTables,
  hourOf,
  LOG_MAINTENANCE_JOB,
  logPartitions,
  partitionNameOf,
  monthStartOf,
} from '@fieldlink/server/testing';
import { sql } from 'kysely';
import { serveRpc } from './child-rpc';
import { fillMinuteSamples } from './demo-app';
import { freshDatabase, type FreshDatabase } from './fresh-database';
import { provisionDevices } from './provision-devices';
import {
  POINTS_PER_FRAME,
  type DeviceCredentials,
  type MaintenanceEnd,
  type MaintenanceOutcome,
  type ServerCalls,
  type ServerReady,
} from './ingest-calls';
import { ProcessMeter } from './process-meter';

/**
 * The server side of the ingest benchmark, in a process of its own: the real app built by buildApp,
 * with its embedded broker on a free port, on a fresh database of the chosen dialect.
 */

const DEMO_PASSWORD = 'bench-demo-password';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The backlog's values: an SQL expression of the sample's number `i`, alike on both dialects. */
const BACKLOG_VALUE = '20 + (i % 97) / 4.0';
/** The id of the benchmark's run `run` of the log maintenance job in the jobs table. */
const maintenanceJobId = (run: number): string => `${LOG_MAINTENANCE_JOB}:bench:${run}`;

const meter = new ProcessMeter();
let app: FastifyInstance | null = null;
let database: FreshDatabase | null = null;
let provisioned: DeviceCredentials[] = [];
/** The retention per plan the app (and its maintenance job) runs with. */
let logRetention: LogRetention | null = null;
/** When set-up began: every sample the load generator sends is stamped later, every backlog sample earlier. */
let setupAt = 0;
/** The maintenance run queued last: its number, when, the partitions before it, and its end once seen. */
let maintenance: { run: number; queuedAt: number; partitionsBefore: number; endedAt: number | null } | null = null;
/** Partitions the runs that ended dropped. */
let partitionsDropped = 0;

/** The monthly partitions of `logs` and `log_blocks` (PostgreSQL; none on SQLite). */
async function partitionCount(fastify: FastifyInstance): Promise<number> {
  if (fastify.storage.dialect !== 'postgres') return 0;
  const { db } = fastify.storage;
  return (await logPartitions(db, 'logs')).length + (await logPartitions(db, 'log_blocks')).length;
}

/** Waits until the job is gone from the jobs table (done) or `until` (performance.now()) passes. */
async function awaitMaintenance(fastify: FastifyInstance, until: number): Promise<MaintenanceEnd> {
  const run = maintenance!;
  const jobs = withClusterTables(fastify.storage.db);
  while (run.endedAt === null && performance.now() < until) {
    const job = await jobs
      .selectFrom('jobs')
      .select(['state', 'last_error'])
      .where('id', '=', maintenanceJobId(run.run))
      .executeTakeFirst();
    if (!job) {
      run.endedAt = performance.now();
      partitionsDropped += Math.max(0, run.partitionsBefore - (await partitionCount(fastify)));
    } else if (job.last_error) throw new Error(`The log maintenance job failed: ${job.last_error}`);
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { finished: run.endedAt !== null, ms: (run.endedAt ?? performance.now()) - run.queuedAt };
}

/** What the run left in the database (see MaintenanceOutcome). */
async function maintenanceOutcome(fastify: FastifyInstance): Promise<MaintenanceOutcome> {
  const { db } = fastify.storage;
  const left = await db
    .selectFrom('logs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('t', '<', setupAt)
    .executeTakeFirstOrThrow();
  const blocks = await db
    .selectFrom('log_blocks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return {
    backlogRowsLeft: Number(left.n),
    blocks: Number(blocks.n),
    partitionsDropped,
  };
}

serveRpc<ServerCalls>(
  {
    async setup(setup): Promise<ServerReady> {
      const started = performance.now();
      setupAt = Date.now();
      database = await freshDatabase(setup.dialect, setup.postgresUrl, 'ingest');
      // The log maintenance job runs only when the benchmark queues it (its own stage), not an hour
      // after start as by default, where it would fall in whichever stage was running then.
      const config = loadConfig({
        DATABASE_URL: database.url,
        WEB_DIST: '/nonexistent',
        FIELDLINK_LOG_MAINTENANCE_MINUTES: '0',
      });
      logRetention = config.logRetention;
      const storage = openStorage(config.databaseUrl);
      await migrate(storage.db);
      await seedDemo(storage.db, DEMO_PASSWORD);
      app = await buildApp({ config, storage, mqttPort: 0 });
      await app.ready();
      const devices = await provisionDevices(app, setup.devices, DEMO_PASSWORD);
      provisioned = devices;
      const broker = app.broker;
      if (!broker) throw new Error('The app started without its broker');
      // Seeding hashes the demo passwords with scrypt (128 MiB each): not ingest's memory.
      meter.resetOverall();
      return { mqttPort: broker.port, devices, storage: database.label, setupMs: performance.now() - started };
    },

    async mark() {
      const { frames, dataPoints, rejected } = app?.ingest.counters ?? {
        frames: 0,
        dataPoints: 0,
        rejected: 0,
      };
      return { usage: meter.mark(), counters: { frames, dataPoints, rejected } };
    },

    async countRows() {
      if (!app) throw new Error('Not set up');
      await app.writer.flush();
      const { db } = app.storage;
      // SQLite: acknowledged samples still in the inbox are moved into `logs` first, as any reader
      // moves them, so the count is of `logs` alone (apps/server/src/db/log-inbox.ts).
      await moveInbox(db);
      const count = async (table: 'logs' | 'latest_values') => {
        const row = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('t', '>=', setupAt)
          .executeTakeFirstOrThrow();
        // count(*) is a bigint in PostgreSQL, read back as a string by node-postgres.
        return Number(row.n);
      };
      return { logRows: await count('logs'), latestRows: await count('latest_values') };
    },

    async loadBacklog({ devices: count, compactHours, run }) {
      if (!app) throw new Error('Not set up');
      const started = performance.now();
      const { db, dialect } = app.storage;
      const now = Date.now();
      const compactFrom = hourOf(now - 8 * DAY_MS) - compactHours * HOUR_MS;
      const retention = logRetention!;
      const ranges = [{ start: compactFrom, count: compactHours * 60 }];
      ranges.push({ start: now - (retention.FREE.rawDays + 2) * DAY_MS, count: 1440 });
      const plans = [retention.FREE.rawDays, retention.PREMIUM.rawDays];
      if (!plans.includes(0)) {
        // Past every plan's retention: a month the job made a partition for back then.
        const month = monthStartOf(now - (Math.max(...plans) + 40) * DAY_MS, -run);
        if (dialect === 'postgres') {
          const name = partitionNameOf(month);
          await sql`create table if not exists ${sql.table(name)} partition of logs
            for values from (${sql.lit(month)}) to (${sql.lit(monthStartOf(month, 1))})`.execute(db);
        }
        ranges.push({ start: month + DAY_MS, count: 1440 });
      }
      const things = provisioned.slice(run * count, (run + 1) * count).map((device) => device.thingName);
      if (things.length < count) throw new Error(`Backlog ${run} needs ${(run + 1) * count} devices`);
      const devices = await db.selectFrom('devices').select('id').where('thing_name', 'in', things).execute();
      let samples = 0;
      for (const { id } of devices) {
        for (let c = 1; c <= POINTS_PER_FRAME; c += 1) {
          for (const { start, count: minutes } of ranges) {
            await fillMinuteSamples(db, dialect, {
              deviceId: id,
              code: `c${c}`,
              start,
              count: minutes,
              value: BACKLOG_VALUE,
            });
            samples += minutes;
          }
        }
      }
      if (dialect === 'postgres') await sql`analyze`.execute(db);
      return { samples, loadMs: performance.now() - started };
    },

    async runMaintenance({ run, timeoutMs }) {
      if (!app) throw new Error('Not set up');
      const until = performance.now() + timeoutMs;
      if (maintenance?.run !== run) {
        if (maintenance && maintenance.endedAt === null) throw new Error(`Run ${maintenance.run} has not ended`);
        maintenance = { run, queuedAt: performance.now(), partitionsBefore: await partitionCount(app), endedAt: null };
        await app.jobs.enqueue(LOG_MAINTENANCE_JOB, {}, { key: maintenanceJobId(run) });
        app.jobs.nudge();
      }
      return awaitMaintenance(app, until);
    },

    async maintenanceOutcome() {
      if (!app || !maintenance) throw new Error('No maintenance run');
      return maintenanceOutcome(app);
    },

    async shutdown() {
      meter.stop();
      try {
        await app?.close();
      } finally {
        await database?.drop();
      }
    },
  },
  ['shutdown'],
);
