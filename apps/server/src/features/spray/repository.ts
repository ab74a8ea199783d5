import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Claims a group's broadcast: records `now` unless the last broadcast on the group started after
 * `cooldownStartsBefore`. One statement (an upsert whose update is conditional), so of two instances
 * racing for the same group exactly one claims it. True when this call claimed it.
 */
export async function claimBroadcast(
  db: Kysely<Database>,
  claim: { groupId: string; now: number; userId: string; cooldownStartsBefore: number },
): Promise<boolean> {
  const result = await db
    .insertInto('spray_broadcasts')
    .values({ group_id: claim.groupId, started_at: claim.now, started_by: claim.userId })
    .onConflict((conflict) =>
      conflict
        .column('group_id')
        .doUpdateSet({ started_at: claim.now, started_by: claim.userId })
        .where('spray_broadcasts.started_at', '<=', claim.cooldownStartsBefore),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** When the last broadcast on a group started (unix ms), or undefined when it never had one. */
export async function lastBroadcastAt(db: Kysely<Database>, groupId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('spray_broadcasts')
    .select('started_at')
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return row?.started_at;
}
