import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PhoneAnswer, PhoneBody, PhoneCodeBody } from '@fieldlink/api/phone';
import { ErrorAnswer } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import type { SmsService } from './service';

const errors = {
  400: ErrorAnswer,
  401: ErrorAnswer,
  403: ErrorAnswer,
  404: ErrorAnswer,
  409: ErrorAnswer,
  429: ErrorAnswer,
  503: ErrorAnswer,
};

/** The caller's own phone for SMS alerts (issue 39 item 4); 404 where the server has no SMS. */
export const smsRoutes: FastifyPluginAsyncTypebox<{ sms: SmsService }> = async (app, { sms }) => {
  const tags = ['session'];
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/user/phone',
    { schema: { tags, summary: 'The caller’s phone for SMS alerts', response: { 200: PhoneAnswer, ...errors } } },
    (request) => sms.status(signedInUser(request)),
  );
  app.put(
    '/user/phone',
    {
      schema: {
        tags,
        summary: 'Send a 6-digit code by SMS to a number (E.164) to make it the caller’s phone for alerts',
        body: PhoneBody,
        response: { 200: PhoneAnswer, ...errors },
      },
    },
    (request) => sms.setPhone(signedInUser(request), request.body),
  );
  app.post(
    '/user/phone/verify',
    {
      schema: {
        tags,
        summary: 'Verify the number with the code the SMS carried',
        body: PhoneCodeBody,
        response: { 200: PhoneAnswer, ...errors },
      },
    },
    (request) => sms.verify(signedInUser(request), request.body),
  );
  app.delete(
    '/user/phone',
    {
      schema: {
        tags,
        summary: 'Remove the caller’s phone: no more SMS alerts',
        response: { 200: PhoneAnswer, ...errors },
      },
    },
    (request) => sms.remove(signedInUser(request)),
  );
};
