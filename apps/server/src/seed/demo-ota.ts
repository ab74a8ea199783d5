import type { Kysely } from 'kysely';
import { createDeviceIdentity } from '@fieldlink/simulation/device-identity';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import type { Database, OtaUpdatesTable } from '../db/schema';
import { toOtaUpdate } from '../features/ota/service';
import { newId } from '../security/secrets';

const HOUR_MS = 3_600_000;
/** The device updated first (its update went through), then the two still awaiting approval. */
const UPDATED = 'ACME-BLR01';
const AWAITING = ['ACME-COLD01', 'ACME-COLD02'] as const;
const SUBMITTER = 'admin@fieldlink.test';

/**
 * A rollout in progress (issue 35 item 11): Acme's controllers updated to the firmware the boiler
 * room's controller runs, submitted two hours ago for approval, approved for the boiler room first
 * (it went through an hour ago), the two cold-room controllers still awaiting an administrator. So
 * the banner, the pending list, Review and the rollout list have something to show, and approving
 * sends the update to the simulated controllers for real.
 */
export async function seedDemoRollout(db: Kysely<Database>, now = Date.now()): Promise<void> {
  const devices = new Map(
    (
      await db
        .selectFrom('devices')
        .select(['id', 'thing_name'])
        .where('thing_name', 'in', [UPDATED, ...AWAITING])
        .execute()
    ).map((row) => [row.thing_name, row.id]),
  );
  const admin = await db.selectFrom('users').select('id').where('email', '=', SUBMITTER).executeTakeFirst();
  if (devices.size !== 1 + AWAITING.length || !admin) return;
  // The firmware the boiler room's simulated controller runs (its identity): it says so once connected.
  const firmware = createDeviceIdentity('generic', seedFromText(UPDATED)).fw;
  const updateCommand = `firmware ${firmware}`;
  const submittedAt = now - 2 * HOUR_MS;
  const rolloutId = newId();
  const update = (thingName: string, position: number): OtaUpdatesTable => ({
    id: newId(),
    rollout_id: rolloutId,
    device_id: devices.get(thingName)!,
    position,
    state: 'AWAITING_APPROVAL',
    percent: null,
    update_command: updateCommand,
    submitted_at: submittedAt,
    submitted_by: admin.id,
    approved_at: null,
    approved_by: null,
    sent_at: null,
    last_report_at: null,
    finished_at: null,
    reloaded_at: null,
    attempts: 0,
    fw: null,
    error: null,
  });
  const finishedAt = now - HOUR_MS;
  const updated: OtaUpdatesTable = {
    ...update(UPDATED, 0),
    state: 'SUCCEEDED',
    percent: 100,
    approved_at: submittedAt + HOUR_MS / 6,
    approved_by: admin.id,
    sent_at: submittedAt + HOUR_MS / 6,
    last_report_at: finishedAt,
    finished_at: finishedAt,
    reloaded_at: finishedAt + 30_000,
    attempts: 1,
    fw: firmware,
  };
  const awaiting = AWAITING.map((thingName, index) => update(thingName, index + 1));
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('ota_rollouts')
      .values({
        id: rolloutId,
        update_command: updateCommand,
        skip_approval: 0,
        devices_per_minute: 1,
        failure_threshold_percent: 20,
        min_executed: 5,
        failure_threshold_count: null,
        state: 'RUNNING',
        stop_reason: null,
        started_at: updated.approved_at,
        dispatched: 1,
        tick_job_id: null,
        created_by: admin.id,
        created_at: submittedAt,
        finished_at: null,
      })
      .execute();
    for (const row of [updated, ...awaiting]) {
      await trx.insertInto('ota_updates').values(row).execute();
      await trx
        .updateTable('devices')
        .set({
          ota_update: JSON.stringify(toOtaUpdate(row)),
          ota_pending_submitted_at: row.state === 'AWAITING_APPROVAL' ? submittedAt : null,
        })
        .where('id', '=', row.device_id)
        .execute();
    }
  });
}
