import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { LimitAnswer } from '@fieldlink/api/errors';
import { WORK_LIMITS, workLimitMessage, type WorkLimitName } from '@fieldlink/domain/work-limits';
import { buildApp } from '../../app';
import { withClusterTables } from '../../cluster/cluster-tables';
import { loadConfig } from '../../config';
import { migrate, openStorage } from '../../db/database';
import type { BrewReportsTable } from '../../db/schema';
import { newId } from '../../security/secrets';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { until } from '../../../testing/until';
import { BATCH_REPORT_RETENTION_JOB } from './service';

const DAY_MS = 86_400_000;
const BREWER = 'brew@fieldlink.test';

/**
 * Batch reports (issue 34, item 8) with two instances on one database: generating and kept are limited
 * per user and per account (429 naming the limit, nothing stored), parallel requests on both instances
 * let only as many through as fit, ending a batch is never refused, and the retention job is queued
 * once however many instances ask and removes the reports past the retention with their files.
 */
describe.each(DIALECTS)('batch report limits and retention on %s', (dialect) => {
  let a: TestApp;
  let b: FastifyInstance;
  let sqliteDir: string | undefined;
  let token: string;
  let batchId: string;

  const db = () => a.app.storage.db;
  const generate = (app: FastifyInstance) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/brew/batch/report/generate',
      headers: { authorization: token },
      payload: { batchId },
    });
  const reportCount = async (createdBy?: string) =>
    Number(
      (
        await db()
          .selectFrom('brew_reports')
          .select((eb) => eb.fn.countAll().as('n'))
          .$if(createdBy !== undefined, (query) => query.where('created_by', '=', createdBy!))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Stores batch reports straight into the table (no job), as if made earlier. */
  const storeReports = async (n: number, state: string, createdBy: string, createdAt = Date.now()) => {
    const rows: BrewReportsTable[] = Array.from({ length: n }, () => ({
      id: newId(),
      batch_id: batchId,
      state,
      error: null,
      file_id: null,
      created_by: createdBy,
      created_at: createdAt,
      generated_at: state === 'READY' ? createdAt : null,
    }));
    for (let index = 0; index < rows.length; index += 500) {
      await db()
        .insertInto('brew_reports')
        .values(rows.slice(index, index + 500))
        .execute();
    }
    return rows;
  };
  const expectLimit = (answer: Awaited<ReturnType<typeof generate>>, limit: WorkLimitName) => {
    expect(answer.statusCode).toBe(429);
    const retry = WORK_LIMITS[limit].retryAfterSeconds;
    expect(answer.json<LimitAnswer>()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: workLimitMessage(limit),
      limit,
      max: WORK_LIMITS[limit].max,
      ...(retry === null ? {} : { retryAfterSeconds: retry }),
    });
  };

  beforeAll(async () => {
    sqliteDir = dialect === 'sqlite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-brew-limits-')) : undefined;
    const env: Record<string, string> = sqliteDir ? { DATABASE_URL: path.join(sqliteDir, 'fieldlink.db') } : {};
    a = await startTestApp(dialect, { env });
    const config = loadConfig({
      DATABASE_URL: a.config.databaseUrl,
      WEB_DIST: '/nonexistent',
      FIELDLINK_INSTANCE_ID: 'brew-limits-b',
      FIELDLINK_LOG_MAINTENANCE_MINUTES: '0',
      FIELDLINK_BATCH_REPORT_RETENTION_MINUTES: '0',
    });
    const storage = openStorage(config.databaseUrl);
    await migrate(storage.db);
    b = await buildApp({ config, storage, mqttPort: null });
    await b.ready();
    token = await signIn(a.app, BREWER);
    // A batch of the brewery's demo: one that has ended, so ending is tried on another below.
    const batch = await db()
      .selectFrom('brew_batches')
      .innerJoin('devices', 'devices.id', 'brew_batches.device_id')
      .innerJoin('accounts', 'accounts.id', 'devices.account_id')
      .select('brew_batches.id')
      .where('accounts.name', '=', 'Northgate Brewing')
      .orderBy('brew_batches.end_at', 'desc')
      .executeTakeFirstOrThrow();
    batchId = batch.id;
    await db().deleteFrom('brew_reports').execute();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (sqliteDir) fs.rmSync(sqliteDir, { recursive: true, force: true });
  });

  it('refuses a batch report past the user’s generating, storing nothing', async () => {
    await storeReports(WORK_LIMITS.batchReportsInFlightPerUser.max, 'GENERATING', BREWER);
    const before = await reportCount();
    expectLimit(await generate(a.app), 'batchReportsInFlightPerUser');
    expect(await reportCount()).toBe(before);
    await db().deleteFrom('brew_reports').execute();
  });

  it('refuses a batch report past the account’s generating, whoever started them', async () => {
    await storeReports(WORK_LIMITS.batchReportsInFlightPerAccount.max, 'GENERATING', 'someone@else.test');
    expectLimit(await generate(b), 'batchReportsInFlightPerAccount');
    await db().deleteFrom('brew_reports').execute();
  });

  it('lets only as many parallel batch reports through, on both instances, as the user’s kept allow', async () => {
    const room = 2;
    await storeReports(WORK_LIMITS.batchReportsKeptPerUser.max - room, 'READY', BREWER);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => generate(index % 2 ? b : a.app)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(room);
    for (const answer of answers.filter((answer) => answer.statusCode !== 200)) {
      expectLimit(answer, 'batchReportsKeptPerUser');
    }
    expect(await reportCount(BREWER)).toBe(WORK_LIMITS.batchReportsKeptPerUser.max);
    await db().deleteFrom('brew_reports').execute();
  });

  it('refuses a batch report past the account’s kept, yet ends a batch with its report', async () => {
    await storeReports(WORK_LIMITS.batchReportsKeptPerAccount.max, 'READY', 'someone@else.test');
    expectLimit(await generate(a.app), 'batchReportsKeptPerAccount');
    const running = await db()
      .selectFrom('brew_batches')
      .innerJoin('devices', 'devices.id', 'brew_batches.device_id')
      .innerJoin('accounts', 'accounts.id', 'devices.account_id')
      .select('brew_batches.id')
      .where('accounts.name', '=', 'Northgate Brewing')
      .where('brew_batches.end_at', 'is', null)
      .executeTakeFirstOrThrow();
    const before = await reportCount();
    const ended = await a.app.inject({
      method: 'POST',
      url: '/api/v1/brew/batch/end',
      headers: { authorization: token },
      payload: { batchId: running.id },
    });
    expect(ended.statusCode).toBe(200);
    expect(await reportCount()).toBe(before + 1);
    await db().deleteFrom('brew_reports').execute();
  });

  it('queues the retention once for both instances and removes old batch reports with their files', async () => {
    const file = await a.app.files.create('old-batch.pdf', 'application/pdf');
    await file.write('%PDF-old');
    const stored = await file.finish();
    const retentionDays = a.config.batchReportRetentionDays;
    const [old] = await storeReports(1, 'READY', BREWER, Date.now() - (retentionDays + 1) * DAY_MS);
    await db().updateTable('brew_reports').set({ file_id: stored.id }).where('id', '=', old!.id).execute();
    await storeReports(2, 'ERROR', BREWER, Date.now() - (retentionDays + 30) * DAY_MS);
    const [recent] = await storeReports(1, 'READY', BREWER, Date.now() - (retentionDays - 1) * DAY_MS);

    await Promise.all([a.app.brew.queueRetention(), b.brew.queueRetention()]);
    const jobs = await withClusterTables(db())
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', BATCH_REPORT_RETENTION_JOB)
      .execute();
    expect(jobs).toHaveLength(1);

    // A report's file is removed after its row: wait for both, or the check below races the removal.
    await until(async () => (await reportCount()) <= 1 && (await a.app.files.find(stored.id)) === undefined, 30_000);
    expect((await db().selectFrom('brew_reports').select('id').execute()).map((row) => row.id)).toEqual([recent!.id]);
    expect(await a.app.files.find(stored.id)).toBeUndefined();
  });
});
