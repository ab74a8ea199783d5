import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitAnswer } from '@fieldlink/api/errors';
import { WORK_LIMITS, unknownChannelCodeMessage, workLimitMessage } from '@fieldlink/domain/work-limits';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';

const MAX = WORK_LIMITS.queuedMessagesPerDevice.max;

/**
 * Messages queued for an offline device (issue 34, item 8): made-up channel codes are refused with
 * 400 naming the code, a new value for the same channel replaces the queued one, and the queue of a
 * device holds at most its limit, also when many requests arrive at once.
 */
describe.each(DIALECTS)('queued device messages’ limits on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let deviceId: string;

  const db = () => t.app.storage.db;
  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { authorization: token }, payload });
  const write = (code: string, value = 1) =>
    post('/message', { deviceId, message: { cmd: 'writeChannel', code, value } });
  const pending = async () =>
    (
      await db()
        .selectFrom('device_messages')
        .select('target')
        .where('device_id', '=', deviceId)
        .where('status', '=', 'pending')
        .execute()
    ).map((row) => row.target);
  const rowCount = async () =>
    Number(
      (
        await db()
          .selectFrom('device_messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('device_id', '=', deviceId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await startTestApp(dialect);
    token = await signIn(t.app, 'ops@fieldlink.test');
    deviceId = (
      await db().selectFrom('devices').select('id').where('thing_name', '=', 'ACME-BLR01').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a made-up channel code with 400 naming it, queueing nothing', async () => {
    for (const code of ['zz12', 'gpf33', 'xdo1', 'c0']) {
      const answer = await write(code);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ message: unknownChannelCodeMessage(code) });
    }
    const config = await post('/device-config', {
      id: deviceId,
      props: { name: 'Renamed by a refused call', settings: { channels: [{ code: 'qq7', name: 'Made up' }] } },
    });
    expect(config.statusCode).toBe(400);
    expect(config.json()).toMatchObject({ message: unknownChannelCodeMessage('qq7') });
    expect(await rowCount()).toBe(0);
    const device = await db().selectFrom('devices').select('name').where('id', '=', deviceId).executeTakeFirstOrThrow();
    expect(device.name).not.toBe('Renamed by a refused call');
  });

  it('replaces the queued write of a channel with a new one for the same channel', async () => {
    expect((await write('sp1', 4)).statusCode).toBe(200);
    expect((await write('sp-1', 5)).statusCode).toBe(200);
    expect((await write('sp1', 6)).statusCode).toBe(200);
    expect(await pending()).toEqual(['channel:sp1']);
    const device = (
      await t.app.inject({ method: 'GET', url: `/api/v1/device?id=${deviceId}`, headers: { authorization: token } })
    ).json<{ settings: { unsentMessages: { message: { value: number } }[] } }>();
    expect(device.settings.unsentMessages.map((queued) => queued.message.value)).toEqual([6]);
  });

  it('holds at most the limit per device under parallel requests, and still replaces at the limit', async () => {
    // Distinct known channels: relays, setpoints, flags, aux (16 + 16 + 32 + 16 = 80 > the limit).
    const codes = [
      ...Array.from({ length: 16 }, (_, index) => `do${index + 1}`),
      ...Array.from({ length: 16 }, (_, index) => `sp${index + 1}`),
      ...Array.from({ length: 32 }, (_, index) => `gpf${index + 1}`),
      ...Array.from({ length: 16 }, (_, index) => `a${index + 1}`),
    ].filter((code) => code !== 'sp1');
    const answers = await Promise.all(codes.map((code) => write(code)));
    const statuses = answers.map((answer) => answer.statusCode);
    // sp1 is queued already: the others fill the queue up to the limit.
    expect(statuses.filter((status) => status === 200)).toHaveLength(MAX - 1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(codes.length - (MAX - 1));
    expect(await pending()).toHaveLength(MAX);
    const refused = answers.find((answer) => answer.statusCode === 429)!;
    expect(refused.json<LimitAnswer>()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: workLimitMessage('queuedMessagesPerDevice'),
      limit: 'queuedMessagesPerDevice',
      max: MAX,
    });
    // A channel already waiting is replaced, not added: allowed at the limit.
    expect((await write('sp1', 7)).statusCode).toBe(200);
    expect(await pending()).toHaveLength(MAX);
    // Several settings in one call are refused whole.
    const before = await rowCount();
    const config = await post('/device-config', {
      id: deviceId,
      props: { settings: { uploadInterval: 30 } },
    });
    expect(config.statusCode).toBe(429);
    expect(await rowCount()).toBe(before);
  });
});
