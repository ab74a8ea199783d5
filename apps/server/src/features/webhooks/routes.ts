import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorAnswers } from '@fieldlink/api/errors';
import {
  CreatedWebhook,
  CreateWebhookBody,
  UpdateWebhookBody,
  Webhook,
  WebhookDeliveriesAnswer,
  WebhookDelivery,
  WebhookListAnswer,
  WebhookListQuery,
  WebhookQuery,
} from '@fieldlink/api/webhooks';
import { signedInUser } from '../../plugins/auth';
import type { WebhookService } from './service';

const errors = errorAnswers(400, 401, 403, 404, 409);

/** Webhooks (issue 39 item 3): an account's administrators manage its receivers of events. */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhookService }> = async (app, { webhooks }) => {
  const tags = ['webhooks'];
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'An account’s webhooks, without their secrets (administrators)',
        querystring: WebhookListQuery,
        response: { 200: WebhookListAnswer, ...errors },
      },
    },
    (request) => webhooks.list(signedInUser(request), request.query),
  );
  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Adds a webhook; answers its signing secret, this once (administrators)',
        body: CreateWebhookBody,
        response: { 200: CreatedWebhook, ...errors },
      },
    },
    (request) => webhooks.create(signedInUser(request), request.body),
  );
  app.put(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Changes a webhook’s URL, events or format (administrators)',
        querystring: WebhookQuery,
        body: UpdateWebhookBody,
        response: { 200: Webhook, ...errors },
      },
    },
    (request) => webhooks.update(signedInUser(request), request.query, request.body),
  );
  app.delete(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Removes a webhook and its deliveries (administrators)',
        querystring: WebhookQuery,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (request) => {
      await webhooks.remove(signedInUser(request), request.query);
      return {};
    },
  );
  app.post(
    '/webhooks/test',
    {
      schema: {
        tags,
        summary: 'Sends a test event to the webhook now and answers how it went (administrators)',
        querystring: WebhookQuery,
        response: { 200: WebhookDelivery, ...errors },
      },
    },
    (request) => webhooks.test(signedInUser(request), request.query),
  );
  app.get(
    '/webhooks/deliveries',
    {
      schema: {
        tags,
        summary: 'A webhook’s newest deliveries with status and response time (administrators)',
        querystring: WebhookQuery,
        response: { 200: WebhookDeliveriesAnswer, ...errors },
      },
    },
    (request) => webhooks.deliveries(signedInUser(request), request.query),
  );
};
