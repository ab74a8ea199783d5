import type { BrewBatchesAnswer, Tank } from '@fieldlink/api/brew';
import { takeBackEndRefusal } from '@fieldlink/domain/brew';

type Summary = BrewBatchesAnswer['batches'][number];

/**
 * The finished batches whose end the console offers to take back: of each tank, its newest batch,
 * when the domain's rule ({@link takeBackEndRefusal}, which the server checks) accepts it, that is
 * when it has ended and the tank runs no other batch. An older batch of the tank is not offered: the
 * tank has moved on since, and taking back an end is for a batch ended by mistake.
 * `batches` is the group's list, newest first (`GET /brew/batches`).
 */
export function takeBackOffers(
  batches: readonly Summary[],
  tanks: readonly Pick<Tank, 'deviceId' | 'batchInfo'>[],
): Set<string> {
  const newestOfTank = new Map<string, Summary>();
  for (const batch of batches) if (!newestOfTank.has(batch.deviceId)) newestOfTank.set(batch.deviceId, batch);
  const offers = new Set<string>();
  for (const tank of tanks) {
    const batch = newestOfTank.get(tank.deviceId);
    if (!batch) continue;
    const refusal = takeBackEndRefusal({
      ended: batch.date.end !== null,
      tankRunsAnotherBatch: tank.batchInfo !== null && tank.batchInfo.id !== batch.id,
    });
    if (refusal === null) offers.add(batch.id);
  }
  return offers;
}
