import { describe, expect, it } from 'vitest';
import { MIN_REST_MS, PaceStopped, WorkPace, restFor } from './work-pace';

describe('restFor', () => {
  it.each([
    // work ms, share, rest ms: work / (work + rest) = share
    [10, 0.2, 40],
    [10, 0.5, 10],
    [3, 0.25, 9],
    [0, 0.2, 0],
    [10, 1, 0],
    [10, 1.5, 0],
    [-5, 0.2, 0],
  ])('after %d ms of work at a share of %d, rests %d ms', (work, share, rest) => {
    expect(restFor(work, share)).toBeCloseTo(rest, 9);
  });

  it.each([0, -0.1, Number.NaN])('refuses a share of %d', (share) => {
    expect(() => restFor(1, share)).toThrow(/positive/);
  });
});

/** A pace on a clock the test moves: work advances it, and so does each rest, by `oversleep` more. */
function fakePace(share: number, oversleep = 0) {
  let now = 0;
  const rests: number[] = [];
  const pace = new WorkPace(share, {
    clock: () => now,
    sleep: (ms) => {
      rests.push(ms);
      now += ms + oversleep;
      return Promise.resolve();
    },
  });
  return { pace, rests, work: (ms: number) => (now += ms) };
}

describe('WorkPace', () => {
  it('rests after each slice in proportion to its time, so work keeps its share', async () => {
    const { pace, rests, work } = fakePace(0.2);
    for (const ms of [10, 30, 5]) {
      work(ms);
      await pace.pause();
    }
    expect(rests).toEqual([40, 120, 20]);
    expect(pace.stats).toEqual({ slices: 3, workMs: 45, restMs: 180, longestSliceMs: 30 });
    expect(pace.stats.workMs / (pace.stats.workMs + pace.stats.restMs)).toBeCloseTo(0.2, 9);
  });

  it('adds up rests too short for a timer and takes them once they reach the least rest', async () => {
    const { pace, rests, work } = fakePace(0.5);
    for (let i = 0; i < 3; i += 1) {
      work(MIN_REST_MS / 2 - 0.5);
      await pace.pause();
    }
    // Each slice owes a little under half the least rest: the third brings the debt past it.
    expect(rests).toEqual([3 * (MIN_REST_MS / 2 - 0.5)]);
    expect(pace.stats.restMs).toBe(pace.stats.workMs);
  });

  it('credits no rest longer than owed (a late timer), so the share stays a bound', async () => {
    const { pace, rests, work } = fakePace(0.5, 50);
    work(10);
    await pace.pause();
    work(10);
    await pace.pause();
    expect(rests).toEqual([10, 10]);
    expect(pace.stats.restMs).toBe(120);
  });

  it('counts the time a slice waits as its work, so a busier machine gets longer rests', async () => {
    const { pace, rests, work } = fakePace(0.25);
    work(2);
    await pace.pause();
    work(20); // the same slice, waiting 18 ms for a lock
    await pace.pause();
    expect(rests).toEqual([6, 60]);
  });

  it('counts the wait before the next slice (a turn of a shared queue) as neither work nor rest', async () => {
    const { pace, rests, work } = fakePace(0.5);
    work(10);
    await pace.pause(() => Promise.resolve(void work(500)));
    work(4);
    await pace.pause();
    expect(rests).toEqual([10, 4]);
    expect(pace.stats).toMatchObject({ slices: 2, workMs: 14, restMs: 14, longestSliceMs: 10 });
  });

  it('stops after a wait before the next slice if told to meanwhile', async () => {
    const { pace, work } = fakePace(0.5);
    work(10);
    await expect(pace.pause(() => Promise.resolve(pace.stop()))).rejects.toBeInstanceOf(PaceStopped);
  });

  it('stops at the next pause, ending a rest under way', async () => {
    // The real rest on a clock the test moves: a 36 s slice at 1 % owes a rest of about an hour, which
    // only the stop can end within the test's time (no busy loop, no timer, no wall-clock bound).
    let now = 0;
    const pace = new WorkPace(0.01, { clock: () => now });
    now += 36_000;
    const resting = pace.pause();
    pace.stop();
    await expect(resting).rejects.toBeInstanceOf(PaceStopped);
    expect(pace.stats.restMs).toBe(0);
    await expect(pace.pause()).rejects.toBeInstanceOf(PaceStopped);
  });
});
