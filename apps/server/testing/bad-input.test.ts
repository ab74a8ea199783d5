import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TIME_MS } from '@fieldlink/api/fields';
import { MAX_INPUT_DEPTH } from '../src/plugins/input-guard';
import { DIALECTS, signIn, startTestApp, type TestApp } from './test-app';

/** SECURITY.md 18 and the brief's rule: bad input answers 4xx with a clear message, never 5xx, and changes nothing. */
describe.each(DIALECTS)('bad input on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let deviceId: string;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    admin = await signIn(t.app, 'admin@fieldlink.test');
    deviceId = (await t.app.storage.db.selectFrom('devices').select('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => t?.close());

  const eventLogRows = async () =>
    Number(
      (
        await t.app.storage.db
          .selectFrom('event_log')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const postEventLog = (payload: string, remoteAddress = '10.5.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/event-log',
      payload,
      headers: { 'content-type': 'application/json' },
      remoteAddress,
    });

  it.each([
    ['/api/v1/alerts?limit=1e400', 'querystring/limit must be a finite number'],
    ['/api/v1/alerts?limit=-1e400', 'querystring/limit must be a finite number'],
    ['/api/v1/device/connections?deviceId=DEVICE&limit=1e400', 'querystring/limit must be a finite number'],
    ['/api/v1/device/connections?deviceId=DEVICE&before=1e400', 'querystring/before must be a finite number'],
  ])('GET %s answers 400', async (url, message) => {
    const answer = await t.app.inject({
      method: 'GET',
      url: url.replace('DEVICE', deviceId),
      headers: { authorization: admin },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe(message);
  });

  // PostgreSQL's bigint ends at 2^63 - 1: these answered 500 there (and 200 on SQLite) before the
  // schemas bounded every time by the last instant a Date holds.
  it.each([
    ['/api/v1/alerts?before=9223372036854775808', 'querystring/before'],
    ['/api/v1/alarms?before=9223372036854775808', 'querystring/before'],
    ['/api/v1/device/connections?deviceId=DEVICE&before=9223372036854775807', 'querystring/before'],
    ['/api/v1/device/connections?deviceId=DEVICE&before=99999999999999999999999', 'querystring/before'],
    [
      '/api/v1/device-logs?format=GROUPED_BY_CHANNEL&deviceId=DEVICE&channels=c1&start=9223372036854775000&end=9223372036854775807&binCount=10',
      'querystring/start',
    ],
  ])('GET %s answers 400: a time past what storage holds', async (url, field) => {
    const answer = await t.app.inject({
      method: 'GET',
      url: url.replace('DEVICE', deviceId),
      headers: { authorization: admin },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe(`${field} must be <= ${MAX_TIME_MS}`);
  });

  it('answers the last time a Date holds, and refuses a report period past it with 400, storing nothing', async () => {
    for (const url of ['/api/v1/alerts', '/api/v1/alarms', `/api/v1/device/connections?deviceId=${deviceId}`]) {
      const separator = url.includes('?') ? '&' : '?';
      const answer = await t.app.inject({
        method: 'GET',
        url: `${url}${separator}before=${MAX_TIME_MS}`,
        headers: { authorization: admin },
      });
      expect(answer.statusCode, url).toBe(200);
    }
    const accountId = (await t.app.storage.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow()).id;
    const reports = await t.app.storage.db.selectFrom('reports').select('id').execute();
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/v1/report',
      headers: { authorization: admin },
      payload: {
        accountId,
        name: 'Far future',
        props: {
          format: 'CSV',
          visibility: 'CREATOR_ONLY',
          access: { type: 'CREATOR_ONLY', groupIds: [], users: [] },
          notifyAudience: 'NOBODY',
          notifyUsers: [],
          devices: [{ deviceId, codes: ['c1'] }],
          interval: 'HOUR',
          start: 0,
          end: 2 ** 63,
        },
      },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe(`body/props/end must be <= ${MAX_TIME_MS}`);
    expect(await t.app.storage.db.selectFrom('reports').select('id').execute()).toEqual(reports);
  });

  // PostgreSQL cannot store U+0000: these answered 500 there before the input guard refused them.
  it.each([
    { method: 'POST', url: '/api/v1/device', payload: { name: 'Pump\u0000' }, message: 'body/name' },
    {
      method: 'PUT',
      url: '/api/v1/user',
      payload: { email: 'admin@fieldlink.test', props: { firstName: 'A\u0000' } },
      message: 'body/props/firstName',
    },
    { method: 'POST', url: '/api/v1/signin', payload: { email: 'a\u0000@b.c', password: 'x' }, message: 'body/email' },
    { method: 'GET', url: '/api/v1/scenes?accountId=x&groupId=a%00b', message: 'querystring/groupId' },
    { method: 'GET', url: '/api/v1/report/public/a%00b', message: 'params/token' },
    {
      method: 'POST',
      url: '/api/v1/event-log',
      payload: { error: 'x', errorInfo: { 'k\u0000': 1 } },
      message: 'body/errorInfo',
    },
  ] as const)(
    'answers $method $url with a NUL character 400 and changes nothing',
    async ({ method, url, payload, message }) => {
      const devices = await t.app.storage.db.selectFrom('devices').select('id').execute();
      const answer = await t.app.inject({ method, url, payload, headers: { authorization: admin } });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(`${message} must not contain a NUL character`);
      expect(await t.app.storage.db.selectFrom('devices').select('id').execute()).toEqual(devices);
    },
  );

  it('refuses a crash report nested deeper than the limit with 400 and stores nothing', async () => {
    const before = await eventLogRows();
    for (const depth of [MAX_INPUT_DEPTH + 1, 20_000]) {
      const answer = await postEventLog(`{"error":"x","errorInfo":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(`body nests deeper than ${MAX_INPUT_DEPTH} levels`);
    }
    expect(await eventLogRows()).toBe(before);
    // Nesting within the limit is stored.
    const shallow = '['.repeat(MAX_INPUT_DEPTH - 2) + ']'.repeat(MAX_INPUT_DEPTH - 2);
    expect((await postEventLog(`{"error":"x","errorInfo":${shallow}}`, '10.5.0.2')).statusCode).toBe(200);
    expect(await eventLogRows()).toBe(before + 1);
  });

  it('refuses a crash report over 64 KiB with 413 and limits them to 30 a minute per address', async () => {
    const large = await postEventLog(JSON.stringify({ error: 'x', errorInfo: 'y'.repeat(70_000) }), '10.5.0.3');
    expect(large.statusCode).toBe(413);
    const codes: number[] = [];
    for (let i = 0; i < 31; i += 1) codes.push((await postEventLog('{"error":"flood"}', '10.5.0.4')).statusCode);
    expect(codes.slice(0, 30).every((code) => code === 200)).toBe(true);
    expect(codes[30]).toBe(429);
    // Another address is not affected.
    expect((await postEventLog('{"error":"other"}', '10.5.0.5')).statusCode).toBe(200);
  });

  it.each(['/api/v1/health', '/api/v1/client-config', '/api/v1/self', '/no-such-page'])(
    'sends the security headers with %s',
    async (url) => {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'strict-origin-when-cross-origin',
      });
    },
  );

  it('changes only the permissions of a permissions-only PUT /user', async () => {
    const answer = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers: { authorization: admin },
      payload: { email: 'viewer@fieldlink.test', props: { permissions: ['VIEW_DASH', 'ALARM'] } },
    });
    expect(answer.statusCode).toBe(200);
    const viewer = await signIn(t.app, 'viewer@fieldlink.test');
    const self = await t.app.inject({ method: 'GET', url: '/api/v1/self', headers: { authorization: viewer } });
    expect(self.json().linkedAccounts[0].attachmentPoints[0].permissions).toEqual(['VIEW_DASH', 'ALARM']);
  });
});
