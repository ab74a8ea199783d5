import type { Kysely } from 'kysely';
import {
  advanceBatchTrack,
  batchGravity,
  tankLevel,
  tankMoment,
  type BatchTrack,
  type ChannelsMap,
  type LevelSample,
  type TankState,
} from '@fieldlink/domain/brew';
import type { BrewBatchesTable, Database } from '../../db/schema';
import { DeviceFollower, type FollowerLogger } from '../../device-follower';
import type { DeviceEvent, DeviceEvents, EventOrigin } from '../../events';
import { lastSampleBefore } from '../devices/log-repository';
import { batchEstimateBasis, batchTankLevel, batchTransitions } from './mapper';
import { runningBatchDevices, runningBatchesOf, updateBatch } from './repository';

type Samples = Readonly<Record<string, readonly { readonly t: number; readonly value: number }[]>>;

/** The readings a tank's state follows, as last seen. */
interface TankReadings {
  co2Flow: number | null;
  upperPressure: number | null;
  lowerPressure: number | null;
  level: LevelSample | null;
}

const TRACKED_ROLES = ['co2Flow', 'upperPressure', 'lowerPressure'] as const;

/**
 * Follows every running batch from its tank's live readings, on the server (issue 16): each stored
 * frame advances the batch (domain `advanceBatchTrack`): its state (FILLING, FILLED, FERMENTING,
 * CARBONATING, PRESSURIZED) with each change recorded as a timestamped transition, and, the first
 * time the head and bottom pressures pass the pressurized thresholds, `pressurized_at` (3600 s
 * before that reading) with the gravity estimate frozen as it stood then, from the logs at that
 * time (`frozen_gravity`). Like the shelf tracker it folds the frames this instance stored (`local`),
 * one at a time per device in commit order, and a device without a running batch costs a map lookup.
 */
export class BrewTankTracker extends DeviceFollower<string> {
  private readonly readings = new Map<string, TankReadings>();

  constructor(
    private readonly db: Kysely<Database>,
    events: DeviceEvents,
    logger: FollowerLogger,
    /** Sends the tank to the browsers watching it (BrewService.announce). */
    private readonly onTankChanged: (deviceId: string) => Promise<void>,
  ) {
    super(events, logger, 'Brew tank state not recorded');
  }

  /** Thing name to device id, for tanks with a running batch. */
  protected async readDirectory(): Promise<Map<string, string>> {
    const rows = await runningBatchDevices(this.db);
    return new Map(rows.map((row) => [row.thing_name, row.device_id]));
  }

  protected onEvent(event: DeviceEvent, origin: EventOrigin): void {
    if (event.type === 'server/brewTank') {
      // A batch started, ended or changed, here or on another instance.
      const { thingName, tank } = event;
      if (tank.batchInfo && tank.batchInfo.date.end === null) this.directory.set(thingName, tank.deviceId);
      else {
        this.directory.delete(thingName);
        this.readings.delete(tank.deviceId);
      }
      return;
    }
    if (event.type !== 'server/newRawLogs' || origin !== 'local') return;
    this.refreshWhenStale();
    const deviceId = this.directory.get(event.thingName);
    if (!deviceId) return;
    this.work.run(event.thingName, () => this.fold(deviceId, event.logs));
  }

  private async fold(deviceId: string, logs: Samples): Promise<void> {
    const [batch] = await runningBatchesOf(this.db, [deviceId]);
    if (!batch) return;
    const map = JSON.parse(batch.channels_map) as ChannelsMap;
    const calibration = batchTankLevel(batch);
    const byTime = new Map<number, Partial<Record<(typeof TRACKED_ROLES)[number], number>>>();
    for (const role of TRACKED_ROLES) {
      for (const sample of logs[map[role]] ?? []) {
        if (sample.t < batch.start_at) continue;
        byTime.set(sample.t, { ...byTime.get(sample.t), [role]: sample.value });
      }
    }
    if (byTime.size === 0) return;
    const readings = this.readings.get(deviceId) ?? {
      co2Flow: null,
      upperPressure: null,
      lowerPressure: null,
      level: null,
    };
    const before: BatchTrack = {
      state: batch.state as TankState,
      transitions: batchTransitions(batch),
      pressurizedAt: batch.pressurized_at,
    };
    let track = before;
    let froze = false;
    for (const t of [...byTime.keys()].sort((a, b) => a - b)) {
      Object.assign(readings, byTime.get(t));
      const { co2Flow, upperPressure, lowerPressure } = readings;
      const { moment, kept } = tankMoment({ co2Flow, upperPressure, lowerPressure }, calibration, t, readings.level);
      readings.level = kept;
      const next = advanceBatchTrack(track, moment);
      track = next.track;
      froze ||= next.froze;
    }
    this.readings.set(deviceId, readings);
    if (!froze && track.state === before.state && track.transitions.length === before.transitions.length) return;
    await updateBatch(this.db, batch.id, {
      state: track.state,
      transitions: JSON.stringify(track.transitions),
      ...(froze
        ? { pressurized_at: track.pressurizedAt, frozen_gravity: await this.frozenGravity(batch, map, track) }
        : {}),
    });
    await this.onTankChanged(deviceId);
  }

  /** The gravity estimate as it stood when the tank was pressurized, from the logs at that time. */
  private async frozenGravity(batch: BrewBatchesTable, map: ChannelsMap, track: BatchTrack): Promise<string> {
    const at = track.pressurizedAt!;
    const valueAt = async (code: string) =>
      (await lastSampleBefore(this.db, batch.device_id, code, at + 1))?.value ?? null;
    const [co2Total, temperature, upper, lower] = await Promise.all([
      valueAt(map.co2Total),
      valueAt(map.temperature),
      valueAt(map.upperPressure),
      valueAt(map.lowerPressure),
    ]);
    const calibration = batchTankLevel(batch);
    const estimate = batchGravity(
      { ...batchEstimateBasis(batch), frozenGravity: null },
      { co2Total, temperature, headPressure: upper },
      calibration ? tankLevel(upper, lower, calibration) : null,
    );
    return JSON.stringify({ ...estimate, hasGravityFreezed: true });
  }
}
