import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS, startTestApp, type TestApp } from '../../../testing/test-app';
import { until } from '../../../testing/until';
import { insertLogs } from '../../db/log-writes';
import { COMPACT_AFTER_MS, hourOf, storedSamples } from '../../db/log-blocks';
import { JobQueue } from '../../jobs/job-queue';
import { withClusterTables } from '../../cluster/cluster-tables';
import type { LogRetention } from '../../config';
import {
  LOG_MAINTENANCE_JOB,
  LogMaintenance,
  PARTITION_MONTHS_AHEAD,
  logPartitions,
  partitionNameOf,
} from './log-maintenance';
import { monthStartOf } from './rollup-packs';
import { MIN_REST_MS } from '../../jobs/work-pace';
import { allRollups } from '../../../testing/log-rollups';

const DAY = 86_400_000;
const STEP = 5 * 60_000;
const quiet = { info: () => undefined, warn: () => undefined };
/**
 * A run's rest owed, taken as one turn of the event loop instead of its time: at the product's share a
 * run rests four times its work, which was most of these tests' time (and past their limit at load). The
 * rests still come between the same slices, and ingest beside a run still gets its turns; the test of the
 * pace itself takes real rests.
 */
const oneTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe.each(DIALECTS)('log maintenance on %s', (dialect) => {
  let t: TestApp;
  let free: string;
  let premium: string;
  const now = Date.now();

  const samples = (deviceId: string, days: number) =>
    Array.from({ length: (days * DAY) / STEP }, (_, i) => ({
      device_id: deviceId,
      code: 'c1',
      t: now - i * STEP - 1000,
      value: i % 17,
    }));
  const insert = async (rows: ReturnType<typeof samples>) => {
    for (let i = 0; i < rows.length; i += 2000) await insertLogs(t.app.storage.db, rows.slice(i, i + 2000));
  };
  /** Every stored sample of a device's channel, rows and blocks alike, oldest first. */
  const stored = (deviceId: string) =>
    storedSamples(t.app.storage.db, {
      deviceId,
      codes: ['c1'],
      from: Number.MIN_SAFE_INTEGER,
      to: Number.MAX_SAFE_INTEGER,
    });
  const oldest = async (table: 'logs' | 'logs_hourly', deviceId: string) => {
    // The roll-up's buckets wherever they are kept: closed months are packed by the same run.
    if (table === 'logs_hourly') {
      return (await allRollups(t.app.storage.db, table)).find((bucket) => bucket.device_id === deviceId)?.t ?? null;
    }
    return (await stored(deviceId))[0]?.t ?? null;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const db = t.app.storage.db;
    const ids = await db
      .selectFrom('devices')
      .select(['id', 'thing_name'])
      .where('thing_name', 'in', ['ACME-BLR01', 'ACME-BLR02'])
      .orderBy('thing_name')
      .execute();
    [free, premium] = ids.map((row) => row.id) as [string, string];
    await db.updateTable('devices').set({ plan: 'FREE' }).where('id', '=', free).execute();
    await db.updateTable('devices').set({ plan: 'PREMIUM' }).where('id', '=', premium).execute();
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    const db = t.app.storage.db;
    for (const table of ['logs', 'log_blocks', 'logs_hourly', 'logs_daily', 'logs_rollup_packs'] as const) {
      await db.deleteFrom(table).execute();
    }
  });

  it('deletes a plan’s samples past its retention in small batches and keeps the other plan’s', async () => {
    await insert([...samples(free, 20), ...samples(premium, 20)]);
    const retention: LogRetention = {
      FREE: { rawDays: 10, rollupDays: 15 },
      PREMIUM: { rawDays: 30, rollupDays: 0 },
    };
    const summary = await new LogMaintenance(t.app.storage.db, dialect, retention, {
      now: () => now,
      rest: oneTurn,
    }).run();
    // 10 days of 5-minute samples of the free device go, in batches of 1,000 (so several statements).
    expect(summary.deleted.logs).toBe((10 * DAY) / STEP);
    expect(await oldest('logs', free)).toBeGreaterThanOrEqual(now - 10 * DAY);
    expect(await oldest('logs', premium)).toBeLessThan(now - 19 * DAY);
    // The roll-ups keep their own, longer retention: the free device's hours from 15 days on.
    expect(await oldest('logs_hourly', free)).toBeGreaterThanOrEqual(now - 15 * DAY - 3_600_000);
    expect(await oldest('logs_hourly', free)).toBeLessThan(now - 14 * DAY);
    expect(await oldest('logs_hourly', premium)).toBeLessThan(now - 19 * DAY);
  });

  it('packs the closed months of the roll-ups, and still finds the channels of packed months for retention', async () => {
    await insert(samples(free, 3));
    const hourly = await allRollups(t.app.storage.db, 'logs_hourly');
    // A month on, and over a week after the last sample (whatever day of the month this runs), every
    // sample lies in a closed month: the run packs them all, keeping every sample.
    const later = Math.max(monthStartOf(now, 1) + DAY, now + COMPACT_AFTER_MS + DAY);
    const keep: LogRetention = { FREE: { rawDays: 0, rollupDays: 0 }, PREMIUM: { rawDays: 0, rollupDays: 0 } };
    const packing = await new LogMaintenance(t.app.storage.db, dialect, keep, {
      now: () => later,
      rest: oneTurn,
    }).run();
    expect(packing.packed).toBeGreaterThan(0);
    expect(await t.app.storage.db.selectFrom('logs_daily').select('t').execute()).toEqual([]);
    expect(await allRollups(t.app.storage.db, 'logs_hourly')).toEqual(hourly);
    // The channel has no roll-up rows any more, only packed ones: its samples still go at their retention.
    const retention: LogRetention = { FREE: { rawDays: 1, rollupDays: 0 }, PREMIUM: { rawDays: 0, rollupDays: 0 } };
    // The first run also moved the samples older than a week into hourly blocks: rows and blocks go.
    const blocks = await t.app.storage.db.selectFrom('log_blocks').select('t').where('device_id', '=', free).execute();
    expect(blocks.length).toBeGreaterThan(0);
    const summary = await new LogMaintenance(t.app.storage.db, dialect, retention, {
      now: () => later,
      rest: oneTurn,
    }).run();
    expect(summary.deleted.logs).toBe((3 * DAY) / STEP - packing.compacted);
    expect(summary.deleted.blocks).toBe(blocks.length);
    expect(await oldest('logs', free)).toBeNull();
  });

  it('runs as a job of the jobs table, queued once an hour however many instances ask', async () => {
    await insert(samples(free, 3));
    const retention: LogRetention = { FREE: { rawDays: 1, rollupDays: 0 }, PREMIUM: { rawDays: 0, rollupDays: 0 } };
    const maintenance = new LogMaintenance(t.app.storage.db, dialect, retention, { now: () => now, rest: oneTurn });
    const jobs = new JobQueue(t.app.storage.db, dialect, 'maintenance-test', quiet, { now: () => now });
    maintenance.start(jobs, 60, quiet);
    try {
      await maintenance.queueRun(jobs);
      await maintenance.queueRun(jobs);
      const queued = await withClusterTables(t.app.storage.db)
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', LOG_MAINTENANCE_JOB)
        .execute();
      expect(queued).toHaveLength(1);
      expect(await jobs.runDue()).toBe(1);
      expect(await oldest('logs', free)).toBeGreaterThanOrEqual(now - DAY);
    } finally {
      maintenance.stop();
    }
  });

  it.runIf(dialect === 'postgres')(
    'creates the monthly partitions ahead, moving stray rows out of the default partition',
    async () => {
      const db = t.app.storage.db;
      // Half a year on: the months the migration made are behind, the next ones do not exist yet. A
      // sample of a coming month already waits in the default partition (a clock running ahead).
      const later = monthStartOf(now, 6) + 12 * DAY;
      const early = { device_id: premium, code: 'c1', t: monthStartOf(later, 1) + 5000, value: 3 };
      await db.insertInto('logs').values(early).execute();
      const placed = async () =>
        (await sql<{ p: string }>`select tableoid::regclass::text as p from logs where t = ${early.t}`.execute(db))
          .rows[0]?.p;
      expect(await placed()).toBe('logs_default');
      const retention: LogRetention = { FREE: { rawDays: 0, rollupDays: 0 }, PREMIUM: { rawDays: 0, rollupDays: 0 } };
      const summary = await new LogMaintenance(db, dialect, retention, { now: () => later, rest: oneTurn }).run();
      const expected = Array.from({ length: PARTITION_MONTHS_AHEAD + 1 }, (_, i) =>
        partitionNameOf(monthStartOf(later, i)),
      );
      // The blocks get the same months, named alike.
      const expectedBlocks = Array.from({ length: PARTITION_MONTHS_AHEAD + 1 }, (_, i) =>
        partitionNameOf(monthStartOf(later, i), 'log_blocks'),
      );
      expect(summary.created).toEqual([...expected, ...expectedBlocks]);
      const names = (await logPartitions(db)).map((partition) => partition.name);
      for (const name of expected) expect(names).toContain(name);
      const blockNames = (await logPartitions(db, 'log_blocks')).map((partition) => partition.name);
      for (const name of expectedBlocks) expect(blockNames).toContain(name);
      expect(await placed()).toBe(partitionNameOf(monthStartOf(later, 1)));
      // A second run finds them all.
      expect(
        (await new LogMaintenance(db, dialect, retention, { now: () => later, rest: oneTurn }).run()).created,
      ).toEqual([]);
    },
  );

  it.runIf(dialect === 'postgres')(
    'detaches and drops the partitions whose whole month is past every plan’s retention',
    async () => {
      const db = t.app.storage.db;
      await insert(samples(premium, 2));
      const before = [...(await logPartitions(db)), ...(await logPartitions(db, 'log_blocks'))];
      // Two years on, with 40 days of samples kept: every month up to 40 days back goes.
      const later = now + 730 * DAY;
      const retention: LogRetention = {
        FREE: { rawDays: 10, rollupDays: 0 },
        PREMIUM: { rawDays: 40, rollupDays: 0 },
      };
      const summary = await new LogMaintenance(db, dialect, retention, { now: () => later, rest: oneTurn }).run();
      const expired = before.filter((partition) => partition.to <= later - 40 * DAY).map((p) => p.name);
      expect(expired.length).toBeGreaterThan(0);
      expect(summary.detached).toEqual(expired);
      const after = [...(await logPartitions(db)), ...(await logPartitions(db, 'log_blocks'))].map((p) => p.name);
      for (const name of expired) expect(after).not.toContain(name);
      const tables = await sql<{ n: number }>`
        select count(*)::int as n from pg_class where relname in (${sql.join(expired)})`.execute(db);
      expect(tables.rows[0]!.n).toBe(0);
      expect(await oldest('logs', premium)).toBeNull();
      // The roll-ups, kept forever here, still chart the dropped months.
      expect(await oldest('logs_hourly', premium)).toBeLessThan(now - DAY);
    },
  );

  it.runIf(dialect === 'postgres')(
    'keeps vacuum off the index of the months still written, and cleans a month’s index once past compaction',
    async () => {
      const db = t.app.storage.db;
      const forever: LogRetention = { FREE: { rawDays: 0, rollupDays: 0 }, PREMIUM: { rawDays: 0, rollupDays: 0 } };
      const indexCleanupOff = async () =>
        new Map(
          (
            await sql<{ name: string; off: boolean }>`
              select c.relname as name, coalesce('vacuum_index_cleanup=off' = any(c.reloptions), false) as off
              from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'logs'::regclass`.execute(db)
          ).rows.map((row) => [row.name, row.off]),
        );
      const thisMonth = partitionNameOf(monthStartOf(now));
      const nextMonth = partitionNameOf(monthStartOf(now, 1));
      await new LogMaintenance(db, dialect, forever, { now: () => now, rest: oneTurn }).run();
      // Every month whose end is past the compaction horizon is still written: vacuum leaves its index.
      const horizon = hourOf(now - COMPACT_AFTER_MS);
      const off = await indexCleanupOff();
      for (const partition of await logPartitions(db)) expect(off.get(partition.name)).toBe(partition.to > horizon);
      expect(off.get(thisMonth)).toBe(true);
      expect(off.get('logs_default')).toBe(false);

      // This month's samples, some deleted as compaction deletes them: dead entries in its index.
      await insert(samples(premium, 1));
      await db
        .deleteFrom('logs')
        .where('device_id', '=', premium)
        .where('t', '<', now - DAY / 2)
        .execute();
      const vacuums = async (name: string) =>
        Number(
          (
            await sql<{ n: string }>`select vacuum_count as n from pg_stat_user_tables where relname = ${name}`.execute(
              db,
            )
          ).rows[0]!.n,
        );
      const before = await vacuums(thisMonth);
      // Eight days into next month this month is wholly past the horizon: its index is cleaned once.
      const later = monthStartOf(now, 1) + 8 * DAY;
      const summary = await new LogMaintenance(db, dialect, forever, { now: () => later, rest: oneTurn }).run();
      expect(summary.cleaned).toEqual([thisMonth]);
      expect(await vacuums(thisMonth)).toBe(before + 1);
      const after = await indexCleanupOff();
      expect(after.get(thisMonth)).toBe(false);
      expect(after.get(nextMonth)).toBe(true);
      // The samples left are all there, and a second run has nothing more to clean.
      expect((await stored(premium)).length).toBeGreaterThan(0);
      expect(
        (await new LogMaintenance(db, dialect, forever, { now: () => later, rest: oneTurn }).run()).cleaned,
      ).toEqual([]);
    },
  );

  it('moves exactly the samples older than a week into hourly blocks and reads them as before', async () => {
    const all = samples(premium, 10);
    await insert(all);
    const forever: LogRetention = { FREE: { rawDays: 0, rollupDays: 0 }, PREMIUM: { rawDays: 0, rollupDays: 0 } };
    const summary = await new LogMaintenance(t.app.storage.db, dialect, forever, {
      now: () => now,
      rest: oneTurn,
    }).run();
    const horizon = hourOf(now - COMPACT_AFTER_MS);
    const old = all.filter((sample) => sample.t < horizon);
    expect(old.length).toBeGreaterThan(0);
    expect(summary.compacted).toBe(old.length);
    const db = t.app.storage.db;
    const rows = await db.selectFrom('logs').select('t').where('device_id', '=', premium).orderBy('t').execute();
    expect(rows).toHaveLength(all.length - old.length);
    expect(rows[0]!.t).toBeGreaterThanOrEqual(horizon);
    const blocks = await db
      .selectFrom('log_blocks')
      .select(['t', 'sample_count'])
      .where('device_id', '=', premium)
      .orderBy('t')
      .execute();
    expect(blocks.at(-1)!.t).toBeLessThan(horizon);
    expect(blocks.reduce((sum, block) => sum + block.sample_count, 0)).toBe(old.length);
    // One block per hour: 12 samples each at 5-minute steps.
    expect(blocks.every((block) => block.t % 3_600_000 === 0 && block.sample_count <= 12)).toBe(true);
    const expected = [...all].sort((a, b) => a.t - b.t).map(({ code, t, value }) => ({ code, t, value }));
    expect(await stored(premium)).toEqual(expected);
    // A second run finds nothing more to move.
    expect((await new LogMaintenance(db, dialect, forever, { now: () => now, rest: oneTurn }).run()).compacted).toBe(0);
  });

  it('deletes blocks past their retention, whole hours only', async () => {
    await insert(samples(free, 20));
    const db = t.app.storage.db;
    const forever: LogRetention = { FREE: { rawDays: 0, rollupDays: 0 }, PREMIUM: { rawDays: 0, rollupDays: 0 } };
    await new LogMaintenance(db, dialect, forever, { now: () => now, rest: oneTurn }).run();
    const blocksBefore = await db.selectFrom('log_blocks').select('t').where('device_id', '=', free).execute();
    const retention: LogRetention = {
      FREE: { rawDays: 10, rollupDays: 0 },
      PREMIUM: { rawDays: 0, rollupDays: 0 },
    };
    const summary = await new LogMaintenance(db, dialect, retention, { now: () => now, rest: oneTurn }).run();
    const cutoff = now - 10 * DAY;
    const gone = blocksBefore.filter((block) => block.t + 3_600_000 <= cutoff);
    expect(summary.deleted.blocks).toBe(gone.length);
    expect(gone.length).toBeGreaterThan(0);
    const kept = await stored(free);
    // Samples of the hour the cutoff falls in stay until the whole hour is past it.
    expect(kept[0]!.t).toBeGreaterThanOrEqual(hourOf(cutoff));
    expect(kept[0]!.t).toBeLessThan(cutoff + 5 * 60_000);
    expect(kept).toHaveLength(samples(free, 20).filter((sample) => sample.t >= hourOf(cutoff)).length);
  });

  it('works through a backlog at its share of the time, and stops between two slices for a shutdown', async () => {
    const db = t.app.storage.db;
    const retention: LogRetention = { FREE: { rawDays: 10, rollupDays: 0 }, PREMIUM: { rawDays: 0, rollupDays: 0 } };
    const backlog = async () => {
      await insert([...samples(free, 20), ...samples(premium, 10)]);
      return (await stored(premium)).length;
    };
    const kept = await backlog();
    const share = 0.25;
    const summary = await new LogMaintenance(db, dialect, retention, { now: () => now, workShare: share }).run();
    const { workMs, restMs, slices } = summary.pace;
    expect(summary.stopped).toBe(false);
    expect(slices).toBeGreaterThan(10);
    // It rested at least what its work owed (all but a last debt too short for a timer).
    expect(restMs + MIN_REST_MS).toBeGreaterThanOrEqual((workMs * (1 - share)) / share);
    expect(summary.deleted.logs).toBe((10 * DAY) / STEP);
    expect(summary.compacted).toBeGreaterThan(0);
    expect(await stored(premium)).toHaveLength(kept);

    // Stopped (the app closing) while it rests: the run ends at once, nothing lost or doubled, and the
    // next run finds what is left.
    for (const table of ['logs', 'log_blocks', 'logs_hourly', 'logs_daily', 'logs_rollup_packs'] as const) {
      await db.deleteFrom(table).execute();
    }
    await backlog();
    // Its rest ends only when the run is stopped: a run that waited its rest out would never end.
    let resting = false;
    const restUntilStopped = (_ms: number, wake: (resume: () => void) => void) =>
      new Promise<void>((resolve) => {
        resting = true;
        wake(resolve);
      });
    const slow = new LogMaintenance(db, dialect, retention, {
      now: () => now,
      workShare: 0.01,
      rest: restUntilStopped,
    });
    const running = slow.run();
    await until(() => resting);
    slow.stop();
    const stopped = await running;
    expect(stopped.stopped).toBe(true);
    expect(await stored(premium)).toHaveLength(kept);
    const rest = await new LogMaintenance(db, dialect, retention, { now: () => now, workShare: 1 }).run();
    expect(stopped.deleted.logs + rest.deleted.logs).toBe((10 * DAY) / STEP);
    expect(stopped.compacted + rest.compacted).toBe(summary.compacted);
    expect(await stored(premium)).toHaveLength(kept);
  });

  it.runIf(dialect === 'postgres')(
    'detaches a partition while inserts hold the table, never queueing ingest behind it for long',
    async () => {
      const db = t.app.storage.db;
      await insert(samples(premium, 2));
      const later = now + 730 * DAY;
      const retention: LogRetention = { FREE: { rawDays: 10, rollupDays: 0 }, PREMIUM: { rawDays: 40, rollupDays: 0 } };
      const expired = (await logPartitions(db)).filter((partition) => partition.to <= later - 40 * DAY);
      expect(expired.length).toBeGreaterThan(0);
      // A long transaction holds `logs` (a slow batch, a long report): DETACH must wait for it, and
      // every insert asking for the table after DETACH would wait behind DETACH.
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding = false;
      const holder = db.transaction().execute(async (trx) => {
        await trx.insertInto('logs').values({ device_id: premium, code: 'c9', t: now, value: 1 }).execute();
        holding = true;
        await released;
      });
      await until(() => holding);
      const run = new LogMaintenance(db, dialect, retention, { now: () => later, rest: oneTurn }).run();
      // DETACH asks for the table behind the holder.
      await until(async () => {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where query ilike '%detach partition%' and wait_event_type = 'Lock'`.execute(db);
        return rows[0]!.n > 0;
      });
      // Meanwhile ingest stores a batch: it waits at most one attempt's lock timeout, not for the holder,
      // which lets go only once the batch is stored (a batch queued behind it would never be).
      expect(await insertLogs(db, [{ device_id: free, code: 'c1', t: now + 1, value: 2 }])).toBe(1);
      release();
      await holder;
      // Once the holder is done, a later attempt detaches the expired months.
      const summary = await run;
      expect(summary.detached.filter((name) => name.startsWith('logs_p'))).toEqual(expired.map((p) => p.name));
      // This month's partitions again, for the tests after this one.
      const forever: LogRetention = { FREE: { rawDays: 0, rollupDays: 0 }, PREMIUM: { rawDays: 0, rollupDays: 0 } };
      expect(
        (await new LogMaintenance(db, dialect, forever, { now: () => now, rest: oneTurn }).run()).created.length,
      ).toBeGreaterThan(0);
    },
  );

  it('loses no sample stored while it compacts (rows equal acknowledged samples)', async () => {
    const db = t.app.storage.db;
    await insert(samples(premium, 9));
    const forever: LogRetention = { FREE: { rawDays: 0, rollupDays: 0 }, PREMIUM: { rawDays: 0, rollupDays: 0 } };
    const maintenance = new LogMaintenance(db, dialect, forever, { now: () => now, rest: oneTurn });
    // Meanwhile: new samples of another channel, and late ones into hours being compacted.
    let acknowledged = 0;
    const ingest = (async () => {
      for (let batch = 0; batch < 40; batch += 1) {
        const rows = Array.from({ length: 50 }, (_, i) => ({
          device_id: premium,
          code: 'c2',
          t: now - (batch % 2 === 0 ? 0 : 8 * DAY) - (batch * 50 + i) * 1000,
          value: i,
        }));
        acknowledged += await insertLogs(db, rows);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await Promise.all([maintenance.run(), ingest]);
    expect(acknowledged).toBe(2000);
    const window = { deviceId: premium, from: Number.MIN_SAFE_INTEGER, to: Number.MAX_SAFE_INTEGER };
    expect(await storedSamples(db, { ...window, codes: ['c2'] })).toHaveLength(acknowledged);
    expect(await stored(premium)).toHaveLength(samples(premium, 9).length);
    // The late samples left as rows by a run that had passed their hour move at the next run.
    await maintenance.run();
    expect(await storedSamples(db, { ...window, codes: ['c2'] })).toHaveLength(acknowledged);
    const rows = await db
      .selectFrom('logs')
      .select('t')
      .where('device_id', '=', premium)
      .where('t', '<', hourOf(now - COMPACT_AFTER_MS))
      .execute();
    expect(rows).toEqual([]);
  });
});
