import { describe, expect, it } from 'vitest';
import { pendingLimitMessage, pendingRetryAfterSeconds, type PendingLimit } from './realtime-limits';

describe('pendingRetryAfterSeconds', () => {
  it.each([
    ['the oldest just started', 1000, 10_000, 1000, 10],
    ['half its time gone', 0, 10_000, 5000, 5],
    ['a part second left rounds up', 0, 10_000, 9001, 1],
    ['its time already up', 0, 10_000, 12_000, 1],
  ])('%s', (_name, oldest, timeout, now, seconds) => {
    expect(pendingRetryAfterSeconds(oldest, timeout, now)).toBe(seconds);
  });
});

describe('pendingLimitMessage', () => {
  it.each<[PendingLimit, number, string]>([
    [
      { scope: 'socket' },
      7,
      'Too many requests are waiting for an answer on this connection (at most 16). Please wait 7 seconds before trying again.',
    ],
    [
      { scope: 'user' },
      1,
      'You have too many commands waiting for an answer (at most 32). Please wait 1 second before trying again.',
    ],
    [
      { scope: 'device', thingName: 'ACME-BLR01' },
      10,
      'Too many commands are waiting for an answer from ACME-BLR01 (at most 16). Please wait 10 seconds before trying again.',
    ],
  ])('%j', (limit, seconds, message) => {
    expect(pendingLimitMessage(limit, seconds)).toBe(message);
  });
});
