import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Device,
  DeviceQuery,
  LatestValuesAnswer,
  LatestValuesQuery,
  ProvisionDeviceAnswer,
  ProvisionDeviceBody,
} from '@fieldlink/api/device';
import { ErrorAnswer } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import type { DeviceService } from './service';

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer };

export const deviceRoutes: FastifyPluginAsyncTypebox<{ devices: DeviceService }> = async (app, { devices }) => {
  const tags = ['devices'];
  app.addHook('onRequest', app.authenticate);
  app.post(
    '/device',
    {
      schema: {
        tags,
        summary: 'Provision a device (needs ADD_DEVICES). The password is shown this once.',
        body: ProvisionDeviceBody,
        response: { 200: ProvisionDeviceAnswer, ...errors },
      },
    },
    (request) => devices.provision(signedInUser(request), request.body),
  );
  app.get(
    '/device',
    { schema: { tags, summary: 'One device', querystring: DeviceQuery, response: { 200: Device, ...errors } } },
    (request) => devices.getDevice(signedInUser(request), request.query.id),
  );
  app.get(
    '/device/channels/latest-values',
    {
      schema: {
        tags,
        summary: 'Latest value of every channel of many devices (comma-separated ids)',
        querystring: LatestValuesQuery,
        response: { 200: LatestValuesAnswer, ...errors },
      },
    },
    (request) => devices.latestValues(signedInUser(request), request.query.ids),
  );
};
