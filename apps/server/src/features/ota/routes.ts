import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorAnswers } from '@fieldlink/api/errors';
import {
  OTA_APPROVE_PATH,
  OTA_PENDING_PATH,
  OTA_ROLLOUTS_PATH,
  OTA_SUBMIT_PATH,
  OtaApproveAnswer,
  OtaApproveBody,
  OtaPendingAnswer,
  OtaRolloutsAnswer,
  OtaSubmitAnswer,
  OtaSubmitBody,
} from '@fieldlink/api/ota';
import { signedInUser } from '../../plugins/auth';
import type { OtaService } from './service';

const errors = errorAnswers(400, 401, 403, 404);

/** OTA calls of application §7 and the administrators' pending list. */
export const otaRoutes: FastifyPluginAsyncTypebox<{ ota: OtaService }> = async (app, { ota }) => {
  const tags = ['ota'];
  app.addHook('onRequest', app.authenticate);
  app.post(
    OTA_SUBMIT_PATH,
    {
      schema: {
        tags,
        summary:
          'Submit an OTA update to devices (needs OTA_UPDATE). Held for an administrator’s approval unless ' +
          'skipApproval (administrators only); one answer item per device, failures with error.message',
        body: OtaSubmitBody,
        response: { 200: OtaSubmitAnswer, ...errors },
      },
    },
    (request) => ota.submit(signedInUser(request), request.body),
  );
  app.post(
    OTA_APPROVE_PATH,
    {
      schema: {
        tags,
        summary: 'Approve the pending OTA updates of devices (administrators): clears otaPendingSubmittedAt',
        body: OtaApproveBody,
        response: { 200: OtaApproveAnswer, ...errors },
      },
    },
    (request) => ota.approve(signedInUser(request), request.body),
  );
  app.get(
    OTA_PENDING_PATH,
    {
      schema: {
        tags,
        summary: 'Devices with a pending OTA update (administrators only)',
        response: { 200: OtaPendingAnswer, ...errors },
      },
    },
    (request) => ota.pending(signedInUser(request)),
  );
  app.get(
    OTA_ROLLOUTS_PATH,
    {
      schema: {
        tags,
        summary:
          'OTA rollouts running or finished in the last day, with their devices in the caller’s scope and ' +
          'each device’s progress (administrators only)',
        response: { 200: OtaRolloutsAnswer, ...errors },
      },
    },
    (request) => ota.rollouts(signedInUser(request)),
  );
};
