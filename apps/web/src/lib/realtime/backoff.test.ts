import { describe, expect, it } from 'vitest';
import { reconnectDelay, RECONNECT_BASE_MS, RECONNECT_MAX_MS } from './backoff';

describe('reconnectDelay', () => {
  it.each([
    { attempt: 1, low: 500, high: 1000 },
    { attempt: 2, low: 1000, high: 2000 },
    { attempt: 3, low: 2000, high: 4000 },
    { attempt: 5, low: 8000, high: 16_000 },
    { attempt: 6, low: 15_000, high: 30_000 },
    { attempt: 50, low: 15_000, high: 30_000 },
  ])('attempt $attempt lies in [$low, $high]', ({ attempt, low, high }) => {
    expect(reconnectDelay(attempt, () => 0)).toBe(low);
    expect(reconnectDelay(attempt, () => 1)).toBe(high);
    const random = reconnectDelay(attempt);
    expect(random).toBeGreaterThanOrEqual(low);
    expect(random).toBeLessThanOrEqual(high);
  });

  it('never exceeds the cap', () => {
    for (let attempt = 1; attempt < 100; attempt++) {
      expect(reconnectDelay(attempt, () => 1)).toBeLessThanOrEqual(RECONNECT_MAX_MS);
    }
    expect(reconnectDelay(1, () => 1)).toBe(RECONNECT_BASE_MS);
  });
});
