import { describe, expect, it } from 'vitest';
import {
  isDeliveredStatus,
  webhookBody,
  webhookRetryAt,
  WEBHOOK_RETRY_WINDOW_MS,
  type WebhookEventBody,
} from './webhooks';

const HOUR = 3_600_000;

describe('webhookRetryAt', () => {
  it.each([
    { attempt: 1, failedAt: 0, next: 10_000 },
    { attempt: 2, failedAt: 10_000, next: 30_000 },
    { attempt: 3, failedAt: 30_000, next: 70_000 },
    { attempt: 9, failedAt: 0, next: 2_560_000 },
    { attempt: 10, failedAt: 0, next: HOUR },
    { attempt: 30, failedAt: 5 * HOUR, next: 6 * HOUR },
    { attempt: 30, failedAt: 23 * HOUR, next: 24 * HOUR },
    { attempt: 30, failedAt: 23 * HOUR + 1, next: null },
    { attempt: 1, failedAt: WEBHOOK_RETRY_WINDOW_MS, next: null },
  ])('after attempt $attempt failed at $failedAt: $next', ({ attempt, failedAt, next }) => {
    expect(webhookRetryAt(0, attempt, failedAt)).toBe(next);
  });

  it('tries for 24 hours, with about 30 attempts', () => {
    let at = 0;
    let attempts = 1;
    for (let next = webhookRetryAt(0, attempts, at); next !== null; next = webhookRetryAt(0, attempts, at)) {
      at = next;
      attempts += 1;
    }
    expect(at).toBeLessThanOrEqual(WEBHOOK_RETRY_WINDOW_MS);
    expect(at).toBeGreaterThan(WEBHOOK_RETRY_WINDOW_MS - HOUR);
    expect(attempts).toBe(32);
  });
});

describe('isDeliveredStatus', () => {
  it.each([
    [200, true],
    [204, true],
    [299, true],
    [199, false],
    [301, false],
    [302, false],
    [404, false],
    [500, false],
    [0, false],
  ])('%s: %s', (status, delivered) => {
    expect(isDeliveredStatus(status)).toBe(delivered);
  });
});

describe('webhookBody', () => {
  const event: WebhookEventBody = {
    id: 'ev1',
    type: 'alarm.raised',
    time: '2026-11-29T18:00:00.000Z',
    accountId: 'acc1',
    summary: 'Tank <!channel> & co: Temperature above 80',
    data: { alarmId: 'a1' },
  };

  it('carries the event itself in the JSON format', () => {
    expect(webhookBody('json', event, 'https://console.example')).toBe(event);
  });

  it('gives Slack escaped text, so a device name cannot mention anyone', () => {
    const body = webhookBody('slack', event, 'https://console.example') as { text: string; blocks: unknown[] };
    expect(body.text).toBe('Alarm raised: Tank &lt;!channel&gt; &amp; co: Temperature above 80');
    expect(JSON.stringify(body.blocks)).not.toContain('<!channel>');
    expect(JSON.stringify(body.blocks)).toContain('<https://console.example|Fieldlink>');
  });

  it('gives Teams a MessageCard with the summary and a link to the console', () => {
    expect(webhookBody('teams', event, 'https://console.example')).toMatchObject({
      '@type': 'MessageCard',
      title: 'Alarm raised',
      text: event.summary,
      themeColor: 'D13438',
      potentialAction: [{ targets: [{ uri: 'https://console.example' }] }],
    });
  });
});
