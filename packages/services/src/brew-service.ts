import type {
  Batch,
  BatchIdBody,
  BatchItemBody,
  BatchProps,
  BrewBatchesAnswer,
  BrewBatchesQuery,
  BrewMeta,
  BrewOverviewQuery,
  BrewReport,
  PutAnnotationBody,
  PutBatchBody,
  PutGravityBody,
  PutSensoryBody,
  StartBatchBody,
  Tank,
  TankCalibrationBody,
} from '@fieldlink/api/brew';
import { tankLogQuery, type Transition } from '@fieldlink/domain/brew';
import {
  batchListEntry,
  batchStart,
  brewSummary,
  numberedTanks,
  tankView,
  type BatchListSource,
  type BatchStart,
  type TankCandidate,
  type TankDevice,
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
  type TastingMark,
} from '@fieldlink/domain/brew-edits';
import { BATCH_NOT_FOUND, GROUP_NOT_FOUND, TANK_NOT_FOUND } from '@fieldlink/api/errors';
import { BREW_ROUTES as ROUTES } from '@fieldlink/api/brew';
import { routeCallsOver, type RouteCall } from './route-calls';

/** A device of a group as the brewing calls read it: what its tank shows and what makes it a tank. */
export type BrewDevice = TankDevice & TankCandidate;

/** A tank of a group: its device and its number (domain `numberedTanks`). */
export interface NumberedTank<D extends BrewDevice> {
  device: D;
  tankNumber: number;
}

/** What the calls read of a stored batch before they change it. */
export interface StoredBatch {
  id: string;
  deviceId: string;
  date: { start: number; end: number | null };
  props: BatchProps;
  transitions: readonly Transition[];
}

/** An item of one of a batch's lists, found by its id; `sensoryId` names the tasting note an annotation marks. */
export interface StoredItem {
  id: string;
  sensoryId: string | null;
}

/**
 * An item of one of a batch's lists, read from the batch as the API answers it: for a store that keeps
 * whole batches (the browser demo's records).
 */
export function storedItemOf(batch: Batch, list: BatchItemList, id: string): StoredItem | undefined {
  const items: readonly { id: string; sensoryId?: string | null }[] = batch[list];
  const item = items.find((entry) => entry.id === id);
  return item && { id: item.id, sensoryId: item.sensoryId ?? null };
}

/** A batch as it starts (domain `batchStart`), before it has readings, notes or reports. */
export type NewBatch = BatchStart & {
  id: string;
  deviceId: string;
  date: { start: number; end: null };
  props: BatchProps;
};

/** A batch's line in the batch list as the store reads it, with its latest report (the demo keeps none). */
export interface StoredBatchLine {
  batch: BatchListSource<BatchProps>;
  latestReport: BrewReport | null;
}

/** A batch's new course after it ended or its end was taken back (domain `endedBatch`, `resumedBatch`). */
export interface BatchCourse {
  state: Batch['state'];
  end: number | null;
  transitions: Transition[];
}

/**
 * What the brewing calls need from a backend's storage. The server implements it over Kysely, each
 * write one transaction with its audit entry and its report jobs, and its reads within the caller's
 * scope; the browser demo over its IndexedDB records and simulated devices. Types: `G` a group, `D` a
 * device, `B` a stored batch, `I` a stored item, each as the backend holds it.
 */
export interface BrewStore<
  G extends { id: string; name: string },
  D extends BrewDevice,
  B extends StoredBatch,
  I extends StoredItem,
> {
  /** The error a refused call throws: its answer's status and message. */
  refusal(status: number, message: string): Error;
  /** A new record's id; `kind` names the record (the demo's ids show it). */
  newId(kind: 'batch' | 'gravity' | 'sensory' | 'annotation'): string;

  /** The group the caller may see, or undefined (answered as a group that does not exist). */
  group(groupId: string): Promise<G | undefined>;
  /** The devices of group `groupId`, in the order its tanks are numbered (by name). */
  devicesOf(groupId: string): Promise<readonly D[]>;
  /** The settings kept for each of these tanks, by device id (none: never set up). */
  tankSettings(devices: readonly D[]): Promise<ReadonlyMap<string, TankSettings>>;
  /** Each of these tanks' running batch, by device id, followed to `now` where the backend follows on reading. */
  runningBatches(devices: readonly D[], now: number): Promise<ReadonlyMap<string, Batch>>;
  /** Whether the tank of device `deviceId` runs a batch. */
  runsBatch(deviceId: string): Promise<boolean>;
  /** A reader of these devices' latest values. */
  latestValues(devices: readonly D[]): Promise<(device: D, code: string) => number | undefined>;
  /** A tank's channels binned as `GET /device-logs` answers them. */
  channelLogs(deviceId: string, query: ReturnType<typeof tankLogQuery>): Promise<NonNullable<Tank['rawDeviceLogs']>>;
  /** The batch list's lines of these tanks, newest first (the server also checks the query's account). */
  batchLines(group: G, devices: readonly D[], query: BrewBatchesQuery): Promise<StoredBatchLine[]>;
  /** The batch the caller may see, or undefined (answered as a batch that does not exist). */
  batch(batchId: string): Promise<B | undefined>;
  /** An item of the batch's list, or undefined. */
  item(batch: B, list: BatchItemList, id: string): Promise<I | undefined>;
  /** The batch as `GET /brew/batch` answers it. */
  answer(batch: B): Promise<Batch>;
  /** The batch as stored after a change (the server also sends its tank to the browsers watching it). */
  changed(batchId: string): Promise<Batch>;

  insertBatch(batch: NewBatch, tank: NumberedTank<D>): Promise<void>;
  saveProps(batch: B, props: BatchProps): Promise<void>;
  /** Deletes the batch with all that belongs to it. */
  removeBatch(batch: B): Promise<void>;
  endBatch(batch: B, course: BatchCourse & { end: number }): Promise<void>;
  resumeBatch(batch: B, course: BatchCourse & { end: null }): Promise<void>;
  saveGravity(
    batch: B,
    reading: { id: string; value: number; timestamp: number },
    current: I | undefined,
  ): Promise<void>;
  /** The note, and its mark under the id of the mark it already has (else a new one). */
  saveTastingNote(
    batch: B,
    note: Extract<ReturnType<typeof tastingNote>, { sensory: unknown }>['sensory'],
    mark: TastingMark,
    current: I | undefined,
  ): Promise<void>;
  saveAnnotation(
    batch: B,
    annotation: Exclude<ReturnType<typeof chartAnnotation>, BatchEditRefusal>,
    current: I | undefined,
  ): Promise<void>;
  /** Deletes the item (a tasting note with its mark); false when it was gone already. */
  deleteItem(batch: B, list: BatchItemList, item: I): Promise<boolean>;
  /** Keeps the tank's new settings; its running batch takes the new gain and level calibration. */
  saveTankSettings(
    tank: NumberedTank<D>,
    settings: TankSettings,
    calibration: TankCalibrationBody['calibration'],
  ): Promise<void>;
  /** A calibrated tank as it now shows (the server sends it to the browsers watching the tank). */
  calibrated(group: G, tank: NumberedTank<D>, view: Tank): void;
}

/**
 * The brewing calls of application §7, once for the server and the browser demo: what each call
 * reads, which rule of the domain decides (`brew-views`, `brew-edits`), what it writes and what it
 * answers. Who may call is the backend's to check before; `now` is the call's clock.
 */
export class BrewCalls<
  G extends { id: string; name: string },
  D extends BrewDevice,
  B extends StoredBatch,
  I extends StoredItem,
> {
  constructor(
    private readonly store: BrewStore<G, D, B, I>,
    private readonly now: () => number,
  ) {}

  /** `GET /brew/overview ?groupId, tankNumber`: every tank of the group; the selected one with its log. */
  async overview(query: BrewOverviewQuery): Promise<BrewMeta> {
    const group = await this.group(query.groupId);
    const selected = query.tankNumber ?? null;
    const tanks = await this.tanks(await this.numbered(group.id));
    const withLog = await Promise.all(
      tanks.map(async (tank) => {
        const batch = tank.batchInfo;
        if (tank.tankNumber !== selected || !batch) return tank;
        const logQuery = tankLogQuery(batch.channelsMap, batch.date, this.now());
        return { ...tank, rawDeviceLogs: await this.store.channelLogs(tank.deviceId, logQuery) };
      }),
    );
    return brewSummary(group, withLog, selected);
  }

  /** `GET /brew/batches ?groupId, accountId, isDemoMode`: the group's batches, newest first. */
  async batches(query: BrewBatchesQuery): Promise<BrewBatchesAnswer> {
    const group = await this.group(query.groupId);
    const tanks = await this.numbered(group.id);
    const byDevice = new Map(tanks.map((tank) => [tank.device.id, tank]));
    const lines = await this.store.batchLines(
      group,
      tanks.map((tank) => tank.device),
      query,
    );
    return {
      batches: lines.flatMap(({ batch, latestReport }) => {
        const tank = byDevice.get(batch.deviceId);
        if (!tank) return [];
        return [batchListEntry(batch, { tankNumber: tank.tankNumber, name: tank.device.name }, latestReport)];
      }),
    };
  }

  /** `GET /brew/batch ?batchId`. */
  async batch(batchId: string): Promise<Batch> {
    return this.store.answer(await this.find(batchId));
  }

  /** `POST /brew/batch {groupId, tankNumber, props}`: starts a batch on a tank without one. */
  async start(body: StartBatchBody): Promise<Batch> {
    const group = await this.group(body.groupId);
    const tank = (await this.numbered(group.id)).find((entry) => entry.tankNumber === body.tankNumber);
    if (!tank) throw this.store.refusal(404, TANK_NOT_FOUND);
    const { device } = tank;
    this.refuse(startBatchRefusal(body.tankNumber, await this.store.runsBatch(device.id)));
    const settings = await this.store.tankSettings([device]);
    const latest = await this.store.latestValues([device]);
    const now = this.now();
    const start = batchStart(device.custom, settings.get(device.id), (code) => latest(device, code), now);
    const id = this.store.newId('batch');
    await this.store.insertBatch(
      { ...start, id, deviceId: device.id, date: { start: now, end: null }, props: body.props },
      tank,
    );
    return this.store.changed(id);
  }

  /** `PUT /brew/batch {batchId, props}`: batch info, merged into what was kept. */
  async update({ batchId, props }: PutBatchBody): Promise<Batch> {
    const batch = await this.find(batchId);
    await this.store.saveProps(batch, { ...batch.props, ...props });
    return this.store.changed(batch.id);
  }

  /** `DELETE /brew/batch {batchId}`: the batch and all that belongs to it. */
  async remove({ batchId }: BatchIdBody): Promise<{ id: string }> {
    const batch = await this.find(batchId);
    await this.store.removeBatch(batch);
    return { id: batch.id };
  }

  /** `POST /brew/batch/end {batchId}`: ends the batch (MANUALLY_ENDED). */
  async end({ batchId }: BatchIdBody): Promise<Batch> {
    const batch = await this.find(batchId);
    const course = { end: batch.date.end, transitions: batch.transitions };
    await this.store.endBatch(batch, this.refuse(endedBatch(course, this.now())));
    return this.store.changed(batch.id);
  }

  /** `DELETE /brew/batch/end {batchId}`: takes back an end; the tank must not have started another batch. */
  async resume({ batchId }: BatchIdBody): Promise<Batch> {
    const batch = await this.find(batchId);
    const otherRuns = batch.date.end !== null && (await this.store.runsBatch(batch.deviceId));
    const course = { end: batch.date.end, transitions: batch.transitions };
    await this.store.resumeBatch(batch, this.refuse(resumedBatch(course, otherRuns, this.now())));
    return this.store.changed(batch.id);
  }

  /** `PUT /brew/batch/gravity`: a hydrometer or refractometer reading. */
  async putGravity(body: PutGravityBody): Promise<Batch> {
    const batch = await this.find(body.batchId);
    const current = body.id === undefined ? undefined : await this.store.item(batch, 'gravities', body.id);
    const newId = () => this.store.newId('gravity');
    const reading = this.refuse(gravityReading(body, current !== undefined, batch.date.start, this.now(), newId));
    await this.store.saveGravity(batch, reading, current);
    return this.store.changed(batch.id);
  }

  /** `PUT /brew/batch/sensory`: a tasting note, marked on the chart by a blue annotation. */
  async putSensory(body: PutSensoryBody): Promise<Batch> {
    const batch = await this.find(body.batchId);
    const current = body.id === undefined ? undefined : await this.store.item(batch, 'sensories', body.id);
    const newId = () => this.store.newId('sensory');
    const { sensory, mark } = this.refuse(tastingNote(body, current !== undefined, this.now(), newId));
    await this.store.saveTastingNote(batch, sensory, mark, current);
    return this.store.changed(batch.id);
  }

  /** `PUT /brew/batch/annotation`: a note on the chart (grey), across it or on one channel. */
  async putAnnotation(body: PutAnnotationBody): Promise<Batch> {
    const batch = await this.find(body.batchId);
    const current = body.id === undefined ? undefined : await this.store.item(batch, 'annotations', body.id);
    const newId = () => this.store.newId('annotation');
    const annotation = this.refuse(chartAnnotation(body, current, this.now(), newId));
    await this.store.saveAnnotation(batch, annotation, current);
    return this.store.changed(batch.id);
  }

  /** `DELETE /brew/batch/{gravity,sensory,annotation} {id, batchId}`; a tasting note's mark goes with the note. */
  async deleteItem({ id, batchId }: BatchItemBody, list: BatchItemList): Promise<Batch> {
    const batch = await this.find(batchId);
    const item = await this.store.item(batch, list, id);
    if (!item) throw this.store.refusal(404, BATCH_ITEM_NOT_FOUND[list]);
    this.refuse(itemDeleteRefusal(list, item));
    if (!(await this.store.deleteItem(batch, list, item))) throw this.store.refusal(404, BATCH_ITEM_NOT_FOUND[list]);
    return this.store.changed(batch.id);
  }

  /**
   * `PUT /brew/tank/calibration {groupId, tankNumber, calibration}`: each of the capacity, the CO2
   * total gain and the level calibration given replaces the one kept; the running batch takes the new
   * gain and level calibration too.
   */
  async calibrate(body: TankCalibrationBody): Promise<Tank> {
    const group = await this.group(body.groupId);
    const tank = (await this.numbered(group.id)).find((entry) => entry.tankNumber === body.tankNumber);
    if (!tank) throw this.store.refusal(404, TANK_NOT_FOUND);
    const kept = await this.store.tankSettings([tank.device]);
    const settings = calibratedTank(kept.get(tank.device.id), body.calibration);
    await this.store.saveTankSettings(tank, settings, body.calibration);
    const [view] = await this.tanks([tank]);
    this.store.calibrated(group, tank, view!);
    return view!;
  }

  /**
   * The tanks as the brew summary shows them (domain `tankView`): state, gravity estimate, running
   * batch. Also for a backend's own announcements of a tank.
   */
  async tanks(tanks: readonly NumberedTank<D>[]): Promise<Tank[]> {
    const devices = tanks.map((tank) => tank.device);
    const [settings, running, latest] = await Promise.all([
      this.store.tankSettings(devices),
      this.store.runningBatches(devices, this.now()),
      this.store.latestValues(devices),
    ]);
    return tanks.map(({ device, tankNumber }) =>
      tankView({
        device: {
          id: device.id,
          thingName: device.thingName,
          name: device.name,
          isConnected: device.isConnected,
          custom: device.custom,
          registers: device.registers,
        },
        tankNumber,
        settings: settings.get(device.id),
        batch: running.get(device.id) ?? null,
        latest: (code) => latest(device, code),
      }),
    );
  }

  /** The group's fermentation vessels, numbered (domain `numberedTanks`): its other devices are no tanks. */
  async numbered(groupId: string): Promise<NumberedTank<D>[]> {
    return numberedTanks(await this.store.devicesOf(groupId), (device) => device);
  }

  private async group(groupId: string): Promise<G> {
    const group = await this.store.group(groupId);
    if (!group) throw this.store.refusal(404, GROUP_NOT_FOUND);
    return group;
  }

  private async find(batchId: string): Promise<B> {
    const batch = await this.store.batch(batchId);
    if (!batch) throw this.store.refusal(404, BATCH_NOT_FOUND);
    return batch;
  }

  /** Throws the domain's refusal of an edit as the backend answers it; passes anything else on. */
  private refuse<T extends object>(answer: T | BatchEditRefusal | null): T {
    if (answer !== null && isRefusal(answer)) throw this.store.refusal(answer.status, answer.message);
    return answer as T;
  }
}

/** The brewing calls as a table reads them, whichever store they run over: the ones it answers. */
export type AnyBrewCalls = Pick<
  BrewCalls<{ id: string; name: string }, BrewDevice, StoredBatch, StoredItem>,
  'overview' | 'batches' | 'batch' | 'start' | 'update' | 'remove' | 'end' | 'resume' | TableEdits
>;
type TableEdits = 'putGravity' | 'putSensory' | 'putAnnotation' | 'deleteItem' | 'calibrate';
const brewCall = routeCallsOver<AnyBrewCalls>();

/**
 * The brewing calls {@link BrewCalls} answers, each at its route with the capabilities it needs: the
 * server registers them (checking the caller), the browser demo answers them over its records. The
 * batch reports are the server's alone (a demo makes no PDF).
 */
export const BREW_CALLS: readonly RouteCall<AnyBrewCalls>[] = [
  brewCall(ROUTES.overview, ['viewDashboard'], (calls, { query }) => calls.overview(query)),
  brewCall(ROUTES.batches, ['viewDashboard'], (calls, { query }) => calls.batches(query)),
  brewCall(ROUTES.batch, ['viewDashboard'], (calls, { query }) => calls.batch(query.batchId)),
  brewCall(ROUTES.startBatch, ['editBrewInfo'], (calls, { body }) => calls.start(body)),
  brewCall(ROUTES.updateBatch, ['editBrewInfo'], (calls, { body }) => calls.update(body)),
  brewCall(ROUTES.deleteBatch, ['deleteBrew'], (calls, { body }) => calls.remove(body)),
  brewCall(ROUTES.endBatch, ['endBrew'], (calls, { body }) => calls.end(body)),
  brewCall(ROUTES.resumeBatch, ['endBrew'], (calls, { body }) => calls.resume(body)),
  brewCall(ROUTES.putGravity, ['editBrewInfo'], (calls, { body }) => calls.putGravity(body)),
  brewCall(ROUTES.putSensory, ['editBrewInfo'], (calls, { body }) => calls.putSensory(body)),
  brewCall(ROUTES.putAnnotation, ['editBrewInfo'], (calls, { body }) => calls.putAnnotation(body)),
  brewCall(ROUTES.deleteGravity, ['editBrewInfo'], (calls, { body }) => calls.deleteItem(body, 'gravities')),
  brewCall(ROUTES.deleteSensory, ['editBrewInfo'], (calls, { body }) => calls.deleteItem(body, 'sensories')),
  brewCall(ROUTES.deleteAnnotation, ['editBrewInfo'], (calls, { body }) => calls.deleteItem(body, 'annotations')),
  // The CO2 total gain needs its own flag; the level's calibration and the capacity, EDIT_BREW_INFO.
  brewCall(
    ROUTES.calibrate,
    ({ body: { calibration } }) => [
      ...(calibration.co2TotalGain !== undefined ? (['calibrateCo2TotalGain'] as const) : []),
      ...(calibration.tankLevel !== undefined || calibration.capacity !== undefined
        ? (['calibrateTankLevel'] as const)
        : []),
    ],
    (calls, { body }) => calls.calibrate(body),
  ),
];
