import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorAnswers } from '@fieldlink/api/errors';
import type { AlarmLinkAnswer } from '@fieldlink/api/notifications';
import {
  AlarmLinkQuery,
  NotificationPreferencesAnswer,
  NotificationPreferencesBody,
  OnCallRotaAnswer,
  OnCallRotaBody,
  OnCallRotaQuery,
} from '@fieldlink/api/notifications';
import { signedInUser } from '../../plugins/auth';
import { clientOrigin } from '../session/user-context';
import type { AlarmService } from '../alarms/service';
import type { AlarmLinkOutcome, AlarmLinks } from './alarm-links';
import type { NotificationService } from './service';

const errors = errorAnswers(400, 401, 403, 404);

/** Who gets what (issue 39 item 5): the caller's own preferences, an account's on-call rota. */
export const notificationRoutes: FastifyPluginAsyncTypebox<{ notifications: NotificationService }> = async (
  app,
  { notifications },
) => {
  const tags = ['notifications'];
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/user/notification-preferences',
    {
      schema: {
        tags,
        summary: 'Which alarms reach the caller on which channel, quiet hours, and which channels can reach them',
        response: { 200: NotificationPreferencesAnswer, ...errors },
      },
    },
    (request) => notifications.preferences(signedInUser(request)),
  );
  app.put(
    '/user/notification-preferences',
    {
      schema: {
        tags,
        summary: 'Replace the caller’s notification preferences',
        body: NotificationPreferencesBody,
        response: { 200: NotificationPreferencesAnswer, ...errors },
      },
    },
    (request) => notifications.putPreferences(signedInUser(request), request.body),
  );
  app.get(
    '/account/on-call-rota',
    {
      schema: {
        tags,
        summary: 'An account’s on-call rota (users attached in the account)',
        querystring: OnCallRotaQuery,
        response: { 200: OnCallRotaAnswer, ...errors },
      },
    },
    (request) => notifications.rota(signedInUser(request), request.query.accountId),
  );
  app.put(
    '/account/on-call-rota',
    {
      schema: {
        tags,
        summary: 'Replace an account’s on-call rota (administrators of the whole account)',
        querystring: OnCallRotaQuery,
        body: OnCallRotaBody,
        response: { 200: OnCallRotaAnswer, ...errors },
      },
    },
    (request) => notifications.putRota(signedInUser(request), request.query.accountId, request.body),
  );
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** The small page a link opens: the alarm and one button, or why the link is refused. */
function linkPage(productName: string, outcome: AlarmLinkOutcome): string {
  const button = outcome.confirm
    ? '<form method="post"><button type="submit" style="font:inherit;padding:.6em 1.2em">Acknowledge alarm</button></form>'
    : '';
  const open = outcome.consolePath
    ? `<p><a href="${escapeHtml(outcome.consolePath)}">Open the device in the console</a></p>`
    : '';
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="robots" content="noindex"><title>${escapeHtml(outcome.title)} – ${escapeHtml(productName)}</title></head>` +
    '<body style="font-family:system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em;line-height:1.5">' +
    `<p>${escapeHtml(productName)}</p><h1 style="font-size:1.4em">${escapeHtml(outcome.title)}</h1>` +
    `<p role="status">${escapeHtml(outcome.message)}</p>${button}${open}</body></html>`
  );
}

/**
 * The one-time acknowledge link (issue 39 item 5), without a session: its signature is the
 * credential. GET only shows the page (link scanners and previews open links); POST acknowledges.
 * A browser (it asks for `text/html` when it opens a link or posts a form) gets the page; any other
 * client, the service worker's action among them, gets JSON, a refusal with its reason as every
 * call of the API answers one.
 */
export const alarmLinkRoutes: FastifyPluginAsyncTypebox<{
  links: AlarmLinks;
  alarms: AlarmService;
  productName: string;
}> = async (app, { links, alarms, productName }) => {
  // A browser's form posts `application/x-www-form-urlencoded` with nothing in it: the token is in the address.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) =>
    done(null, {}),
  );
  const tags = ['notifications'];
  const answer = (request: FastifyRequest, reply: FastifyReply, outcome: AlarmLinkOutcome) => {
    reply.code(outcome.status).header('cache-control', 'no-store');
    if (!(request.headers.accept ?? '').includes('text/html')) {
      const body: AlarmLinkAnswer = { acknowledged: outcome.acknowledged, message: outcome.message };
      return reply.send(body);
    }
    return reply.type('text/html; charset=utf-8').send(linkPage(productName, outcome));
  };
  app.get(
    '/alarm-link',
    { schema: { tags, summary: 'The confirmation page of a one-time acknowledge link', querystring: AlarmLinkQuery } },
    async (request, reply) => answer(request, reply, await links.inspect(request.query.token)),
  );
  app.post(
    '/alarm-link',
    {
      schema: {
        tags,
        summary: 'Acknowledge the alarm with a one-time link (an HTML page to a browser, else JSON)',
        querystring: AlarmLinkQuery,
      },
    },
    async (request, reply) => {
      const outcome = await links.acknowledge(
        request.query.token,
        clientOrigin(request.ip, 'http', request.headers['user-agent']),
        alarms,
      );
      return answer(request, reply, outcome);
    },
  );
};
