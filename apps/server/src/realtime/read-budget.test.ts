import { describe, expect, it } from 'vitest';
import { ReadBudget } from './read-budget';

describe('a connection’s read budget', () => {
  it.each([
    { name: 'within the burst', taken: 10, elapsedMs: 0, wait: 0 },
    { name: 'the last message of the burst', taken: 10, elapsedMs: 0, wait: 0, burst: 10 },
    { name: 'one past the burst: the time for one message', taken: 11, elapsedMs: 0, wait: 100, burst: 10 },
    { name: 'five past the burst', taken: 15, elapsedMs: 0, wait: 500, burst: 10 },
    { name: 'past the burst, a second later: the rate refilled it', taken: 15, elapsedMs: 1000, wait: 0, burst: 10 },
  ])('$name', ({ taken, elapsedMs, wait, burst = 100 }) => {
    let now = 1_000_000;
    const budget = new ReadBudget(10, burst, () => now);
    let last = 0;
    for (let i = 0; i < taken - 1; i += 1) budget.take();
    now += elapsedMs;
    last = budget.take();
    expect(last).toBe(wait);
  });

  it('never keeps more than the burst, however long the connection was quiet', () => {
    let now = 0;
    const budget = new ReadBudget(10, 5, () => now);
    now += 3_600_000;
    const waits = Array.from({ length: 6 }, () => budget.take());
    expect(waits).toEqual([0, 0, 0, 0, 0, 100]);
  });

  it('counts the messages taken while paused in the wait, and refills with time', () => {
    let now = 0;
    const budget = new ReadBudget(10, 2, () => now);
    expect([budget.take(), budget.take(), budget.take()]).toEqual([0, 0, 100]);
    // Read after the pause began: the wait grows with each.
    expect([budget.take(), budget.take()]).toEqual([200, 300]);
    now += 100;
    expect(budget.waitMs()).toBe(200);
    now += 200;
    expect(budget.waitMs()).toBe(0);
  });
});
