import type { Kysely, Transaction } from 'kysely';
import type { OtaFrame } from '@fieldlink/api/device-frames';
import type {
  OtaApproveAnswer,
  OtaApproveBody,
  OtaItemResult,
  OtaPendingAnswer,
  OtaRollout,
  OtaRolloutsAnswer,
  OtaSubmitAnswer,
  OtaSubmitBody,
  OtaUpdate,
} from '@fieldlink/api/ota';
import { OTA_FINISHED_ROLLOUT_SHOWN_MS } from '@fieldlink/api/ota';
import {
  OTA_DEFAULT_ABORT_CRITERIA,
  OTA_DEFAULT_DEVICES_PER_MINUTE,
  OTA_RELOAD_DELAY_MS,
  applyOtaReport,
  approvalEffect,
  checkUpdateCommand,
  dispatchAllowance,
  dispatchSlotAt,
  endsPendingMark,
  OTA_IN_FLIGHT_STATES,
  isOtaFinal,
  isOtaState,
  shouldStopRollout,
  type OtaAbortCriteria,
  type OtaState,
} from '@fieldlink/domain/ota';
import type { Database } from '../../db/schema';
import type { DeviceEvents } from '../../events';
import { HttpError, forbidden } from '../../http-errors';
import type { DeviceRef } from '../../ingest/device-directory';
import type { WebhookService } from '../webhooks/service';
import type { JobQueue } from '../../jobs/job-queue';
import type { CommandService } from '../../realtime/commands';
import { newId } from '../../security/secrets';
import { DEVICE_NOT_FOUND } from '@fieldlink/api/errors';
import { inScope, requireCapability, userCan } from '../session/access';
import { audit, byUser } from '../audit/service';
import type { UserContext } from '../session/user-context';
import {
  UNFINISHED_STATES,
  devicesWithPaths,
  findRollout,
  findUpdate,
  latestUpdatesOf,
  moveUpdate,
  pendingDevices,
  queuedForOnlineDevices,
  recentRollouts,
  rolloutUpdates,
  silentInFlight,
  stateCounts,
  submittersOf,
  type OtaRolloutRow,
  type OtaUpdateRow,
} from './repository';

export const ALREADY_UPDATING = 'The device already has an OTA update in progress.';
export const NOTHING_TO_APPROVE = 'No OTA update of this device awaits approval.';
export const SKIP_APPROVAL_FORBIDDEN = 'Only administrators may skip approval.';

/** Rollouts the review lists at most (the newest). */
const MAX_ROLLOUTS_SHOWN = 20;

/** Job kinds of this feature. */
export const OTA_TICK_JOB = 'ota.tick';
export const OTA_RELOAD_JOB = 'ota.reload';

/** Unanswered deliveries of an update command before the update is marked failed. */
const MAX_DELIVERY_ATTEMPTS = 5;
/** An update the device holds but has not reported on for this long has failed. */
const PROGRESS_TIMEOUT_MS = 30 * 60_000;
/** How often a rollout looks again while it waits for devices to come online or report. */
const IDLE_TICK_MS = 5_000;

export interface OtaLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface OtaOptions {
  now?: () => number;
  idleTickMs?: number;
  progressTimeoutMs?: number;
  reloadDelayMs?: number;
}

interface OtaDeps {
  db: Kysely<Database>;
  jobs: JobQueue;
  commands: CommandService;
  events: DeviceEvents;
  logger: OtaLogger;
  /** Tells the accounts' webhooks of updates that finished or failed. */
  webhooks: WebhookService;
}

type Db = Kysely<Database> | Transaction<Database>;

/** A nullable numeric column as a number (PostgreSQL answers `numeric` and `bigint` as strings). */
const numberOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

/** The one mapping of an update row to the API's OtaUpdate (the Device `update` field). */
export function toOtaUpdate(row: OtaUpdateRow): OtaUpdate {
  return {
    id: row.id,
    rolloutId: row.rollout_id,
    state: isOtaState(row.state) ? row.state : 'FAILED',
    percent: numberOrNull(row.percent),
    updateCommand: row.update_command,
    submittedAt: Number(row.submitted_at),
    finishedAt: numberOrNull(row.finished_at),
    error: row.error,
    fw: row.fw,
  };
}

const failed = (message: string): OtaItemResult => ({ error: { message } });

/** 400 when a call names a device twice. */
function requireDistinctDevices(deviceIds: readonly string[]): void {
  if (new Set(deviceIds).size !== deviceIds.length) throw new HttpError(400, 'Name each device once.');
}

/** A stored rollout's failure threshold, as the domain's stop rule reads it. */
function abortCriteriaOf(rollout: OtaRolloutRow): OtaAbortCriteria {
  return {
    failureThresholdPercent: Number(rollout.failure_threshold_percent),
    minExecuted: rollout.min_executed,
    failureThresholdCount: rollout.failure_threshold_count,
  };
}

/**
 * Over-the-air updates (application §4, §6, §7): submission (held for an administrator's approval, or
 * sent at once with skipApproval), approval, a rollout paced in devices per minute that stops itself
 * at its failure threshold, the device's progress reports and the reload 30 s after an update ends.
 * Pacing and reloads are jobs in the jobs table, so any instance of a cluster runs each once.
 */
export class OtaService {
  private readonly db: Kysely<Database>;
  private readonly now: () => number;
  private readonly idleTickMs: number;
  private readonly progressTimeoutMs: number;
  private readonly reloadDelayMs: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly deps: OtaDeps,
    options: OtaOptions = {},
  ) {
    this.db = deps.db;
    this.now = options.now ?? Date.now;
    this.idleTickMs = options.idleTickMs ?? IDLE_TICK_MS;
    this.progressTimeoutMs = options.progressTimeoutMs ?? PROGRESS_TIMEOUT_MS;
    this.reloadDelayMs = options.reloadDelayMs ?? OTA_RELOAD_DELAY_MS;
    deps.jobs.register(
      OTA_TICK_JOB,
      (payload, job) => this.tick((payload as { rolloutId: string }).rolloutId, job.id),
      {
        maxAttempts: 20,
      },
    );
    deps.jobs.register(OTA_RELOAD_JOB, (payload) => this.reload((payload as { updateId: string }).updateId), {
      maxAttempts: 3,
    });
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** `POST /devices/ota-submit`: one item per device, in the order asked. */
  async submit(user: UserContext, body: OtaSubmitBody): Promise<OtaSubmitAnswer> {
    requireCapability(user, 'submitOta');
    const skipApproval = body.skipApproval === true;
    if (skipApproval && !userCan(user, 'viewPendingOta')) throw forbidden(SKIP_APPROVAL_FORBIDDEN);
    const check = checkUpdateCommand(body.updateCommand);
    if (!check.ok) throw new HttpError(400, check.error);
    requireDistinctDevices(body.deviceIds);
    const criteria = {
      failureThresholdPercent: body.failureThresholdPercent ?? OTA_DEFAULT_ABORT_CRITERIA.failureThresholdPercent,
      minExecuted: body.minExecuted ?? OTA_DEFAULT_ABORT_CRITERIA.minExecuted,
      failureThresholdCount: body.failureThresholdCount ?? OTA_DEFAULT_ABORT_CRITERIA.failureThresholdCount,
    };
    const now = this.now();
    const rolloutId = newId();
    const state: OtaState = skipApproval ? 'QUEUED' : 'AWAITING_APPROVAL';

    const { items, accepted } = await this.db.transaction().execute(async (trx) => {
      const devices = new Map((await devicesWithPaths(trx, body.deviceIds)).map((row) => [row.id, row]));
      const latest = await latestUpdatesOf(trx, [...devices.keys()]);
      const accepted: {
        deviceId: string;
        thingName: string;
        update: OtaUpdateRow;
        device: { account_id: string; name: string; fw: string | null };
      }[] = [];
      const items: OtaItemResult[] = body.deviceIds.map((deviceId, position) => {
        const device = devices.get(deviceId);
        // A device out of scope is answered exactly like one that does not exist.
        if (!device || !inScope(user, device.path)) return failed(DEVICE_NOT_FOUND);
        const current = latest.get(deviceId);
        if (current && UNFINISHED_STATES.some((state) => state === current.state)) return failed(ALREADY_UPDATING);
        const update: OtaUpdateRow = {
          id: newId(),
          rollout_id: rolloutId,
          device_id: deviceId,
          position,
          state,
          percent: null,
          update_command: check.updateCommand,
          submitted_at: now,
          submitted_by: user.id,
          approved_at: null,
          approved_by: null,
          sent_at: null,
          last_report_at: null,
          finished_at: null,
          reloaded_at: null,
          attempts: 0,
          fw: null,
          error: null,
        };
        accepted.push({ deviceId, thingName: device.thing_name, update, device });
        return { deviceId, updateId: update.id, state };
      });
      // Nothing accepted: nothing is written (a refused call changes nothing).
      if (accepted.length === 0) return { items, accepted };
      await trx
        .insertInto('ota_rollouts')
        .values({
          id: rolloutId,
          update_command: check.updateCommand,
          skip_approval: skipApproval ? 1 : 0,
          devices_per_minute: body.devicesPerMinute ?? OTA_DEFAULT_DEVICES_PER_MINUTE,
          failure_threshold_percent: criteria.failureThresholdPercent,
          min_executed: criteria.minExecuted,
          failure_threshold_count: criteria.failureThresholdCount,
          state: 'RUNNING',
          stop_reason: null,
          started_at: skipApproval ? now : null,
          dispatched: 0,
          tick_job_id: null,
          created_by: user.id,
          created_at: now,
          finished_at: null,
        })
        .execute();
      for (const { update, device } of accepted) {
        await trx.insertInto('ota_updates').values(update).execute();
        await audit.record(trx, {
          accountId: device.account_id,
          by: byUser(user),
          action: 'ota.submit',
          target: { kind: 'device', id: update.device_id, name: device.name },
          deviceId: update.device_id,
          before: { fw: device.fw },
          after: { updateId: update.id, rolloutId, updateCommand: update.update_command, state, skipApproval },
          at: now,
        });
        await trx
          .updateTable('devices')
          .set({ ota_pending_submitted_at: now, ota_update: JSON.stringify(toOtaUpdate(update)) })
          .where('id', '=', update.device_id)
          .execute();
      }
      if (skipApproval) await this.scheduleTick(trx, rolloutId, now, null);
      return { items, accepted };
    });
    for (const { deviceId, thingName, update } of accepted) this.publish(deviceId, thingName, update, now);
    if (skipApproval && accepted.length > 0) this.wake(now);
    return items;
  }

  /**
   * `POST /devices/ota-approve`: releases updates held for approval and signs off those sent with
   * skipApproval; either way the device's pending timestamp is cleared.
   */
  async approve(user: UserContext, body: OtaApproveBody): Promise<OtaApproveAnswer> {
    requireCapability(user, 'viewPendingOta');
    requireDistinctDevices(body.deviceIds);
    const now = this.now();
    const { items, changed, released } = await this.db.transaction().execute(async (trx) => {
      const devices = new Map((await devicesWithPaths(trx, body.deviceIds)).map((row) => [row.id, row]));
      const latest = await latestUpdatesOf(trx, [...devices.keys()]);
      const changed: { deviceId: string; thingName: string; update: OtaUpdateRow; pendingAt: number | null }[] = [];
      const released = new Set<string>();
      const items: OtaItemResult[] = [];
      for (const deviceId of body.deviceIds) {
        const device = devices.get(deviceId);
        if (!device || !inScope(user, device.path)) {
          items.push(failed(DEVICE_NOT_FOUND));
          continue;
        }
        let update = latest.get(deviceId) ?? null;
        const effect = approvalEffect({
          otaPendingSubmittedAt: device.ota_pending_submitted_at,
          state: update && isOtaState(update.state) ? update.state : null,
        });
        if (effect === 'none') {
          items.push(failed(NOTHING_TO_APPROVE));
          continue;
        }
        if (update && effect === 'release') {
          const set = { state: 'QUEUED', approved_at: now, approved_by: user.id } as const;
          if (await moveUpdate(trx, update.id, 'AWAITING_APPROVAL', set)) {
            update = { ...update, ...set };
            released.add(update.rollout_id);
          }
        } else if (update && update.approved_at === null) {
          await trx
            .updateTable('ota_updates')
            .set({ approved_at: now, approved_by: user.id })
            .where('id', '=', update.id)
            .execute();
          update = { ...update, approved_at: now, approved_by: user.id };
        }
        await trx
          .updateTable('devices')
          .set({ ota_pending_submitted_at: null, ...(update && { ota_update: JSON.stringify(toOtaUpdate(update)) }) })
          .where('id', '=', deviceId)
          .execute();
        await audit.record(trx, {
          accountId: device.account_id,
          by: byUser(user),
          action: 'ota.approve',
          target: { kind: 'device', id: deviceId, name: device.name },
          deviceId,
          before: { otaPendingSubmittedAt: device.ota_pending_submitted_at },
          after: { otaPendingSubmittedAt: null, updateId: update?.id ?? null, effect },
          at: now,
        });
        if (update) {
          changed.push({ deviceId, thingName: device.thing_name, update, pendingAt: null });
          items.push({ deviceId, updateId: update.id, state: toOtaUpdate(update).state });
        }
      }
      for (const rolloutId of released) {
        await trx
          .updateTable('ota_rollouts')
          .set({ started_at: now })
          .where('id', '=', rolloutId)
          .where('started_at', 'is', null)
          .execute();
        await this.scheduleTick(trx, rolloutId, now, null);
      }
      return { items, changed, released };
    });
    for (const { deviceId, thingName, update, pendingAt } of changed) {
      this.publish(deviceId, thingName, update, pendingAt);
    }
    if (released.size > 0) this.wake(now);
    return items;
  }

  /**
   * `GET /devices/ota-rollouts` (ours): the rollouts running or finished in the last day that reach a
   * device in the administrator's scope, with only those devices, newest first. A rollout's stop
   * reason counts all its devices, so it is told only to a caller who sees every one of them.
   */
  async rollouts(user: UserContext): Promise<OtaRolloutsAnswer> {
    requireCapability(user, 'viewPendingOta');
    const rows = await recentRollouts(this.db, this.now() - OTA_FINISHED_ROLLOUT_SHOWN_MS, MAX_ROLLOUTS_SHOWN);
    const updates = await rolloutUpdates(
      this.db,
      rows.map((row) => row.id),
    );
    const byRollout = new Map<string, { devices: OtaRollout['devices']; all: number }>();
    for (const update of updates) {
      const entry = byRollout.get(update.rollout_id) ?? { devices: [], all: 0 };
      entry.all += 1;
      if (inScope(user, update.path) && isOtaState(update.state)) {
        entry.devices.push({
          deviceId: update.device_id,
          thingName: update.thing_name,
          name: update.name,
          state: update.state,
          percent: update.percent === null ? null : Number(update.percent),
          error: update.error,
        });
      }
      byRollout.set(update.rollout_id, entry);
    }
    const rollouts: OtaRollout[] = [];
    for (const row of rows) {
      const entry = byRollout.get(row.id);
      if (!entry || entry.devices.length === 0) continue;
      rollouts.push({
        id: row.id,
        updateCommand: row.update_command,
        state: row.state === 'STOPPED' ? 'STOPPED' : row.state === 'COMPLETED' ? 'COMPLETED' : 'RUNNING',
        stopReason: entry.devices.length === entry.all ? row.stop_reason : null,
        skipApproval: row.skip_approval === 1,
        devicesPerMinute: row.devices_per_minute,
        createdAt: Number(row.created_at),
        startedAt: row.started_at === null ? null : Number(row.started_at),
        finishedAt: row.finished_at === null ? null : Number(row.finished_at),
        devices: entry.devices,
      });
    }
    return { rollouts };
  }

  /** `GET /devices/ota-pending`: devices in the administrator's scope whose update awaits approval. */
  async pending(user: UserContext): Promise<OtaPendingAnswer> {
    requireCapability(user, 'viewPendingOta');
    // A device marked before its update succeeded (a mark older than the rule) awaits nothing either.
    const rows = (await pendingDevices(this.db)).filter(
      (row) =>
        inScope(user, row.path) &&
        row.ota_update !== null &&
        approvalEffect({
          otaPendingSubmittedAt: Number(row.ota_pending_submitted_at),
          state: (JSON.parse(row.ota_update) as OtaUpdate).state,
        }) !== 'none',
    );
    const updates = new Map(rows.map((row) => [row.id, JSON.parse(row.ota_update!) as OtaUpdate]));
    const latest = await latestUpdatesOf(
      this.db,
      rows.map((row) => row.id),
    );
    const submitters = await submittersOf(
      this.db,
      [...latest.values()].map((row) => row.submitted_by).filter((id): id is string => id !== null),
    );
    // The submitter is named only when the caller can see that user (a supplier's staff stay unnamed
    // to its customers).
    const submitterEmail = (userId: string | null | undefined): string | null => {
      const submitter = userId ? submitters.get(userId) : undefined;
      return submitter && submitter.paths.some((path) => inScope(user, path)) ? submitter.email : null;
    };
    return {
      devices: rows.map((row) => {
        return {
          deviceId: row.id,
          thingName: row.thing_name,
          name: row.name,
          fw: row.fw,
          isConnected: row.is_connected === 1,
          otaPendingSubmittedAt: Number(row.ota_pending_submitted_at),
          submittedBy: submitterEmail(latest.get(row.id)?.submitted_by),
          update: updates.get(row.id)!,
        };
      }),
    };
  }

  /**
   * A device's `ota` frame: moves its update along; a final state schedules the reload. A device's
   * frames are handled concurrently, so two reports may read the same row: each is written only over
   * the state and percent it was applied to, and one that finds the row moved meanwhile is applied
   * again to what it is now (a download at 40 % read before, and written after, the one at 100 % set
   * the update back to 40 % and told the browser so: ota.test.ts on PostgreSQL at load 8).
   */
  async report(device: DeviceRef, frame: OtaFrame): Promise<void> {
    const row = await findUpdate(this.db, frame.updateId);
    if (!row || row.device_id !== device.id || !isOtaState(row.state)) return;
    const current = { state: row.state, percent: numberOrNull(row.percent) };
    const next = applyOtaReport(current, { state: frame.state, percent: frame.percent ?? null });
    if (!next) return;
    const now = this.now();
    const final = isOtaFinal(next.state);
    const set: Partial<OtaUpdateRow> = {
      state: next.state,
      percent: next.percent,
      last_report_at: now,
      ...(final && { finished_at: now }),
      ...(frame.fw !== undefined && { fw: frame.fw }),
      ...(next.state === 'FAILED' && { error: frame.error ?? 'The device reported a failure.' }),
    };
    const updated = await this.db.transaction().execute(async (trx) => {
      if (!(await moveUpdate(trx, row.id, current.state, set, current.percent))) return null;
      const update = { ...row, ...set };
      const pendingAt = await this.writeDeviceUpdate(trx, update);
      await this.tellWebhooks(trx, update);
      if (final) {
        await this.deps.jobs.enqueue(OTA_RELOAD_JOB, { updateId: row.id }, { runAt: now + this.reloadDelayMs }, trx);
      }
      return { update, pendingAt };
    });
    // Moved by another report (or instance) since it was read: apply this one to the row as it is now.
    if (!updated) return this.report(device, frame);
    // Told at once, with what the transaction read: the browsers get a device's steps in commit order.
    this.publish(device.id, device.thingName, updated.update, updated.pendingAt);
    if (final) {
      this.deps.jobs.nudge();
      this.wake(now + this.reloadDelayMs);
      await this.checkRollout(row.rollout_id);
    }
  }

  /**
   * One pacing step of a rollout (a job): fails updates whose device went silent, stops the rollout
   * at its failure threshold, sends as many updates as the pace allows to online devices, and
   * schedules the next step.
   */
  async tick(rolloutId: string, jobId: string): Promise<void> {
    const rollout = await findRollout(this.db, rolloutId);
    if (!rollout || rollout.state !== 'RUNNING') {
      await this.clearTick(rolloutId, jobId);
      return;
    }
    const now = this.now();
    for (const silent of await silentInFlight(this.db, rolloutId, now - this.progressTimeoutMs)) {
      await this.finish(silent, 'FAILED', 'The device stopped reporting progress.');
    }
    if (await this.checkRollout(rolloutId, { tick: false })) {
      await this.clearTick(rolloutId, jobId);
      return;
    }
    // The pace counts from the first send: a rollout whose first step ran late does not catch up in a burst.
    const startedAt = rollout.dispatched === 0 ? now : Number(rollout.started_at ?? now);
    const allowance = dispatchAllowance({
      startedAt,
      now,
      dispatched: rollout.dispatched,
      devicesPerMinute: rollout.devices_per_minute,
    });
    const batch = allowance > 0 ? await queuedForOnlineDevices(this.db, rolloutId, allowance) : [];
    const deliveries: Promise<void>[] = [];
    let dispatched = rollout.dispatched;
    for (const update of batch) {
      const set = { state: 'SENT', sent_at: now, attempts: update.attempts + 1 } as const;
      const { thing_name: thingName, ...row } = update;
      if (!(await moveUpdate(this.db, row.id, 'QUEUED', set))) continue;
      dispatched += 1;
      await this.db
        .updateTable('ota_rollouts')
        .set({ dispatched, started_at: startedAt })
        .where('id', '=', rolloutId)
        .execute();
      const sent = { ...row, ...set };
      this.publish(row.device_id, thingName, sent, await this.writeDeviceUpdate(this.db, sent));
      deliveries.push(this.deliver(sent, thingName));
    }
    await Promise.all(deliveries);
    if (await this.checkRollout(rolloutId, { tick: false })) {
      await this.clearTick(rolloutId, jobId);
      return;
    }
    // Next step: the next slot of the pace when devices wait for it, else a while later.
    const counts = await stateCounts(this.db, rolloutId);
    const waiting = (counts.QUEUED ?? 0) > 0;
    const inFlight = OTA_IN_FLIGHT_STATES.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
    if (!waiting && inFlight === 0) {
      // Only updates held for approval are left: approving them starts the steps again.
      await this.clearTick(rolloutId, jobId);
      return;
    }
    const nextSlot = dispatchSlotAt(startedAt, dispatched, rollout.devices_per_minute);
    const runAt = waiting && nextSlot > now ? Math.min(nextSlot, now + this.idleTickMs) : now + this.idleTickMs;
    await this.db.transaction().execute((trx) => this.scheduleTick(trx, rolloutId, runAt, jobId));
    this.wake(runAt);
  }

  /** 30 s after an update ended: the device is asked for its config again and browsers reload it. */
  async reload(updateId: string): Promise<void> {
    const row = await findUpdate(this.db, updateId);
    if (!row || row.reloaded_at !== null) return;
    const device = await this.db
      .selectFrom('devices')
      .select(['thing_name', 'is_connected', 'ota_pending_submitted_at'])
      .where('id', '=', row.device_id)
      .executeTakeFirst();
    if (!device) return;
    const now = this.now();
    await this.db.updateTable('ota_updates').set({ reloaded_at: now }).where('id', '=', updateId).execute();
    // New firmware: its config frames (fw, channels) are read again. Best effort: a device still
    // rebooting publishes them itself when it connects.
    if (device.is_connected === 1) {
      void this.deps.commands.send(device.thing_name, { cmd: 'refreshMetadata' }, { recordedWith: 'ota.approve' });
    }
    this.deps.events.emit({
      type: 'server/otaProgress',
      thingName: device.thing_name,
      deviceId: row.device_id,
      update: toOtaUpdate(row),
      otaPendingSubmittedAt: numberOrNull(device.ota_pending_submitted_at),
      reloadedAt: now,
    });
  }

  /** Sends the update command; a refusal fails the update, silence puts it back in the queue. */
  private async deliver(update: OtaUpdateRow, thingName: string): Promise<void> {
    const outcome = await this.deps.commands.send(
      thingName,
      { cmd: 'otaUpdate', updateId: update.id, updateCommand: update.update_command },
      { recordedWith: 'ota.approve' },
    );
    if (this.stopped || outcome.result === 'OK') return;
    if (outcome.result === 'FAIL') {
      await this.finish(update, 'FAILED', 'The device refused the update.', ['SENT']);
      return;
    }
    if (update.attempts >= MAX_DELIVERY_ATTEMPTS) {
      await this.finish(update, 'FAILED', 'The device did not answer the update command.', ['SENT']);
      return;
    }
    if (await moveUpdate(this.db, update.id, 'SENT', { state: 'QUEUED', sent_at: null })) {
      const queued = { ...update, state: 'QUEUED', sent_at: null };
      this.publish(update.device_id, thingName, queued, await this.writeDeviceUpdate(this.db, queued));
    }
  }

  /** Ends an update in a final state (unless it moved meanwhile) and schedules the reload. */
  private async finish(
    update: OtaUpdateRow,
    state: 'FAILED' | 'CANCELLED',
    error: string,
    from: readonly OtaState[] = [update.state as OtaState],
  ): Promise<void> {
    const done = await this.db.transaction().execute((trx) => this.finishIn(trx, update, state, error, from));
    if (done) await this.announceFinished(done);
  }

  /** Ends an update within a transaction; null when it had already moved on. */
  private async finishIn(
    trx: Transaction<Database>,
    update: OtaUpdateRow,
    state: 'FAILED' | 'CANCELLED',
    error: string,
    from: readonly OtaState[] = [update.state as OtaState],
  ): Promise<OtaUpdateRow | null> {
    const now = this.now();
    const set = { state, error, finished_at: now };
    if (!(await moveUpdate(trx, update.id, from, set))) return null;
    const finished = { ...update, ...set };
    await this.writeDeviceUpdate(trx, finished, state === 'CANCELLED' && update.sent_at === null);
    await this.tellWebhooks(trx, finished);
    if (state === 'FAILED') {
      await this.deps.jobs.enqueue(OTA_RELOAD_JOB, { updateId: update.id }, { runAt: now + this.reloadDelayMs }, trx);
    }
    return finished;
  }

  /** Queues `ota.finished` or `ota.failed` for the webhooks, in the transaction that ended the update. */
  private async tellWebhooks(trx: Transaction<Database>, update: OtaUpdateRow): Promise<void> {
    const type = { SUCCEEDED: 'ota.finished', FAILED: 'ota.failed' }[update.state] as
      'ota.finished' | 'ota.failed' | undefined;
    if (!type) return;
    const device = await trx
      .selectFrom('devices')
      .innerJoin('groups', 'groups.id', 'devices.group_id')
      .select(['devices.name', 'devices.thing_name', 'devices.account_id', 'groups.path'])
      .where('devices.id', '=', update.device_id)
      .executeTakeFirst();
    if (!device) return;
    const ended = type === 'ota.finished' ? 'finished its update' : `failed its update: ${update.error ?? ''}`;
    await this.deps.webhooks.emit(trx, {
      type,
      devicePath: device.path,
      accountId: device.account_id,
      summary: `${device.name} (${device.thing_name}) ${ended}`.trim(),
      data: {
        device: { id: update.device_id, thingName: device.thing_name, name: device.name },
        update: {
          id: update.id,
          rolloutId: update.rollout_id,
          state: update.state,
          fw: update.fw,
          error: update.error,
          finishedAt: update.finished_at,
        },
      },
      at: update.finished_at ?? this.now(),
    });
  }

  /** Tells the device's watchers that an update ended; a failure may stop its rollout. */
  private async announceFinished(done: OtaUpdateRow): Promise<void> {
    this.deps.jobs.nudge();
    const device = await this.db
      .selectFrom('devices')
      .select(['thing_name', 'ota_pending_submitted_at'])
      .where('id', '=', done.device_id)
      .executeTakeFirst();
    if (device) {
      this.publish(done.device_id, device.thing_name, done, numberOrNull(device.ota_pending_submitted_at));
    }
    if (done.state === 'FAILED') await this.checkRollout(done.rollout_id);
  }

  /**
   * Stops the rollout when its failures cross the threshold (cancelling what it has not sent) and
   * completes it when every update is final. Answers true when the rollout is no longer running.
   */
  private async checkRollout(rolloutId: string, { tick = true } = {}): Promise<boolean> {
    const rollout = await findRollout(this.db, rolloutId);
    if (!rollout || rollout.state !== 'RUNNING') return true;
    const counts = await stateCounts(this.db, rolloutId);
    const succeeded = counts.SUCCEEDED ?? 0;
    const failedCount = counts.FAILED ?? 0;
    if (shouldStopRollout({ succeeded, failed: failedCount }, abortCriteriaOf(rollout))) {
      await this.stopRollout(rollout, succeeded, failedCount);
      return true;
    }
    const open = UNFINISHED_STATES.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
    if (open === 0) {
      await this.db
        .updateTable('ota_rollouts')
        .set({ state: 'COMPLETED', finished_at: this.now() })
        .where('id', '=', rolloutId)
        .where('state', '=', 'RUNNING')
        .execute();
      return true;
    }
    if (tick && (counts.QUEUED ?? 0) > 0) {
      // A device finished: the next one may go now rather than at the next idle step.
      await this.db.transaction().execute((trx) => this.scheduleTick(trx, rolloutId, this.now(), null));
      this.wake(this.now());
    }
    return false;
  }

  private async stopRollout(rollout: OtaRolloutRow, succeeded: number, failedCount: number): Promise<void> {
    const reason = `Stopped after ${failedCount} of ${succeeded + failedCount} devices failed.`;
    // The stop and the cancelling of what was not sent are one change: no reader sees a stopped
    // rollout with updates still queued.
    const cancelled = await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('ota_rollouts')
        .set({ state: 'STOPPED', stop_reason: reason, finished_at: this.now() })
        .where('id', '=', rollout.id)
        .where('state', '=', 'RUNNING')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return null;
      const unsent = await trx
        .selectFrom('ota_updates')
        .selectAll()
        .where('rollout_id', '=', rollout.id)
        .where('state', 'in', ['AWAITING_APPROVAL', 'QUEUED'])
        .execute();
      const done: OtaUpdateRow[] = [];
      for (const update of unsent) {
        const finished = await this.finishIn(trx, update, 'CANCELLED', `Rollout stopped: ${reason}`);
        if (finished) done.push(finished);
      }
      return done;
    });
    if (!cancelled) return;
    this.deps.logger.warn({ rollout: rollout.id, succeeded, failed: failedCount }, 'OTA rollout stopped');
    for (const done of cancelled) await this.announceFinished(done);
  }

  /**
   * Writes the device's `update` field. A cancelled update that was never sent no longer awaits
   * approval, and a succeeded one has nothing left to sign off (domain `endsPendingMark`): their
   * pending timestamp is cleared, so the banner and the pending list let the device go.
   */
  private async writeDeviceUpdate(db: Db, update: OtaUpdateRow, clearPending = false): Promise<number | null> {
    const ended = clearPending || (isOtaState(update.state) && endsPendingMark(update.state));
    const device = await db
      .updateTable('devices')
      .set({
        ota_update: JSON.stringify(toOtaUpdate(update)),
        ...(ended && { ota_pending_submitted_at: null }),
      })
      .where('id', '=', update.device_id)
      .returning('ota_pending_submitted_at')
      .executeTakeFirst();
    return numberOrNull(device?.ota_pending_submitted_at ?? null);
  }

  /**
   * Makes sure one pacing job of the rollout is due at `runAt`. `current` is the job now running
   * (it hands over to its successor); otherwise a job is added only if none is pending.
   */
  private async scheduleTick(trx: Transaction<Database>, rolloutId: string, runAt: number, current: string | null) {
    // Take the rollout's one pacing slot first (compare-and-set); a step already pending will see
    // what changed, so none is added then.
    const claim = `claim:${newId()}`;
    const taken = await trx
      .updateTable('ota_rollouts')
      .set({ tick_job_id: claim })
      .where('id', '=', rolloutId)
      .where((eb) => (current === null ? eb('tick_job_id', 'is', null) : eb('tick_job_id', '=', current)))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) return;
    const jobId = await this.deps.jobs.enqueue(OTA_TICK_JOB, { rolloutId }, { runAt }, trx);
    await trx.updateTable('ota_rollouts').set({ tick_job_id: jobId }).where('id', '=', rolloutId).execute();
  }

  private async clearTick(rolloutId: string, jobId: string): Promise<void> {
    await this.db
      .updateTable('ota_rollouts')
      .set({ tick_job_id: null })
      .where('id', '=', rolloutId)
      .where('tick_job_id', '=', jobId)
      .execute();
  }

  /** Nudges this instance's job queue at `at`, so a paced step runs on time rather than at the next poll. */
  private wake(at: number): void {
    if (this.stopped) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.deps.jobs.nudge();
      },
      Math.max(0, at - this.now()),
    );
    timer.unref();
    this.timers.add(timer);
  }

  /**
   * Tells the browsers watching the device, with its pending mark as the change left it. Sent as soon
   * as the change is made, in the order the changes were made (a read of the mark before sending let
   * a later step overtake an earlier one).
   */
  private publish(deviceId: string, thingName: string, update: OtaUpdateRow, pendingAt: number | null) {
    this.deps.events.emit({
      type: 'server/otaProgress',
      thingName,
      deviceId,
      update: toOtaUpdate(update),
      otaPendingSubmittedAt: pendingAt,
    });
  }
}
