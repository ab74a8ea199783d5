import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AcknowledgeAlarmsBody,
  AlarmListAnswer,
  ChannelAlarm,
  PutDeviceAlarmBody,
  ALARM_ROUTES,
} from '@fieldlink/api/alarms';
import { errorAnswers } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import type { AlarmService } from './service';

const errors = errorAnswers(400, 401, 403, 404);

/** Alarm calls of application §7 (`/device/alarms`, `/device/alarm`) and of the /alarms and /alerts pages. */
export const alarmRoutes: FastifyPluginAsyncTypebox<{ alarms: AlarmService }> = async (app, { alarms }) => {
  const tags = ['alarms'];
  app.addHook('onRequest', app.authenticate);
  app.route({
    ...ALARM_ROUTES.deviceAlarms,
    handler: (request) => alarms.deviceAlarms(signedInUser(request), request.query.deviceId),
  });
  app.put(
    '/device/alarm',
    {
      schema: {
        tags,
        summary: 'Set one channel’s alarm (needs ALARM, ADD_DEVICES or ADD_EDIT_DELETE_GROUPS)',
        body: PutDeviceAlarmBody,
        response: { 200: ChannelAlarm, ...errors },
      },
    },
    (request) => alarms.putAlarm(signedInUser(request), request.body),
  );
  app.route({
    ...ALARM_ROUTES.alarms,
    handler: (request) => alarms.list(signedInUser(request), request.query),
  });
  app.post(
    '/alarms/acknowledge',
    {
      schema: {
        tags,
        summary: 'Acknowledge alarms (needs ALARM); all or none',
        body: AcknowledgeAlarmsBody,
        response: { 200: AlarmListAnswer, ...errors },
      },
    },
    (request) => alarms.acknowledge(signedInUser(request), request.body),
  );
  app.route({
    ...ALARM_ROUTES.alerts,
    handler: (request) => alarms.alerts(signedInUser(request), request.query),
  });
};
