import { Type, type Static } from '@sinclair/typebox';

/** Web Push calls (issue 39 item 2): a browser's subscription to the caller's alarm notifications. */

/** A push service's URL, as the browser's `PushSubscription.endpoint` gives it (always https). */
const Endpoint = Type.String({ minLength: 12, maxLength: 2048, pattern: '^https?://' });

/** Base64url without padding, as `PushSubscription.toJSON()` gives the keys. */
const Base64Url = (minLength: number, maxLength: number) =>
  Type.String({ minLength, maxLength, pattern: '^[A-Za-z0-9_-]+=*$' });

/**
 * `POST /push-subscriptions`: the browser's `PushSubscription.toJSON()`. `p256dh` is the browser's
 * P-256 public key (65 bytes, 87 characters), `auth` its 16-byte authentication secret (22 characters).
 */
export const PushSubscriptionBody = Type.Object(
  {
    endpoint: Endpoint,
    expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    keys: Type.Object({ p256dh: Base64Url(80, 100), auth: Base64Url(16, 32) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>;

/** `DELETE /push-subscriptions`: the endpoint of the caller's subscription to remove. */
export const PushUnsubscribeBody = Type.Object({ endpoint: Endpoint }, { additionalProperties: false });
export type PushUnsubscribeBody = Static<typeof PushUnsubscribeBody>;

/** How many of the caller's subscriptions the call reached, and how many were gone and removed. */
export const PushSubscriptionsAnswer = Type.Object({
  /** The caller's subscriptions after the call. */
  subscriptions: Type.Integer(),
});
export type PushSubscriptionsAnswer = Static<typeof PushSubscriptionsAnswer>;

/** `POST /push-subscriptions/test`: what became of the test notification. */
export const PushTestAnswer = Type.Object({
  /** Subscriptions whose push service took the notification. */
  sent: Type.Integer(),
  /** Subscriptions the push service answered 404 or 410 for, now removed. */
  removed: Type.Integer(),
  /** Subscriptions that failed otherwise (push service away, refused address). */
  failed: Type.Integer(),
});
export type PushTestAnswer = Static<typeof PushTestAnswer>;

/** The payload of a push message, read by the service worker to show the notification. */
export interface PushNotice {
  title: string;
  body: string;
  /** The console page the notification opens (a path of this origin). */
  url: string;
  /** Notifications with the same tag replace each other (one per alarm). */
  tag: string;
  /**
   * The recipient's one-time acknowledge link (issue 39 item 5): the notification's "Acknowledge"
   * action POSTs to it, without opening the console.
   */
  acknowledgeUrl?: string;
}
