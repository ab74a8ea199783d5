import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitAnswer } from '@fieldlink/api/errors';
import { WORK_LIMITS, workLimitMessage, type WorkLimitName } from '@fieldlink/domain/work-limits';
import type { ReportSchedulesTable, ReportsTable } from '../../db/schema';
import { newId } from '../../security/secrets';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';

const MINUTE = 60_000;

/**
 * Limits on reports and report schedules (issue 34, item 8): generating and kept per user and per
 * account, schedules per user and per account; each refusal is 429 naming the limit and changes
 * nothing, and parallel requests at a limit's edge let through only as many as fit.
 */
describe.each(DIALECTS)('report limits on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let userId: string;
  let accountId: string;
  let deviceId: string;
  const OTHER_USER = 'another-user-of-the-account';

  const db = () => t.app.storage.db;
  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { authorization: token }, payload });
  const template = () => ({
    format: 'CSV',
    visibility: 'CREATOR_ONLY',
    access: { type: 'CREATOR_ONLY', groupIds: [], users: [] },
    notifyAudience: 'NOBODY',
    notifyUsers: [],
    devices: [{ deviceId, codes: ['c1'] }],
    interval: 'MINUTES_15',
  });
  const end = Math.floor(Date.now() / MINUTE) * MINUTE;
  const createReport = () =>
    post('/report', { accountId, name: 'Cellar', props: { ...template(), start: end - 60 * MINUTE, end } });
  const createSchedule = () =>
    post('/reports/schedule', {
      accountId,
      name: 'Daily cellar',
      props: {
        ...template(),
        frequency: 'DAILY',
        time: '06:00',
        dayOfWeek: 1,
        dayOfMonth: 1,
        timeZone: 'UTC',
        enabled: true,
      },
    });
  const count = async (table: 'reports' | 'report_schedules') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** Stores reports straight into the table (no job), as if made earlier. */
  const storeReports = async (n: number, state: string, createdBy: string) => {
    const rows: ReportsTable[] = Array.from({ length: n }, () => ({
      id: newId(),
      account_id: accountId,
      name: 'Stored',
      comments: null,
      tags: '[]',
      props: JSON.stringify({ ...template(), start: end - 60 * MINUTE, end }),
      state,
      error: null,
      percent: 0,
      scope_path: '',
      schedule_id: null,
      frequency: null,
      created_by: createdBy,
      created_by_email: `${createdBy}@reports.test`,
      public_token: null,
      file_id: null,
      created_at: Date.now(),
      completed_at: null,
    }));
    for (let index = 0; index < rows.length; index += 200) {
      await db()
        .insertInto('reports')
        .values(rows.slice(index, index + 200))
        .execute();
    }
  };
  const storeSchedules = async (n: number, createdBy: string) => {
    const rows: ReportSchedulesTable[] = Array.from({ length: n }, () => ({
      id: newId(),
      account_id: accountId,
      name: 'Stored',
      comments: null,
      tags: '[]',
      props: '{}',
      scope_path: '',
      created_by: createdBy,
      created_by_email: `${createdBy}@reports.test`,
      created_at: Date.now(),
      next_run_at: null,
      last_run_at: null,
      last_report_id: null,
      job_id: null,
    }));
    await db().insertInto('report_schedules').values(rows).execute();
  };
  const expectLimit = (answer: Awaited<ReturnType<typeof post>>, limit: WorkLimitName) => {
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
    expect(answer.headers['retry-after']).toBe(retry === null ? undefined : String(retry));
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    token = await signIn(t.app, 'brew@fieldlink.test');
    userId = (
      await db().selectFrom('users').select('id').where('email', '=', 'brew@fieldlink.test').executeTakeFirstOrThrow()
    ).id;
    accountId = (
      await db().selectFrom('accounts').select('id').where('name', '=', 'Northgate Brewing').executeTakeFirstOrThrow()
    ).id;
    deviceId = (
      await db()
        .selectFrom('devices')
        .select('id')
        .where('account_id', '=', accountId)
        .orderBy('thing_name')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a report past the user’s reports generating, with retryAfterSeconds, storing nothing', async () => {
    await storeReports(WORK_LIMITS.reportsInFlightPerUser.max, 'GENERATING', userId);
    const before = await count('reports');
    expectLimit(await createReport(), 'reportsInFlightPerUser');
    expect(await count('reports')).toBe(before);
    await db().deleteFrom('reports').execute();
  });

  it('refuses a report past the account’s reports generating, whoever started them', async () => {
    await storeReports(WORK_LIMITS.reportsInFlightPerAccount.max, 'GENERATING', OTHER_USER);
    expectLimit(await createReport(), 'reportsInFlightPerAccount');
    await db().deleteFrom('reports').execute();
  });

  it('lets only as many parallel reports through as the user’s reports kept allow', async () => {
    const room = 3;
    await storeReports(WORK_LIMITS.reportsKeptPerUser.max - room, 'READY', userId);
    const answers = await Promise.all(Array.from({ length: 8 }, () => createReport()));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(room);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(refused).toHaveLength(8 - room);
    for (const answer of refused) expectLimit(answer, 'reportsKeptPerUser');
    expect(
      await db()
        .selectFrom('reports')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('created_by', '=', userId)
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.n)),
    ).toBe(WORK_LIMITS.reportsKeptPerUser.max);
    await db().deleteFrom('reports').execute();
  });

  it('refuses a report past the account’s reports kept', async () => {
    await storeReports(WORK_LIMITS.reportsKeptPerAccount.max, 'READY', OTHER_USER);
    expectLimit(await createReport(), 'reportsKeptPerAccount');
    await db().deleteFrom('reports').execute();
  });

  it('lets only as many parallel schedules through as the user’s limit allows', async () => {
    const room = 2;
    await storeSchedules(WORK_LIMITS.schedulesPerUser.max - room, userId);
    const answers = await Promise.all(Array.from({ length: 6 }, () => createSchedule()));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(room);
    for (const answer of answers.filter((answer) => answer.statusCode !== 200)) {
      expectLimit(answer, 'schedulesPerUser');
    }
    expect(await count('report_schedules')).toBe(WORK_LIMITS.schedulesPerUser.max);
    await db().deleteFrom('report_schedules').execute();
  });

  it('refuses a schedule past the account’s schedules', async () => {
    await storeSchedules(WORK_LIMITS.schedulesPerAccount.max, OTHER_USER);
    const before = await count('report_schedules');
    expectLimit(await createSchedule(), 'schedulesPerAccount');
    expect(await count('report_schedules')).toBe(before);
  });
});
