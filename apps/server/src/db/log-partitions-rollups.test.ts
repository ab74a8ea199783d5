import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrate, type Dialect } from './database';
import { insertLogs } from './log-writes';
import type { LogsTable } from './schema';
import { referenceRollups, storedLogs, storedRollups } from '../../testing/log-rollups';
import { DIALECTS } from '../../testing/test-app';
import { testStorages } from '../../testing/test-storage';

const BEFORE = '2026-12-04T0100-brew-report-files';
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** One stored sample, as the log holds it. */
type Sample = LogsTable;

describe.each(DIALECTS)('log partitions and roll-ups migration on %s', (dialect: Dialect) => {
  const storages = testStorages(dialect);
  const open = () => storages.open();
  afterEach(() => storages.close());

  it('moves an existing log with data to the new layout without loss and rolls it up', async () => {
    const db = await open();
    await migrate(db.db, BEFORE);
    const now = Date.now();
    const thisMonth = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
    const samples: Sample[] = [];
    // Two devices, two channels, minute samples in three months (one 14 months back), plus a sample
    // stamped 1970 by a device whose clock was never set.
    for (const device_id of ['dev-a', 'dev-b'])
      for (const code of ['c1', 'sp2'])
        for (const monthStart of [thisMonth - 420 * DAY, thisMonth - 40 * DAY, thisMonth])
          for (let i = 0; i < 150; i += 1)
            samples.push({ device_id, code, t: monthStart + i * 7 * 60_000 + 1234, value: ((i * 37) % 101) - 50.5 });
    samples.push({ device_id: 'dev-a', code: 'c1', t: 42_000, value: 7 });
    for (let i = 0; i < samples.length; i += 500) {
      await db.db
        .insertInto('logs')
        .values(samples.slice(i, i + 500))
        .execute();
    }

    await migrate(db.db);

    const sorted = [...samples].sort(
      (a, b) => a.device_id.localeCompare(b.device_id) || a.code.localeCompare(b.code) || a.t - b.t,
    );
    expect(await storedLogs(db.db)).toEqual(sorted);
    const close = (rows: Awaited<ReturnType<typeof storedRollups>>, width: number) => {
      const expected = referenceRollups(samples, width);
      expect(rows.map(({ sum_value: _sum, ...rest }) => rest)).toEqual(
        expected.map(({ sum_value: _sum, ...rest }) => rest),
      );
      rows.forEach((row, i) => expect(row.sum_value).toBeCloseTo(expected[i]!.sum_value, 9));
    };
    close(await storedRollups(db.db, 'logs_hourly'), HOUR);
    close(await storedRollups(db.db, 'logs_daily'), DAY);

    if (dialect === 'postgres') {
      const kind = await sql<{ relkind: string }>`select relkind from pg_class where relname = 'logs'`.execute(db.db);
      expect(kind.rows).toEqual([{ relkind: 'p' }]);
      const placed = await sql<{ partition: string; n: string }>`
        select tableoid::regclass::text as partition, count(*) as n from logs group by 1 order by 1`.execute(db.db);
      const monthName = (t: number) => {
        const date = new Date(t);
        return `logs_p${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
      };
      expect(placed.rows.map((row) => [row.partition, Number(row.n)])).toEqual(
        [
          ['logs_default', 1],
          [monthName(thisMonth - 420 * DAY), 600],
          [monthName(thisMonth - 40 * DAY), 600],
          [monthName(thisMonth), 600],
        ].sort(([a], [b]) => String(a).localeCompare(String(b))),
      );
      // The current month and three ahead exist, so ingest never waits for the maintenance job.
      const partitions = await sql<{ name: string }>`
        select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'logs'::regclass`.execute(db.db);
      const names = partitions.rows.map((row) => row.name);
      for (let ahead = 0; ahead <= 3; ahead += 1) {
        const date = new Date(thisMonth);
        expect(names).toContain(monthName(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + ahead, 1)));
      }
    }
  });

  it('keeps the roll-ups exact as samples are inserted, counting a duplicate sample once', async () => {
    const db = await storages.openMigrated();
    const t0 = Date.UTC(2026, 10, 25, 10);
    const first: Sample[] = [
      { device_id: 'dev-a', code: 'c1', t: t0 + 1000, value: 5 },
      { device_id: 'dev-a', code: 'c1', t: t0 + 2000, value: -3 },
      { device_id: 'dev-a', code: 'c1', t: t0 + HOUR + 5, value: 11 },
    ];
    await insertLogs(db.db, first);
    // A repeated sample (same t, another value) is skipped, an older sample
    // arrives late, and another channel starts.
    const second: Sample[] = [
      { device_id: 'dev-a', code: 'c1', t: t0 + 2000, value: 1000 },
      { device_id: 'dev-a', code: 'c1', t: t0 + 500, value: 40 },
      { device_id: 'dev-a', code: 'c2', t: t0 + 9, value: 0.5 },
    ];
    await insertLogs(db.db, second);
    const stored = [...first, second[1]!, second[2]!];
    const hourly = await storedRollups(db.db, 'logs_hourly');
    expect(hourly).toEqual(referenceRollups(stored, HOUR));
    expect(hourly[0]).toMatchObject({
      min_value: -3,
      max_value: 40,
      sample_count: 3,
      last_t: t0 + 2000,
      last_value: -3,
    });
    expect(await storedRollups(db.db, 'logs_daily')).toEqual(referenceRollups(stored, DAY));
  });
});
