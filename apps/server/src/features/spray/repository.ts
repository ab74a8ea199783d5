import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** Thrown inside the claim's transaction to roll a partial claim back. */
class SprayersCoolingDown extends Error {}

/**
 * Claims a broadcast on its sprayers: records `now` on every one of them, or on none when any was
 * sent a broadcast after `cooldownStartsBefore`. One transaction with one conditional upsert: on
 * PostgreSQL a second transaction upserting the same sprayer waits for the first and then sees its
 * row (ids sorted, so two claims cannot lock each other in opposite orders); SQLite's transaction
 * holds the write lock throughout. So of two broadcasts sharing a sprayer, on any instances, exactly
 * one claims. True when this call claimed them.
 */
export async function claimSprayers(
  db: Kysely<Database>,
  claim: { deviceIds: readonly string[]; now: number; userId: string; cooldownStartsBefore: number },
): Promise<boolean> {
  const deviceIds = [...new Set(claim.deviceIds)].sort();
  if (deviceIds.length === 0) return true;
  return db
    .transaction()
    .execute(async (trx) => {
      const result = await trx
        .insertInto('sprayer_broadcasts')
        .values(deviceIds.map((id) => ({ device_id: id, sprayed_at: claim.now, sprayed_by: claim.userId })))
        .onConflict((conflict) =>
          conflict
            .column('device_id')
            .doUpdateSet({ sprayed_at: claim.now, sprayed_by: claim.userId })
            .where('sprayer_broadcasts.sprayed_at', '<=', claim.cooldownStartsBefore),
        )
        .returning('device_id')
        .execute();
      if (result.length === deviceIds.length) return true;
      // Rolls the partial claim back: the sprayers still free stay free.
      throw new SprayersCoolingDown();
    })
    .catch((error: unknown) => {
      if (error instanceof SprayersCoolingDown) return false;
      throw error;
    });
}

/** When the most recently sprayed of these sprayers was last sent a broadcast (unix ms), if any was. */
export async function lastSprayedAt(db: Kysely<Database>, deviceIds: readonly string[]): Promise<number | undefined> {
  if (deviceIds.length === 0) return undefined;
  const row = await db
    .selectFrom('sprayer_broadcasts')
    .select((eb) => eb.fn.max('sprayed_at').as('latest'))
    .where('device_id', 'in', deviceIds)
    .executeTakeFirst();
  return row?.latest ?? undefined;
}
