import webPush from 'web-push';
import type { PushNotice } from '@fieldlink/api/push';
import type { PushSubscriptionsTable } from '../../db/schema';
import { OutboundRefusedError, sendOutbound, type OutboundPolicy } from '../../security/outbound-url';
import type { VapidKeyPair } from '../../security/installation';

/** What became of one push message. */
export type PushOutcome =
  | { kind: 'sent' }
  /** 404 or 410: the subscription is gone (the browser unsubscribed, or it expired); remove it. */
  | { kind: 'gone' }
  /** Worth trying again later: the push service is away, overloaded (429) or failing (5xx). */
  | { kind: 'retry'; reason: string }
  /** Never worth repeating: refused address, or the push service refused the message (other 4xx). */
  | { kind: 'refused'; reason: string };

export interface PushSenderOptions {
  keys: VapidKeyPair;
  /** VAPID `sub` claim: the operator's contact, an https: URL or a mailto: address (RFC 8292 §2.1). */
  subject: string;
  policy: OutboundPolicy;
  /** How long a push service keeps an undelivered message, seconds (the `TTL` header). */
  ttlSeconds: number;
  /** Milliseconds for one push service's answer. */
  timeoutMs: number;
}

/**
 * Sends Web Push messages: the payload encrypted for the browser (RFC 8291, `aes128gcm`) and the
 * request signed with the installation's VAPID key (RFC 8292), both by the `web-push` package. The
 * request itself goes through the outbound guard, so an endpoint inside the network is never called
 * (SECURITY.md 27) and a DNS answer changed since the subscription was saved cannot reach inside.
 */
export class PushSender {
  constructor(private readonly options: PushSenderOptions) {}

  async send(subscription: PushSubscriptionsTable, notice: PushNotice): Promise<PushOutcome> {
    const { keys, subject, policy, ttlSeconds, timeoutMs } = this.options;
    const details = webPush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      JSON.stringify(notice),
      {
        vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        contentEncoding: 'aes128gcm',
        TTL: ttlSeconds,
        urgency: 'high',
        // One per alarm: a later message with the same topic replaces one not yet delivered.
        topic: notice.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
      },
    );
    try {
      const answer = await sendOutbound({
        url: details.endpoint,
        method: 'POST',
        headers: details.headers as Record<string, string>,
        body: details.body,
        timeoutMs,
        policy,
      });
      if (answer.status >= 200 && answer.status < 300) return { kind: 'sent' };
      if (answer.status === 404 || answer.status === 410) return { kind: 'gone' };
      const reason = `The push service answered ${answer.status}: ${answer.excerpt.slice(0, 200)}`;
      if (answer.status === 429 || answer.status >= 500) return { kind: 'retry', reason };
      return { kind: 'refused', reason };
    } catch (error) {
      if (error instanceof OutboundRefusedError) return { kind: 'refused', reason: error.message };
      return { kind: 'retry', reason: error instanceof Error ? error.message : String(error) };
    }
  }
}

/** A fresh VAPID key pair (made once per installation, security/installation.ts). */
export function generateVapidKeys() {
  return webPush.generateVAPIDKeys();
}
