import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogAnswer, AuditVerifyAnswer } from '@fieldlink/api/audit';
import type { DeviceCommand } from '@fieldlink/api/device-frames';
import { REALTIME_PATH } from '@fieldlink/api/realtime';
import { demoFleet } from '../../seed/seed';
import { connectTestDevice, inBackground, type TestDevice } from '../../../testing/test-device';
import { DIALECTS, baseUrl, letViewerOperate, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { TestSocket } from '../../../testing/test-socket';
import { until } from '../../../testing/until';

// The demo boiler ACME-BLR02 of Acme Controls, which viewer@ (made to operate) and admin@ see:
// viewer@ writes channels over the real-time socket, admin@ (who may also configure) the rest.
const THING = 'ACME-BLR02';

describe.each(DIALECTS)('device commands in the audit trail on %s', (dialect) => {
  let t: TestApp;
  let device: TestDevice;
  let admin: string;
  let viewer: TestSocket;
  let operator: TestSocket;
  let accountId: string;
  let deviceId: string;

  const audit = async (query: Record<string, string>) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/audit-log',
      headers: { authorization: admin },
      query: { accountId, limit: '500', ...query },
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as AuditLogAnswer).entries;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true, listen: true, commandTimeoutMs: 2000 });
    await letViewerOperate(t.app.storage.db);
    const row = await t.app.storage.db
      .selectFrom('devices')
      .select(['id', 'account_id'])
      .where('thing_name', '=', THING)
      .executeTakeFirstOrThrow();
    ({ id: deviceId, account_id: accountId } = row);
    const password = (await demoFleet(t.app.storage.db)).find((entry) => entry.thingName === THING)!.password;
    // The device answers every command at once: OK, with the written value.
    device = await connectTestDevice(t.app, THING, password, (command: DeviceCommand, publish) => {
      const value = 'value' in command ? command.value : 1;
      inBackground(device.client, publish({ v: 4, type: 'reply', id: command.id, result: 'OK', value }));
    });
    await until(
      async () =>
        (
          await t.app.storage.db
            .selectFrom('devices')
            .select('is_connected')
            .where('id', '=', deviceId)
            .executeTakeFirstOrThrow()
        ).is_connected === 1,
    );
    admin = await signIn(t.app, 'admin@fieldlink.test');
    const origin = baseUrl(t.app);
    const url = `${origin.replace('http', 'ws')}${REALTIME_PATH}`;
    viewer = await TestSocket.open(url, await signIn(t.app, 'viewer@fieldlink.test'), origin);
    operator = await TestSocket.open(url, admin, origin);
  }, 180_000);
  afterAll(async () => {
    viewer?.socket.close();
    operator?.socket.close();
    await device?.client.endAsync(true);
    await t?.close();
  });

  it('records each command that changes the device once, with its values, and no read', async () => {
    const commands = [
      { type: 'server/writeChannel', thingName: THING, code: 'sp1', value: 55 },
      { type: 'server/writeRegister', thingName: THING, register: 5405, value: 2 },
      { type: 'server/systemCommand', thingName: THING, command: 'FLASH LED' },
      { type: 'server/timeDate', thingName: THING, tzName: 'Europe/Berlin', tzRule: 'CET-1CEST,M3.5.0,M10.5.0/3' },
      { type: 'server/readChannel', thingName: THING, code: 'sp1' },
      { type: 'server/refreshMetadata', thingName: THING },
    ];
    for (const command of commands) {
      const socket = command.type === 'server/writeChannel' ? viewer : operator;
      expect((await socket.request(command)).ok, JSON.stringify(command)).toBe(true);
    }
    const entries = (await audit({ action: 'device.command', deviceId })).reverse();
    expect(entries.map((entry) => entry.after)).toEqual([
      { cmd: 'writeChannel', code: 'sp1', value: 55, commandId: expect.any(String) },
      { cmd: 'writeRegister', register: 5405, value: 2, commandId: expect.any(String) },
      { cmd: 'system', command: 'FLASH LED', commandId: expect.any(String) },
      {
        cmd: 'timeDate',
        tzName: 'Europe/Berlin',
        tzRule: 'CET-1CEST,M3.5.0,M10.5.0/3',
        commandId: expect.any(String),
      },
    ]);
    expect(entries.map((entry) => entry.actor.name)).toEqual([
      'viewer@fieldlink.test',
      'admin@fieldlink.test',
      'admin@fieldlink.test',
      'admin@fieldlink.test',
    ]);
    expect(entries[0]).toMatchObject({
      actor: { kind: 'user', name: 'viewer@fieldlink.test' },
      address: '127.0.0.1',
      client: expect.stringMatching(/^realtime/),
      target: { kind: 'device', id: deviceId },
      deviceId,
    });
  });

  it('records the REST twin through the same call', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/message',
      headers: { authorization: admin },
      payload: { deviceId, message: { cmd: 'writeChannel', code: 'sp1', value: 60 } },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [latest] = await audit({ action: 'device.command', deviceId, limit: '1' });
    expect(latest).toMatchObject({
      actor: { name: 'admin@fieldlink.test' },
      client: expect.stringMatching(/^http/),
      after: { cmd: 'writeChannel', code: 'sp1', value: 60 },
    });
  });

  it('keeps one chain when many commands of one account are sent at once', async () => {
    const before = (await audit({ action: 'device.command', deviceId })).length;
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        viewer.request({ type: 'server/writeChannel', thingName: THING, code: 'sp1', value: 40 + i }),
      ),
    );
    expect(replies.every((reply) => reply.ok)).toBe(true);
    expect((await audit({ action: 'device.command', deviceId })).length).toBe(before + 10);
    const verify = await t.app.inject({
      method: 'GET',
      url: '/api/v1/audit-log/verify',
      headers: { authorization: admin },
      query: { accountId },
    });
    expect((verify.json() as AuditVerifyAnswer).intact).toBe(true);
  });
});
