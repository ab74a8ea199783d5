import type {
  Annotation,
  Batch,
  BatchIdBody,
  BatchItemBody,
  BrewBatchesAnswer,
  BrewMeta,
  PutAnnotationBody,
  PutBatchBody,
  PutGravityBody,
  PutSensoryBody,
  StartBatchBody,
  Tank,
  TankCalibrationBody,
} from '@fieldlink/api/brew';
import { defaultChannelsMap, type LevelSample } from '@fieldlink/domain/brew';
import {
  batchListEntry,
  batchStart,
  brewSummary,
  followRunningBatch,
  tankView,
  type TankSettings,
} from '@fieldlink/domain/brew-views';
import {
  BATCH_ITEM_NOT_FOUND,
  calibratedTank,
  chartAnnotation,
  endedBatch,
  gravityReading,
  isRefusal,
  itemDeleteRefusal,
  resumedBatch,
  startBatchRefusal,
  tastingNote,
  type BatchEditRefusal,
  type BatchItemList,
} from '@fieldlink/domain/brew-edits';
import { DEMO_BEERS, demoBatchItems, demoTankStory } from '@fieldlink/simulation/demo-brewery';
import type { DeviceSnapshot } from '../worker/protocol';
import { DemoCallError } from './demo-call-error';
import type { DemoGroupEntry } from './demo-dataset';

/** A brewing tank's device as the brewery needs it: the simulated device and its name and macro. */
export interface BrewTankDevice extends Pick<DeviceSnapshot, 'thingName' | 'registers' | 'latest' | 'tank'> {
  name: string;
  custom: string | null;
}

/** A tank of a brew group: its device and its number (domain `numberedTanks`). */
export interface NumberedTank {
  device: BrewTankDevice;
  tankNumber: number;
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

/**
 * The brewing calls of application §7 over the demo's records: the domain's rules decide (brew-edits,
 * brew-views) as on the server; this class only finds and keeps the records.
 */
export class DemoBrewery {
  /** Each tank's last level taken for its rise per minute, as the server's tracker keeps it. */
  private readonly levels = new Map<string, LevelSample>();

  constructor(
    private readonly records: DemoBreweryRecords,
    /** Saves the records after a change. */
    private readonly save: () => Promise<void>,
  ) {}

  /** The brew summary; the selected tank's log is added by the caller, which reads the simulation. */
  overview(
    group: DemoGroupEntry,
    tanks: readonly NumberedTank[],
    now: number,
    selected: number | null = null,
  ): BrewMeta {
    return brewSummary(group, this.tanks(tanks, now), selected);
  }

  batches(tanks: readonly NumberedTank[]): BrewBatchesAnswer {
    return {
      batches: this.records.batches.flatMap((batch) => {
        const tank = tanks.find(({ device }) => device.thingName === batch.deviceId);
        if (!tank) return [];
        const line = { tankNumber: tank.tankNumber, name: tank.device.name };
        return [batchListEntry({ ...batch, sensoryCount: batch.sensories.length }, line, null)];
      }),
    };
  }

  batch(batchId: string): Batch {
    return this.find(batchId);
  }

  async start(body: StartBatchBody, tanks: readonly NumberedTank[], now: number): Promise<Batch> {
    const tank = numbered(tanks, body.tankNumber);
    refuse(startBatchRefusal(body.tankNumber, this.running(tank.thingName) !== undefined));
    const start = batchStart(tank.custom, this.settings(tank.thingName), (code) => tank.latest[code]?.value, now);
    const batch: Batch = {
      ...start,
      id: demoRecordId('batch'),
      deviceId: tank.thingName,
      date: { start: now, end: null },
      props: body.props,
      gravities: [],
      sensories: [],
      annotations: [],
      isDemo: true,
      pressurizedAt: null,
      frozenGravity: null,
      reports: [],
    };
    this.records.batches.unshift(batch);
    await this.save();
    return batch;
  }

  update({ batchId, props }: PutBatchBody): Promise<Batch> {
    return this.change(batchId, (batch) => ({ ...batch, props: { ...batch.props, ...props } }));
  }

  async remove({ batchId }: BatchIdBody): Promise<{ id: string }> {
    this.find(batchId);
    this.records.batches = this.records.batches.filter((batch) => batch.id !== batchId);
    await this.save();
    return { id: batchId };
  }

  end({ batchId }: BatchIdBody, now: number): Promise<Batch> {
    return this.change(batchId, (batch) => {
      const { state, end, transitions } = refuse(endedBatch({ ...batch, end: batch.date.end }, now));
      return { ...batch, state, date: { ...batch.date, end }, transitions };
    });
  }

  resume({ batchId }: BatchIdBody, now: number): Promise<Batch> {
    return this.change(batchId, (batch) => {
      const otherRuns = batch.date.end !== null && this.running(batch.deviceId) !== undefined;
      const { state, end, transitions } = refuse(resumedBatch({ ...batch, end: batch.date.end }, otherRuns, now));
      return { ...batch, state, date: { ...batch.date, end }, transitions };
    });
  }

  putGravity(body: PutGravityBody, now: number): Promise<Batch> {
    return this.change(body.batchId, (batch) => {
      const exists = batch.gravities.some((item) => item.id === body.id);
      const gravity = refuse(gravityReading(body, exists, batch.date.start, now, () => demoRecordId('gravity')));
      return { ...batch, gravities: placed(batch.gravities, { ...gravity, createdBy: null }) };
    });
  }

  putSensory(body: PutSensoryBody, now: number): Promise<Batch> {
    return this.change(body.batchId, (batch) => {
      const exists = batch.sensories.some((item) => item.id === body.id);
      const { sensory, mark } = refuse(tastingNote(body, exists, now, () => demoRecordId('sensory')));
      const { ratings, ...note } = sensory;
      const markId = batch.annotations.find((item) => item.sensoryId === sensory.id)?.id ?? demoRecordId('annotation');
      return {
        ...batch,
        sensories: placed(batch.sensories, { ...note, ...ratings, createdBy: null }),
        annotations: placed(batch.annotations, annotationRecord({ ...mark, id: markId }, batch.deviceId)),
      };
    });
  }

  putAnnotation(body: PutAnnotationBody, now: number): Promise<Batch> {
    return this.change(body.batchId, (batch) => {
      const current = batch.annotations.find((item) => item.id === body.id);
      const annotation = refuse(chartAnnotation(body, current, now, () => demoRecordId('annotation')));
      return { ...batch, annotations: placed(batch.annotations, annotationRecord(annotation, batch.deviceId)) };
    });
  }

  deleteItem(body: BatchItemBody, list: BatchItemList): Promise<Batch> {
    return this.change(body.batchId, (batch) => {
      const items: readonly { id: string; sensoryId?: string | null }[] = batch[list];
      const item = items.find((entry) => entry.id === body.id);
      if (!item) throw new DemoCallError(404, BATCH_ITEM_NOT_FOUND[list]);
      refuse(itemDeleteRefusal(list, item));
      const next = { ...batch, [list]: batch[list].filter((entry) => entry.id !== body.id) };
      // A tasting note's mark goes with the note.
      if (list === 'sensories') next.annotations = batch.annotations.filter((entry) => entry.sensoryId !== body.id);
      return next;
    });
  }

  async calibrate(body: TankCalibrationBody, tanks: readonly NumberedTank[], now: number): Promise<Tank> {
    const { thingName: deviceId } = numbered(tanks, body.tankNumber);
    const settings = { deviceId, ...calibratedTank(this.settings(deviceId), body.calibration) };
    this.records.tanks = [...this.records.tanks.filter((tank) => tank.deviceId !== deviceId), settings];
    const running = this.running(deviceId);
    if (running) running.calibration = { co2TotalGain: settings.co2TotalGain, tankLevel: settings.tankLevel };
    await this.save();
    return this.tanks(tanks, now).find((tank) => tank.tankNumber === body.tankNumber)!;
  }

  /** The tanks as the brew summary shows them (domain `tankView`), each running batch followed first. */
  private tanks(tanks: readonly NumberedTank[], now: number): Tank[] {
    return tanks.map(({ device, tankNumber }) => {
      const latest = (code: string) => device.latest[code]?.value;
      const batch = this.running(device.thingName);
      if (batch) this.follow(batch, latest, now);
      return tankView({
        device: { ...device, id: device.thingName, isConnected: true },
        tankNumber,
        settings: this.settings(device.thingName),
        batch,
        latest,
      });
    });
  }

  /**
   * The running batch advanced by the tank's readings now, as the server's tracker advances it on
   * every frame (domain `followRunningBatch`). The demo has no frames: reading the tanks is its moment.
   */
  private follow(batch: Batch, latest: (code: string) => number | undefined, now: number): void {
    const followed = followRunningBatch(batch, this.levels.get(batch.deviceId) ?? null, latest, now);
    this.levels.set(batch.deviceId, followed.kept);
    if (!followed.changed) return;
    Object.assign(batch, followed.batch);
    void this.save();
  }

  private settings(deviceId: string): DemoTankSettings | undefined {
    return this.records.tanks.find((tank) => tank.deviceId === deviceId);
  }

  private running(deviceId: string): Batch | undefined {
    return this.records.batches.find((batch) => batch.deviceId === deviceId && batch.date.end === null);
  }

  private find(batchId: string): Batch {
    const batch = this.records.batches.find((entry) => entry.id === batchId);
    if (!batch) throw new DemoCallError(404, 'Batch not found.');
    return batch;
  }

  private async change(batchId: string, edit: (batch: Batch) => Batch): Promise<Batch> {
    const batch = edit(this.find(batchId));
    this.records.batches = this.records.batches.map((entry) => (entry.id === batchId ? batch : entry));
    await this.save();
    return batch;
  }
}

/** The device of tank `tankNumber`, or 404 as the server answers. */
function numbered(tanks: readonly NumberedTank[], tankNumber: number): BrewTankDevice {
  const tank = tanks.find((entry) => entry.tankNumber === tankNumber);
  if (!tank) throw new DemoCallError(404, 'Tank not found.');
  return tank.device;
}

/** Throws the domain's refusal of an edit as the server answers it; passes anything else on. */
function refuse<T extends object>(answer: T | BatchEditRefusal | null): T {
  if (answer !== null && isRefusal(answer)) throw new DemoCallError(answer.status, answer.message);
  return answer as T;
}

/** The list with `item` in place of the entry of its id (or added), in time order: the store's order. */
function placed<T extends { id: string; timestamp: number }>(list: readonly T[], item: T): T[] {
  return [...list.filter((entry) => entry.id !== item.id), item].sort((a, b) => a.timestamp - b.timestamp);
}
