import type { Kysely } from 'kysely';
import type {
  AcknowledgeAlarmsBody,
  AlarmListAnswer,
  AlarmListQuery,
  AlertListAnswer,
  AlertListQuery,
  ChannelAlarm,
  DeviceAlarmsAnswer,
  PutDeviceAlarmBody,
} from '@fieldlink/api/alarms';
import { alarmConfigProblem, NORMAL_EVALUATION } from '@fieldlink/domain/alarms';
import { normaliseChannelCode } from '@fieldlink/domain/channels';
import type { Database } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import { audit, byUser } from '../audit/service';
import { inScope, requireCapability } from '../session/access';
import type { UserContext } from '../session/user-context';
import type { DeviceService } from '../devices/service';
import { mutedDevicesOf, type DeviceWithPath } from '../devices/repository';
import { evaluationOf, type AlarmEvaluator } from './evaluator';
import { toAlarmConfig, toAlarmRecord, toAlertRecord } from './mapper';
import {
  acknowledgeAlarms,
  alarmConfigsOf,
  clearActiveAlarm,
  findAlarmConfig,
  findAlarms,
  listAlarms,
  listAlerts,
  openAlarmsOf,
  refreshAlarmsHaveBeenRead,
  upsertAlarmConfig,
} from './repository';

const ALARM_NOT_FOUND = 'Alarm not found.';
const DEFAULT_PAGE = 200;

/** A channel's alarm settings as the audit trail keeps them. */
function alarmSettings(config: {
  code: string;
  enabled: number;
  high: number | null;
  low: number | null;
  hysteresis: number;
  delay_seconds: number;
  severity: string;
}) {
  const { code, high, low, hysteresis, severity } = config;
  return { code, enabled: config.enabled === 1, high, low, hysteresis, delaySeconds: config.delay_seconds, severity };
}

/**
 * Alarm calls. Reading a device's alarms, the alarm list and the alerts needs only the device in the
 * caller's scope; configuring needs `configureAlarms`, acknowledging `respondToAlarms` (ALARM).
 * Scope is checked before anything is read or written: an alarm of another account is "not found".
 */
export class AlarmService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly devices: DeviceService,
    private readonly evaluator: AlarmEvaluator,
  ) {}

  /**
   * `GET /device/alarms ?deviceId`: every configured channel with its state and open alarm. Device
   * data: it needs the right to read devices, as `GET /device` and the real-time channel do.
   */
  async deviceAlarms(user: UserContext, deviceId: string): Promise<DeviceAlarmsAnswer> {
    return this.alarmsOf(await this.devices.readableDevice(user, { id: deviceId }));
  }

  private async alarmsOf(device: DeviceWithPath): Promise<DeviceAlarmsAnswer> {
    const [configs, open] = await Promise.all([alarmConfigsOf(this.db, device.id), openAlarmsOf(this.db, device.id)]);
    const alarms: ChannelAlarm[] = configs.map((row) => {
      const current = open.find((alarm) => alarm.code === row.code);
      return {
        config: toAlarmConfig(row),
        phase: evaluationOf(row).phase,
        current: current ? toAlarmRecord(current) : null,
      };
    });
    return { deviceId: device.id, alarms, alarmsHaveBeenRead: device.alarms_have_been_read === 1 };
  }

  /**
   * `PUT /device/alarm {alarm}`: stores one channel's alarm. A crossing being waited on starts over
   * under the new thresholds; disabling clears the channel's active alarm.
   */
  async putAlarm(user: UserContext, { alarm }: PutDeviceAlarmBody): Promise<ChannelAlarm> {
    requireCapability(user, 'configureAlarms');
    const device = await this.devices.visibleDevice(user, { id: alarm.deviceId });
    const code = normaliseChannelCode(alarm.code);
    if (code === null) throw new HttpError(400, `Not a channel code: ${alarm.code}`);
    const problem = alarmConfigProblem({ ...alarm, code });
    if (problem) throw new HttpError(400, problem);
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      const current = await findAlarmConfig(trx, device.id, code);
      const state = current ? evaluationOf(current) : NORMAL_EVALUATION;
      const disable = !alarm.enabled || (alarm.high === null && alarm.low === null);
      const keepActive = state.phase === 'ACTIVE' && !disable;
      if (state.phase === 'ACTIVE' && disable) {
        const cleared = await clearActiveAlarm(trx, device.id, code, now, null);
        await this.evaluator.notices.alarmsChanged(trx, 'alarm.cleared', cleared);
      }
      await upsertAlarmConfig(trx, {
        device_id: device.id,
        code,
        enabled: alarm.enabled ? 1 : 0,
        high: alarm.high,
        low: alarm.low,
        hysteresis: alarm.hysteresis,
        delay_seconds: alarm.delaySeconds,
        severity: alarm.severity,
        phase: keepActive ? 'ACTIVE' : 'NORMAL',
        side: keepActive ? state.side : null,
        since: keepActive ? state.since : null,
        last_t: state.lastT,
        version: (current?.version ?? 0) + 1,
        updated_by: user.id,
        updated_at: now,
      });
      await refreshAlarmsHaveBeenRead(trx, device.id);
      await audit.record(trx, {
        accountId: device.account_id,
        by: byUser(user),
        action: 'device.alarmConfig',
        target: { kind: 'device', id: device.id, name: device.name },
        deviceId: device.id,
        before: current ? alarmSettings(current) : null,
        after: alarmSettings({ ...alarm, code, enabled: alarm.enabled ? 1 : 0, delay_seconds: alarm.delaySeconds }),
        at: now,
      });
    });
    this.evaluator.notices.nudge();
    await this.evaluator.reload();
    await this.evaluator.announce(device.id);
    // The channel just stored, as its writer set it (configuring does not need the reading right).
    const answer = await this.alarmsOf(device);
    return answer.alarms.find((entry) => entry.config.code === code)!;
  }

  /** Alarms of the devices in the caller's scope, newest first. */
  async list(user: UserContext, query: AlarmListQuery): Promise<AlarmListAnswer> {
    if (query.deviceId !== undefined) await this.devices.visibleDevice(user, { id: query.deviceId });
    const rows = await listAlarms(this.db, {
      paths: user.attachmentPoints.map((point) => point.path),
      state: query.state ?? 'open',
      deviceId: query.deviceId,
      before: query.before,
      limit: query.limit ?? DEFAULT_PAGE,
    });
    return { alarms: rows.filter((row) => inScope(user, row.path)).map(toAlarmRecord) };
  }

  /**
   * Acknowledges alarms, all or none: an id that is not an alarm in the caller's scope answers 404
   * and nothing is acknowledged. Acknowledging again changes nothing (the first acknowledgement
   * stays). Answers the alarms as stored.
   */
  async acknowledge(user: UserContext, { ids }: AcknowledgeAlarmsBody): Promise<AlarmListAnswer> {
    requireCapability(user, 'respondToAlarms');
    const rows = await findAlarms(this.db, ids);
    if (rows.length !== ids.length || rows.some((row) => !inScope(user, row.path))) throw notFound(ALARM_NOT_FOUND);
    const deviceIds = [...new Set(rows.map((row) => row.device_id))];
    await this.db.transaction().execute(async (trx) => {
      const now = Date.now();
      await acknowledgeAlarms(trx, ids, user.id, now);
      for (const deviceId of deviceIds) await refreshAlarmsHaveBeenRead(trx, deviceId);
      // One entry per alarm, in its device's account; one already acknowledged keeps its first.
      for (const row of rows.filter((alarm) => alarm.acknowledged_at === null)) {
        await audit.record(trx, {
          accountId: row.account_id,
          by: byUser(user),
          action: 'alarm.acknowledge',
          target: { kind: 'alarm', id: row.id, name: `${row.device_name} ${row.code}` },
          deviceId: row.device_id,
          before: { acknowledgedAt: null },
          after: { acknowledgedAt: now },
          at: now,
        });
      }
      const acknowledged = rows.filter((alarm) => alarm.acknowledged_at === null).map((alarm) => alarm.id);
      await this.evaluator.notices.alarmsChanged(trx, 'alarm.acknowledged', acknowledged);
    });
    this.evaluator.notices.nudge();
    for (const deviceId of deviceIds) await this.evaluator.announce(deviceId);
    const stored = await findAlarms(this.db, ids);
    const order = new Map(ids.map((id, index) => [id, index]));
    return {
      alarms: stored.sort((a, b) => order.get(a.id)! - order.get(b.id)!).map(toAlarmRecord),
    };
  }

  /** Alerts (disconnections) of the devices in the caller's scope, newest first, each saying whether the caller muted it. */
  async alerts(user: UserContext, query: AlertListQuery): Promise<AlertListAnswer> {
    const paths = user.attachmentPoints.map((point) => point.path);
    const [rows, muted] = await Promise.all([
      listAlerts(this.db, paths, query.before, query.limit ?? DEFAULT_PAGE),
      mutedDevicesOf(this.db, user.id),
    ]);
    return { alerts: rows.filter((row) => inScope(user, row.path)).map((row) => toAlertRecord(row, muted)) };
  }
}
