import type { Kysely } from 'kysely';
import { evaluateAlarm, type AlarmEvaluation, type AlarmPhase, type AlarmSide } from '@fieldlink/domain/alarms';
import type { Database, AlarmConfigsTable } from '../../db/schema';
import { DeviceFollower } from '../../device-follower';
import type { DeviceEvent, DeviceEvents, EventOrigin } from '../../events';
import type { DeviceRef } from '../../ingest/device-directory';
import type { JobQueue } from '../../jobs/job-queue';
import { newId } from '../../security/secrets';
import { toAlarmRecord, toDomainConfig } from './mapper';
import type { AlarmNotices } from './notices';
import {
  clearActiveAlarm,
  compareAndSetEvaluation,
  configuredChannels,
  insertAlarm,
  openAlarmsOf,
  refreshAlarmsHaveBeenRead,
} from './repository';

export interface EvaluatorLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** Attempts when another instance moves the same channel's state at the same time. */
const MAX_CAS_ATTEMPTS = 5;

export function evaluationOf(row: AlarmConfigsTable): AlarmEvaluation {
  return {
    phase: row.phase as AlarmPhase,
    side: row.side as AlarmSide | null,
    since: row.since,
    lastT: row.last_t,
  };
}

/** A device with configured channels, as the evaluator's first check finds it by thing name. */
interface ConfiguredDevice {
  deviceId: string;
  codes: ReadonlySet<string>;
}

/**
 * Evaluates channel alarms where samples are committed: it listens to the events of frames this
 * instance stored (`local`), so in a cluster whichever instance ingests a frame evaluates it, and the
 * state lives in `alarm_configs` (compare-and-set on a version) so the next sample may be evaluated
 * by another instance. A device without alarms costs one map lookup per frame, and only configured
 * channels are read; the map is read again when a configuration changes (here, or on another
 * instance: its `server/alarms` event is relayed) and every minute.
 */
export class AlarmEvaluator extends DeviceFollower<ConfiguredDevice> {
  constructor(
    private readonly db: Kysely<Database>,
    events: DeviceEvents,
    private readonly jobs: JobQueue,
    /** Mail and webhooks about alarms and disconnections (the alarms service tells it of acknowledgements). */
    readonly notices: AlarmNotices,
    /** The device behind a thing name (ingest's cached directory). */
    private readonly findDevice: (thingName: string) => Promise<DeviceRef | null>,
    private readonly logger: EvaluatorLogger,
  ) {
    super(events, logger, 'Alarm evaluation failed');
  }

  /** The devices with alarms: their configured channels, by thing name. */
  protected async readDirectory(): Promise<Map<string, ConfiguredDevice>> {
    const configured = new Map<string, { deviceId: string; codes: Set<string> }>();
    for (const { thingName, deviceId, code } of await configuredChannels(this.db)) {
      const device = configured.get(thingName) ?? { deviceId, codes: new Set<string>() };
      device.codes.add(code);
      configured.set(thingName, device);
    }
    return configured;
  }

  /** Tells browsers watching the device of its open alarms (and other instances, through the relay). */
  async announce(deviceId: string): Promise<void> {
    const device = await this.db
      .selectFrom('devices')
      .select(['thing_name', 'status'])
      .where('id', '=', deviceId)
      .executeTakeFirst();
    if (!device) return;
    const open = await openAlarmsOf(this.db, deviceId);
    this.events.emit({
      type: 'server/alarms',
      thingName: device.thing_name,
      status: JSON.parse(device.status || '{}') as { sp?: number },
      alarms: open.map(toAlarmRecord),
    });
  }

  protected onEvent(event: DeviceEvent, origin: EventOrigin): void {
    if (origin === 'remote') {
      // Another instance changed a configuration (this one reloads in `AlarmService.putAlarm`).
      if (event.type === 'server/alarms' && event.alarms !== undefined) void this.reload().catch(() => undefined);
      return;
    }
    if (event.type === 'server/newRawLogs') {
      this.refreshWhenStale();
      const device = this.directory.get(event.thingName);
      if (!device) return;
      this.work.run(event.thingName, () => this.evaluateLogs(device, event.logs));
    } else if (event.type === 'server/connectionState') {
      this.work.run(event.thingName, () => this.connectionChanged(event));
    }
  }

  private async connectionChanged(event: Extract<DeviceEvent, { type: 'server/connectionState' }>): Promise<void> {
    const device = await this.findDevice(event.thingName);
    if (!device) return;
    if (!event.isConnected && event.lastDisconnection !== null) {
      await this.notices.scheduleDisconnection(device.id, event.lastDisconnection);
    } else if (event.isConnected && event.lastConnection !== null) {
      await this.notices.reconnected(device.id, event.lastConnection);
    }
  }

  private async evaluateLogs(
    { deviceId, codes }: ConfiguredDevice,
    logs: Record<string, { value: number; t: number }[]>,
  ): Promise<void> {
    let changed = false;
    for (const [code, samples] of Object.entries(logs)) {
      if (!codes.has(code)) continue;
      for (const sample of samples) {
        if (await this.evaluateSample(deviceId, code, sample)) changed = true;
      }
    }
    if (changed) await this.announce(deviceId);
  }

  /** Runs one sample through a channel's state machine; answers true when an alarm was raised or cleared. */
  private async evaluateSample(deviceId: string, code: string, sample: { t: number; value: number }): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const outcome = await this.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('alarm_configs')
          .selectAll()
          .where('device_id', '=', deviceId)
          .where('code', '=', code)
          .executeTakeFirst();
        if (!row) return 'done' as const;
        const before = evaluationOf(row);
        const { next, transitions } = evaluateAlarm(before, sample, toDomainConfig(row));
        // Only a change of phase, side or start is written: a channel at rest costs one read.
        if (next.phase === before.phase && next.side === before.side && next.since === before.since) {
          return 'unchanged' as const;
        }
        const written = await compareAndSetEvaluation(
          trx,
          { deviceId, code, version: row.version },
          { phase: next.phase, side: next.side, since: next.since, last_t: next.lastT },
        );
        if (!written) return 'retry' as const;
        for (const transition of transitions) {
          if (transition.kind === 'cleared') {
            const cleared = await clearActiveAlarm(trx, deviceId, code, transition.t, transition.value);
            await this.notices.alarmsChanged(trx, 'alarm.cleared', cleared);
          } else {
            const id = newId();
            await insertAlarm(trx, {
              id,
              device_id: deviceId,
              code,
              side: transition.side,
              severity: row.severity,
              threshold: transition.threshold,
              value: transition.value,
              raised_at: transition.t,
              cleared_at: null,
              cleared_value: null,
              acknowledged_at: null,
              acknowledged_by: null,
              reminders_sent: 0,
              escalated_at: null,
              escalation_steps: 0,
            });
            await this.notices.scheduleForRaised(trx, id, transition.t);
          }
        }
        if (transitions.length > 0) await refreshAlarmsHaveBeenRead(trx, deviceId);
        return transitions.length > 0 ? ('transitioned' as const) : ('unchanged' as const);
      });
      if (outcome === 'retry') continue;
      if (outcome === 'transitioned') this.jobs.nudge();
      return outcome === 'transitioned';
    }
    this.logger.warn({ deviceId, code }, 'Alarm state kept changing under this instance; sample skipped');
    return false;
  }
}
