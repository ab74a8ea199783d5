import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountAnswer, GroupNode } from '@fieldlink/api/account';
import { REALTIME_PATH } from '@fieldlink/api/realtime';
import { MONITOR_ONLY_REFUSAL } from '@fieldlink/domain/permissions';
import { BROADCAST_SPRAY_FORBIDDEN } from '@fieldlink/domain/spray';
import { DIALECTS, baseUrl, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { TestSocket } from '../../../testing/test-socket';

/**
 * Monitor-only users (issue 35, item 1): the demo's viewer@ sees every value but operates nothing, over
 * REST and the real-time channel alike; the mark is kept with the user, set on invitation and by a
 * user editor, and bounded like permissions.
 */
describe.each(DIALECTS)('monitor-only users on %s', (dialect) => {
  let t: TestApp;
  let ops: string;
  let viewer: string;
  let deviceId: string;

  const call = (method: 'POST' | 'PUT' | 'GET', url: string, authorization: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization }, ...(payload && { payload }) });
  const findGroup = (node: GroupNode, name: string): GroupNode | undefined =>
    node.name === name ? node : node.groups.map((child) => findGroup(child, name)).find(Boolean);
  const groupOf = async (authorization: string, name: string) =>
    findGroup(((await call('GET', '/account', authorization)).json() as AccountAnswer).accounts[0]!.rootGroup, name)!;
  const userRow = (email: string) =>
    t.app.storage.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const signUp = async (email: string) => {
    const mail = await t.app.storage.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', email)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    const code = /[?&]code=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user',
      payload: { email, code, password: 'a-long-password', firstName: 'Mo', lastName: 'Nitor' },
    });
    expect(answer.statusCode).toBe(200);
    return (answer.json() as { jwt: string }).jwt;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { listen: true });
    [ops, viewer] = (await Promise.all(['ops', 'viewer'].map((name) => signIn(t.app, `${name}@fieldlink.test`)))) as [
      string,
      string,
    ];
    deviceId = (
      await t.app.storage.db
        .selectFrom('devices')
        .select('id')
        .where('thing_name', '=', 'ACME-BLR01')
        .executeTakeFirstOrThrow()
    ).id;
    // Starting the app with its demo fleet takes a while on a busy machine.
  }, 180_000);
  afterAll(() => t?.close());

  it('seeds viewer@ monitor-only and says so in GET /self and GET /user', async () => {
    expect((await call('GET', '/self', viewer)).json()).toMatchObject({ monitorOnly: true });
    expect((await call('GET', '/self', ops)).json()).toMatchObject({ monitorOnly: false });
    expect((await call('GET', '/user?email=viewer@fieldlink.test', ops)).json()).toMatchObject({ monitorOnly: true });
  });

  it('lets viewer@ read the device but refuses its setpoint and FLASH LED with 403 and the reason', async () => {
    expect((await call('GET', `/device?id=${deviceId}`, viewer)).statusCode).toBe(200);
    for (const message of [
      { cmd: 'writeChannel', code: 'sp1', value: 1 },
      { cmd: 'system', command: 'FLASH LED' },
    ]) {
      const answer = await call('POST', '/message', viewer, { deviceId, message });
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ message: MONITOR_ONLY_REFUSAL });
    }
    // Broadcast spray keeps the specification's 401, and its message; it does not end the session.
    const spray = await call('POST', '/mosnix/broadcast-spray', viewer, {
      groupId: (await groupOf(ops, 'Cold Store')).id,
    });
    expect(spray.statusCode).toBe(401);
    expect(spray.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: BROADCAST_SPRAY_FORBIDDEN });
  });

  it('refuses the same over the real-time channel, with the same words, and serves reads', async () => {
    const origin = baseUrl(t.app);
    const socket = await TestSocket.open(`${origin.replace('http', 'ws')}${REALTIME_PATH}`, viewer, origin);
    try {
      expect((await socket.request({ type: 'server/subscribeDevices', thingNames: ['ACME-BLR01'] })).ok).toBe(true);
      for (const action of [
        { type: 'server/writeChannel', thingName: 'ACME-BLR01', code: 'sp1', value: 1 },
        { type: 'server/systemCommand', thingName: 'ACME-BLR01', command: 'FLASH LED' },
      ]) {
        expect(await socket.request(action)).toMatchObject({ ok: false, error: MONITOR_ONLY_REFUSAL });
      }
    } finally {
      socket.socket.close();
    }
  });

  it('carries the mark from the invitation to the user it becomes', async () => {
    const root = ((await call('GET', '/account', ops)).json() as AccountAnswer).accounts[0]!.rootGroup;
    const invite = await call('POST', '/invite-user', ops, {
      email: 'watcher@acme.test',
      path: root.relativePath,
      permissions: ['VIEW_DASH'],
      monitorOnly: true,
    });
    expect(invite.statusCode).toBe(200);
    expect(invite.json().user).toMatchObject({ monitorOnly: true });
    const watcher = await signUp('watcher@acme.test');
    expect((await call('GET', '/self', watcher)).json()).toMatchObject({ monitorOnly: true });
    const flash = await call('POST', '/message', watcher, {
      deviceId,
      message: { cmd: 'system', command: 'FLASH LED' },
    });
    expect(flash.statusCode).toBe(403);
  });

  it('lets a user editor set and clear the mark of another user, never its own', async () => {
    const admin = await signIn(t.app, 'admin@fieldlink.test');
    const set = await call('PUT', '/user', admin, { email: 'ops@fieldlink.test', props: { monitorOnly: true } });
    expect(set.statusCode).toBe(200);
    expect(set.json().props).toMatchObject({ monitorOnly: true });
    expect((await userRow('ops@fieldlink.test')).monitor_only).toBe(1);
    const refused = await call('POST', '/message', await signIn(t.app, 'ops@fieldlink.test'), {
      deviceId,
      message: { cmd: 'writeChannel', code: 'sp1', value: 1 },
    });
    expect(refused.statusCode).toBe(403);
    const cleared = await call('PUT', '/user', admin, { email: 'ops@fieldlink.test', props: { monitorOnly: false } });
    expect(cleared.json().props).toMatchObject({ monitorOnly: false });

    const own = await call('PUT', '/user', viewer, { email: 'viewer@fieldlink.test', props: { monitorOnly: false } });
    expect(own.statusCode).toBe(403);
    expect((await userRow('viewer@fieldlink.test')).monitor_only).toBe(1);
  });

  it('lets a monitor-only inviter make only monitor-only users', async () => {
    const admin = await signIn(t.app, 'admin@fieldlink.test');
    await call('PUT', '/user', admin, { email: 'ops@fieldlink.test', props: { monitorOnly: true } });
    const opsNow = await signIn(t.app, 'ops@fieldlink.test');
    const cold = await groupOf(opsNow, 'Cold Store');
    const operator = await call('POST', '/invite-user', opsNow, {
      email: 'operator@acme.test',
      path: cold.relativePath,
      permissions: ['VIEW_DASH'],
    });
    expect(operator.statusCode).toBe(403);
    const watcher = await call('POST', '/invite-user', opsNow, {
      email: 'operator@acme.test',
      path: cold.relativePath,
      permissions: ['VIEW_DASH'],
      monitorOnly: true,
    });
    expect(watcher.statusCode).toBe(200);
    await call('PUT', '/user', admin, { email: 'ops@fieldlink.test', props: { monitorOnly: false } });
  });
});
