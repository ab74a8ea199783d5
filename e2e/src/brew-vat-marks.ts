import { VAT_STATUS_BITS } from '@fieldlink/domain/brew';
import type { RunningServer } from './harness';

const HOUR_MS = 3_600_000;
/** Both bits of the vat mark. */
const MARK = VAT_STATUS_BITS.sealed | VAT_STATUS_BITS.atPressure;
/** Two batches (14 days each): a tank marks its vat within them whatever its batch's age. */
const SEARCH_LIMIT_MS = 28 * 24 * HOUR_MS;

/**
 * A demo brewing tank sets its vat status bits 6 and 7 itself, once a batch, as the vat seals and then
 * reaches its pressure, and clears them when it is refilled (every 14 days), on a clock that follows
 * the wall clock: the e2e server's Fermenter FV2 reaches its pressure near 08:05 UTC, so a test that
 * had just written bit 6 alone saw the tank marked when it ran then. A test that writes the register
 * first moves the tank's clock (the harness's device clock) on an hour at a time until the tank has
 * set both bits itself, through its refill when they are set already (the refill may be near): from
 * there the tank leaves the register as written for days, and the test's writes stay as written.
 */
export async function passVatMarks(server: RunningServer, thingName: string, register: number): Promise<void> {
  const marked = (value: number | null) => value !== null && (value & MARK) === MARK;
  let { timeMs, value } = await server.deviceRegister(thingName, register);
  const from = timeMs;
  let cleared = !marked(value);
  while (!cleared || !marked(value)) {
    if (timeMs - from > SEARCH_LIMIT_MS) throw new Error(`${thingName} did not mark its vat in 28 days`);
    ({ timeMs, value } = await server.deviceRegister(thingName, register, timeMs + HOUR_MS));
    if (!marked(value)) cleared = true;
  }
}
