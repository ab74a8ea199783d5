import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFleet } from '../seed/seed';
import { DIALECTS, startTestApp, type TestApp } from '../../testing/test-app';

describe.each(DIALECTS)('EMQX HTTP authentication on %s', (dialect) => {
  let t: TestApp;
  let password: string;
  const secret = 'emqx-shared-secret';
  const call = (path: string, payload: object, token = secret) =>
    t.app.inject({
      method: 'POST',
      url: `/broker/emqx/${path}`,
      headers: { authorization: `Bearer ${token}` },
      payload,
    });

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      env: {
        MQTT_PROVISIONING: 'none',
        MQTT_AUTH_SECRET: secret,
        MQTT_ADMIN_USERNAME: 'fieldlink',
        MQTT_ADMIN_PASSWORD: 'server-secret',
      },
    });
    password = (await demoFleet(t.app.storage.db)).find((d) => d.thingName === 'ACME-BLR01')!.password;
  });
  afterAll(async () => t?.close());

  it('answers nothing without the shared secret', async () => {
    const response = await call('authenticate', { clientid: 'ACME-BLR01', username: 'ACME-BLR01', password }, 'wrong');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ result: 'deny' });
  });

  it.each([
    ['the device’s own credentials', { clientid: 'ACME-BLR01', username: 'ACME-BLR01' }, 'allow'],
    ['a user name other than the client id', { clientid: 'ACME-BLR01', username: 'ACME-BLR02' }, 'deny'],
    ['a wildcard client id', { clientid: 'ACME-#', username: 'ACME-#' }, 'deny'],
    ['an unknown device', { clientid: 'NOPE-0001', username: 'NOPE-0001' }, 'deny'],
  ])('authenticates %s: %s', async (_name, ids, result) => {
    const response = await call('authenticate', { ...ids, password });
    expect(response.json()).toEqual({ result, is_superuser: false });
  });

  it('lets Fieldlink’s own account in as a superuser, with its password only', async () => {
    expect(
      (await call('authenticate', { clientid: 'x', username: 'fieldlink', password: 'server-secret' })).json(),
    ).toEqual({
      result: 'allow',
      is_superuser: true,
    });
    expect(
      (await call('authenticate', { clientid: 'x', username: 'fieldlink', password: 'nope' })).json(),
    ).toMatchObject({
      result: 'deny',
    });
  });

  it.each([
    ['publish', 'dev/ACME-BLR01/up', 'allow'],
    ['subscribe', 'dev/ACME-BLR01/down', 'allow'],
    ['publish', 'dev/ACME-BLR02/up', 'deny'],
    ['subscribe', 'dev/+/down', 'deny'],
    ['subscribe', '#', 'deny'],
    ['publish', 'fieldlink/events', 'deny'],
    ['subscribe', '$SYS/#', 'deny'],
  ])('authorises %s to %s: %s', async (action, topic, result) => {
    const response = await call('authorize', { clientid: 'ACME-BLR01', username: 'ACME-BLR01', topic, action });
    expect(response.json()).toEqual({ result });
  });
});
