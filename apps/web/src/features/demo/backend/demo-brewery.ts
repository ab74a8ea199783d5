import type { Annotation, Batch, BatchProps, Tank } from '@fieldlink/api/brew';
import { defaultChannelsMap, type LevelSample, type TastingRating } from '@fieldlink/domain/brew';
import { followRunningBatch, type TankSettings } from '@fieldlink/domain/brew-views';
import type { BatchItemList, TastingMark } from '@fieldlink/domain/brew-edits';
import {
  storedItemOf,
  type BatchCourse,
  type BrewDevice,
  type BrewStore,
  type NewBatch,
  type NumberedTank,
  type StoredItem,
} from '@fieldlink/services/brew-service';
import { DEMO_BEERS, demoBatchItems, demoTankStory } from '@fieldlink/simulation/demo-brewery';
import type { DeviceSnapshot } from '../worker/protocol';
import { DemoCallError } from './demo-call-error';
import type { DemoGroupEntry } from './demo-dataset';

/** A brewing tank's device as the brewery needs it: the simulated device and its name and macro. */
export interface BrewTankDevice extends Pick<DeviceSnapshot, 'thingName' | 'registers' | 'latest' | 'tank'> {
  name: string;
  custom: string | null;
}

/** A tank's settings the brewer keeps (capacity and calibration). */
export interface DemoTankSettings extends TankSettings {
  deviceId: string;
}

/** The demo brewery's records, kept in the browser (application §4: demo batches stay local). */
export interface DemoBreweryRecords {
  tanks: DemoTankSettings[];
  /** Every batch, newest first, with its readings, notes and annotations. */
  batches: Batch[];
}

let lastId = 0;
/** Ids of records made in the browser: unique in this demo, and never taken for a server id. */
export function demoRecordId(kind: string): string {
  lastId = Math.max(lastId + 1, Date.now());
  return `${kind}-${lastId.toString(36)}`;
}

/** An annotation as the API carries it: its channel named with the batch's device. */
function annotationRecord(
  { channelCode, ...annotation }: Omit<Annotation, 'channel'> & { channelCode: string | null },
  deviceId: string,
): Annotation {
  return { ...annotation, channel: channelCode === null ? null : { code: channelCode, deviceId } };
}

/**
 * The demo's first brewing records: the server's demo brewery ({@link demoTankStory}, {@link demoBatchItems})
 * over the browser's tank models, each fermenter but the last brewing one of {@link DEMO_BEERS}, the
 * last keeping a finished stout.
 */
export function firstBreweryRecords(tanks: readonly BrewTankDevice[], now: number): DemoBreweryRecords {
  const records: DemoBreweryRecords = { tanks: [], batches: [] };
  tanks.forEach((snapshot, index) => {
    if (!snapshot.tank) return;
    const deviceId = snapshot.thingName;
    const beer = index < tanks.length - 1 ? DEMO_BEERS[index % DEMO_BEERS.length]! : null;
    const { capacity, co2TotalGain, tankLevel, batch } = demoTankStory(snapshot.tank, beer, now);
    const { gravities, sensories, annotations } = demoBatchItems(batch, demoRecordId);
    records.tanks.push({ deviceId, capacity, co2TotalGain, tankLevel });
    const { state, props, transitions, tankLevelAtFermStart, co2TotalAtStart } = batch;
    records.batches.push({
      ...{ state, props, transitions, tankLevelAtFermStart, co2TotalAtStart },
      id: demoRecordId('batch'),
      deviceId,
      isDemo: true,
      channelsMap: defaultChannelsMap(snapshot.custom),
      calibration: { co2TotalGain, tankLevel },
      pressurizedAt: null,
      frozenGravity: null,
      reports: [],
      date: { start: batch.start, end: batch.end },
      gravities: gravities.map((gravity) => ({ ...gravity, createdBy: null })),
      sensories: sensories.map(({ ratings, ...sensory }) => ({ ...sensory, ...ratings, createdBy: null })),
      annotations: annotations.map((annotation) => annotationRecord(annotation, deviceId)),
    });
  });
  return records;
}

/** A tank's device as the brewing calls read it in the demo: the simulated device's latest values too. */
export type DemoTankDevice = BrewDevice & Pick<DeviceSnapshot, 'latest'>;

/** Where the demo's brewery finds its groups, their tanks and their logs: the dataset and the simulation. */
export interface DemoBreweryFleet {
  group(groupId: string): DemoGroupEntry | undefined;
  tankDevices(groupId: string): Promise<DemoTankDevice[]>;
  logs(
    deviceId: string,
    query: { channels: string[]; start: number; end: number; binCount: number },
  ): Promise<NonNullable<Tank['rawDeviceLogs']>>;
}

/**
 * The demo's storage for the brewing calls (`@fieldlink/services/brew-service`, which decides as on
 * the server): the batch list and tank settings kept in IndexedDB, found, placed in time order and
 * saved. It also stands in for the server's tank tracker, which follows a running batch on every
 * frame: the demo has no frames, so reading a tank is its moment.
 */
export class DemoBreweryStore implements BrewStore<DemoGroupEntry, DemoTankDevice, Batch, StoredItem> {
  /** Each tank's last level taken for its rise per minute, as the server's tracker keeps it. */
  private readonly levels = new Map<string, LevelSample>();

  constructor(
    private readonly records: DemoBreweryRecords,
    /** Saves the records after a change. */
    private readonly save: () => Promise<void>,
    private readonly fleet: DemoBreweryFleet,
  ) {}

  refusal(status: number, message: string): Error {
    return new DemoCallError(status, message);
  }

  newId(kind: string): string {
    return demoRecordId(kind);
  }

  async group(groupId: string) {
    return this.fleet.group(groupId);
  }

  devicesOf(groupId: string) {
    return this.fleet.tankDevices(groupId);
  }

  async tankSettings(devices: readonly DemoTankDevice[]) {
    const ids = new Set(devices.map((device) => device.id));
    return new Map(this.records.tanks.filter((tank) => ids.has(tank.deviceId)).map((tank) => [tank.deviceId, tank]));
  }

  async runningBatches(devices: readonly DemoTankDevice[], now: number) {
    const running = new Map<string, Batch>();
    for (const device of devices) {
      const batch = this.running(device.id);
      if (!batch) continue;
      this.follow(batch, (code) => device.latest[code]?.value, now);
      running.set(device.id, batch);
    }
    return running;
  }

  async runsBatch(deviceId: string) {
    return this.running(deviceId) !== undefined;
  }

  async latestValues() {
    return (device: DemoTankDevice, code: string) => device.latest[code]?.value;
  }

  channelLogs(deviceId: string, query: { channels: string[]; start: number; end: number; binCount: number }) {
    return this.fleet.logs(deviceId, query);
  }

  async batchLines(_group: DemoGroupEntry, devices: readonly DemoTankDevice[]) {
    const ids = new Set(devices.map((device) => device.id));
    return this.records.batches
      .filter((batch) => ids.has(batch.deviceId))
      .map((batch) => ({ batch: { ...batch, sensoryCount: batch.sensories.length }, latestReport: null }));
  }

  async batch(batchId: string) {
    return this.records.batches.find((entry) => entry.id === batchId);
  }

  async item(batch: Batch, list: BatchItemList, id: string): Promise<StoredItem | undefined> {
    return storedItemOf(batch, list, id);
  }

  async answer(batch: Batch) {
    return batch;
  }

  async changed(batchId: string) {
    return (await this.batch(batchId))!;
  }

  async insertBatch(start: NewBatch) {
    this.records.batches.unshift({
      ...start,
      gravities: [],
      sensories: [],
      annotations: [],
      isDemo: true,
      pressurizedAt: null,
      frozenGravity: null,
      reports: [],
    });
    await this.save();
  }

  saveProps(batch: Batch, props: BatchProps) {
    return this.change(batch, { props });
  }

  async removeBatch({ id }: Batch) {
    this.records.batches = this.records.batches.filter((batch) => batch.id !== id);
    await this.save();
  }

  endBatch(batch: Batch, { state, end, transitions }: BatchCourse) {
    return this.change(batch, { state, date: { ...batch.date, end }, transitions });
  }

  resumeBatch(batch: Batch, course: BatchCourse) {
    return this.endBatch(batch, course);
  }

  saveGravity(batch: Batch, reading: { id: string; value: number; timestamp: number }) {
    return this.change(batch, { gravities: placed(batch.gravities, { ...reading, createdBy: null }) });
  }

  saveTastingNote(
    batch: Batch,
    { ratings, ...note }: { id: string; ratings: Record<TastingRating, number>; notes: string; timestamp: number },
    mark: TastingMark,
  ) {
    const markId = batch.annotations.find((item) => item.sensoryId === note.id)?.id ?? demoRecordId('annotation');
    return this.change(batch, {
      sensories: placed(batch.sensories, { ...note, ...ratings, createdBy: null }),
      annotations: placed(batch.annotations, annotationRecord({ ...mark, id: markId }, batch.deviceId)),
    });
  }

  saveAnnotation(batch: Batch, annotation: Omit<Annotation, 'channel'> & { channelCode: string | null }) {
    return this.change(batch, { annotations: placed(batch.annotations, annotationRecord(annotation, batch.deviceId)) });
  }

  async deleteItem(batch: Batch, list: BatchItemList, { id }: StoredItem) {
    const others = <T extends { id: string }>(items: readonly T[]) => items.filter((entry) => entry.id !== id);
    const edit: Partial<Batch> =
      list === 'gravities'
        ? { gravities: others(batch.gravities) }
        : list === 'annotations'
          ? { annotations: others(batch.annotations) }
          : // A tasting note's mark goes with the note.
            {
              sensories: others(batch.sensories),
              annotations: batch.annotations.filter((entry) => entry.sensoryId !== id),
            };
    await this.change(batch, edit);
    return true;
  }

  async saveTankSettings({ device }: NumberedTank<DemoTankDevice>, settings: TankSettings) {
    const deviceId = device.id;
    this.records.tanks = [
      ...this.records.tanks.filter((tank) => tank.deviceId !== deviceId),
      { deviceId, ...settings },
    ];
    const running = this.running(deviceId);
    if (running) running.calibration = { co2TotalGain: settings.co2TotalGain, tankLevel: settings.tankLevel };
    await this.save();
  }

  /** The demo has no other browser to tell of a calibrated tank. */
  calibrated() {}

  /**
   * The running batch advanced by the tank's readings now, as the server's tracker advances it on
   * every frame (domain `followRunningBatch`).
   */
  private follow(batch: Batch, latest: (code: string) => number | undefined, now: number): void {
    const followed = followRunningBatch(batch, this.levels.get(batch.deviceId) ?? null, latest, now);
    this.levels.set(batch.deviceId, followed.kept);
    if (!followed.changed) return;
    Object.assign(batch, followed.batch);
    void this.save();
  }

  private running(deviceId: string): Batch | undefined {
    return this.records.batches.find((batch) => batch.deviceId === deviceId && batch.date.end === null);
  }

  private async change(batch: Batch, edit: Partial<Batch>): Promise<void> {
    const changed = { ...batch, ...edit };
    this.records.batches = this.records.batches.map((entry) => (entry.id === batch.id ? changed : entry));
    await this.save();
  }
}

/** The list with `item` in place of the entry of its id (or added), in time order: the store's order. */
function placed<T extends { id: string; timestamp: number }>(list: readonly T[], item: T): T[] {
  return [...list.filter((entry) => entry.id !== item.id), item].sort((a, b) => a.timestamp - b.timestamp);
}
