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
import {
  annotationColor,
  defaultChannelsMap,
  readingTimeProblem,
  recordTransition,
  takeBackEndRefusal,
  tankNumbers,
  tastingRatings,
  type LevelSample,
} from '@fieldlink/domain/brew';
import {
  batchListEntry,
  batchStart,
  brewSummary,
  followRunningBatch,
  tankSettings,
  tankView,
  tastingMarkText,
  type TankSettings,
} from '@fieldlink/domain/brew-views';
import {
  BATCH_ITEM_NOT_FOUND,
  annotationEdit,
  endBatchRefusal,
  isRefusal,
  itemDeleteRefusal,
  markTime,
  resumedState,
  startBatchRefusal,
  type BatchEditRefusal,
  type BatchItemList,
} from '@fieldlink/domain/brew-edits';
import { DEMO_BEERS, demoTankStory } from '@fieldlink/simulation/demo-brewery';
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

const BATCH_NOT_FOUND = 'Batch not found.';
const TANK_NOT_FOUND = 'Tank not found.';

let lastId = 0;
/** Ids of records made in the browser: unique in this demo, and never taken for a server id. */
export function demoRecordId(kind: string): string {
  lastId = Math.max(lastId + 1, Date.now());
  return `${kind}-${lastId.toString(36)}`;
}

/**
 * The demo's first brewing records: the server's demo brewery ({@link demoTankStory}) over the browser's
 * tank models, each fermenter but the last brewing one of {@link DEMO_BEERS}, the last keeping a
 * finished stout.
 */
export function firstBreweryRecords(tanks: readonly BrewTankDevice[], now: number): DemoBreweryRecords {
  const records: DemoBreweryRecords = { tanks: [], batches: [] };
  tanks.forEach((snapshot, index) => {
    if (!snapshot.tank) return;
    const deviceId = snapshot.thingName;
    const beer = index < tanks.length - 1 ? DEMO_BEERS[index % DEMO_BEERS.length]! : null;
    const { capacity, co2TotalGain, tankLevel: levelCalibration, batch } = demoTankStory(snapshot.tank, beer, now);
    records.tanks.push({ deviceId, capacity, co2TotalGain, tankLevel: levelCalibration });
    const sensories = batch.sensories.map(({ ratings, notes, t }) => ({
      id: demoRecordId('sensory'),
      ...ratings,
      notes,
      timestamp: t,
      createdBy: null,
    }));
    records.batches.push({
      id: demoRecordId('batch'),
      deviceId,
      isDemo: true,
      channelsMap: defaultChannelsMap(snapshot.custom),
      calibration: { co2TotalGain, tankLevel: levelCalibration },
      pressurizedAt: null,
      frozenGravity: null,
      reports: [],
      state: batch.state,
      date: { start: batch.start, end: batch.end },
      props: batch.props,
      gravities: batch.gravities.map(({ value, t }) => ({
        id: demoRecordId('gravity'),
        value,
        timestamp: t,
        createdBy: null,
      })),
      sensories,
      annotations: batch.annotations.map(({ text, t, color, sensory }) =>
        plotLine(text, t, color, sensory === null ? null : sensories[sensory]!.id),
      ),
      transitions: batch.transitions,
      tankLevelAtFermStart: batch.tankLevelAtFermStart,
      co2TotalAtStart: batch.co2TotalAtStart,
    });
  });
  return records;
}

function plotLine(text: string, timestamp: number, color: string, sensoryId: string | null): Annotation {
  return { id: demoRecordId('annotation'), kind: 'plotLine', text, timestamp, color, channel: null, sensoryId };
}

/**
 * The brewing calls of application §7 answered over the demo's records, with the domain's rules the
 * server applies (tank numbers and states, the gravity estimate and its freezing, transitions).
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
    snapshots: readonly BrewTankDevice[],
    now: number,
    selected: number | null = null,
  ): BrewMeta {
    return brewSummary(group, this.tanks(snapshots, now), selected);
  }

  batches(snapshots: readonly BrewTankDevice[]): BrewBatchesAnswer {
    const numbers = tankNumbers(snapshots);
    return {
      batches: this.records.batches.flatMap((batch) => {
        const index = snapshots.findIndex((snapshot) => snapshot.thingName === batch.deviceId);
        if (index < 0) return [];
        const tank = { tankNumber: numbers[index]!, name: snapshots[index]!.name };
        return [batchListEntry({ ...batch, sensoryCount: batch.sensories.length }, tank, null)];
      }),
    };
  }

  batch(batchId: string): Batch {
    return this.find(batchId);
  }

  async start(body: StartBatchBody, snapshots: readonly BrewTankDevice[], now: number): Promise<Batch> {
    const numbers = tankNumbers(snapshots);
    const snapshot = snapshots[numbers.indexOf(body.tankNumber)];
    if (!snapshot) throw new DemoCallError(404, TANK_NOT_FOUND);
    refuse(startBatchRefusal(body.tankNumber, this.running(snapshot.thingName) !== undefined));
    const start = batchStart(
      snapshot.custom,
      this.settings(snapshot.thingName),
      (code) => snapshot.latest[code]?.value,
      now,
    );
    const batch: Batch = {
      id: demoRecordId('batch'),
      deviceId: snapshot.thingName,
      state: start.state,
      date: { start: now, end: null },
      props: body.props,
      gravities: [],
      sensories: [],
      annotations: [],
      transitions: start.transitions,
      isDemo: true,
      channelsMap: start.channelsMap,
      calibration: start.calibration,
      tankLevelAtFermStart: start.tankLevelAtFermStart,
      co2TotalAtStart: start.co2TotalAtStart,
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
      refuse(endBatchRefusal(batch.date.end !== null));
      return {
        ...batch,
        state: 'MANUALLY_ENDED',
        date: { ...batch.date, end: now },
        transitions: recordTransition(batch.transitions, 'MANUALLY_ENDED', now),
      };
    });
  }

  resume({ batchId }: BatchIdBody, now: number): Promise<Batch> {
    return this.change(batchId, (batch) => {
      const refusal = takeBackEndRefusal({
        ended: batch.date.end !== null,
        tankRunsAnotherBatch: batch.date.end !== null && this.running(batch.deviceId) !== undefined,
      });
      if (refusal) throw new DemoCallError(409, refusal);
      const state = resumedState(batch.transitions);
      return {
        ...batch,
        state,
        date: { ...batch.date, end: null },
        transitions: recordTransition(batch.transitions, state, now),
      };
    });
  }

  async putGravity(body: PutGravityBody, now: number): Promise<Batch> {
    return this.change(body.batchId, (batch) => {
      const [gravities] = upsert(batch.gravities, 'gravities', body.id, () => {
        const timestamp = body.timestamp ?? now;
        const problem = readingTimeProblem(timestamp, now, batch.date.start);
        if (problem) throw new DemoCallError(400, problem);
        return { id: body.id ?? demoRecordId('gravity'), value: body.value, timestamp, createdBy: null };
      });
      return { ...batch, gravities };
    });
  }

  async putSensory(body: PutSensoryBody, now: number): Promise<Batch> {
    return this.change(body.batchId, (batch) => {
      const notes = (body.notes ?? '').trim();
      const ratings = tastingRatings(body);
      const [sensories, { id, timestamp }] = upsert(batch.sensories, 'sensories', body.id, () => {
        const { t } = refuse(markTime(body.timestamp, now));
        return { id: body.id ?? demoRecordId('sensory'), ...ratings, notes, timestamp: t, createdBy: null };
      });
      const text = tastingMarkText(ratings, notes);
      const mark = batch.annotations.find((annotation) => annotation.sensoryId === id);
      const annotation = {
        ...plotLine(text, timestamp, annotationColor(true), id),
        id: mark?.id ?? demoRecordId('annotation'),
      };
      const [annotations] = upsert(batch.annotations, 'annotations', mark?.id, () => annotation);
      return { ...batch, sensories, annotations };
    });
  }

  async putAnnotation(body: PutAnnotationBody, now: number): Promise<Batch> {
    return this.change(body.batchId, (batch) => {
      const [annotations] = upsert(batch.annotations, 'annotations', body.id, (current) => {
        const { kind, channelCode } = refuse(annotationEdit(body, current ?? null));
        const { t: timestamp } = refuse(markTime(body.timestamp, now));
        const channel = channelCode === null ? null : { code: channelCode, deviceId: batch.deviceId };
        const text = body.text.trim();
        const id = current?.id ?? demoRecordId('annotation');
        return { id, kind, text, timestamp, color: annotationColor(false), channel, sensoryId: null };
      });
      return { ...batch, annotations };
    });
  }

  deleteItem(body: BatchItemBody, list: BatchItemList): Promise<Batch> {
    return this.change(body.batchId, (batch) => {
      const item = (batch[list] as readonly { id: string; sensoryId?: string | null }[]).find(
        (entry) => entry.id === body.id,
      );
      if (!item) throw new DemoCallError(404, BATCH_ITEM_NOT_FOUND[list]);
      refuse(itemDeleteRefusal(list, item));
      const next = { ...batch, [list]: batch[list].filter((item) => item.id !== body.id) };
      // A tasting note's mark goes with the note.
      if (list === 'sensories') next.annotations = batch.annotations.filter((item) => item.sensoryId !== body.id);
      return next;
    });
  }

  async calibrate(body: TankCalibrationBody, snapshots: readonly BrewTankDevice[], now: number): Promise<Tank> {
    const numbers = tankNumbers(snapshots);
    const snapshot = snapshots[numbers.indexOf(body.tankNumber)];
    if (!snapshot) throw new DemoCallError(404, TANK_NOT_FOUND);
    const settings = this.settings(snapshot.thingName);
    const { calibration } = body;
    if (calibration.co2TotalGain !== undefined) settings.co2TotalGain = calibration.co2TotalGain;
    if (calibration.tankLevel !== undefined) settings.tankLevel = calibration.tankLevel;
    if (calibration.capacity !== undefined) settings.capacity = calibration.capacity;
    const running = this.running(snapshot.thingName);
    if (running) running.calibration = { co2TotalGain: settings.co2TotalGain, tankLevel: settings.tankLevel };
    await this.save();
    return this.tanks(snapshots, now).find((tank) => tank.tankNumber === body.tankNumber)!;
  }

  /** The tanks as the brew summary shows them (domain `tankView`), each running batch followed first. */
  private tanks(snapshots: readonly BrewTankDevice[], now: number): Tank[] {
    const numbers = tankNumbers(snapshots);
    return snapshots.map((snapshot, index) => {
      const settings = this.settings(snapshot.thingName);
      const latest = (code: string) => snapshot.latest[code]?.value;
      const batch = this.running(snapshot.thingName);
      if (batch) this.follow(batch, latest, now);
      return tankView({
        device: {
          id: snapshot.thingName,
          thingName: snapshot.thingName,
          name: snapshot.name,
          isConnected: true,
          custom: snapshot.custom,
          registers: snapshot.registers,
        },
        tankNumber: numbers[index]!,
        settings,
        batch,
        latest,
      });
    });
  }

  /**
   * The running batch advanced by the tank's readings now, as the server's tracker advances it on
   * every frame (domain `followRunningBatch`): its state and transitions, and the gravity estimate frozen once
   * the pressure thresholds are passed (§4). The demo has no frames: reading the tanks is its moment.
   */
  private follow(batch: Batch, latest: (code: string) => number | undefined, now: number): void {
    const followed = followRunningBatch(batch, this.levels.get(batch.deviceId) ?? null, latest, now);
    this.levels.set(batch.deviceId, followed.kept);
    if (!followed.changed) return;
    Object.assign(batch, followed.batch);
    void this.save();
  }

  private settings(deviceId: string): DemoTankSettings {
    let settings = this.records.tanks.find((tank) => tank.deviceId === deviceId);
    if (!settings) {
      settings = { deviceId, ...tankSettings(null) };
      this.records.tanks.push(settings);
    }
    return settings;
  }

  private running(deviceId: string): Batch | undefined {
    return this.records.batches.find((batch) => batch.deviceId === deviceId && batch.date.end === null);
  }

  private find(batchId: string): Batch {
    const batch = this.records.batches.find((entry) => entry.id === batchId);
    if (!batch) throw new DemoCallError(404, BATCH_NOT_FOUND);
    return batch;
  }

  private async change(batchId: string, edit: (batch: Batch) => Batch): Promise<Batch> {
    const batch = edit(this.find(batchId));
    this.records.batches = this.records.batches.map((entry) => (entry.id === batchId ? batch : entry));
    await this.save();
    return batch;
  }
}

/** Throws the domain's refusal of an edit as the server answers it; passes anything else on. */
function refuse<T extends object>(answer: T | BatchEditRefusal | null): T {
  if (answer !== null && isRefusal(answer)) throw new DemoCallError(answer.status, answer.message);
  return answer as T;
}

/**
 * The list with the item `make` returns from the entry of id `replacing` (undefined: a new item)
 * in its place, in time order, and that item; 404 when the entry named is not in the list.
 */
function upsert<T extends { id: string; timestamp: number }>(
  list: readonly T[],
  name: BatchItemList,
  replacing: string | undefined,
  make: (current: T | undefined) => T,
): [T[], T] {
  const current = replacing === undefined ? undefined : list.find((entry) => entry.id === replacing);
  if (replacing !== undefined && !current) throw new DemoCallError(404, BATCH_ITEM_NOT_FOUND[name]);
  const item = make(current);
  return [[...list.filter((entry) => entry.id !== item.id), item].sort((a, b) => a.timestamp - b.timestamp), item];
}
