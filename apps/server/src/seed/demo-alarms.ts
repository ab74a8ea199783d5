import type { Kysely } from 'kysely';
import type { AlarmSeverity, AlarmSide } from '@fieldlink/domain/alarms';
import type { DeviceModel } from '@fieldlink/simulation/plant-model';
import type { Database } from '../db/schema';
import { newId } from '../security/secrets';

const HOUR_MS = 3_600_000;

/** One channel alarm of the demo: its configuration, and the alarm it raised. */
interface DemoAlarm {
  thingName: string;
  code: string;
  side: AlarmSide;
  threshold: number;
  hysteresis: number;
  severity: AlarmSeverity;
  /** When it was raised. */
  hoursAgo: number;
  /** Who acknowledged it, or null: still waiting for someone. */
  acknowledgedBy: string | null;
  /**
   * For a channel that moves a long way in a week (a sprayer's tank, drawn down between refills):
   * the threshold is this far past the live value at seeding, `threshold` when there is none.
   */
  marginFromLive?: number;
}

/**
 * One active alarm and one acknowledged (still active) alarm in each app's account, on channels whose
 * simulated values stay past the threshold (figures from the plant models over two weeks), so the
 * alarm screens, the device's alarm badge and acknowledging can be tried on a fresh installation
 * (issue 35 item 11). The evaluator keeps them: each channel's configuration is stored ACTIVE, and a
 * value back within the threshold and its hysteresis would clear the alarm as in production.
 */
const DEMO_ALARMS: readonly DemoAlarm[] = [
  // Brewery: a lager fermenter (11.4-12.7 °C) and an ale fermenter (18.1-19.9 °C) warmer than set.
  {
    thingName: 'NGB-FV01',
    code: 'c1',
    side: 'HIGH',
    threshold: 11,
    hysteresis: 0.5,
    severity: 'MAJOR',
    hoursAgo: 3,
    acknowledgedBy: null,
  },
  {
    thingName: 'NGB-FV02',
    code: 'c1',
    side: 'HIGH',
    threshold: 17,
    hysteresis: 0.5,
    severity: 'MINOR',
    hoursAgo: 26,
    acknowledgedBy: 'brew@fieldlink.test',
  },
  // Spray: the sprayers' chemical tanks running low (drawn down a little a day, refilled at 25 %).
  {
    thingName: 'OSC-SPR02',
    code: 'a16',
    side: 'LOW',
    threshold: 50,
    marginFromLive: 10,
    hysteresis: 5,
    severity: 'CRITICAL',
    hoursAgo: 5,
    acknowledgedBy: null,
  },
  {
    thingName: 'OSC-SPR01',
    code: 'a16',
    side: 'LOW',
    threshold: 80,
    marginFromLive: 5,
    hysteresis: 5,
    severity: 'WARNING',
    hoursAgo: 30,
    acknowledgedBy: 'spray@fieldlink.test',
  },
  // Stock: the product the back room is out of, on two shelves (0 units).
  {
    thingName: 'CRS-SHELF03',
    code: 'c2',
    side: 'LOW',
    threshold: 1,
    hysteresis: 0,
    severity: 'MAJOR',
    hoursAgo: 4,
    acknowledgedBy: null,
  },
  {
    thingName: 'CRS-SHELF06',
    code: 'c2',
    side: 'LOW',
    threshold: 1,
    hysteresis: 0,
    severity: 'MINOR',
    hoursAgo: 20,
    acknowledgedBy: 'stock@fieldlink.test',
  },
  // Water: the plant's inlet pressure high (4.3-4.6 bar) and its outlet pressure low (1.4-1.8 bar).
  {
    thingName: 'FTW-PLANT01',
    code: 'c2',
    side: 'HIGH',
    threshold: 4,
    hysteresis: 0.2,
    severity: 'MAJOR',
    hoursAgo: 2,
    acknowledgedBy: null,
  },
  {
    thingName: 'FTW-PLANT01',
    code: 'c3',
    side: 'LOW',
    threshold: 2,
    hysteresis: 0.2,
    severity: 'WARNING',
    hoursAgo: 18,
    acknowledgedBy: 'water@fieldlink.test',
  },
  // Controls: a boiler room warmer than 19 °C (20.4-21.6 °C), a cold room more humid than 45 % (50-55 %).
  {
    thingName: 'ACME-BLR01',
    code: 'c1',
    side: 'HIGH',
    threshold: 19,
    hysteresis: 0.5,
    severity: 'MINOR',
    hoursAgo: 6,
    acknowledgedBy: null,
  },
  {
    thingName: 'ACME-COLD01',
    code: 'c4',
    side: 'HIGH',
    threshold: 45,
    hysteresis: 2,
    severity: 'WARNING',
    hoursAgo: 40,
    acknowledgedBy: 'ops@fieldlink.test',
  },
];

/** Stores {@link DEMO_ALARMS}: each channel's configuration (ACTIVE) and its open alarm. */
export async function seedDemoAlarms(
  db: Kysely<Database>,
  now = Date.now(),
  liveModels?: ReadonlyMap<string, DeviceModel>,
): Promise<void> {
  const devices = new Map(
    (await db.selectFrom('devices').select(['id', 'thing_name']).execute()).map((row) => [row.thing_name, row.id]),
  );
  const users = new Map(
    (await db.selectFrom('users').select(['id', 'email']).execute()).map((row) => [row.email, row.id]),
  );
  await db.transaction().execute(async (trx) => {
    for (const alarm of DEMO_ALARMS) {
      const deviceId = devices.get(alarm.thingName);
      if (!deviceId) continue;
      const raisedAt = now - alarm.hoursAgo * HOUR_MS;
      const live = liveModels?.get(alarm.thingName)?.values()[alarm.code];
      const past = alarm.side === 'HIGH' ? 1 : -1;
      const threshold =
        alarm.marginFromLive !== undefined && live !== undefined
          ? Math.round(live - past * alarm.marginFromLive)
          : alarm.threshold;
      // The value that raised it: the live one when it is past the threshold, else just past it.
      const value = live !== undefined && (live - threshold) * past > 0 ? live : threshold + past;
      await trx
        .insertInto('alarm_configs')
        .values({
          device_id: deviceId,
          code: alarm.code,
          enabled: 1,
          high: alarm.side === 'HIGH' ? threshold : null,
          low: alarm.side === 'LOW' ? threshold : null,
          hysteresis: alarm.hysteresis,
          delay_seconds: 0,
          severity: alarm.severity,
          phase: 'ACTIVE',
          side: alarm.side,
          since: raisedAt,
          last_t: raisedAt,
          version: 1,
          updated_by: null,
          updated_at: raisedAt,
        })
        .execute();
      const acknowledgedBy = alarm.acknowledgedBy === null ? null : (users.get(alarm.acknowledgedBy) ?? null);
      await trx
        .insertInto('alarms')
        .values({
          id: newId(),
          device_id: deviceId,
          code: alarm.code,
          side: alarm.side,
          severity: alarm.severity,
          threshold,
          value,
          raised_at: raisedAt,
          cleared_at: null,
          cleared_value: null,
          acknowledged_at: acknowledgedBy === null ? null : raisedAt + HOUR_MS / 4,
          acknowledged_by: acknowledgedBy,
          // Its notices went out when it was raised: a fresh start mails nobody about the demo.
          reminders_sent: 0,
          escalated_at: null,
          escalation_steps: 0,
        })
        .execute();
      if (acknowledgedBy === null) {
        await trx.updateTable('devices').set({ alarms_have_been_read: 0 }).where('id', '=', deviceId).execute();
      }
    }
  });
}
