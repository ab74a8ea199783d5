import { describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '@fieldlink/api/webhooks';
import { deliveryOutcome, webhookUrlProblem } from './webhook-text';

describe('webhookUrlProblem', () => {
  it.each([
    ['https://hooks.slack.com/services/T0/B0/x', null],
    ['http://10.0.0.5:8080/hook', null],
    ['  https://example.com/hook  ', null],
    ['', 'Enter the receiver’s URL.'],
    ['hooks.slack.com/services', 'Enter a full URL, starting with https://.'],
    ['ftp://example.com/hook', 'The URL must start with https:// or http://.'],
    ['javascript:alert(1)', 'The URL must start with https:// or http://.'],
  ])('%j: %j', (url, problem) => {
    expect(webhookUrlProblem(url)).toBe(problem);
  });
});

describe('deliveryOutcome', () => {
  const base: WebhookDelivery = {
    id: 'd1',
    webhookId: 'w1',
    eventId: 'e1',
    event: 'alarm.raised',
    at: 0,
    state: 'delivered',
    attempts: 1,
    lastAttemptAt: 0,
    status: 204,
    responseMs: 12,
    detail: null,
    nextAttemptAt: null,
  };
  it.each([
    [{}, '204'],
    [{ state: 'pending', status: 500, detail: 'Bad gateway' }, '500: Bad gateway'],
    [
      { state: 'pending', status: null, detail: 'connect ECONNREFUSED 127.0.0.1:9' },
      'connect ECONNREFUSED 127.0.0.1:9',
    ],
    [{ state: 'failed', status: null, detail: null }, 'No answer'],
    [{ state: 'pending', attempts: 0, status: null }, 'Not tried yet'],
  ] as const)('%j: %s', (change, text) => {
    expect(deliveryOutcome({ ...base, ...change })).toBe(text);
  });
});
