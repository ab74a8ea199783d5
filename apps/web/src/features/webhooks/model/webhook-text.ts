import type { WebhookDelivery } from '@fieldlink/api/webhooks';

/** A webhook URL the form accepts: http or https with a host (the server then checks where it leads). */
export function webhookUrlProblem(url: string): string | null {
  const trimmed = url.trim();
  if (trimmed === '') return 'Enter the receiver’s URL.';
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return 'Enter a full URL, starting with https://.';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return 'The URL must start with https:// or http://.';
  return null;
}

/** What a delivery's last attempt got, as the deliveries table shows it: `204`, `500: Bad gateway`, or why none. */
export function deliveryOutcome(delivery: WebhookDelivery): string {
  if (delivery.attempts === 0) return 'Not tried yet';
  if (delivery.status !== null)
    return delivery.detail ? `${delivery.status}: ${delivery.detail}` : String(delivery.status);
  return delivery.detail ?? 'No answer';
}

/** How a delivery stands, in words. */
export const DELIVERY_STATE_LABELS: Readonly<Record<WebhookDelivery['state'], string>> = {
  pending: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
};
