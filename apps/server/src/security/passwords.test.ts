import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config';
import { hashPassword, PasswordGate, PasswordQueueFull, scryptParams, verifyPassword } from './passwords';

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

describe('the scrypt cost of new hashes', () => {
  it.each([
    { env: {}, n: 2 ** 17 },
    { env: { NODE_ENV: 'production' }, n: 2 ** 17 },
    { env: { NODE_ENV: 'test', FIELDLINK_TEST_SCRYPT_N: '' }, n: 2 ** 17 },
    { env: { NODE_ENV: 'test', FIELDLINK_TEST_SCRYPT_N: '1024' }, n: 1024 },
    { env: { NODE_ENV: 'test', FIELDLINK_TEST_SCRYPT_N: String(2 ** 17) }, n: 2 ** 17 },
  ])('is N = $n with $env', ({ env, n }) => {
    expect(scryptParams(env)).toEqual({ N: n, r: 8, p: 1 });
  });

  it.each([
    { env: { FIELDLINK_TEST_SCRYPT_N: '1024' }, message: /for test runs only/ },
    { env: { NODE_ENV: 'production', FIELDLINK_TEST_SCRYPT_N: '1024' }, message: /for test runs only/ },
    { env: { NODE_ENV: 'test', FIELDLINK_TEST_SCRYPT_N: '512' }, message: /power of two from 1024 to 131072/ },
    { env: { NODE_ENV: 'test', FIELDLINK_TEST_SCRYPT_N: '1000' }, message: /power of two/ },
    { env: { NODE_ENV: 'test', FIELDLINK_TEST_SCRYPT_N: String(2 ** 18) }, message: /power of two/ },
    { env: { NODE_ENV: 'test', FIELDLINK_TEST_SCRYPT_N: 'cheap' }, message: /power of two/ },
  ])('refuses $env, and so does the server at start', ({ env, message }) => {
    expect(() => scryptParams(env)).toThrow(message);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('hashes at the test cost when asked, and the hash checks at the cost it carries', async () => {
    vi.stubEnv('FIELDLINK_TEST_SCRYPT_N', '1024');
    try {
      const cheap = await hashPassword('a password');
      expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
      vi.stubEnv('FIELDLINK_TEST_SCRYPT_N', '');
      // The product's cost for new hashes; the cheap one still checks (its N is in the hash).
      expect(await hashPassword('a password')).toMatch(/^scrypt\$131072\$8\$1\$/);
      expect(await verifyPassword('a password', cheap)).toBe(true);
      expect(await verifyPassword('another', cheap)).toBe(false);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
