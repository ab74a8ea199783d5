import fp from 'fastify-plugin';
import { readFileSync } from 'node:fs';
import { DEVICE_PROTOCOL_DOC_PATH } from '@fieldlink/api/device';
import { brokerCredentials } from '../../broker/device-broker';
import { deviceBrokerUrl } from '../../config';
import { notFound } from '../../http-errors';
import { registerApiRoutes } from '../../plugins/api-routes';
import { deviceRoutes } from './routes';
import { DeviceService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    devices: DeviceService;
  }
}

/** docs/device-protocol.md, read once; null where the server runs without the repository's docs. */
function readDeviceProtocol(): string | null {
  try {
    return readFileSync(new URL('../../../../../docs/device-protocol.md', import.meta.url), 'utf8');
  } catch {
    return null;
  }
}
const deviceProtocol = readDeviceProtocol();

/** Devices of core §7: the service, its calls, and the device protocol for whoever connects one. */
export const devicesPlugin = fp(
  async (app) => {
    const devices = new DeviceService(
      app.storage.db,
      (thingName) => app.directory.forget(thingName),
      // The store in use is known once the broker has started.
      brokerCredentials(() => app.deviceAccounts, app.log),
      deviceBrokerUrl(app.config),
    );
    app.decorate('devices', devices);
    await registerApiRoutes(app, async (api) => {
      await api.register(deviceRoutes, { devices });
      // Not secret: the page a device's maker reads.
      api.get(DEVICE_PROTOCOL_DOC_PATH, { schema: { hide: true } }, async (_request, reply) => {
        if (deviceProtocol === null) throw notFound('The device protocol is not installed here.');
        return reply.type('text/plain; charset=utf-8').send(deviceProtocol);
      });
    });
  },
  { name: 'devices', dependencies: ['settings', 'storage', 'auth', 'ingest'] },
);
