import type { Tank } from '@fieldlink/api/brew';
import type { LevelSample } from '@fieldlink/domain/brew';
import { followRunningBatch } from '@fieldlink/domain/brew-views';
import { annotationRecord, BatchListStore, type BatchListRecords } from '@fieldlink/services/batch-list-store';
import type { BrewDevice } from '@fieldlink/services/brew-service';
import { demoBreweryTank } from '@fieldlink/simulation/demo-brewery';
import type { DeviceSnapshot } from '../worker/protocol';
import { DemoCallError } from './demo-call-error';
import type { DemoGroupEntry } from './demo-dataset';

/** A brewing tank's device as the brewery needs it: the simulated device and its name and macro. */
export interface BrewTankDevice extends Pick<DeviceSnapshot, 'thingName' | 'registers' | 'latest' | 'tank'> {
  name: string;
  custom: string | null;
}

/** The demo brewery's records, kept in the browser (application §4: demo batches stay local). */
export type DemoBreweryRecords = BatchListRecords;

let lastId = 0;
/** Ids of records made in the browser: unique in this demo, and never taken for a server id. */
export function demoRecordId(kind: string): string {
  lastId = Math.max(lastId + 1, Date.now());
  return `${kind}-${lastId.toString(36)}`;
}

/** The demo's first brewing records: the server's demo brewery ({@link demoBreweryTank}) over the browser's tank models. */
export function firstBreweryRecords(tanks: readonly BrewTankDevice[], now: number): DemoBreweryRecords {
  const records: DemoBreweryRecords = { tanks: [], batches: [] };
  tanks.forEach((device, index) => {
    if (!device.tank) return;
    const deviceId = device.thingName;
    const { batch: stored, ...settings } = demoBreweryTank(
      { state: device.tank, custom: device.custom },
      { index, tankCount: tanks.length },
      now,
      demoRecordId,
    );
    const { gravities, sensories, annotations, ...batch } = stored;
    records.tanks.push({ deviceId, ...settings });
    records.batches.push({
      ...batch,
      id: demoRecordId('batch'),
      deviceId,
      isDemo: true,
      reports: [],
      gravities: gravities.map((gravity) => ({ ...gravity, createdBy: null })),
      sensories: sensories.map(({ ratings, ...sensory }) => ({ ...sensory, ...ratings, createdBy: null })),
      annotations: annotations.map((annotation) => annotationRecord(annotation, deviceId)),
    });
  });
  return records;
}

/** A tank's device as the brewing calls read it in the demo: the simulated device's latest values too. */
export type DemoTankDevice = BrewDevice & Pick<DeviceSnapshot, 'latest'>;

/** A group as the brewing calls read it. */
type BreweryGroup = Pick<DemoGroupEntry, 'id' | 'name'>;

/** Where the demo's brewery finds its groups, their tanks and their logs: the dataset and the simulation. */
export interface DemoBreweryFleet {
  group(groupId: string): BreweryGroup | undefined;
  tankDevices(groupId: string): Promise<DemoTankDevice[]>;
  logs(
    deviceId: string,
    query: { channels: string[]; start: number; end: number; binCount: number },
  ): Promise<NonNullable<Tank['rawDeviceLogs']>>;
}

/**
 * The demo's storage for the brewing calls (`@fieldlink/services/brew-service`, which decides as on
 * the server): the batch list and tank settings kept in IndexedDB (`BatchListStore`), saved after
 * each change. It also stands in for the server's tank tracker, which follows a running batch on
 * every frame: the demo has no frames, so reading a tank is its moment (domain `followRunningBatch`).
 */
export function demoBreweryStore(
  records: DemoBreweryRecords,
  /** Saves the records after a change. */
  save: () => Promise<void>,
  fleet: DemoBreweryFleet,
): BatchListStore<BreweryGroup, DemoTankDevice> {
  /** Each tank's last level taken for its rise per minute, as the server's tracker keeps it. */
  const levels = new Map<string, LevelSample>();
  const latest = (device: DemoTankDevice, code: string) => device.latest[code]?.value;
  return new BatchListStore(
    records,
    {
      group: (groupId) => fleet.group(groupId),
      devicesOf: (groupId) => fleet.tankDevices(groupId),
      latest,
      channelLogs: (deviceId, query) => fleet.logs(deviceId, query),
    },
    {
      refusal: (status, message) => new DemoCallError(status, message),
      newId: demoRecordId,
      written: save,
      isDemo: true,
      reading: (batch, device, now) => {
        const followed = followRunningBatch(batch, levels.get(device.id) ?? null, (code) => latest(device, code), now);
        levels.set(device.id, followed.kept);
        if (!followed.changed) return;
        Object.assign(batch, followed.batch);
        void save();
      },
    },
  );
}
