/**
 * Webhooks' rules (issue 39 item 3): which events exist and how people read them, the formats a
 * delivery can take (Fieldlink's own JSON, Slack and Microsoft Teams incoming webhooks), the body of
 * each, and when a failed delivery is tried again. The server signs and sends; the console offers
 * the events and formats; both read these.
 */

/** Every event a webhook can receive, by area. `webhook.test` is only ever sent by the test call. */
export const WEBHOOK_EVENTS = [
  'alarm.raised',
  'alarm.acknowledged',
  'alarm.cleared',
  'device.disconnected',
  'device.connected',
  'ota.finished',
  'ota.failed',
  'report.ready',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The event the test call sends; no webhook subscribes to it, every webhook can be sent it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export type WebhookDeliveredEvent = WebhookEvent | typeof WEBHOOK_TEST_EVENT;

/** Each event as people read it: the console's check boxes and the deliveries table. */
export const WEBHOOK_EVENT_LABELS: Readonly<Record<WebhookDeliveredEvent, string>> = {
  'alarm.raised': 'Alarm raised',
  'alarm.acknowledged': 'Alarm acknowledged',
  'alarm.cleared': 'Alarm cleared',
  'device.disconnected': 'Device disconnected (after the disconnection alert’s delay)',
  'device.connected': 'Device connected again after a disconnection alert',
  'ota.finished': 'Update finished',
  'ota.failed': 'Update failed',
  'report.ready': 'Report ready',
  'webhook.test': 'Test',
};

/** What a delivery's body looks like: Fieldlink's JSON, or a message for a chat's incoming webhook. */
export const WEBHOOK_FORMATS = ['json', 'slack', 'teams'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** Each format as the console offers it. */
export const WEBHOOK_FORMAT_LABELS: Readonly<Record<WebhookFormat, string>> = {
  json: 'Fieldlink JSON',
  slack: 'Slack incoming webhook',
  teams: 'Microsoft Teams incoming webhook',
};

/** Webhooks one account may have. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;

/** Milliseconds a receiver has to answer, connection to last byte. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** A failed delivery is tried again for this long after its event. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 3_600_000;

/** Deliveries kept per webhook for the console (the newest). */
export const WEBHOOK_DELIVERIES_KEPT = 100;

/**
 * When attempt `attempt + 1` of an event from `eventAt` runs after attempt `attempt` failed at
 * `failedAt`: 10 s after the first, doubling up to an hour, while that stays within
 * {@link WEBHOOK_RETRY_WINDOW_MS} of the event; null: give up.
 */
export function webhookRetryAt(eventAt: number, attempt: number, failedAt: number): number | null {
  const delay = Math.min(10_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
  const at = failedAt + delay;
  return at <= eventAt + WEBHOOK_RETRY_WINDOW_MS ? at : null;
}

/** An answer's status that counts as delivered: 2xx only (a redirect is not followed, so it failed). */
export function isDeliveredStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/** One event as Fieldlink's JSON format carries it; `id` and `time` let a receiver drop repeats. */
export interface WebhookEventBody {
  /** The event's id: the same on every attempt to deliver it. */
  id: string;
  type: WebhookDeliveredEvent;
  /** ISO 8601, UTC. */
  time: string;
  accountId: string;
  /** A line a person reads: what happened, to what. */
  summary: string;
  data: Record<string, unknown>;
}

/**
 * The body sent to a receiver of `format` for one event. JSON carries the event itself; Slack gets
 * `text` (and a block with the same words); Teams gets a MessageCard, which its incoming webhooks
 * (and Power Automate's "post to a channel when a webhook request is received") accept.
 */
export function webhookBody(format: WebhookFormat, event: WebhookEventBody, consoleUrl: string): unknown {
  const label = WEBHOOK_EVENT_LABELS[event.type];
  const line = `${label}: ${event.summary}`;
  if (format === 'slack') {
    return {
      text: escapeSlack(line),
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: clip(`*${escapeSlack(label)}*\n${escapeSlack(event.summary)}`, SLACK_SECTION_TEXT_MAX),
          },
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: `${event.time} · <${consoleUrl}|Fieldlink>` }] },
      ],
    };
  }
  if (format === 'teams') {
    return {
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: line,
      themeColor: event.type === 'alarm.raised' || event.type.endsWith('failed') ? 'D13438' : '0078D4',
      title: label,
      text: event.summary,
      sections: [{ facts: [{ name: 'Time', value: event.time }] }],
      potentialAction: [{ '@type': 'OpenUri', name: 'Open Fieldlink', targets: [{ os: 'default', uri: consoleUrl }] }],
    };
  }
  return event;
}

/** Slack refuses a section block whose text is longer than this (Block Kit reference). */
const SLACK_SECTION_TEXT_MAX = 3000;

/** `text` cut to `max` characters, the cut marked with an ellipsis. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Slack reads `&`, `<` and `>` as markup: a device named `<!channel>` must not ping anyone. */
function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
