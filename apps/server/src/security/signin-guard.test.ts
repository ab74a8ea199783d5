import { describe, expect, it } from 'vitest';
import { pairDelayMs, SigninGuard, SIGNIN_LIMITS, type SigninAdmission } from './signin-guard';

/** A guard on a clock the test moves. */
function guardAt(start = 1_000_000) {
  const clock = { now: start };
  const guard = new SigninGuard(() => clock.now);
  /** One attempt that fails (a wrong password), or the refusal. */
  const fail = (account: string, address: string): SigninAdmission => guard.admit(account, address);
  const succeed = (account: string, address: string) => {
    const admission = guard.admit(account, address);
    if (admission.admitted) admission.attempt.succeeded();
    return admission;
  };
  return { clock, guard, fail, succeed };
}

const admitted = (admission: SigninAdmission) => admission.admitted;

describe('pairDelayMs', () => {
  it.each([
    [0, 0],
    [2, 0],
    [3, 1_000],
    [4, 2_000],
    [5, 4_000],
    [12, 512_000],
    [13, 900_000],
    [1_000, 900_000],
  ])('after %i failures waits %i ms', (failures, delay) => expect(pairDelayMs(failures)).toBe(delay));
});

describe('SigninGuard', () => {
  it('slows one account and address pair down: three free failures, then 1 s, 2 s, 4 s between attempts', () => {
    const { clock, fail } = guardAt();
    for (let i = 0; i < 3; i += 1) expect(admitted(fail('owner@x.test', '203.0.113.1'))).toBe(true);
    expect(fail('owner@x.test', '203.0.113.1')).toEqual({ admitted: false, retryAfterSeconds: 1 });
    clock.now += 1_000;
    expect(admitted(fail('owner@x.test', '203.0.113.1'))).toBe(true);
    clock.now += 1_999;
    expect(admitted(fail('owner@x.test', '203.0.113.1'))).toBe(false);
    clock.now += 1;
    expect(admitted(fail('owner@x.test', '203.0.113.1'))).toBe(true);
    expect(fail('owner@x.test', '203.0.113.1')).toEqual({ admitted: false, retryAfterSeconds: 4 });
    // Another account from the same address, and the same account from another, are not slowed.
    expect(admitted(fail('other@x.test', '203.0.113.1'))).toBe(true);
    expect(admitted(fail('owner@x.test', '198.51.100.1'))).toBe(true);
  });

  it('caps the wait at 15 minutes and forgets a pair an hour after its last failure', () => {
    const { clock, fail } = guardAt();
    for (let i = 0; i < 20; i += 1) {
      const admission = fail('owner@x.test', '203.0.113.1');
      if (!admission.admitted) {
        expect(admission.retryAfterSeconds).toBeLessThanOrEqual(900);
        clock.now += admission.retryAfterSeconds * 1000;
        expect(admitted(fail('owner@x.test', '203.0.113.1'))).toBe(true);
      }
    }
    expect(fail('owner@x.test', '203.0.113.1')).toEqual({ admitted: false, retryAfterSeconds: 900 });
    clock.now += SIGNIN_LIMITS.pairMemoryMs;
    for (let i = 0; i < 3; i += 1) expect(admitted(fail('owner@x.test', '203.0.113.1'))).toBe(true);
  });

  it('stops an address after 100 failures over any accounts, for the rest of its window', () => {
    const { clock, fail } = guardAt();
    for (let i = 0; i < 100; i += 1) expect(admitted(fail(`user-${i}@x.test`, '203.0.113.1'))).toBe(true);
    const refused = fail('fresh@x.test', '203.0.113.1');
    expect(refused).toEqual({ admitted: false, retryAfterSeconds: 900 });
    expect(admitted(fail('fresh@x.test', '198.51.100.1'))).toBe(true);
    clock.now += SIGNIN_LIMITS.windowMs;
    expect(admitted(fail('fresh@x.test', '203.0.113.1'))).toBe(true);
  });

  it('never locks the owner out: under guard, a clean address with the right password gets in', () => {
    const { fail, succeed } = guardAt();
    // Ten strangers, one failure each: the account is under guard.
    for (let stranger = 0; stranger < 10; stranger += 1)
      expect(admitted(fail('owner@x.test', `10.0.0.${stranger}`))).toBe(true);
    // Each failing address is stopped on this account (unguarded, its next two would be free) …
    for (let stranger = 0; stranger < 10; stranger += 1) {
      const refused = fail('owner@x.test', `10.0.0.${stranger}`);
      expect(refused.admitted).toBe(false);
      if (!refused.admitted) expect(refused.retryAfterSeconds).toBeGreaterThan(800);
    }
    // … a fresh address gets one attempt at a time, and is stopped after a failure …
    expect(admitted(fail('owner@x.test', '10.0.1.1'))).toBe(true);
    expect(admitted(fail('owner@x.test', '10.0.1.1'))).toBe(false);
    // … and the owner, from an address that has not been failing, signs in.
    expect(admitted(succeed('owner@x.test', '192.0.2.10'))).toBe(true);
    expect(admitted(succeed('owner@x.test', '192.0.2.10'))).toBe(true);
    // Other accounts are not guarded.
    for (let i = 0; i < 3; i += 1) expect(admitted(fail('someone@x.test', '10.0.0.1'))).toBe(true);
  });

  it('lifts the guard when the window ends', () => {
    const { clock, fail } = guardAt();
    for (let i = 0; i < 10; i += 1) expect(admitted(fail('owner@x.test', `10.0.0.${i}`))).toBe(true);
    expect(admitted(fail('owner@x.test', '10.0.0.1'))).toBe(false);
    clock.now += SIGNIN_LIMITS.windowMs;
    expect(admitted(fail('owner@x.test', '10.0.0.1'))).toBe(true);
  });

  it('admits at most what the limits allow of attempts made at once (all counted before any hash)', () => {
    const { fail } = guardAt();
    // Twenty parallel attempts of one pair: the three free ones, nothing else.
    const admissions = Array.from({ length: 20 }, () => fail('owner@x.test', '203.0.113.1'));
    expect(admissions.filter(admitted)).toHaveLength(3);
  });

  it('gives back an attempt that was not evaluated, and forgives the pair on success', () => {
    const { fail, guard } = guardAt();
    const first = guard.admit('owner@x.test', '203.0.113.1');
    expect(first.admitted).toBe(true);
    if (first.admitted) first.attempt.notEvaluated();
    for (let i = 0; i < 2; i += 1) expect(admitted(fail('owner@x.test', '203.0.113.1'))).toBe(true);
    const good = guard.admit('owner@x.test', '203.0.113.1');
    expect(good.admitted).toBe(true);
    if (good.admitted) good.attempt.succeeded();
    // Forgiven: three free failures again.
    for (let i = 0; i < 3; i += 1) expect(admitted(fail('owner@x.test', '203.0.113.1'))).toBe(true);
    expect(admitted(fail('owner@x.test', '203.0.113.1'))).toBe(false);
  });
});
