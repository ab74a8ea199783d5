import type { Kysely } from 'kysely';
import type { DeviceMessage, QueuedDeviceMessage } from '@fieldlink/api/device';
import { REALTIME_COMMAND_FAILED_MESSAGE, REALTIME_TIMEOUT_MESSAGE } from '@fieldlink/api/realtime';
import { normaliseChannelCode } from '@fieldlink/domain/channels';
import { settingValuesOfMessage } from '@fieldlink/domain/device-settings';
import { workLimitRefusal } from '@fieldlink/domain/work-limits';
import { lockLimitedWork } from '../../db/quota-lock';
import type { Database } from '../../db/schema';
import type { DeviceEvents } from '../../events';
import { limitReached } from '../../http-errors';
import type { CommandRequest, CommandService } from '../../realtime/commands';
import { newId } from '../../security/secrets';
import { audit, byUser } from '../audit/service';
import type { UserContext } from '../session/user-context';
import { toQueuedMessage } from './mapper';
import {
  claimMessage,
  connectedDevicesWithPendingMessages,
  enqueueMessage,
  expireMessages,
  pendingMessagesOf,
  pendingTargetsOf,
  releaseMessage,
  settleMessage,
} from './message-repository';

/** A queued message is given up on after a week: settings older than that are a surprise, not a help. */
export const MESSAGE_TTL_MS = 7 * 24 * 3600 * 1000;
/** Wait after a connect before delivering: the device subscribes to its command topic after CONNECT. */
export const DELIVERY_DELAY_MS = 2_000;
/** Unanswered deliveries before a message is marked failed. */
export const MAX_DELIVERY_ATTEMPTS = 5;
/** A claim older than this was left by an instance that stopped mid-delivery; it may be taken over. */
const CLAIM_TTL_MS = 60_000;
/** Pending messages of connected devices are retried this often (missed events, unanswered tries). */
const SWEEP_INTERVAL_MS = 30_000;

/** What a message sets on the device: a newer message for the same target replaces a queued one. */
export function messageTarget(message: DeviceMessage): string {
  switch (message.cmd) {
    case 'writeChannel':
      // `sp-1` and `sp1` are the same channel: the later write replaces the earlier.
      return `channel:${normaliseChannelCode(message.code) ?? message.code}`;
    case 'writeRegister':
      return `register:${message.register}`;
    case 'system':
      return `system:${message.command}`;
    case 'refreshMetadata':
    case 'timeDate':
      return message.cmd;
    case 'writeConfig':
      // Replaced only by a later message setting exactly the same settings.
      return `config:${Object.keys(settingValuesOfMessage(message)).sort().join(',')}`;
  }
}

export interface MessageQueueLogger {
  warn(object: object, message: string): void;
}

export interface MessageQueueOptions {
  delayMs?: number;
  sweepIntervalMs?: number;
  now?: () => number;
}

/**
 * Messages for devices that were offline when sent. They wait in `device_messages` and go out in the
 * order they were queued once the device connects again: on its connection event (after a short
 * delay) and on a periodic sweep. Each is claimed in the database first, so with several server
 * instances exactly one delivers it.
 */
export class DeviceMessageQueue {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly delivering = new Set<string>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private stopped = false;
  private lastCreatedAt = 0;
  private readonly delayMs: number;
  private readonly sweepIntervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly commands: CommandService,
    private readonly logger: MessageQueueLogger,
    options: MessageQueueOptions = {},
  ) {
    this.delayMs = options.delayMs ?? DELIVERY_DELAY_MS;
    this.sweepIntervalMs = options.sweepIntervalMs ?? SWEEP_INTERVAL_MS;
    this.now = options.now ?? Date.now;
  }

  /** Listens for devices connecting and starts the sweep. */
  start(events: DeviceEvents): void {
    this.unsubscribe = events.on((event) => {
      if (event.type !== 'server/connectionState' || !event.isConnected) return;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.deliverByThingName(event.thingName);
      }, this.delayMs);
      this.timers.add(timer);
    });
    this.sweepTimer = setInterval(() => void this.sweep(), this.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /**
   * Queues messages for a device, all or none; answers them as the API shows them. A message for a
   * target already waiting replaces it; past the limit on messages waiting per device (counted after
   * those replacements, in one transaction, so it holds under parallel requests) none is queued and
   * the call is refused with 429 naming the limit.
   */
  async enqueue(
    device: { id: string; accountId: string; name: string },
    messages: readonly DeviceMessage[],
    by: UserContext,
  ): Promise<QueuedDeviceMessage[]> {
    const deviceId = device.id;
    const userId = by.id;
    const rows = messages.map((message) => {
      // Strictly increasing, so messages queued in the same millisecond keep their order.
      const now = Math.max(this.now(), this.lastCreatedAt + 1);
      this.lastCreatedAt = now;
      return {
        id: newId(),
        device_id: deviceId,
        target: messageTarget(message),
        message: JSON.stringify(message),
        status: 'pending',
        attempts: 0,
        created_by: userId,
        created_at: now,
        expires_at: now + MESSAGE_TTL_MS,
        claimed_at: null,
        settled_at: null,
        result: null,
      };
    });
    await this.db.transaction().execute(async (trx) => {
      await lockLimitedWork(trx, [`messages:device:${deviceId}`]);
      const targets = new Set(rows.map((row) => row.target));
      const kept = (await pendingTargetsOf(trx, deviceId)).filter((target) => !targets.has(target));
      const refusal = workLimitRefusal([['queuedMessagesPerDevice', kept.length + targets.size]]);
      if (refusal) throw limitReached(refusal);
      for (const row of rows) {
        await enqueueMessage(trx, row);
        // Recorded once, here: its delivery when the device is back is the same command.
        await audit.record(trx, {
          accountId: device.accountId,
          by: byUser(by),
          action: 'device.message',
          target: { kind: 'device', id: deviceId, name: device.name },
          deviceId,
          after: { ...(JSON.parse(row.message) as object), messageId: row.id, queued: true },
          at: row.created_at,
        });
      }
    });
    return rows.map(toQueuedMessage);
  }

  /** A device's messages still waiting for it, oldest first (the device's `settings`). */
  async pendingOf(deviceId: string): Promise<QueuedDeviceMessage[]> {
    return (await pendingMessagesOf(this.db, deviceId)).map(toQueuedMessage);
  }

  /** Delivers the pending messages of every connected device (and expires old ones). */
  async sweep(): Promise<void> {
    try {
      await expireMessages(this.db, this.now());
      for (const device of await connectedDevicesWithPendingMessages(this.db)) {
        if (this.stopped) return;
        await this.deliver(device.id, device.thing_name);
      }
    } catch (error) {
      if (!this.stopped) this.logger.warn({ err: error }, 'Queued device messages: sweep failed');
    }
  }

  private async deliverByThingName(thingName: string): Promise<void> {
    try {
      const device = await this.db
        .selectFrom('devices')
        .select(['id', 'is_connected'])
        .where('thing_name', '=', thingName)
        .executeTakeFirst();
      if (device?.is_connected === 1) await this.deliver(device.id, thingName);
    } catch (error) {
      if (!this.stopped) this.logger.warn({ err: error, thingName }, 'Queued device messages: delivery failed');
    }
  }

  /**
   * Sends a device's pending messages one at a time, oldest first. An unanswered message stops the
   * round (order matters: a later setting must not overtake an earlier one) and is retried later.
   */
  async deliver(deviceId: string, thingName: string): Promise<void> {
    if (this.delivering.has(deviceId) || this.stopped) return;
    this.delivering.add(deviceId);
    try {
      for (const row of await pendingMessagesOf(this.db, deviceId)) {
        if (this.stopped) return;
        const now = this.now();
        if (!(await claimMessage(this.db, row.id, now, now - CLAIM_TTL_MS))) continue;
        if (row.expires_at <= now) {
          await settleMessage(this.db, row.id, 'expired', now, null);
          continue;
        }
        const outcome = await this.commands.send(thingName, JSON.parse(row.message) as CommandRequest, {
          recordedWith: 'device.message',
        });
        if (this.stopped) return;
        if (outcome.result === 'OK') {
          const value = 'value' in outcome && outcome.value !== undefined ? JSON.stringify(outcome.value) : null;
          await settleMessage(this.db, row.id, 'delivered', this.now(), value);
        } else if (outcome.result === 'FAIL') {
          await settleMessage(this.db, row.id, 'failed', this.now(), REALTIME_COMMAND_FAILED_MESSAGE);
        } else {
          const attempts = row.attempts + 1;
          if (attempts >= MAX_DELIVERY_ATTEMPTS) {
            await settleMessage(this.db, row.id, 'failed', this.now(), REALTIME_TIMEOUT_MESSAGE);
          } else {
            await releaseMessage(this.db, row.id, attempts);
            return;
          }
        }
      }
    } finally {
      this.delivering.delete(deviceId);
    }
  }
}
