import { describe, expect, it } from 'vitest';
import { PasswordGate, PasswordQueueFull } from './passwords';

/** Runs tasks through a one-at-a-time gate and records the order in which they start. */
function harness() {
  const gate = new PasswordGate(1);
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const submit = (source: string, name: string) =>
    gate.run(source, () => {
      started.push(name);
      return new Promise<void>((resolve) => finishers.set(name, resolve));
    });
  const finish = async (name: string) => {
    finishers.get(name)!();
    // Let the gate release and the next task start.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { submit, finish, started };
}

describe('the password gate', () => {
  it('lets a newly waiting source in before more of a source that is running already', async () => {
    const { submit, finish, started } = harness();
    const runs = [submit('burst', 'burst-1'), submit('burst', 'burst-2'), submit('burst', 'burst-3')];
    runs.push(submit('real', 'real-1'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['burst-1']);
    await finish('burst-1');
    // Before: the burst's second hash ran first (both sources counted as "not served yet").
    expect(started).toEqual(['burst-1', 'real-1']);
    await finish('real-1');
    await finish('burst-2');
    await finish('burst-3');
    await Promise.all(runs);
    expect(started).toEqual(['burst-1', 'real-1', 'burst-2', 'burst-3']);
  });

  it.each([
    {
      name: 'alternates between two busy sources',
      arrivals: ['a', 'a', 'a', 'b', 'b'],
      order: ['a-0', 'b-3', 'a-1', 'b-4', 'a-2'],
    },
    {
      name: 'serves three sources in turn, the one served longest ago first',
      arrivals: ['a', 'a', 'b', 'b', 'c'],
      order: ['a-0', 'b-2', 'c-4', 'a-1', 'b-3'],
    },
  ])('$name', async ({ arrivals, order }) => {
    const { submit, finish, started } = harness();
    const runs = arrivals.map((source, i) => submit(source, `${source}-${i}`));
    await new Promise((resolve) => setImmediate(resolve));
    for (const name of order) {
      expect(started.at(-1)).toBe(name);
      await finish(name);
    }
    await Promise.all(runs);
    expect(started).toEqual(order);
  });

  it('refuses a source with four runs waiting, without running it', async () => {
    const { submit, finish, started } = harness();
    const runs = Array.from({ length: 5 }, (_, i) => submit('a', `a-${i}`));
    const refused = submit('a', 'a-5');
    await expect(refused).rejects.toBeInstanceOf(PasswordQueueFull);
    for (let i = 0; i < 5; i += 1) await finish(`a-${i}`);
    await Promise.all(runs);
    expect(started).toHaveLength(5);
  });
});
