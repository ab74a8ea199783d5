import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import {
  DeleteDeviceTagBody,
  Device,
  DeviceConfigAnswer,
  DeviceConfigBody,
  DeviceImportAnswer,
  DeviceImportBody,
  DeviceMessageAnswer,
  DeviceMessageBody,
  DevicePlanBody,
  DeviceTagBody,
  DeviceTagsAnswer,
  ProvisionDeviceAnswer,
  ProvisionDeviceBody,
  DEVICES_IMPORT_PATH,
  DEVICE_ROUTES,
} from '@fieldlink/api/device';
import { deviceLogsJson } from '@fieldlink/api/device-logs-json';
import { errorAnswers, LimitAnswer } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import { DeviceConfigService } from './config-service';
import { DeviceMessageQueue } from './message-queue';
import type { DeviceService } from './service';

/**
 * Sends an answer already written as JSON: Fastify passes a Buffer through without serialising it,
 * and the route's schema still documents the JSON inside.
 */
function sendJson(reply: FastifyReply, json: Uint8Array) {
  return reply.type('application/json; charset=utf-8').send(Buffer.from(json.buffer, json.byteOffset, json.byteLength));
}

const errors = errorAnswers(400, 401, 403, 404, 409);

/**
 * Device calls of core §7. The queue of messages for offline devices lives with them: it starts with
 * these routes and stops when the app closes.
 */
export const deviceRoutes: FastifyPluginAsyncTypebox<{ devices: DeviceService }> = async (app, { devices }) => {
  const { commands, events } = app;
  const queue = new DeviceMessageQueue(app.storage.db, commands, app.log);
  queue.start(events);
  app.addHook('onClose', async () => queue.stop());
  const config = new DeviceConfigService(app.storage.db, devices, commands, queue);

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
  app.post(
    DEVICES_IMPORT_PATH,
    {
      schema: {
        tags,
        summary:
          'Import devices from a CSV file (needs ADD_DEVICES): a preview with each row’s errors (dryRun), or every ' +
          'row written at once with its MQTT password, shown this once; nothing when any row has an error',
        body: DeviceImportBody,
        response: { 200: DeviceImportAnswer, ...errors },
      },
    },
    (request) => devices.importDevices(signedInUser(request), request.body),
  );
  app.route({
    ...DEVICE_ROUTES.device,
    handler: (request) => devices.getDevice(signedInUser(request), request.query),
  });
  app.post(
    '/device-config',
    {
      schema: {
        tags,
        summary:
          'Apply a device draft: name, site, location (needs ADD_DEVICES or ADD_EDIT_DELETE_GROUPS), the ' +
          'caller’s mute flag (anyone), settings sent to the device or queued while it is offline (a limited ' +
          'number per device: 429 naming the limit); a channel the device cannot have is refused with 400',
        body: DeviceConfigBody,
        response: { 200: DeviceConfigAnswer, ...errors, 429: LimitAnswer },
      },
    },
    (request) => config.configure(signedInUser(request), request.body),
  );
  app.put(
    '/device/tag',
    {
      schema: {
        tags,
        summary: 'Add a tag, or change the one named by tagId',
        body: DeviceTagBody,
        response: { 200: DeviceTagsAnswer, ...errors },
      },
    },
    (request) => config.setTag(signedInUser(request), request.body),
  );
  app.delete(
    '/device/tag',
    {
      schema: {
        tags,
        summary: 'Remove a tag',
        body: DeleteDeviceTagBody,
        response: { 200: DeviceTagsAnswer, ...errors },
      },
    },
    (request) => config.deleteTag(signedInUser(request), request.body),
  );
  app.put(
    '/device/plan',
    {
      schema: {
        tags,
        summary: 'Change a device’s plan (administrators of the supplier account only)',
        body: DevicePlanBody,
        response: { 200: Device, ...errors },
      },
    },
    (request) => config.changePlan(signedInUser(request), request.body),
  );
  app.route({
    ...DEVICE_ROUTES.connections,
    handler: (request) => devices.connections(signedInUser(request), request.query),
  });
  app.route({
    ...DEVICE_ROUTES.latestValues,
    handler: (request) => devices.latestValues(signedInUser(request), request.query.ids),
  });
  app.route({
    ...DEVICE_ROUTES.logs,
    // The answer is columns of numbers (a decade of 100 channels: 912,500 of them), written by its own
    // writer (device-logs-json.ts): the text JSON.stringify would write, integers faster. The schema's
    // compiled serializer checked every channel against both kinds of the union before writing it.
    handler: async (request, reply) =>
      sendJson(reply, deviceLogsJson(await devices.logs(signedInUser(request), request.query))),
  });
  app.post(
    '/message',
    {
      schema: {
        tags,
        summary:
          'Send a message to a device; queued while it is offline (settings and writes; a new one for the same ' +
          'setting replaces the queued one; a limited number per device: 429 naming the limit); a channel the ' +
          'device cannot have is refused with 400 naming the code',
        body: DeviceMessageBody,
        response: { 200: DeviceMessageAnswer, ...errors, 429: LimitAnswer },
      },
    },
    (request) => config.sendMessage(signedInUser(request), request.body),
  );
};
