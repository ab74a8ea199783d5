import { availableParallelism } from 'node:os';
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** OWASP's scrypt floor: N = 2^17, r = 8, p = 1 (about 128 MiB and a few hundred ms per hash). */
const PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
/** The lowest N a test run may ask for: 1 MiB per hash. */
const TEST_MIN_N = 2 ** 10;
const KEY_LENGTH = 32;

/**
 * Password work (a hash and what leads to it) runs at most this many at once, a core left to the
 * event loop, and never more than half of libuv's thread pool, which file and DNS work need too.
 */
const MAX_RUNNING = Math.max(1, Math.min(2, availableParallelism() - 1));
/** Runs one source (a caller's address) may have waiting; past it the call is refused at once. */
const MAX_WAITING_PER_SOURCE = 4;

/** A source already has as many password checks waiting as it may: answer 429 without hashing. */
export class PasswordQueueFull extends Error {
  constructor() {
    super('Too many password checks waiting for this source.');
  }
}

/**
 * Admits the password work of callers' requests: at most {@link MAX_RUNNING} at once. Of the sources
 * (callers' addresses) with work waiting, the one served longest ago goes next, a source not served
 * while it waited (or running nothing when it began to wait) before any other: one address sending a
 * hundred sign-ins at once delays another's by about the hash running now. A source with
 * {@link MAX_WAITING_PER_SOURCE} waiting is refused before anything is looked up.
 */
export class PasswordGate {
  private running = 0;
  private served = 0;
  /** Sources with work running: how many, and when the latest of them was let in. */
  private readonly active = new Map<string, { count: number; lastServed: number }>();
  /** Waiting runs per source, in arrival order, with when the source was last served (0: not yet). */
  private readonly waiting = new Map<string, { starts: Array<() => void>; lastServed: number }>();

  /** @param maxRunning runs let in at once (public: a test bounds a wait by it). */
  constructor(readonly maxRunning = MAX_RUNNING) {}

  async run<T>(source: string, task: () => Promise<T>): Promise<T> {
    await this.admit(source);
    try {
      return await task();
    } finally {
      this.release(source);
    }
  }

  /** How many runs of `source` wait to be let in (a test's sign that a burst has arrived). */
  waitingFrom(source: string): number {
    return this.waiting.get(source)?.starts.length ?? 0;
  }

  private admit(source: string): Promise<void> {
    if (this.running < this.maxRunning && this.waiting.size === 0) {
      this.start(source);
      return Promise.resolve();
    }
    // A source whose work is running has just been served: it waits behind sources that have not.
    const entry = this.waiting.get(source) ?? { starts: [], lastServed: this.active.get(source)?.lastServed ?? 0 };
    if (entry.starts.length >= MAX_WAITING_PER_SOURCE) return Promise.reject(new PasswordQueueFull());
    this.waiting.set(source, entry);
    return new Promise((resolve) => entry.starts.push(resolve));
  }

  private start(source: string): number {
    this.running += 1;
    this.served += 1;
    const active = this.active.get(source);
    if (active) {
      active.count += 1;
      active.lastServed = this.served;
    } else this.active.set(source, { count: 1, lastServed: this.served });
    return this.served;
  }

  private release(source: string): void {
    this.running -= 1;
    const active = this.active.get(source)!;
    active.count -= 1;
    if (active.count === 0) this.active.delete(source);
    let next: [string, { starts: Array<() => void>; lastServed: number }] | null = null;
    for (const candidate of this.waiting) if (!next || candidate[1].lastServed < next[1].lastServed) next = candidate;
    if (!next) return;
    const [nextSource, entry] = next;
    const start = entry.starts.shift()!;
    entry.lastServed = this.start(nextSource);
    if (entry.starts.length === 0) this.waiting.delete(nextSource);
    start();
  }
}

/** The one gate every request's password work passes (sign-in, sign-up, reset). */
export const passwordGate = new PasswordGate();

function scryptAsync(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * The scrypt parameters of new hashes: the product's, or in a test run (`NODE_ENV=test`, which vitest
 * sets) a smaller N from `FIELDLINK_TEST_SCRYPT_N`, a power of two from 2^10 up to the product's. Suites
 * that seed and sign in hundreds of times spent most of their time hashing (docs/PERFORMANCE.md, "Test
 * suite"). A hash carries its parameters, so checks follow it. Outside a test run the variable is refused.
 */
export function scryptParams(env: NodeJS.ProcessEnv = process.env): { N: number; r: number; p: number } {
  const raw = env.FIELDLINK_TEST_SCRYPT_N;
  if (raw === undefined || raw === '') return PARAMS;
  if (env.NODE_ENV !== 'test') {
    throw new Error('FIELDLINK_TEST_SCRYPT_N is for test runs only (NODE_ENV=test): unset it');
  }
  const n = Number(raw);
  if (!Number.isInteger(n) || n < TEST_MIN_N || n > PARAMS.N || (n & (n - 1)) !== 0) {
    throw new Error(`FIELDLINK_TEST_SCRYPT_N must be a power of two from ${TEST_MIN_N} to ${PARAMS.N}`);
  }
  return { ...PARAMS, N: n };
}

/**
 * Hashes a password as `scrypt$N$r$p$salt$key` (base64url), with a fresh 16-byte salt. A request's
 * hash runs inside {@link passwordGate}.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const params = scryptParams();
  const key = await scryptAsync(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Checks a password against a stored hash in constant time; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Number.isInteger(params.N) || !Number.isInteger(params.r) || !Number.isInteger(params.p)) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), params);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * A password that no account has, hashed once per cost: signing in with an unknown e-mail still costs
 * one scrypt at the cost of new hashes, so the answer time does not tell whether the account exists.
 * Kept per N because the server tests share one process's modules across files, and one of them
 * (`session/limits.test.ts`) sets the product's cost where the others use the suite's cheap one.
 */
const decoyHashes = new Map<number, Promise<string>>();
export function decoyPasswordHash(): Promise<string> {
  const { N } = scryptParams();
  let decoy = decoyHashes.get(N);
  if (!decoy) {
    decoy = hashPassword(randomBytes(16).toString('hex'));
    decoyHashes.set(N, decoy);
  }
  return decoy;
}
