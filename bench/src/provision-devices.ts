import type { FastifyInstance } from 'fastify';
import type { DeviceCredentials } from './ingest-calls';

// The demo user with ADD_DEVICES: devices are provisioned through the public API, as a customer would.
const PROVISIONER = 'ops@fieldlink.test';

/**
 * `count` devices named `{prefix} 1`, `{prefix} 2`, ... added through `POST /device` as the demo's
 * ops@ (seeded with `password`), with the MQTT credentials each was given.
 */
export async function provisionDevices(
  app: FastifyInstance,
  count: number,
  password: string,
  prefix = 'Bench device',
): Promise<DeviceCredentials[]> {
  const signIn = await app.inject({
    method: 'POST',
    url: '/api/v1/signin',
    payload: { email: PROVISIONER, password },
  });
  if (signIn.statusCode !== 200) throw new Error(`Sign-in failed: ${signIn.statusCode} ${signIn.body}`);
  const { jwt } = signIn.json() as { jwt: string };
  const devices: DeviceCredentials[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/device',
      headers: { authorization: jwt },
      payload: { name: `${prefix} ${i + 1}` },
    });
    if (response.statusCode !== 200) throw new Error(`Provisioning failed: ${response.statusCode} ${response.body}`);
    devices.push((response.json() as { credentials: DeviceCredentials }).credentials);
  }
  return devices;
}
