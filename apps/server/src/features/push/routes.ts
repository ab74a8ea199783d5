import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  PushSubscriptionBody,
  PushSubscriptionsAnswer,
  PushTestAnswer,
  PushUnsubscribeBody,
} from '@fieldlink/api/push';
import { errorAnswers } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import type { PushService } from './service';

const errors = errorAnswers(400, 401, 404, 429);

/** Web Push calls (issue 39 item 2): the caller's own browsers only; no other user's subscription is reachable. */
export const pushRoutes: FastifyPluginAsyncTypebox<{ push: PushService }> = async (app, { push }) => {
  const tags = ['push'];
  app.addHook('onRequest', app.authenticate);
  app.post(
    '/push-subscriptions',
    {
      schema: {
        tags,
        summary: 'Turn on notifications for this browser (its PushSubscription)',
        body: PushSubscriptionBody,
        response: { 201: PushSubscriptionsAnswer, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await push.subscribe(signedInUser(request), request.body)),
  );
  app.delete(
    '/push-subscriptions',
    {
      schema: {
        tags,
        summary: 'Turn off notifications for this browser (by its endpoint)',
        body: PushUnsubscribeBody,
        response: { 200: PushSubscriptionsAnswer, ...errors },
      },
    },
    (request) => push.unsubscribe(signedInUser(request), request.body),
  );
  app.post(
    '/push-subscriptions/test',
    {
      schema: {
        tags,
        summary: 'Send a test notification to every browser of the caller',
        response: { 200: PushTestAnswer, ...errors },
      },
    },
    (request) => push.test(signedInUser(request)),
  );
};
