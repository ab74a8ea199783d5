import { sql, type Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema';
import { monthStartOf, packClosedMonths } from '../../apps/server/src/features/devices/rollup-packs';
import type { Benchmark, BenchOptions, BenchSection, BenchTable, StorageDialect } from './benchmark';
import { fillMinuteSamples, startDemoBenchApp } from './demo-app';
import { formatCount, formatMs } from './format';
import { besideInfluxYear, type FieldlinkYear } from './peers/influx';
import { percentile } from './percentile';

/** The i-th minute's value (a daily wave, noise and a rare spike), in SQL for the log and in JavaScript for InfluxDB. */
const SAMPLE_VALUE_SQL =
  'sin(i / 1440.0 * 6.283) * 10 + ((i * 7919) % 100) / 100.0 + (case when i % 9973 = 0 then 100 else 0 end)';
const sampleValue = (i: number) =>
  Math.sin((i / 1440) * 6.283) * 10 + ((i * 7919) % 100) / 100 + (i % 9973 === 0 ? 100 : 0);

/**
 * Server-side downsampling of `GET /device-logs`: a year of 1-minute samples of one channel into
 * 2,000 bins, on the real service (the call's own code path, scope check included) and through HTTP.
 * Three claims are measured: the year answers in under 10 ms on SQLite and 15 ms on PostgreSQL (p50,
 * read from the hourly roll-up), the cost does not grow with the table, and ten years of 100 channels
 * (daily roll-ups) answer in under 100 ms.
 */

const READER = 'viewer@fieldlink.test';
const THING_NAME = 'ACME-BLR01';
const MINUTE = 60_000;
const YEAR_SAMPLES = 525_600;
const BIN_COUNT = 2000;
const START = Date.UTC(2025, 0, 1);
/** Other channels' rows added for the "bigger table" stage: four more channel-years. */
const FILLER_CHANNELS = ['c2', 'c3', 'c4', 'c5'];
const GOALS: Record<StorageDialect, number> = { sqlite: 10, postgres: 15 };
const DAY = 86_400_000;
const DECADE_DAYS = 3650;
const DECADE_CHANNELS = 100;
const DECADE_GOAL_MS = 100;
/** Bytes on disk per data point older than a week (issue 20 item 3): the samples are all older here. */
const BYTES_PER_POINT_GOAL = 10;
const RUNS = 21;
const WARMUP_RUNS = 3;

const WINDOWS: { label: string; minutes: number }[] = [
  { label: '1 day', minutes: 1440 },
  { label: '1 week', minutes: 7 * 1440 },
  { label: '30 days', minutes: 30 * 1440 },
  { label: '1 year', minutes: YEAR_SAMPLES },
];

/**
 * A year of minute samples of one channel, written in one statement per dialect (a daily wave, noise
 * and a rare spike). Both generators give the same values.
 */
async function fillChannel(db: Kysely<Database>, dialect: StorageDialect, deviceId: string, code: string) {
  await fillMinuteSamples(db, dialect, {
    deviceId,
    code,
    start: START,
    count: YEAR_SAMPLES,
    value: SAMPLE_VALUE_SQL,
  });
  if (dialect === 'postgres') await sql`vacuum analyze logs`.execute(db);
}

/**
 * What the hourly log maintenance job does to the written data (`logs.maintain`): the closed months of
 * the device's roll-ups packed (a row per channel of a UTC month of hours or a UTC year of days). Only
 * that step of the job: its retention would delete the samples of the benchmark's past year.
 */
async function packAsTheJobDoes(db: Kysely<Database>, dialect: StorageDialect, deviceId: string) {
  await packClosedMonths(db, deviceId, monthStartOf(Date.now()));
  if (dialect === 'postgres') await sql`vacuum analyze logs_rollup_packs`.execute(db);
}

/**
 * Ten years of daily roll-ups of 100 more channels (`a1`..`a100`) ending where the year of samples
 * ends, as a device that has reported for a decade keeps them once its samples are past retention.
 */
async function fillDecade(db: Kysely<Database>, dialect: StorageDialect, deviceId: string, end: number) {
  const first = end - DECADE_DAYS * DAY;
  const columns = sql.raw(
    `'a' || k, ${first} + i * ${DAY}, -k - (i % 7), k + (i % 5), 1440.0 * (i % 11), 1440, ` +
      `${first} + i * ${DAY} + ${DAY - MINUTE}, i % 13`,
  );
  const into = sql`insert into logs_daily
    (device_id, code, t, min_value, max_value, sum_value, sample_count, last_t, last_value)`;
  if (dialect === 'sqlite') {
    await sql`
      with recursive d(i) as (select 0 union all select i + 1 from d where i + 1 < ${DECADE_DAYS}),
        c(k) as (select 1 union all select k + 1 from c where k < ${DECADE_CHANNELS})
      ${into} select ${deviceId}, ${columns} from d, c`.execute(db);
  } else {
    await sql`${into} select ${deviceId}, ${columns}
      from generate_series(0::bigint, ${DECADE_DAYS - 1}::bigint) as i, generate_series(1, ${DECADE_CHANNELS}) as k`.execute(
      db,
    );
    await sql`vacuum analyze logs_daily`.execute(db);
  }
}

/** Bytes a table and its indexes hold on disk (on PostgreSQL with every partition), in database pages. */
async function bytesOnDisk(db: Kysely<Database>, dialect: StorageDialect, table: string): Promise<number> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ n: number | null }>`
      select sum(pgsize) as n from dbstat
      where name = ${table} or name in (select name from sqlite_master where type = 'index' and tbl_name = ${table})`.execute(
      db,
    );
    return Number(rows[0]?.n ?? 0);
  }
  const { rows } = await sql<{ n: number | null }>`
    select sum(pg_total_relation_size(c.oid)) as n from pg_class c
    where c.relname = ${table} or c.oid in (select inhrelid from pg_inherits where inhparent = ${table}::regclass)`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}

async function measure(run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < WARMUP_RUNS; i += 1) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

interface DialectResult {
  label: string;
  tableRows: { before: number; after: number };
  windows: {
    label: string;
    rows: number;
    points: string;
    service: { p50: number; p95: number };
    http: { p50: number };
  }[];
  yearBigger: { p50: number; p95: number };
  decade: {
    packedRows: number;
    bins: number;
    service: { p50: number; p95: number };
    http: { p50: number };
    bytes: number;
  };
  onDisk: { samples: number; logBytes: number; rollupBytes: number };
}

async function runDialect(dialect: StorageDialect, options: BenchOptions): Promise<DialectResult> {
  const bench = await startDemoBenchApp(dialect, options.postgresUrl, 'logs');
  try {
    const { app, db } = bench;
    const device = await db
      .selectFrom('devices')
      .select('id')
      .where('thing_name', '=', THING_NAME)
      .executeTakeFirstOrThrow();
    options.log(`  ${dialect}: writing ${formatCount(YEAR_SAMPLES)} samples`);
    await fillChannel(db, dialect, device.id, 'c1');
    await packAsTheJobDoes(db, dialect, device.id);

    const { jwt, user } = await bench.signIn(READER);
    const query = (minutes: number, channels = 'c1') => ({
      format: 'GROUPED_BY_CHANNEL' as const,
      deviceId: device.id,
      channels,
      start: START + YEAR_SAMPLES * MINUTE - minutes * MINUTE,
      end: START + YEAR_SAMPLES * MINUTE,
      binCount: BIN_COUNT,
    });
    const service = (minutes: number, channels?: string) => app.fieldlink.devices.logs(user, query(minutes, channels));
    const http = (minutes: number, channels?: string) => {
      const search = new URLSearchParams(Object.entries(query(minutes, channels)).map(([k, v]) => [k, String(v)]));
      return app.inject({ method: 'GET', url: `/api/v1/device-logs?${search}`, headers: { authorization: jwt } });
    };
    const countRows = async () =>
      Number(
        (
          await db
            .selectFrom('logs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    const before = await countRows();
    const windows: DialectResult['windows'] = [];
    for (const window of WINDOWS) {
      const answer = await service(window.minutes);
      const log = answer.channels.c1!;
      const points = log.kind === 'raw' ? `${formatCount(log.t.length)} raw` : `${formatCount(log.t.length)} bins`;
      const timing = await measure(() => service(window.minutes));
      const overHttp = await measure(() => http(window.minutes));
      windows.push({
        label: window.label,
        rows: Math.min(window.minutes, YEAR_SAMPLES),
        points,
        service: timing,
        http: overHttp,
      });
      options.log(`  ${dialect} ${window.label}: p50 ${formatMs(timing.p50)}`);
    }
    options.log(`  ${dialect}: adding ${FILLER_CHANNELS.length} more channel-years`);
    for (const code of FILLER_CHANNELS) await fillChannel(db, dialect, device.id, code);
    await packAsTheJobDoes(db, dialect, device.id);
    const after = await countRows();
    const yearBigger = await measure(() => service(YEAR_SAMPLES));
    if (dialect === 'postgres') await sql`vacuum analyze`.execute(db);
    const onDisk = {
      samples: after,
      logBytes: await bytesOnDisk(db, dialect, 'logs'),
      rollupBytes:
        (await bytesOnDisk(db, dialect, 'logs_hourly')) +
        (await bytesOnDisk(db, dialect, 'logs_daily')) +
        (await bytesOnDisk(db, dialect, 'logs_rollup_packs')),
    };
    options.log(`  ${dialect}: writing ten years of daily roll-ups of ${DECADE_CHANNELS} channels`);
    const end = START + YEAR_SAMPLES * MINUTE;
    await fillDecade(db, dialect, device.id, end);
    options.log(`  ${dialect}: packing the closed months as the log maintenance job does`);
    await packAsTheJobDoes(db, dialect, device.id);
    const packedRows = Number(
      (
        await db
          .selectFrom('logs_rollup_packs')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('device_id', '=', device.id)
          .where('level', '=', DAY)
          .where('code', 'like', 'a%')
          .executeTakeFirstOrThrow()
      ).n,
    );
    const decadeMinutes = DECADE_DAYS * 1440;
    const decadeChannels = Array.from({ length: DECADE_CHANNELS }, (_, i) => `a${i + 1}`).join(',');
    const decadeAnswer = await service(decadeMinutes, decadeChannels);
    const decadeBody = (await http(decadeMinutes, decadeChannels)).body;
    const decade = {
      packedRows,
      bins: Object.values(decadeAnswer.channels).reduce((sum, log) => sum + log.t.length, 0),
      service: await measure(() => service(decadeMinutes, decadeChannels)),
      http: await measure(() => http(decadeMinutes, decadeChannels)),
      bytes: Buffer.byteLength(decadeBody),
    };
    options.log(`  ${dialect} ten years of ${DECADE_CHANNELS} channels: p50 ${formatMs(decade.service.p50)}`);
    return { label: bench.label, tableRows: { before, after }, windows, yearBigger, decade, onDisk };
  } finally {
    await bench.close();
  }
}

export const deviceLogsBenchmark: Benchmark = {
  name: 'device-logs',
  title: 'Log downsampling (GET /device-logs)',
  async run(options: BenchOptions): Promise<BenchSection> {
    const tables: BenchTable[] = [];
    const findings: string[] = [];
    const beside: FieldlinkYear[] = [];
    let failed = false;
    for (const dialect of options.dialects) {
      const result = await runDialect(dialect, options);
      const year = result.windows.at(-1)!;
      const { samples: stored, logBytes: log, rollupBytes: rollups } = result.onDisk;
      beside.push({
        storage: dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL',
        httpP50Ms: year.http.p50,
        bytesPerPoint: (log + rollups) / stored,
      });
      const goal = GOALS[dialect];
      const met = year.service.p50 < goal;
      const biggerMet = result.yearBigger.p50 < goal;
      failed ||= !met || !biggerMet;
      tables.push({
        caption: `${result.label}: one channel, ${formatCount(result.tableRows.before)} rows in the table, ${BIN_COUNT} bins asked`,
        columns: ['window', 'rows in window', 'answer', 'service p50', 'service p95', 'HTTP p50', 'goal (p50)', 'met'],
        rows: result.windows.map((window) => [
          window.label,
          formatCount(window.rows),
          window.points,
          formatMs(window.service.p50),
          formatMs(window.service.p95),
          formatMs(window.http.p50),
          window === year ? `< ${goal} ms` : '–',
          window === year ? (met ? 'yes' : 'no') : '–',
        ]),
      });
      tables.push({
        caption: `${result.label}: the same year with the table ${(result.tableRows.after / result.tableRows.before).toFixed(0)}x larger`,
        columns: ['rows in table', 'rows in window', 'service p50', 'service p95', 'goal (p50)', 'met'],
        rows: [
          [
            formatCount(result.tableRows.before),
            formatCount(YEAR_SAMPLES),
            formatMs(year.service.p50),
            formatMs(year.service.p95),
            `< ${goal} ms`,
            met ? 'yes' : 'no',
          ],
          [
            formatCount(result.tableRows.after),
            formatCount(YEAR_SAMPLES),
            formatMs(result.yearBigger.p50),
            formatMs(result.yearBigger.p95),
            `< ${goal} ms`,
            biggerMet ? 'yes' : 'no',
          ],
        ],
      });
      const decadeMet = result.decade.service.p50 < DECADE_GOAL_MS;
      failed ||= !decadeMet;
      tables.push({
        caption: `${result.label}: ten years of ${DECADE_CHANNELS} channels (daily roll-ups), ${BIN_COUNT} bins asked per channel, one call`,
        columns: [
          'window',
          'daily buckets read',
          'rows (packed years)',
          'bins answered',
          'service p50',
          'service p95',
          'HTTP p50',
          'JSON',
          'goal (p50)',
          'met',
        ],
        rows: [
          [
            '10 years',
            formatCount(DECADE_DAYS * DECADE_CHANNELS),
            formatCount(result.decade.packedRows),
            formatCount(result.decade.bins),
            formatMs(result.decade.service.p50),
            formatMs(result.decade.service.p95),
            formatMs(result.decade.http.p50),
            `${(result.decade.bytes / 1048576).toFixed(1)} MiB`,
            `< ${DECADE_GOAL_MS} ms`,
            decadeMet ? 'yes' : 'no',
          ],
        ],
      });
      const { samples, logBytes, rollupBytes } = result.onDisk;
      const perPoint = (bytes: number) => (bytes / samples).toFixed(1);
      tables.push({
        caption: `${result.label}: bytes on disk per stored data point (five channel-years of 1-minute samples)`,
        columns: [
          'samples',
          'log (table and key)',
          'per point',
          'hourly and daily roll-ups',
          'per point',
          'in all, per point',
          'goal (samples older than a week)',
          'met',
        ],
        rows: [
          [
            formatCount(samples),
            `${(logBytes / 1048576).toFixed(1)} MiB`,
            perPoint(logBytes),
            `${(rollupBytes / 1048576).toFixed(1)} MiB`,
            perPoint(rollupBytes),
            perPoint(logBytes + rollupBytes),
            `< ${BYTES_PER_POINT_GOAL} bytes`,
            (logBytes + rollupBytes) / samples < BYTES_PER_POINT_GOAL ? 'yes' : 'no',
          ],
        ],
      });
      const name = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
      findings.push(
        `${name}: a year into ${BIN_COUNT} bins in ${formatMs(year.service.p50)} (p50), ` +
          `goal under ${goal} ms: ${met ? 'met' : 'NOT met'}. With the table ${(result.tableRows.after / result.tableRows.before).toFixed(0)}x ` +
          `larger the same window takes ${formatMs(result.yearBigger.p50)}: the cost follows the roll-up rows in the window. ` +
          `Ten years of ${DECADE_CHANNELS} channels in ${formatMs(result.decade.service.p50)} (service p50; ` +
          `${formatMs(result.decade.http.p50)} through HTTP, ${(result.decade.bytes / 1048576).toFixed(1)} MiB of JSON), goal under ` +
          `${DECADE_GOAL_MS} ms: ${decadeMet ? 'met' : 'NOT met'}. On disk a data point takes ` +
          `${perPoint(logBytes + rollupBytes)} bytes with its roll-ups; the goal of under 10 bytes for data older ` +
          `than a week needs a compact encoding of old samples, which is not built (docs/decisions.md).`,
      );
    }
    const influx = await besideInfluxYear(
      {
        thingName: THING_NAME,
        start: START,
        stepMs: MINUTE,
        samples: YEAR_SAMPLES,
        value: sampleValue,
        binCount: BIN_COUNT,
      },
      beside,
      measure,
      options.log,
    );
    if (influx.table) tables.push(influx.table);
    return {
      method: [
        `Each dialect gets a fresh database with the demo data and one channel of one device holding a year of ` +
          `1-minute samples (${formatCount(YEAR_SAMPLES)} rows). Windows from its start are asked for in ${BIN_COUNT} bins ` +
          `through the service (\`DeviceService.logs\`, scope check included) and through HTTP (\`app.inject\`, ` +
          `JSON serialisation included), ${WARMUP_RUNS} warm-up runs then ${RUNS} measured; each window ends where the ` +
          `year ends. Then four more channel-years of the same device are written and the year is asked for again. ` +
          `Last, ten years of daily roll-ups of ${DECADE_CHANNELS} more channels are written (a device that has ` +
          `reported for a decade, its samples past retention) and the ten years of all ${DECADE_CHANNELS} are asked ` +
          `for in one call. After each write the closed months are packed as the hourly log maintenance job packs ` +
          `them (a row per channel of a UTC month of hours or a UTC year of days; docs/decisions.md, "Packed roll-ups"); every month ` +
          `of the benchmark's data is closed, so every roll-up bucket is read from packed rows.`,
        'A window holding no more samples than bins answers every sample (raw); a larger one answers at most ' +
          `${BIN_COUNT} bins, each with min, max, mean and last value. Bins of an hour or more are read from the ` +
          'hourly and daily roll-ups kept as samples are inserted and packed per month (a year: 5-hour bins of the hourly ' +
          'roll-up; ten years: 2-day bins of the daily one), bins narrower than that from the samples.',
        influx.method,
      ],
      tables,
      findings,
      failed,
    };
  },
};
