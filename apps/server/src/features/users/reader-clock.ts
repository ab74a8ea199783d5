import type { Kysely } from 'kysely';
import {
  deviceTimeZone,
  resolveClock,
  SPEC_CLOCK_FORMAT,
  type Clock,
  type ClockPreferences,
} from '@fieldlink/domain/date-format';
import type { Database } from '../../db/schema';
import { clockOf } from './mapper';

/** The columns of a device that say its zone. */
export type DeviceZoneColumns = { time_date: string | null; health: string | null };

/**
 * The clock of text read away from the console (mails, reports; issue 36 item 2): the reader's own
 * zone and format; where they chose none, the device's zone (what its people on site read on its
 * clock), else UTC, and the specification's day-first format. Such text names the zone beside its
 * times: nothing else there says which zone it is.
 */
export function readerClockOf(clock: ClockPreferences | null, device?: DeviceZoneColumns): Clock {
  return resolveClock(clock, { timeZone: device ? zoneOf(device) : 'UTC', ...SPEC_CLOCK_FORMAT });
}

/**
 * {@link readerClockOf} for a stored user, by id or by e-mail (as brewing records them); a user since
 * deleted, or none, gets the fallback.
 */
export async function userClock(
  db: Kysely<Database>,
  user: { id: string } | { email: string } | null,
  device?: DeviceZoneColumns,
): Promise<Clock> {
  const query = db.selectFrom('users').select(['time_zone', 'hour_cycle', 'date_order']);
  const row = !user
    ? undefined
    : 'id' in user
      ? await query.where('id', '=', user.id).executeTakeFirst()
      : await query.where('email', '=', user.email).executeTakeFirst();
  return readerClockOf(row ? clockOf(row) : null, device);
}

function zoneOf(device: DeviceZoneColumns): string {
  const parse = <T>(text: string | null): T | null => {
    try {
      return text ? (JSON.parse(text) as T) : null;
    } catch {
      return null;
    }
  };
  return (
    deviceTimeZone({
      timeDate: parse<{ tzName?: string }>(device.time_date),
      health: parse<{ currentTimeZone?: string }>(device.health),
    }) ?? 'UTC'
  );
}
