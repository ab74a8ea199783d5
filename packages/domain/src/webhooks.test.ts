import { describe, expect, it } from 'vitest';
import {
  isDeliveredStatus,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_FORMAT_LABELS,
  WEBHOOK_TEST_EVENT,
  webhookBody,
  webhookRetryAt,
  WEBHOOK_RETRY_WINDOW_MS,
  type WebhookDeliveredEvent,
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
    [300, false],
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
      sections: [{ facts: [{ name: 'Time', value: event.time }] }],
    });
  });

  it.each<[WebhookDeliveredEvent, string]>([
    ['alarm.raised', 'D13438'],
    ['ota.failed', 'D13438'],
    ['alarm.cleared', '0078D4'],
    ['ota.finished', '0078D4'],
    ['report.ready', '0078D4'],
  ])('colours a Teams card of %s %s', (type, colour) => {
    expect(webhookBody('teams', { ...event, type }, 'https://console.example')).toMatchObject({ themeColor: colour });
  });

  it.each([
    [2985, false],
    [2986, true],
  ])('cuts a Slack section of a %i-character summary at 3,000 characters: %s', (length, cut) => {
    const summary = 'x'.repeat(length);
    const body = webhookBody('slack', { ...event, summary }, 'https://console.example') as {
      blocks: { text?: { text: string } }[];
    };
    const text = body.blocks[0]!.text!.text;
    expect(text).toBe(cut ? `*Alarm raised*\n${summary.slice(0, 2984)}…` : `*Alarm raised*\n${summary}`);
    expect(text.length).toBeLessThanOrEqual(3000);
  });

  it.each([
    ['event', Object.values(WEBHOOK_EVENT_LABELS), WEBHOOK_EVENTS.length + 1],
    ['format', Object.values(WEBHOOK_FORMAT_LABELS), 3],
  ])('gives each %s a name of its own, as a person reads it', (_, labels, count) => {
    expect(new Set(labels).size).toBe(count);
    for (const label of labels) expect(label).toMatch(/^[A-Z][^\n]{2,}$/);
  });
});

/**
 * The bodies as the services document them. Slack incoming webhooks (docs.slack.dev, "Sending
 * messages using incoming webhooks" and the Block Kit reference): a JSON object with `text` (the
 * notification's words, and what is shown where blocks are not) and up to 50 `blocks`; a section's
 * text object is `mrkdwn` or `plain_text` of at most 3,000 characters; a context block holds 1 to 10
 * elements. Teams incoming webhooks (Microsoft's "Legacy actionable message card reference"): an
 * object of `@type` `MessageCard` with the `@context` `https://schema.org/extensions`, a `summary`
 * or `text` (Teams refuses a card with neither), `themeColor` as six hex digits without `#`,
 * sections with `facts` of `name` and `value`, and `OpenUri` actions whose targets name an `os` and
 * a `uri`.
 */
describe('webhookBody against the services’ documented formats', () => {
  const LONG = 'x'.repeat(5000);
  const types: WebhookDeliveredEvent[] = [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT];
  const events = types.flatMap((type) =>
    ['Tank 3: Temperature above 80', LONG].map((summary): WebhookEventBody => ({
      id: `ev-${type}`,
      type,
      time: '2026-11-29T18:00:00.000Z',
      accountId: 'acc1',
      summary,
      data: {},
    })),
  );
  const textObject = (value: unknown) => {
    const object = value as { type: string; text: string };
    expect(['mrkdwn', 'plain_text']).toContain(object.type);
    expect(typeof object.text).toBe('string');
    expect(object.text.length).toBeGreaterThan(0);
  };

  it.each(events.map((event) => [event.type, event.summary.length, event] as const))(
    'Slack: %s (%i characters) is an incoming-webhook message with text and valid blocks',
    (_type, _length, event) => {
      const body = webhookBody('slack', event, 'https://console.example') as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['blocks', 'text']);
      expect(typeof body.text).toBe('string');
      const blocks = body.blocks as { type: string; text?: { text: string }; elements?: unknown[] }[];
      expect(blocks.length).toBeGreaterThan(0);
      expect(blocks.length).toBeLessThanOrEqual(50);
      for (const block of blocks) {
        expect(['section', 'context']).toContain(block.type);
        if (block.type === 'section') {
          textObject(block.text);
          expect(block.text!.text.length).toBeLessThanOrEqual(3000);
        } else {
          expect(block.elements!.length).toBeGreaterThanOrEqual(1);
          expect(block.elements!.length).toBeLessThanOrEqual(10);
          block.elements!.forEach(textObject);
        }
      }
    },
  );

  it.each(events.map((event) => [event.type, event.summary.length, event] as const))(
    'Teams: %s (%i characters) is a MessageCard Teams accepts',
    (_type, _length, event) => {
      const card = webhookBody('teams', event, 'https://console.example') as Record<string, unknown>;
      expect(card['@type']).toBe('MessageCard');
      expect(card['@context']).toBe('https://schema.org/extensions');
      expect(typeof card.summary === 'string' && card.summary.length > 0).toBe(true);
      expect(card.themeColor).toMatch(/^[0-9A-F]{6}$/i);
      for (const section of card.sections as { facts: { name: unknown; value: unknown }[] }[]) {
        for (const fact of section.facts) {
          expect(typeof fact.name).toBe('string');
          expect(typeof fact.value).toBe('string');
        }
      }
      for (const action of card.potentialAction as { '@type': string; name: string; targets: unknown[] }[]) {
        expect(action['@type']).toBe('OpenUri');
        expect(action.name.length).toBeGreaterThan(0);
        expect(action.targets).toEqual([{ os: 'default', uri: 'https://console.example' }]);
      }
    },
  );
});
