import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import durations from './e2e-durations.json' with { type: 'json' };
import { expectedCosts, planOrder } from './e2e-order';

/** Files named by letter, each with its cost. */
const costed = (costs: Record<string, number>) => Object.entries(costs).map(([file, cost]) => ({ file, cost }));

describe('planOrder', () => {
  it.each<{ rule: string; lanes: number; costs: Record<string, number>; order: string[] }>([
    { rule: 'one lane: longest first', lanes: 1, costs: { a: 1, b: 3, c: 2 }, order: ['b', 'c', 'a'] },
    {
      // Vitest's own order (longest first) starts a and b together.
      rule: 'the two heavy files one after the other, each beside light ones',
      lanes: 2,
      costs: { a: 5, b: 5, c: 3, d: 3, e: 3, f: 3 },
      order: ['a', 'c', 'd', 'b', 'e', 'f'],
    },
    {
      rule: 'one file heavier than the rest together: it alone is heavy, the others longest first beside it',
      lanes: 2,
      costs: { a: 1, b: 10, c: 2, d: 3 },
      order: ['b', 'd', 'c', 'a'],
    },
    { rule: 'equal costs keep the order given', lanes: 1, costs: { a: 1, b: 1, c: 2 }, order: ['c', 'a', 'b'] },
    {
      rule: 'three lanes: the heavy ones in one lane, the light ones in the other two',
      lanes: 3,
      costs: { a: 4, b: 4, c: 2, d: 2, e: 2, f: 2, g: 2, h: 2, i: 2, j: 2 },
      order: ['a', 'c', 'd', 'e', 'f', 'b', 'g', 'h', 'i', 'j'],
    },
    { rule: 'no files', lanes: 2, costs: {}, order: [] },
  ])('$rule', ({ lanes, costs, order }) => {
    expect(planOrder(costed(costs), lanes)).toEqual(order);
  });

  it('never plans two heavy files side by side in the last full run (seconds from its results cache)', () => {
    // e2e durations of the full run of 1 December 05:03 UTC, rounded.
    const costs = {
      accessibility: 192,
      variants: 148,
      'ota-banner': 89,
      'console-ux': 88,
      demo: 65,
      devices: 58,
      scenes: 51,
      'web-push': 32,
      'brew-controller': 29,
      accounts: 27,
      brew: 26,
      'device-table': 26,
      'first-day': 25,
      spray: 23,
      hardening: 21,
      'start-up': 20,
      'entry-forgives': 20,
      'select-before-operate': 20,
      inventory: 19,
      'second-factor': 18,
      foundation: 18,
      'monitor-only': 16,
      'device-settings': 16,
      keyboard: 16,
      reports: 15,
      'plant-dashboards': 14,
      'tree-keyboard-touch': 14,
      passkeys: 13,
      'one-clock': 13,
      alarms: 12,
      'audit-log': 8,
      'plant-status': 8,
    } as const;
    const order = planOrder(costed(costs), 2);
    // The heavy four (516 s) fit one lane's share (580 s); demo (65 s) would not.
    expect(order.slice(0, 2)).toEqual(['accessibility', 'demo']);
    expect([...order].sort()).toEqual(Object.keys(costs).sort());
    // Replay the plan on two workers, each file to the first one free, and see who runs beside whom.
    const heavy = new Set(['accessibility', 'variants', 'ota-banner', 'console-ux']);
    const workers = [
      { freeAt: 0, runs: [] as { file: string; from: number; to: number }[] },
      { freeAt: 0, runs: [] as { file: string; from: number; to: number }[] },
    ];
    for (const file of order) {
      const worker = workers[0]!.freeAt <= workers[1]!.freeAt ? workers[0]! : workers[1]!;
      const cost = costs[file as keyof typeof costs];
      worker.runs.push({ file, from: worker.freeAt, to: worker.freeAt + cost });
      worker.freeAt += cost;
    }
    const [first, second] = workers.map((worker) => worker.runs.filter((run) => heavy.has(run.file)));
    const overlapping = first!.flatMap((a) =>
      second!.filter((b) => a.from < b.to && b.from < a.to).map((b) => `${a.file} and ${b.file}`),
    );
    expect(overlapping).toEqual([]);
    expect(workers.flatMap((worker) => worker.runs.filter((run) => heavy.has(run.file))).length).toBe(heavy.size);
  });
});

describe('expectedCosts', () => {
  it.each([
    {
      rule: 'durations where every file has one',
      known: { a: { duration: 30, size: 100 }, b: { duration: 10, size: 900 } },
      costs: [30, 10],
    },
    {
      // 40 s over 1,000 bytes measured: 0.04 s a byte.
      rule: 'a file without a duration: its size at the measured files’ seconds per byte',
      known: { a: { duration: 30, size: 100 }, b: { duration: 10, size: 900 }, c: { size: 500 } },
      costs: [30, 10, 20],
    },
    {
      rule: 'no duration known: sizes',
      known: { a: { size: 100 }, b: { size: 900 } },
      costs: [100, 900],
    },
    {
      rule: 'a zero duration (a file that did not run) counts as unknown',
      known: { a: { duration: 0, size: 100 }, b: { duration: 10, size: 50 } },
      costs: [20, 10],
    },
  ])('$rule', ({ known, costs }) => {
    const files = Object.keys(known) as (keyof typeof known)[];
    const expected = expectedCosts(files, (file) => known[file] as { duration?: number; size?: number });
    expect(expected.map((entry) => entry.cost)).toEqual(costs);
  });
});

describe('e2e-durations.json', () => {
  it('has a duration for every e2e file and for no other (`npm run e2e:durations` after a full run)', () => {
    const files = readdirSync('e2e/src').filter((name) => name.endsWith('.test.ts'));
    expect(Object.keys(durations).sort()).toEqual(files.sort());
  });
});
