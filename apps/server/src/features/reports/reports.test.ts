import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatIsoInZone } from '@fieldlink/domain/date-format';
import type { ReportMeta, ReportSchedule } from '@fieldlink/api/reports';
import { ACCESS_GROUP_OUTSIDE } from '@fieldlink/domain/reports';
import { startMailCatcher } from '../../../testing/mail-catcher';
import { until } from '../../../testing/until';
import { DIALECTS, addTestUser, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { NO_DATA_MESSAGE, REPORT_CSV_COLUMNS } from './report-document';
import { REPORT_NOT_FOUND } from './service';

const MINUTE = 60_000;

/** The rows of a CSV the report writer wrote (no quoted line breaks in these reports). */
function csvRows(text: string): string[][] {
  return text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

describe.each(DIALECTS)('reports on %s', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startMailCatcher>>;
  /** The controllable clock of the jobs table and schedules. */
  let clock = Date.now();
  let brew: string;
  let stock: string;
  let reader: string;
  let readerEmail: string;
  let accountId: string;
  let groupId: string;
  let otherGroupId: string;
  let deviceId: string;
  let otherDeviceId: string;
  /** Period with samples: two hours ending a minute before the clock started, at one a minute. */
  const end = Math.floor(clock / MINUTE) * MINUTE - MINUTE;
  const start = end - 120 * MINUTE;

  const db = () => t.app.storage.db;
  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, data?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: token },
      ...(method === 'GET' ? { query: data as Record<string, string> } : data ? { payload: data } : {}),
    });
  const template = (overrides: Record<string, unknown> = {}) => ({
    format: 'CSV',
    visibility: 'CREATOR_ONLY',
    access: { type: 'CREATOR_ONLY', groupIds: [], users: [] },
    notifyAudience: 'NOBODY',
    notifyUsers: [],
    devices: [{ deviceId, codes: ['c1', 't1'] }],
    interval: 'MINUTES_15',
    ...overrides,
  });
  const create = async (props: Record<string, unknown> = {}, name = 'Cellar temperatures') => {
    const response = await call(brew, 'POST', '/report', {
      accountId,
      name,
      comments: 'For the brewer',
      tags: ['cellar'],
      props: { ...template(), start, end, ...props },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ReportMeta>();
  };
  const settled = async (id: string, token = brew) => {
    let meta: ReportMeta | undefined;
    await until(async () => {
      meta = (await call(token, 'GET', '/report/meta', { id, accountId })).json<ReportMeta>();
      return meta.state !== 'GENERATING';
    }, 30_000);
    return meta!;
  };
  const download = async (meta: ReportMeta) => {
    const answer = await call(brew, 'GET', '/report', { id: meta.id, accountId, download: 'true' });
    expect(answer.statusCode, answer.body).toBe(200);
    const { url } = answer.json<{ url: string }>();
    return t.app.inject({ method: 'GET', url });
  };
  const rowCount = async () =>
    Number(
      (
        await db()
          .selectFrom('reports')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    smtp = await startMailCatcher();
    t = await startTestApp(dialect, { env: { SMTP_URL: smtp.url }, now: () => clock });
    brew = await signIn(t.app, 'brew@fieldlink.test');
    stock = await signIn(t.app, 'stock@fieldlink.test');
    const account = await db()
      .selectFrom('accounts')
      .selectAll()
      .where('name', '=', 'Northgate Brewing')
      .executeTakeFirstOrThrow();
    accountId = account.id;
    const devices = await db()
      .selectFrom('devices')
      .select(['id', 'group_id'])
      .where('account_id', '=', accountId)
      .orderBy('thing_name')
      .execute();
    const first = devices[0]!;
    const other = devices.find((device) => device.group_id !== first.group_id)!;
    deviceId = first.id;
    groupId = first.group_id;
    otherDeviceId = other.id;
    otherGroupId = other.group_id;
    // c1 counts 0..119, t1 is a totalizer growing by 2 a minute from 1000.
    const logs = Array.from({ length: 120 }, (_, index) => [
      { device_id: deviceId, code: 'c1', t: start + index * MINUTE, value: index },
      { device_id: deviceId, code: 't1', t: start + index * MINUTE, value: 1000 + 2 * index },
    ]).flat();
    await db().insertInto('logs').values(logs).execute();
    await db()
      .insertInto('logs')
      .values({ device_id: deviceId, code: 't1', t: start - MINUTE, value: 998 })
      .execute();
    // A reader of the account at its root, with READ_REPORTS only.
    const root = await db()
      .selectFrom('groups')
      .select('path')
      .where('id', '=', account.root_group_id)
      .executeTakeFirstOrThrow();
    readerEmail = 'reader@reports.test';
    ({ token: reader } = await addTestUser(t.app, {
      email: readerEmail,
      accountId,
      path: root.path,
      permissions: ['VIEW_DASH', 'READ_REPORTS', 'READ_REPORT_SCHEDULES'],
      appType: 'brew',
      firstName: 'Rita',
      lastName: 'Reader',
    }));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  describe('a supplier reports on its customers, and whole devices (issue 35 items 3 and 4)', () => {
    /** 85 channel codes, as many as a water plant has. */
    const PLANT_CODES = [
      ...['a', 'c', 'do', 's'].flatMap((prefix) => Array.from({ length: 16 }, (_, i) => `${prefix}${i + 1}`)),
      ...Array.from({ length: 14 }, (_, i) => `gpf${i + 1}`),
      ...Array.from({ length: 4 }, (_, i) => `d${i + 1}`),
      ...Array.from({ length: 3 }, (_, i) => `t${i + 1}`),
    ];
    let admin: string;
    let supplierId: string;
    let acmeId: string;
    let boilerId: string;

    const accountNamed = (name: string) =>
      db().selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirstOrThrow();
    const settledIn = async (token: string, id: string, inAccount: string) => {
      let meta: ReportMeta | undefined;
      await until(async () => {
        meta = (await call(token, 'GET', '/report/meta', { id, accountId: inAccount })).json<ReportMeta>();
        return meta.state !== 'GENERATING';
      }, 30_000);
      return meta!;
    };
    const boilerReport = (codes: string[], devices = [{ deviceId: boilerId, codes }]) => ({
      accountId: supplierId,
      name: 'Acme boilers',
      props: { ...template({ devices }), start, end },
    });

    beforeAll(async () => {
      admin = await signIn(t.app, 'admin@fieldlink.test');
      const point = await db()
        .selectFrom('attachment_points')
        .innerJoin('users', 'users.id', 'attachment_points.user_id')
        .select('attachment_points.account_id')
        .where('users.email', '=', 'admin@fieldlink.test')
        .executeTakeFirstOrThrow();
      supplierId = point.account_id;
      acmeId = (await accountNamed('Acme Controls')).id;
      const boiler = await db()
        .selectFrom('devices')
        .select('id')
        .where('thing_name', '=', 'ACME-BLR01')
        .executeTakeFirstOrThrow();
      boilerId = boiler.id;
      // Boiler 1 as a water plant describes itself: 85 channels, with samples in the period.
      await db()
        .updateTable('devices')
        .set({ channels: JSON.stringify(PLANT_CODES.map((code) => ({ code }))) })
        .where('id', '=', boilerId)
        .execute();
      await db()
        .insertInto('logs')
        .values(
          PLANT_CODES.slice(0, 20).flatMap((code, channel) =>
            Array.from({ length: 12 }, (_, index) => ({
              device_id: boilerId,
              code,
              t: start + index * 10 * MINUTE,
              value: channel + index,
            })),
          ),
        )
        .execute();
    });

    it('accepts a customer’s device in a report kept under the supplier’s account; it becomes READY', async () => {
      expect(supplierId).not.toBe(acmeId);
      const response = await call(admin, 'POST', '/report', boilerReport(['c1', 'c2']));
      expect(response.statusCode, response.body).toBe(200);
      const ready = await settledIn(admin, response.json<ReportMeta>().id, supplierId);
      expect(ready).toMatchObject({ state: 'READY', accountId: supplierId });
    });

    it('takes every channel of a whole water plant (85) in one report, READY with all of them', async () => {
      const response = await call(admin, 'POST', '/report', boilerReport(PLANT_CODES));
      expect(response.statusCode, response.body).toBe(200);
      const ready = await settledIn(admin, response.json<ReportMeta>().id, supplierId);
      expect(ready.state).toBe('READY');
      expect(ready.props.devices[0]!.codes).toHaveLength(85);
      const file = await t.app.inject({
        method: 'GET',
        url: (await call(admin, 'GET', '/report', { id: ready.id, accountId: supplierId, download: 'true' })).json<{
          url: string;
        }>().url,
      });
      const channels = new Set(
        csvRows(file.body)
          .filter((row) => row[0] === 'interval')
          .map((row) => row[3]),
      );
      expect(channels.size).toBe(20);
    });

    it('refuses more than 6,400 channels in all with a clear 400, writing nothing', async () => {
      const before = await rowCount();
      const devices = Array.from({ length: 26 }, (_, index) => ({
        deviceId: index === 0 ? boilerId : `device-${index}`,
        codes: Array.from({ length: 250 }, (_, code) => `c${code + 1}`),
      }));
      const response = await call(admin, 'POST', '/report', boilerReport([], devices));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: 'A report covers at most 6,400 channels; 6,500 are chosen.' });
      expect(await rowCount()).toBe(before);
    });

    it('still refuses a device out of the caller’s scope (404), whatever the account', async () => {
      const before = await rowCount();
      const response = await call(brew, 'POST', '/report', { ...boilerReport(['c1']), accountId });
      expect(response.statusCode).toBe(404);
      expect(await rowCount()).toBe(before);
    });

    it('lists and opens the reports and schedules of a customer account to the supplier', async () => {
      const { token: acmeReporter } = await addTestUser(t.app, {
        email: 'reporter@acme.test',
        accountId: acmeId,
        path: (
          await db()
            .selectFrom('groups')
            .select('path')
            .where('account_id', '=', acmeId)
            .where('kind', '=', 'root')
            .executeTakeFirstOrThrow()
        ).path,
        permissions: ['VIEW_DASH', 'READ_REPORTS', 'CUD_REPORTS', 'READ_REPORT_SCHEDULES', 'CUD_REPORT_SCHEDULES'],
      });
      const made = await call(acmeReporter, 'POST', '/report', {
        ...boilerReport(['c1']),
        accountId: acmeId,
        name: 'Acme’s own',
        props: {
          ...template({
            devices: [{ deviceId: boilerId, codes: ['c1'] }],
            visibility: 'PUBLIC',
            access: { type: 'PUBLIC', groupIds: [], users: [] },
          }),
          start,
          end,
        },
      });
      expect(made.statusCode, made.body).toBe(200);
      const schedule = await call(acmeReporter, 'POST', '/reports/schedule', {
        accountId: acmeId,
        name: 'Acme weekly',
        props: {
          ...template({
            devices: [{ deviceId: boilerId, codes: ['c1'] }],
            visibility: 'PUBLIC',
            access: { type: 'PUBLIC', groupIds: [], users: [] },
          }),
          frequency: 'WEEKLY',
          time: '07:00',
          dayOfWeek: 1,
          dayOfMonth: 1,
          timeZone: 'UTC',
          enabled: true,
        },
      });
      expect(schedule.statusCode, schedule.body).toBe(200);
      const listed = await call(admin, 'GET', '/reports/meta', { accountId: acmeId });
      expect(listed.statusCode).toBe(200);
      expect(listed.json<ReportMeta[]>().map((report) => report.name)).toContain('Acme’s own');
      const opened = await call(admin, 'GET', '/report/meta', { id: made.json<ReportMeta>().id, accountId: acmeId });
      expect(opened.statusCode).toBe(200);
      const schedules = await call(admin, 'GET', '/reports/schedules', { accountId: acmeId });
      expect(schedules.statusCode).toBe(200);
      expect(schedules.json<ReportSchedule[]>().map((item) => item.name)).toContain('Acme weekly');
    });
  });

  it('generates a CSV as a job: GENERATING, then READY, with the figures of the stored logs', async () => {
    const created = await create();
    expect(created).toMatchObject({ state: 'GENERATING', name: 'Cellar temperatures', tags: ['cellar'] });
    const ready = await settled(created.id);
    expect(ready.state).toBe('READY');
    expect(ready.props).toMatchObject({ percent: 100, error: null, size: expect.any(Number) });
    expect(ready.props.fileName).toMatch(/^cellar-temperatures-\d{4}-\d{2}-\d{2}\.csv$/);

    const file = await download(ready);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="cellar-temperatures/);
    const [header, ...rows] = csvRows(file.body);
    expect(header).toEqual([...REPORT_CSV_COLUMNS]);
    const intervals = rows.filter((row) => row[0] === 'interval');
    const c1 = intervals.filter((row) => row[3] === 'c1');
    const t1 = intervals.filter((row) => row[3] === 't1');
    expect(c1).toHaveLength(8);
    expect(t1).toHaveLength(8);
    // The first 15 minutes of c1 hold 0..14.
    expect(c1[0]!.slice(5, 12)).toEqual([
      new Date(start).toISOString(),
      new Date(start + 15 * MINUTE).toISOString(),
      '0',
      '14',
      '7',
      '14',
      '',
    ]);
    // The totalizer grew from 998 (before the period) to 1028 in the first interval, then 30 each.
    expect(t1.map((row) => row[11])).toEqual(['30', '30', '30', '30', '30', '30', '30', '30']);
    expect(rows.filter((row) => row[0] === 'uptime')).toHaveLength(1);
  });

  it("writes the CSV's times in the clock of the user who made it (issue 36 item 2)", async () => {
    const clock = { timeZone: 'Asia/Tokyo', hourCycle: '24', dateOrder: 'dmy' };
    const saved = await call(brew, 'PUT', '/user', { email: 'brew@fieldlink.test', props: clock });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      const ready = await settled((await create({}, 'Cellar in Tokyo')).id);
      expect(ready.state).toBe('READY');
      const [, ...rows] = csvRows((await download(ready)).body);
      const first = rows.find((row) => row[0] === 'interval' && row[3] === 'c1')!;
      // ISO 8601 with Tokyo's offset: the brewer's local time, the same instants.
      expect(first.slice(5, 7)).toEqual([
        formatIsoInZone(start, 'Asia/Tokyo'),
        formatIsoInZone(start + 15 * MINUTE, 'Asia/Tokyo'),
      ]);
      expect(first[5]).toMatch(/\+09:00$/);
      expect(Date.parse(first[5]!)).toBe(start);
    } finally {
      const reset = { timeZone: null, hourCycle: null, dateOrder: null };
      await call(brew, 'PUT', '/user', { email: 'brew@fieldlink.test', props: reset });
    }
  });

  it('writes a PDF with a cover, a summary and a chart per channel', async () => {
    const ready = await settled((await create({ format: 'PDF' }, 'Cellar PDF')).id);
    expect(ready.state).toBe('READY');
    const file = await download(ready);
    expect(file.headers['content-type']).toBe('application/pdf');
    const pdf = file.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // Cover, summary, charts (two channels on one page).
    expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(3);
  });

  it('fails with the reason when the period holds no samples, and the state shows it', async () => {
    const failed = await settled((await create({ start: start - 86_400_000, end: start - 80_000_000 })).id);
    expect(failed).toMatchObject({ state: 'ERROR', props: { error: NO_DATA_MESSAGE, fileName: null } });
    const url = await call(brew, 'GET', '/report', { id: failed.id, accountId });
    expect(url.statusCode).toBe(409);
  });

  it('shows a report only to those it is shared with', async () => {
    const mine = await create({}, 'Only mine');
    const shared = await create(
      {
        visibility: 'SELECTED_USERS_IN_SCOPE',
        access: { type: 'SELECTED_USERS_IN_SCOPE', groupIds: [], users: [readerEmail] },
      },
      'Shared with the reader',
    );
    const listed = (await call(reader, 'GET', '/reports/meta', { accountId })).json<ReportMeta[]>();
    expect(listed.map((meta) => meta.id)).toContain(shared.id);
    expect(listed.map((meta) => meta.id)).not.toContain(mine.id);
    expect((await call(reader, 'GET', '/report/meta', { id: mine.id, accountId })).statusCode).toBe(404);
    // Newest first.
    const all = (await call(brew, 'GET', '/reports/meta', { accountId })).json<ReportMeta[]>();
    expect(all.map((meta) => meta.createdAt)).toEqual([...all.map((meta) => meta.createdAt)].sort((a, b) => b - a));
  });

  it('refuses a group scope outside the devices’ common groups, and a user outside the account, changing nothing', async () => {
    const before = await rowCount();
    const outside = await call(brew, 'POST', '/report', {
      accountId,
      name: 'Shared too widely',
      props: {
        ...template({
          visibility: 'SELECTED_GROUPS_IN_SCOPE',
          access: { type: 'SELECTED_GROUPS_IN_SCOPE', groupIds: [groupId], users: [] },
          devices: [
            { deviceId, codes: ['c1'] },
            { deviceId: otherDeviceId, codes: ['c1'] },
          ],
        }),
        start,
        end,
      },
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({ message: ACCESS_GROUP_OUTSIDE });
    // Another account's user may not create, read or delete here.
    const mine = (await call(brew, 'GET', '/reports/meta', { accountId })).json<ReportMeta[]>()[0]!;
    for (const answer of [
      await call(stock, 'GET', '/report/meta', { id: mine.id, accountId }),
      await call(stock, 'DELETE', '/report', { id: mine.id, accountId }),
      await call(stock, 'POST', '/report', { accountId, name: 'Planted', props: { ...template(), start, end } }),
    ]) {
      expect([403, 404]).toContain(answer.statusCode);
    }
    // A reader without CUD_REPORTS is refused a delete.
    expect((await call(reader, 'DELETE', '/report', { id: mine.id, accountId })).statusCode).toBe(403);
    expect(await rowCount()).toBe(before);
    expect((await call(brew, 'GET', '/report/meta', { id: mine.id, accountId })).json<ReportMeta>().state).not.toBe(
      'DELETING',
    );
    // The common group of both devices holds them both: valid.
    const common = await call(brew, 'POST', '/report', {
      accountId,
      name: 'Shared with the account',
      props: {
        ...template({
          visibility: 'SELECTED_GROUPS_IN_SCOPE',
          access: { type: 'SELECTED_GROUPS_IN_SCOPE', groupIds: [otherGroupId], users: [] },
          devices: [{ deviceId: otherDeviceId, codes: ['c1'] }],
        }),
        start,
        end,
      },
    });
    expect(common.statusCode, common.body).toBe(200);
  });

  it('serves a PUBLIC report through its public link until it is revoked, then answers 404', async () => {
    const ready = await settled((await create({}, 'Public one')).id);
    const shared = await call(brew, 'PUT', '/report/meta', {
      id: ready.id,
      accountId,
      props: { visibility: 'PUBLIC' },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    const publicUrl = shared.json<ReportMeta>().props.publicUrl!;
    const token = publicUrl.split('/').pop()!;
    // 256 bits as base64url.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const path = new URL(publicUrl).pathname;
    const open = await t.app.inject({ method: 'GET', url: path });
    expect(open.statusCode).toBe(200);
    expect(open.body).toContain('interval,');
    // The reader may see it now, but not the link (only those who may change it do).
    expect(
      (await call(reader, 'GET', '/report/meta', { id: ready.id, accountId })).json<ReportMeta>().props.publicUrl,
    ).toBeNull();

    const revoked = await call(brew, 'PUT', '/report/meta', {
      id: ready.id,
      accountId,
      props: { visibility: 'CREATOR_ONLY' },
    });
    expect(revoked.json<ReportMeta>().props.publicUrl).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    // A forged or altered signed link reaches nothing.
    const { url } = (await call(brew, 'GET', '/report', { id: ready.id, accountId })).json<{ url: string }>();
    expect((await t.app.inject({ method: 'GET', url: `${url}x` })).statusCode).toBe(404);
  });

  it('deletes a report: DELETING at once, then gone with its file', async () => {
    const ready = await settled((await create({}, 'To delete')).id);
    const file = await db()
      .selectFrom('reports')
      .select('file_id')
      .where('id', '=', ready.id)
      .executeTakeFirstOrThrow();
    const deleting = await call(brew, 'DELETE', '/report', { id: ready.id, accountId });
    expect(deleting.json<ReportMeta>().state).toBe('DELETING');
    await until(
      async () =>
        (await db().selectFrom('reports').select('id').where('id', '=', ready.id).executeTakeFirst()) === undefined,
    );
    expect(
      await db().selectFrom('stored_file_chunks').select('seq').where('file_id', '=', file.file_id!).execute(),
    ).toEqual([]);
    expect((await call(brew, 'GET', '/report/meta', { id: ready.id, accountId })).json()).toMatchObject({
      message: REPORT_NOT_FOUND,
    });
  });

  it('removes reports older than the retention period (90 days) once a new one is ready', async () => {
    const old = { ...(await db().selectFrom('reports').selectAll().limit(1).executeTakeFirstOrThrow()) };
    await db()
      .insertInto('reports')
      .values({
        ...old,
        id: 'report-from-long-ago',
        public_token: null,
        file_id: null,
        created_at: clock - 91 * 86_400_000,
      })
      .execute();
    await settled((await create({}, 'Fresh one')).id);
    await until(
      async () =>
        (await db().selectFrom('reports').select('id').where('id', '=', 'report-from-long-ago').executeTakeFirst()) ===
        undefined,
    );
    expect(await db().selectFrom('reports').select('id').where('id', '=', old.id).executeTakeFirst()).toBeDefined();
  });

  it('runs a schedule when the clock reaches it, mails the report over SMTP, and catches up once after downtime', async () => {
    const at = new Date(clock + 2 * MINUTE);
    const time = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
    const created = await call(brew, 'POST', '/reports/schedule', {
      accountId,
      name: 'Daily cellar',
      tags: ['daily'],
      props: {
        ...template({ notifyAudience: 'ALL_WITH_ACCESS' }),
        frequency: 'DAILY',
        time,
        dayOfWeek: 1,
        dayOfMonth: 1,
        timeZone: 'UTC',
        enabled: true,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const schedule = created.json<ReportSchedule>();
    const nextRunAt = schedule.props.nextRunAt!;
    expect(nextRunAt).toBeGreaterThan(clock);
    expect(nextRunAt - clock).toBeLessThanOrEqual(2 * MINUTE);
    expect((await call(reader, 'GET', '/reports/schedules', {})).json<ReportSchedule[]>()).toEqual([]);

    clock = nextRunAt + 1000;
    t.app.jobs.nudge();
    await until(() => smtp.to('brew@fieldlink.test', /^Report ready: Daily cellar/).length === 1, 30_000);
    const [mail] = smtp.to('brew@fieldlink.test', /^Report ready: Daily cellar/);
    expect(mail!.raw).toMatch(/Content-Disposition: attachment; filename=daily-cellar-\d{4}-\d{2}-\d{2}\.csv/);
    const ran = (await call(brew, 'GET', '/reports/schedules', { accountId })).json<ReportSchedule[]>()[0]!;
    expect(ran.props).toMatchObject({ lastRunAt: nextRunAt, nextRunAt: nextRunAt + 86_400_000 });
    const report = (
      await call(brew, 'GET', '/report/meta', { id: ran.props.lastReportId!, accountId })
    ).json<ReportMeta>();
    expect(report.props).toMatchObject({
      frequency: 'DAILY',
      scheduleId: schedule.id,
      start: nextRunAt - 86_400_000,
      end: nextRunAt,
    });

    // Every instance down for five days: on the next look the schedule runs once, not five times.
    const scheduled = () => db().selectFrom('reports').select('id').where('schedule_id', '=', schedule.id).execute();
    const reportsBefore = (await scheduled()).length;
    clock = nextRunAt + 5 * 86_400_000 + 3 * 3_600_000;
    t.app.jobs.nudge();
    await until(async () => (await scheduled()).length === reportsBefore + 1, 30_000);
    await until(async () => {
      const latest = (await call(brew, 'GET', '/reports/schedules', { accountId })).json<ReportSchedule[]>()[0]!;
      return latest.props.nextRunAt === nextRunAt + 6 * 86_400_000;
    });
    const latest = (await call(brew, 'GET', '/reports/schedules', { accountId })).json<ReportSchedule[]>()[0]!;
    expect(latest.props.lastRunAt).toBe(nextRunAt + 5 * 86_400_000);
    expect((await scheduled()).length).toBe(reportsBefore + 1);

    const removed = await call(brew, 'DELETE', '/reports/schedule', { id: schedule.id, accountId });
    expect(removed.statusCode).toBe(200);
    expect((await call(brew, 'GET', '/reports/schedules', { accountId })).json<ReportSchedule[]>()).toEqual([]);
  });

  it('answers GET /reports/schedules without accountId with the caller’s own accounts only', async () => {
    const created = await call(brew, 'POST', '/reports/schedule', {
      accountId,
      name: 'Weekly cellar',
      props: {
        ...template(),
        frequency: 'WEEKLY',
        time: '06:00',
        dayOfWeek: 1,
        dayOfMonth: 1,
        timeZone: 'UTC',
        enabled: true,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const schedule = created.json<ReportSchedule>();
    const own = await call(brew, 'GET', '/reports/schedules', {});
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json<ReportSchedule[]>().map((item) => [item.id, item.accountId])).toEqual([[schedule.id, accountId]]);

    // A schedule reader of another customer, at its root.
    const other = await db()
      .selectFrom('accounts')
      .innerJoin('groups', 'groups.id', 'accounts.root_group_id')
      .select(['accounts.id', 'groups.path'])
      .where('accounts.name', '=', 'Corner Retail')
      .executeTakeFirstOrThrow();
    const { token: strangerToken } = await addTestUser(t.app, {
      email: 'schedules@elsewhere.test',
      accountId: other.id,
      path: other.path,
      permissions: ['VIEW_DASH', 'READ_REPORTS', 'READ_REPORT_SCHEDULES'],
      appType: 'default',
      firstName: 'Sam',
      lastName: 'Stranger',
    });
    const stranger = await call(strangerToken, 'GET', '/reports/schedules', {});
    expect(stranger.statusCode, stranger.body).toBe(200);
    expect(stranger.json<ReportSchedule[]>().filter((item) => item.accountId !== other.id)).toEqual([]);
    expect(
      (await call(strangerToken, 'GET', '/reports/schedules', { accountId })).statusCode,
      'naming another account is not found',
    ).toBe(404);
    await call(brew, 'DELETE', '/reports/schedule', { id: schedule.id, accountId });
  });

  describe('scope at the time of the run and of the read (issue 34 item 9)', () => {
    const DAY = 86_400_000;
    let admin: string;
    /** Fermenter FV2, in the Cellar beside `deviceId`, moved to another customer by some tests. */
    let movedId: string;
    let retailRootId: string;

    const moveFermenter = async (sourceGroupId: string, destinationGroupId: string) => {
      const moved = await call(admin, 'POST', '/move', {
        type: 'DEVICE',
        id: movedId,
        sourceGroupId,
        destinationGroupId,
      });
      expect(moved.statusCode, moved.body).toBe(200);
    };
    const fileOf = (token: string, id: string) => call(token, 'GET', '/report', { id, accountId, download: 'true' });
    const deviceOf = (token: string, id: string) => call(token, 'GET', '/device', { id });
    const scheduleOf = async (id: string) =>
      (await call(brew, 'GET', '/reports/schedules', { accountId }))
        .json<ReportSchedule[]>()
        .find((schedule) => schedule.id === id)!;
    const reportDevices = async (reportId: string) =>
      (
        JSON.parse(
          (await db().selectFrom('reports').select('props').where('id', '=', reportId).executeTakeFirstOrThrow()).props,
        ) as { devices: { deviceId: string }[] }
      ).devices.map((device) => device.deviceId);

    beforeAll(async () => {
      admin = await signIn(t.app, 'admin@fieldlink.test');
      const fermenter = await db()
        .selectFrom('devices')
        .select(['id', 'group_id'])
        .where('thing_name', '=', 'NGB-FV02')
        .executeTakeFirstOrThrow();
      movedId = fermenter.id;
      expect(fermenter.group_id).toBe(groupId);
      retailRootId = (
        await db()
          .selectFrom('accounts')
          .select('root_group_id')
          .where('name', '=', 'Corner Retail')
          .executeTakeFirstOrThrow()
      ).root_group_id;
      await db()
        .insertInto('logs')
        .values(
          Array.from({ length: 60 }, (_, index) => ({
            device_id: movedId,
            code: 'c1',
            t: start + index * MINUTE,
            value: index,
          })),
        )
        .execute();
    });
    afterEach(async () => {
      const fermenter = await db()
        .selectFrom('devices')
        .select('group_id')
        .where('id', '=', movedId)
        .executeTakeFirstOrThrow();
      if (fermenter.group_id !== groupId) await moveFermenter(fermenter.group_id, groupId);
    });

    it('leaves a device moved to another customer out of the next scheduled run; with none left, no report', async () => {
      const at = new Date(clock + 2 * MINUTE);
      const time = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
      const schedule = async (name: string, devices: { deviceId: string; codes: string[] }[]) => {
        const created = await call(brew, 'POST', '/reports/schedule', {
          accountId,
          name,
          props: {
            ...template({ devices }),
            frequency: 'DAILY',
            time,
            dayOfWeek: 1,
            dayOfMonth: 1,
            timeZone: 'UTC',
            enabled: true,
          },
        });
        expect(created.statusCode, created.body).toBe(200);
        return created.json<ReportSchedule>();
      };
      const both = await schedule('Cellar pair', [
        { deviceId, codes: ['c1'] },
        { deviceId: movedId, codes: ['c1'] },
      ]);
      const fermenterOnly = await schedule('Fermenter only', [{ deviceId: movedId, codes: ['c1'] }]);
      const firstRun = both.props.nextRunAt!;
      expect(fermenterOnly.props.nextRunAt).toBe(firstRun);

      clock = firstRun + 1000;
      t.app.jobs.nudge();
      await until(async () => (await scheduleOf(fermenterOnly.id)).props.lastRunAt === firstRun, 30_000);
      await until(async () => (await scheduleOf(both.id)).props.lastRunAt === firstRun, 30_000);
      expect(await reportDevices((await scheduleOf(both.id)).props.lastReportId!)).toEqual([deviceId, movedId]);
      expect(await reportDevices((await scheduleOf(fermenterOnly.id)).props.lastReportId!)).toEqual([movedId]);

      // Between two runs the fermenter goes to another customer: its maker now gets 404 on it.
      await moveFermenter(groupId, retailRootId);
      expect((await deviceOf(brew, movedId)).statusCode).toBe(404);
      const scheduled = (id: string) => db().selectFrom('reports').select('id').where('schedule_id', '=', id).execute();
      const fermenterReports = (await scheduled(fermenterOnly.id)).length;

      clock = firstRun + DAY + 1000;
      t.app.jobs.nudge();
      await until(async () => (await scheduleOf(both.id)).props.lastRunAt === firstRun + DAY, 30_000);
      await until(async () => (await scheduleOf(fermenterOnly.id)).props.lastRunAt === firstRun + DAY, 30_000);
      const secondReport = (await scheduleOf(both.id)).props.lastReportId!;
      expect(await reportDevices(secondReport)).toEqual([deviceId]);
      // The owner keeps the schedule and sees this run's report (it holds only what they see).
      expect((await call(brew, 'GET', '/report/meta', { id: secondReport, accountId })).statusCode).toBe(200);
      // Nothing left that its owner sees: the run makes no report, rather than one of every device.
      const quiet = await scheduleOf(fermenterOnly.id);
      expect(quiet.props).toMatchObject({
        lastRunAt: firstRun + DAY,
        lastReportId: null,
        nextRunAt: firstRun + 2 * DAY,
      });
      expect((await scheduled(fermenterOnly.id)).length).toBe(fermenterReports);

      for (const id of [both.id, fermenterOnly.id]) {
        expect((await call(brew, 'DELETE', '/reports/schedule', { id, accountId })).statusCode).toBe(200);
      }
    });

    it('refuses a report to whoever gets 404 on one of its devices, creator included, at every read', async () => {
      const pair = [
        { deviceId, codes: ['c1'] },
        { deviceId: movedId, codes: ['c1'] },
      ];
      const forReader = await settled(
        (
          await create(
            {
              devices: pair,
              visibility: 'SELECTED_USERS_IN_SCOPE',
              access: { type: 'SELECTED_USERS_IN_SCOPE', groupIds: [], users: [readerEmail] },
            },
            'Both fermenters',
          )
        ).id,
      );
      expect(forReader.state).toBe('READY');
      const forAll = await settled(
        (
          await create(
            { devices: pair, visibility: 'PUBLIC', access: { type: 'PUBLIC', groupIds: [], users: [] } },
            'Both fermenters, public',
          )
        ).id,
      );
      expect(forAll.state).toBe('READY');
      const publicPath = new URL(forAll.props.publicUrl!).pathname;
      expect((await fileOf(reader, forReader.id)).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: publicPath })).statusCode).toBe(200);

      await moveFermenter(groupId, retailRootId);
      for (const token of [reader, brew]) {
        expect((await deviceOf(token, movedId)).statusCode).toBe(404);
        for (const id of [forReader.id, forAll.id]) {
          expect((await fileOf(token, id)).statusCode).toBe(404);
          expect((await call(token, 'GET', '/report/meta', { id, accountId })).statusCode).toBe(404);
        }
        const listed = (await call(token, 'GET', '/reports/meta', { accountId })).json<ReportMeta[]>();
        expect(listed.map((meta) => meta.id)).not.toContain(forReader.id);
        expect(listed.map((meta) => meta.id)).not.toContain(forAll.id);
      }
      // The public link is its maker's grant and goes with the maker's right.
      expect((await t.app.inject({ method: 'GET', url: publicPath })).statusCode).toBe(404);
      // An administrator over both customers still sees it, so it can be cleaned up.
      expect((await deviceOf(admin, movedId)).statusCode).toBe(200);
      expect((await fileOf(admin, forReader.id)).statusCode).toBe(200);

      // Read at every look: back in the Cellar, the reader has it again.
      await moveFermenter(retailRootId, groupId);
      expect((await fileOf(reader, forReader.id)).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: publicPath })).statusCode).toBe(200);
    });

    it('shows a report shared with a group only to its users whose scope holds every device', async () => {
      const root = await db()
        .selectFrom('accounts')
        .select('root_group_id')
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow();
      const { token: brewhouse } = await addTestUser(t.app, {
        email: 'brewhouse@reports.test',
        accountId,
        path: (await db().selectFrom('groups').select('path').where('id', '=', otherGroupId).executeTakeFirstOrThrow())
          .path,
        permissions: ['VIEW_DASH', 'READ_REPORTS'],
        appType: 'brew',
      });
      const report = await settled(
        (
          await create(
            {
              devices: [
                { deviceId, codes: ['c1'] },
                { deviceId: otherDeviceId, codes: ['c1'] },
              ],
              visibility: 'SELECTED_GROUPS_IN_SCOPE',
              access: { type: 'SELECTED_GROUPS_IN_SCOPE', groupIds: [root.root_group_id], users: [] },
            },
            'Cellar and brewhouse',
          )
        ).id,
      );
      expect(report.state).toBe('READY');
      // Attached below the chosen group, but the Cellar is not theirs: 404 on its device and on the report.
      expect((await deviceOf(brewhouse, deviceId)).statusCode).toBe(404);
      expect((await fileOf(brewhouse, report.id)).statusCode).toBe(404);
      expect((await call(brewhouse, 'GET', '/report/meta', { id: report.id, accountId })).statusCode).toBe(404);
      // The reader at the root holds both devices.
      expect((await fileOf(reader, report.id)).statusCode).toBe(200);
    });
  });
});
