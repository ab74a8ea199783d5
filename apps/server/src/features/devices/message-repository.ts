import type { Kysely, Transaction } from 'kysely';
import type { Database, DeviceMessagesTable } from '../../db/schema';

/** Queries of the queue of messages for offline devices (table `device_messages`). */

export type DeviceMessageRow = DeviceMessagesTable;

/**
 * Queues a message inside the caller's transaction; a pending message for the same device and target
 * is marked replaced, so a reconnecting device receives only the latest value of each setting.
 */
export async function enqueueMessage(trx: Transaction<Database>, row: DeviceMessageRow): Promise<void> {
  await trx
    .updateTable('device_messages')
    .set({ status: 'replaced', settled_at: row.created_at })
    .where('device_id', '=', row.device_id)
    .where('target', '=', row.target)
    .where('status', '=', 'pending')
    .execute();
  await trx.insertInto('device_messages').values(row).execute();
}

/** The targets of a device's pending messages, one per message (what the queue limit counts). */
export async function pendingTargetsOf(db: Kysely<Database> | Transaction<Database>, deviceId: string) {
  const rows = await db
    .selectFrom('device_messages')
    .select('target')
    .where('device_id', '=', deviceId)
    .where('status', '=', 'pending')
    .execute();
  return rows.map((row) => row.target);
}

/** Pending messages of a device, oldest first. */
export function pendingMessagesOf(db: Kysely<Database>, deviceId: string) {
  return db
    .selectFrom('device_messages')
    .selectAll()
    .where('device_id', '=', deviceId)
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Ids of connected devices that have pending messages. */
export async function connectedDevicesWithPendingMessages(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('device_messages')
    .innerJoin('devices', 'devices.id', 'device_messages.device_id')
    .select(['devices.id', 'devices.thing_name'])
    .distinct()
    .where('device_messages.status', '=', 'pending')
    .where('devices.is_connected', '=', 1)
    .execute();
  return rows;
}

/**
 * Claims a pending message for delivery by this instance; false when another instance holds a fresh
 * claim or it is no longer pending. Claims older than `staleBefore` are abandoned and may be taken.
 */
export async function claimMessage(db: Kysely<Database>, id: string, now: number, staleBefore: number) {
  const result = await db
    .updateTable('device_messages')
    .set({ claimed_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', staleBefore)]))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Ends a claimed message with its outcome. */
export function settleMessage(
  db: Kysely<Database>,
  id: string,
  status: 'delivered' | 'failed' | 'expired',
  now: number,
  result: string | null,
) {
  return db
    .updateTable('device_messages')
    .set({ status, settled_at: now, claimed_at: null, result })
    .where('id', '=', id)
    .execute();
}

/** Gives a claimed message back after a delivery attempt that got no answer. */
export function releaseMessage(db: Kysely<Database>, id: string, attempts: number) {
  return db
    .updateTable('device_messages')
    .set({ claimed_at: null, attempts })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Marks every pending message past its expiry as expired. */
export function expireMessages(db: Kysely<Database>, now: number) {
  return db
    .updateTable('device_messages')
    .set({ status: 'expired', settled_at: now })
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .execute();
}
