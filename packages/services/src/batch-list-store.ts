import type { Annotation, Batch, BatchProps, Tank } from '@fieldlink/api/brew';
import type { TastingRating } from '@fieldlink/domain/brew';
import type { TankSettings } from '@fieldlink/domain/brew-views';
import type { BatchItemList, TastingMark } from '@fieldlink/domain/brew-edits';
import {
  storedItemOf,
  type BatchCourse,
  type BrewDevice,
  type BrewStore,
  type NewBatch,
  type NumberedTank,
  type StoredItem,
} from './brew-service';

/** The brewing records of a store that keeps whole batches: each tank's settings and every batch, newest first. */
export interface BatchListRecords {
  tanks: (TankSettings & { deviceId: string })[];
  batches: Batch[];
}

/** Where a {@link BatchListStore} finds what it does not keep: groups, their devices, their values and logs. */
export interface BatchListFleet<G extends { id: string; name: string }, D extends BrewDevice> {
  group(groupId: string): G | undefined;
  devicesOf(groupId: string): Promise<readonly D[]>;
  latest(device: D, code: string): number | undefined;
  channelLogs(
    deviceId: string,
    query: { channels: string[]; start: number; end: number; binCount: number },
  ): Promise<NonNullable<Tank['rawDeviceLogs']>>;
}

/**
 * The brewing calls' storage (`BrewStore`) over whole batches kept as a list: the browser demo's
 * IndexedDB record and this package's tests. A batch's items are placed in time order and a tasting
 * note's mark goes with the note, as the server's rows keep them; `written` is told of each write
 * (`insert`, `props`, `end`, ... and the batch's id) once the records hold it.
 */
export class BatchListStore<G extends { id: string; name: string }, D extends BrewDevice> implements BrewStore<
  G,
  D,
  Batch,
  StoredItem
> {
  constructor(
    private readonly records: BatchListRecords,
    private readonly fleet: BatchListFleet<G, D>,
    private readonly options: {
      refusal(status: number, message: string): Error;
      newId(kind: string): string;
      written(change: string): Promise<void>;
      /** Whether the batches are a demo's (`Batch.isDemo`). */
      isDemo: boolean;
      /** Called with each running batch read, before it is answered (the demo follows it there). */
      reading?(batch: Batch, device: D, now: number): void;
    },
  ) {}

  refusal(status: number, message: string): Error {
    return this.options.refusal(status, message);
  }

  newId(kind: string): string {
    return this.options.newId(kind);
  }

  async group(groupId: string) {
    return this.fleet.group(groupId);
  }

  devicesOf(groupId: string) {
    return this.fleet.devicesOf(groupId);
  }

  async tankSettings(devices: readonly D[]) {
    const ids = new Set(devices.map((device) => device.id));
    return new Map(this.records.tanks.filter((tank) => ids.has(tank.deviceId)).map((tank) => [tank.deviceId, tank]));
  }

  async runningBatches(devices: readonly D[], now: number) {
    return new Map(
      devices.flatMap((device) => {
        const batch = this.running(device.id);
        if (batch) this.options.reading?.(batch, device, now);
        return batch ? [[device.id, batch] as const] : [];
      }),
    );
  }

  async runsBatch(deviceId: string) {
    return this.running(deviceId) !== undefined;
  }

  async latestValues() {
    return (device: D, code: string) => this.fleet.latest(device, code);
  }

  channelLogs(deviceId: string, query: { channels: string[]; start: number; end: number; binCount: number }) {
    return this.fleet.channelLogs(deviceId, query);
  }

  async batchLines(_group: G, devices: readonly D[]) {
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
      reports: [],
      isDemo: this.options.isDemo,
      pressurizedAt: null,
      frozenGravity: null,
    });
    await this.options.written(`insert ${start.id}`);
  }

  saveProps(batch: Batch, props: BatchProps) {
    return this.change(batch, { props }, 'props');
  }

  async removeBatch({ id }: Batch) {
    this.records.batches = this.records.batches.filter((batch) => batch.id !== id);
    await this.options.written(`remove ${id}`);
  }

  endBatch(batch: Batch, { state, end, transitions }: BatchCourse) {
    return this.change(batch, { state, date: { ...batch.date, end }, transitions }, 'end');
  }

  resumeBatch(batch: Batch, { state, end, transitions }: BatchCourse) {
    return this.change(batch, { state, date: { ...batch.date, end }, transitions }, 'resume');
  }

  saveGravity(batch: Batch, reading: { id: string; value: number; timestamp: number }) {
    return this.change(batch, { gravities: placed(batch.gravities, { ...reading, createdBy: null }) }, 'gravity');
  }

  saveTastingNote(
    batch: Batch,
    { ratings, ...note }: { id: string; ratings: Record<TastingRating, number>; notes: string; timestamp: number },
    mark: TastingMark,
  ) {
    const markId = batch.annotations.find((item) => item.sensoryId === note.id)?.id ?? this.newId('annotation');
    const sensories = placed(batch.sensories, { ...note, ...ratings, createdBy: null });
    const annotations = placed(batch.annotations, annotationRecord({ ...mark, id: markId }, batch.deviceId));
    return this.change(batch, { sensories, annotations }, 'sensory');
  }

  saveAnnotation(batch: Batch, annotation: Omit<Annotation, 'channel'> & { channelCode: string | null }) {
    const annotations = placed(batch.annotations, annotationRecord(annotation, batch.deviceId));
    return this.change(batch, { annotations }, 'annotation');
  }

  async deleteItem(batch: Batch, list: BatchItemList, { id }: StoredItem) {
    const others = <T extends { id: string; sensoryId?: string | null }>(items: readonly T[]) =>
      // A tasting note's mark goes with the note.
      items.filter((entry) => entry.id !== id && entry.sensoryId !== id);
    const edit: Partial<Batch> =
      list === 'gravities'
        ? { gravities: others(batch.gravities) }
        : list === 'sensories'
          ? { sensories: others(batch.sensories), annotations: others(batch.annotations) }
          : { annotations: others(batch.annotations) };
    await this.change(batch, edit, `delete ${list}`);
    return true;
  }

  async saveTankSettings({ device: { id } }: NumberedTank<D>, settings: TankSettings) {
    this.records.tanks = [...this.records.tanks.filter((tank) => tank.deviceId !== id), { deviceId: id, ...settings }];
    const running = this.running(id);
    if (running) running.calibration = { co2TotalGain: settings.co2TotalGain, tankLevel: settings.tankLevel };
    await this.options.written(`tank ${id}`);
  }

  calibrated(_group: G, _tank: NumberedTank<D>, _view: Tank): void {}

  /** The tank's running batch, as the records hold it. */
  private running(deviceId: string): Batch | undefined {
    return this.records.batches.find((batch) => batch.deviceId === deviceId && batch.date.end === null);
  }

  private async change(batch: Batch, edit: Partial<Batch>, what: string): Promise<void> {
    const changed = { ...batch, ...edit };
    this.records.batches = this.records.batches.map((entry) => (entry.id === batch.id ? changed : entry));
    await this.options.written(`${what} ${batch.id}`);
  }
}

/** An annotation as the API carries it: its channel named with the batch's device. */
export function annotationRecord(
  { channelCode, ...annotation }: Omit<Annotation, 'channel'> & { channelCode: string | null },
  deviceId: string,
): Annotation {
  return { ...annotation, channel: channelCode === null ? null : { code: channelCode, deviceId } };
}

/** The list with `item` in place of the entry of its id (or added), in time order: the server's order. */
function placed<T extends { id: string; timestamp: number }>(list: readonly T[], item: T): T[] {
  return [...list.filter((entry) => entry.id !== item.id), item].sort((a, b) => a.timestamp - b.timestamp);
}
