import { Type, type Static } from '@sinclair/typebox';
import { WEBHOOK_EVENTS, WEBHOOK_FORMATS, WEBHOOK_TEST_EVENT } from '@fieldlink/domain/webhooks';
import { EntityId, Nullable } from './fields';

/**
 * Webhooks (issue 39 item 3): an account's administrators add receivers of its events. `POST
 * /webhooks` answers the signing secret once; `GET /webhooks?accountId=` lists them (never the
 * secret); `PUT` and `DELETE /webhooks?id=` change and remove one; `POST /webhooks/test?id=` sends a
 * test event now; `GET /webhooks/deliveries?id=` lists the newest deliveries. Times are unix ms.
 */

/** The longest URL a webhook may have. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

export const WebhookEventName = Type.Union(WEBHOOK_EVENTS.map((event) => Type.Literal(event)));
export const WebhookFormatName = Type.Union(WEBHOOK_FORMATS.map((format) => Type.Literal(format)));

const WebhookUrl = Type.String({ minLength: 1, maxLength: WEBHOOK_URL_MAX_LENGTH });
const WebhookEvents = Type.Array(WebhookEventName, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true });

export const CreateWebhookBody = Type.Object(
  {
    accountId: EntityId,
    url: WebhookUrl,
    events: WebhookEvents,
    format: Type.Optional(WebhookFormatName),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(WebhookUrl),
    events: Type.Optional(WebhookEvents),
    format: Type.Optional(WebhookFormatName),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const WebhookQuery = Type.Object({ id: EntityId }, { additionalProperties: false });
export type WebhookQuery = Static<typeof WebhookQuery>;

export const WebhookListQuery = Type.Object({ accountId: EntityId }, { additionalProperties: false });
export type WebhookListQuery = Static<typeof WebhookListQuery>;

export const Webhook = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  url: Type.String(),
  events: Type.Array(WebhookEventName),
  format: WebhookFormatName,
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});
export type Webhook = Static<typeof Webhook>;

/** The answer to `POST /webhooks`: the webhook and its signing secret, shown this once. */
export const CreatedWebhook = Type.Composite([Webhook, Type.Object({ secret: Type.String() })]);
export type CreatedWebhook = Static<typeof CreatedWebhook>;

export const WebhookListAnswer = Type.Object({ webhooks: Type.Array(Webhook) });
export type WebhookListAnswer = Static<typeof WebhookListAnswer>;

export const WebhookDelivery = Type.Object({
  id: Type.String(),
  webhookId: Type.String(),
  /** The event's id, as the body carries it. */
  eventId: Type.String(),
  event: Type.Union([WebhookEventName, Type.Literal(WEBHOOK_TEST_EVENT)]),
  /** When the event happened. */
  at: Type.Number(),
  /** `pending`: waiting for its next attempt; `delivered`: answered 2xx; `failed`: given up. */
  state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  lastAttemptAt: Nullable(Type.Number()),
  /** The receiver's last HTTP status, or null when there was none (refused, unreachable, timed out). */
  status: Nullable(Type.Integer()),
  /** Milliseconds the last attempt took. */
  responseMs: Nullable(Type.Integer()),
  /** The start of the receiver's answer, or why there was none. */
  detail: Nullable(Type.String()),
  nextAttemptAt: Nullable(Type.Number()),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveriesAnswer = Type.Object({ deliveries: Type.Array(WebhookDelivery) });
export type WebhookDeliveriesAnswer = Static<typeof WebhookDeliveriesAnswer>;
