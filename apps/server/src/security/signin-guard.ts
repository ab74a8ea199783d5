import { RateLimiter } from './rate-limit';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/**
 * How password guessing is held back (SECURITY.md 8 and 24; docs/decisions.md, issue 34 item 6).
 * Failures are counted when an attempt is admitted, before its hash, so parallel attempts cannot
 * overrun a limit; a success or an attempt never evaluated gives its count back.
 */
export const SIGNIN_LIMITS = {
  /** Failures of one account and address pair that cost nothing; each after them doubles a wait. */
  freeFailuresPerPair: 3,
  firstDelayMs: SECOND,
  maxDelayMs: 15 * MINUTE,
  /** A pair's failures are forgotten this long after its last one. */
  pairMemoryMs: 60 * MINUTE,
  /** Failures from one address, over every account, that stop its sign-ins for the rest of the window. */
  addressFailures: 100,
  /** Failures on one account, from every address, that put it under guard for the rest of the window. */
  accountFailures: 10,
  windowMs: 15 * MINUTE,
  /** Pairs remembered at most; past it the longest-quiet are forgotten (memory stays bounded). */
  maxPairs: 200_000,
} as const;

/** The 429 of a sign-in, or a second-factor code, past these limits. */
export const SIGNIN_LIMITED_MESSAGE = 'Too many sign-in attempts. Please try again later.';

/** How long a pair with this many failures waits after its last one before its next attempt. */
export function pairDelayMs(failures: number): number {
  const over = failures - SIGNIN_LIMITS.freeFailuresPerPair;
  if (over < 0) return 0;
  return Math.min(SIGNIN_LIMITS.maxDelayMs, SIGNIN_LIMITS.firstDelayMs * 2 ** Math.min(over, 30));
}

/** An admitted attempt: counted as a failure until told otherwise. */
export interface SigninAttempt {
  /** The password was right: the pair's failures are forgiven and the attempt counts nowhere. */
  succeeded(): void;
  /** The attempt was not evaluated (storage failed, the password queue was full): it counts nowhere. */
  notEvaluated(): void;
}

export type SigninAdmission =
  { admitted: true; attempt: SigninAttempt } | { admitted: false; retryAfterSeconds: number };

interface PairRecord {
  failures: number;
  lastAt: number;
}

/**
 * Sign-in guessing limits that a stranger cannot turn against an account's owner:
 * - **per account and address pair, slowed**: after {@link SIGNIN_LIMITS.freeFailuresPerPair} failures,
 *   each next attempt waits 1 s, 2 s, 4 s … up to 15 minutes after the previous one;
 * - **per address, stopped**: 100 failures over any accounts stop the address for the window;
 * - **per account, guarded, never locked**: 10 failures from anywhere put the account under guard for
 *   the window; under guard, an address that has failed on it in the last 15 minutes may not try again,
 *   and one that has not gets one attempt at a time. A right password from an address that has not
 *   been failing still gets in.
 * In memory, per instance, like the other limits (docs/decisions.md).
 */
export class SigninGuard {
  private readonly pairs = new Map<string, PairRecord>();
  private readonly byAddress: RateLimiter;
  private readonly byAccount: RateLimiter;

  constructor(private readonly now: () => number = Date.now) {
    this.byAddress = new RateLimiter(SIGNIN_LIMITS.addressFailures, SIGNIN_LIMITS.windowMs, now);
    this.byAccount = new RateLimiter(SIGNIN_LIMITS.accountFailures, SIGNIN_LIMITS.windowMs, now);
  }

  /** Admits one attempt of `account` from `address` and counts it as a failure, or says how long to wait. */
  admit(account: string, address: string): SigninAdmission {
    const now = this.now();
    const addressKey = `address:${address}`;
    const accountKey = `account:${account}`;
    if (this.byAddress.isLimited(addressKey)) {
      return { admitted: false, retryAfterSeconds: this.byAddress.retryAfterSeconds(addressKey) };
    }
    const pairKey = `${account}\n${address}`;
    const pair = this.pair(pairKey, now);
    if (pair && this.byAccount.isLimited(accountKey) && now - pair.lastAt < SIGNIN_LIMITS.windowMs) {
      const until = Math.min(
        pair.lastAt + SIGNIN_LIMITS.windowMs,
        now + this.byAccount.retryAfterSeconds(accountKey) * SECOND,
      );
      return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / SECOND)) };
    }
    if (pair) {
      const allowedAt = pair.lastAt + pairDelayMs(pair.failures);
      if (now < allowedAt) return { admitted: false, retryAfterSeconds: Math.ceil((allowedAt - now) / SECOND) };
    }

    this.byAddress.hit(addressKey);
    this.byAccount.hit(accountKey);
    this.pairs.delete(pairKey);
    // Re-inserted at the end: the map's order is the order of last failure, the oldest first.
    this.pairs.set(pairKey, { failures: (pair?.failures ?? 0) + 1, lastAt: now });
    if (this.pairs.size > SIGNIN_LIMITS.maxPairs) this.forgetOldest(now);

    let settled = false;
    const giveBack = (forgivePair: boolean) => {
      if (settled) return;
      settled = true;
      this.byAddress.release(addressKey);
      this.byAccount.release(accountKey);
      const current = this.pairs.get(pairKey);
      if (!current) return;
      current.failures -= 1;
      // The time of the last failure stays: at worst the pair waits a little longer.
      if (forgivePair || current.failures <= 0) this.pairs.delete(pairKey);
    };
    return {
      admitted: true,
      attempt: { succeeded: () => giveBack(true), notEvaluated: () => giveBack(false) },
    };
  }

  private pair(key: string, now: number): PairRecord | undefined {
    const pair = this.pairs.get(key);
    if (pair && now - pair.lastAt >= SIGNIN_LIMITS.pairMemoryMs) {
      this.pairs.delete(key);
      return undefined;
    }
    return pair;
  }

  private forgetOldest(now: number): void {
    for (const [key, pair] of this.pairs) {
      if (this.pairs.size <= SIGNIN_LIMITS.maxPairs && now - pair.lastAt < SIGNIN_LIMITS.pairMemoryMs) break;
      this.pairs.delete(key);
    }
  }
}
