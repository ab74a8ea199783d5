import type { Kysely } from 'kysely';
import type { BroadcastSprayAnswer, BroadcastSprayBody, BroadcastSprayDevice } from '@fieldlink/api/spray';
import {
  BROADCAST_SPRAY_COOLDOWN_SECONDS,
  BROADCAST_SPRAY_FORBIDDEN,
  SPRAYER_CHANNELS,
  broadcastRetryAfterSeconds,
  broadcastSprayWaitMessage,
  isSprayer,
} from '@fieldlink/domain/spray';
import type { Database } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import type { CommandService } from '../../realtime/commands';
import { findGroup, selectDevices } from '../devices/repository';
import { GROUP_NOT_FOUND } from '@fieldlink/api/errors';
import { groupsAtOrBelow } from '../groups/repository';
import { inScope, userCan } from '../session/access';
import type { UserContext } from '../session/user-context';
import { claimSprayers, lastSprayedAt } from './repository';
import { byUser } from '../audit/service';

/** A broadcast refused because one of its sprayers was sent one too recently. */
export class BroadcastTooSoon extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, broadcastSprayWaitMessage(retryAfterSeconds), { 'retry-after': String(retryAfterSeconds) });
  }
}

/**
 * Broadcast spray (application §7): every connected sprayer of a group and the groups beneath it is
 * told to spray at once. Needs MOSNIX_BROADCAST_SPRAY (401 without it, as §6 says). The cool-down
 * follows the sprayers, not the group (issue 34, item 7): a broadcast is refused whole while any of
 * its connected sprayers was sent one within the cool-down, whichever group either broadcast named.
 * Kept in the database, claimed in one transaction, so it holds under parallel requests and across
 * the instances of a cluster.
 */
export class SprayService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly commands: CommandService,
    private readonly now: () => number = Date.now,
  ) {}

  async broadcast(user: UserContext, body: BroadcastSprayBody): Promise<BroadcastSprayAnswer> {
    if (!userCan(user, 'broadcastSpray')) throw new HttpError(401, BROADCAST_SPRAY_FORBIDDEN);
    const group = await findGroup(this.db, body.groupId);
    if (!group || !inScope(user, group.path)) throw notFound(GROUP_NOT_FOUND);

    const groupIds = (await groupsAtOrBelow(this.db, group.path)).map((row) => row.id);
    const rows =
      groupIds.length === 0 ? [] : await selectDevices(this.db).where('devices.group_id', 'in', groupIds).execute();
    const sprayers = rows
      .filter((row) => isSprayer(JSON.parse(row.registers) as Record<string, number>))
      .sort((a, b) => a.name.localeCompare(b.name));
    // Nothing to spray: no cool-down is started, so adding a sprayer and trying again works at once.
    if (sprayers.length === 0) return { devices: [] };

    // Only the connected sprayers are sent the spray, so only they start a cool-down: an offline one
    // is answered OFFLINE and may be broadcast to as soon as it is back.
    const connected = sprayers.filter((row) => row.is_connected === 1).map((row) => row.id);
    const now = this.now();
    const claimed = await claimSprayers(this.db, {
      deviceIds: connected,
      now,
      userId: user.id,
      cooldownStartsBefore: now - BROADCAST_SPRAY_COOLDOWN_SECONDS * 1000,
    });
    if (!claimed) {
      const retryAfterSeconds = broadcastRetryAfterSeconds(await lastSprayedAt(this.db, connected), this.now());
      // The other claim may have been made a moment "after" this clock read on another instance.
      throw new BroadcastTooSoon(Math.max(1, retryAfterSeconds));
    }

    const devices = await Promise.all(
      sprayers.map(async (row): Promise<BroadcastSprayDevice> => {
        const device = { id: row.id, thingName: row.thing_name, name: row.name };
        if (!connected.includes(row.id)) return { ...device, result: 'OFFLINE' };
        const outcome = await this.commands.send(
          row.thing_name,
          { cmd: 'writeChannel', code: SPRAYER_CHANNELS.broadcastSpray, value: 1 },
          {
            by: byUser(user),
            device: { id: row.id, accountId: row.account_id, name: row.name },
            context: { broadcastSpray: { groupId: group.id, groupName: group.name } },
          },
        );
        return { ...device, result: outcome.result };
      }),
    );
    return { devices };
  }
}
