import os from 'node:os';
import { sql, type Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { ReportMeta } from '@fieldlink/api/reports';
import { type Database, insertDevice, type UserContext, newId } from '@fieldlink/server/testing';
import type { Benchmark, BenchOptions, BenchSection, BenchTable, StorageDialect } from './benchmark';
import { fillMinuteSamples, startDemoBenchApp } from './demo-app';
import { formatBytes, formatCount, formatMs } from './format';
import { percentile } from './percentile';
import { ProcessMeter } from './process-meter';

/**
 * Issue 15 item 7: a 30-day report over 50 devices x 4 channels of 1-minute data (8.64 M samples)
 * at 15-minute intervals, generated as the job it is in production, in this process: how long to
 * READY as CSV and as PDF (200 charts), how much the process's RSS grows, and `GET /self`'s p99
 * while it runs (generation must not hold up the event loop).
 */

const OWNER = 'brew@fieldlink.test';
const DEVICES = 50;
const CODES = ['c1', 'c2', 'a1', 't1'];
const DAYS = 30;
const SAMPLES_PER_CHANNEL = DAYS * 1440;
const END = Date.UTC(2026, 10, 1);
const START = END - DAYS * 86_400_000;
const GOALS = { CSV: 10_000, PDF: 15_000, rssBytes: 150 * 1024 * 1024, selfP99: 100 } as const;

/** One channel's month of minute samples in one statement; `t1` is a counter that only grows. */
function fillChannel(db: Kysely<Database>, dialect: StorageDialect, deviceId: string, code: string, seed: number) {
  return fillMinuteSamples(db, dialect, {
    deviceId,
    code,
    start: START,
    count: SAMPLES_PER_CHANNEL,
    value:
      code === 't1'
        ? `i * 0.5 + ${seed}`
        : `sin((i + ${seed * 37}) / 1440.0 * 6.283) * 10 + ((i * 7919 + ${seed}) % 100) / 100.0`,
  });
}

interface Run {
  format: 'CSV' | 'PDF';
  ms: number;
  size: number;
  rssGrowth: number;
  selfP50: number;
  selfP99: number;
  selfCalls: number;
  /** The machine's 1-minute load average when the report was READY. */
  load: number;
}

async function generate(
  app: FastifyInstance,
  user: UserContext,
  jwt: string,
  accountId: string,
  devices: string[],
  format: 'CSV' | 'PDF',
): Promise<Run> {
  global.gc?.();
  const meter = new ProcessMeter();
  meter.resetOverall();
  const baseline = process.memoryUsage.rss();
  const started = performance.now();
  const report = await app.reports.create(user, {
    accountId,
    name: `Bench ${format}`,
    props: {
      format,
      visibility: 'CREATOR_ONLY',
      access: { type: 'CREATOR_ONLY', groupIds: [], users: [] },
      notifyAudience: 'NOBODY',
      notifyUsers: [],
      devices: devices.map((deviceId) => ({ deviceId, codes: CODES })),
      interval: 'MINUTES_15',
      start: START,
      end: END,
    },
  });
  // GET /self over HTTP (inject) back to back while the report is generated.
  const latencies: number[] = [];
  let state: ReportMeta = report;
  while (state.state === 'GENERATING') {
    const call = performance.now();
    await app.inject({ method: 'GET', url: '/api/v1/self', headers: { authorization: jwt } });
    latencies.push(performance.now() - call);
    await new Promise((resolve) => setTimeout(resolve, 20));
    state = await app.reports.get(user, { id: report.id, accountId });
  }
  const ms = performance.now() - started;
  const usage = meter.mark();
  meter.stop();
  if (state.state !== 'READY') throw new Error(`The ${format} report ended ${state.state}: ${state.props.error}`);
  latencies.sort((a, b) => a - b);
  return {
    format,
    ms,
    size: state.props.size ?? 0,
    rssGrowth: Math.max(0, usage.overallPeakRssBytes - baseline),
    selfP50: percentile(latencies, 50),
    selfP99: percentile(latencies, 99),
    selfCalls: latencies.length,
    load: os.loadavg()[0] ?? 0,
  };
}

async function runDialect(dialect: StorageDialect, options: BenchOptions): Promise<{ label: string; runs: Run[] }> {
  const bench = await startDemoBenchApp(dialect, options.postgresUrl, 'reports');
  try {
    const { app, db } = bench;
    const owner = await db
      .selectFrom('attachment_points')
      .innerJoin('users', 'users.id', 'attachment_points.user_id')
      .innerJoin('accounts', 'accounts.id', 'attachment_points.account_id')
      .select(['accounts.id as accountId', 'accounts.root_group_id as rootId'])
      .where('users.email', '=', OWNER)
      .executeTakeFirstOrThrow();
    options.log(`  ${dialect}: writing ${formatCount(DEVICES * CODES.length * SAMPLES_PER_CHANNEL)} samples`);
    const devices: string[] = [];
    for (let index = 0; index < DEVICES; index += 1) {
      const id = newId();
      await insertDevice(db, {
        id,
        account_id: owner.accountId,
        group_id: owner.rootId,
        thing_name: `BENCH-REPORT-${String(index).padStart(2, '0')}`,
        secret_hash: 'not-a-secret',
        name: `Bench device ${index + 1}`,
      });
      for (const code of CODES) await fillChannel(db, dialect, id, code, index);
      devices.push(id);
    }
    if (dialect === 'postgres') await sql`vacuum analyze logs`.execute(db);
    const { jwt, user } = await bench.signIn(OWNER);
    const runs: Run[] = [];
    for (const format of ['CSV', 'PDF'] as const) {
      const run = await generate(app, user, jwt, owner.accountId, devices, format);
      options.log(
        `  ${dialect} ${format}: ${formatMs(run.ms)}, ${formatBytes(run.size)}, RSS +${formatBytes(run.rssGrowth)}, ` +
          `GET /self p99 ${formatMs(run.selfP99)}, load ${run.load.toFixed(1)}`,
      );
      runs.push(run);
    }
    return { label: bench.label, runs };
  } finally {
    await bench.close();
  }
}

/** Whether one report met its three goals: time to READY, RSS growth, and `GET /self` p99 meanwhile. */
const metGoals = (run: Run) =>
  run.ms < GOALS[run.format] && run.rssGrowth < GOALS.rssBytes && run.selfP99 < GOALS.selfP99;

export const reportsBenchmark: Benchmark = {
  name: 'reports',
  title: 'Report generation (30 days, 50 devices x 4 channels)',
  async run(options: BenchOptions): Promise<BenchSection> {
    const tables: BenchTable[] = [];
    const findings: string[] = [];
    let failed = false;
    for (const dialect of options.dialects) {
      const result = await runDialect(dialect, options);
      tables.push({
        caption: `${result.label}: ${formatCount(DEVICES * CODES.length * SAMPLES_PER_CHANNEL)} samples, 15-minute intervals`,
        columns: [
          'format',
          'to READY',
          'goal',
          'file',
          'RSS growth',
          'goal',
          'GET /self p50',
          'GET /self p99',
          'goal',
          'calls',
          'load average',
          'met',
        ],
        rows: result.runs.map((run) => [
          run.format,
          formatMs(run.ms),
          `< ${formatMs(GOALS[run.format])}`,
          formatBytes(run.size),
          formatBytes(run.rssGrowth),
          `< ${formatBytes(GOALS.rssBytes)}`,
          formatMs(run.selfP50),
          formatMs(run.selfP99),
          `< ${GOALS.selfP99} ms`,
          String(run.selfCalls),
          run.load.toFixed(1),
          metGoals(run) ? 'met' : 'NOT met',
        ]),
      });
      for (const run of result.runs) {
        const met = metGoals(run);
        failed ||= !met;
        findings.push(
          `${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ${run.format}: READY in ${formatMs(run.ms)} (goal under ` +
            `${formatMs(GOALS[run.format])}), RSS +${formatBytes(run.rssGrowth)} (goal under ${formatBytes(GOALS.rssBytes)}), ` +
            `GET /self p99 ${formatMs(run.selfP99)} while it ran (goal under ${GOALS.selfP99} ms), machine load average ` +
            `${run.load.toFixed(1)} on ${os.availableParallelism()} cores: ${met ? 'met' : 'NOT met'}.`,
        );
      }
    }
    return {
      method: [
        `Each dialect gets a fresh database with the demo data and ${DEVICES} more devices of one account, each ` +
          `with ${CODES.length} channels (${CODES.join(', ')}; t1 a growing totalizer) holding ${DAYS} days of 1-minute ` +
          `samples. A report over all of them at 15-minute intervals is made through the service ` +
          `(\`ReportService.create\`) and generated by the job runner as in production, first as CSV, then as PDF ` +
          `(a cover, the summary and ${DEVICES * CODES.length} charts). Meanwhile \`GET /self\` is called over HTTP ` +
          `(\`app.inject\`) every 20 ms, in the same process, and the process's RSS is sampled every 100 ms; growth ` +
          `is the peak over the RSS before the report was asked for. The load average is the machine's (1 minute) ` +
          `when the report was READY: on a machine shared with other work every time here grows with it.`,
        'On PostgreSQL the report is read, aggregated (by the database, per 15-minute bin) and formatted in the ' +
          "server's report worker thread, which has its own database connections and sends the file's chunks to " +
          'the main thread to store; the worker starts with the first report (the CSV pays its start, about ' +
          '80 MiB of RSS for its modules) and stays for the PDF. RSS is the whole process, worker included. ' +
          'On SQLite the report is written in the main thread, reading a day of bins per query between turns.',
      ],
      tables,
      findings,
      failed,
    };
  },
};
