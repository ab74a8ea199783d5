import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  ANNOTATION_KINDS,
  GRAVITY_RANGE,
  RATING_SCALE,
  TANK_CHANNEL_ROLES,
  TANK_STATES,
  type ChannelsMap,
  type TankState,
} from '@fieldlink/domain/brew';
import { REPORT_STATES, type ReportState } from '@fieldlink/domain/reports';
import { DeviceLogsAnswer } from './device-logs';
import { errorAnswers, LimitAnswer } from './errors';
import { ChannelCode, EntityId, MAX_TIME_MS, Nullable } from './fields';
import { apiRoute } from './routes';

/**
 * Brewing calls (application §7 "Brewing"): the brew summary of a group, batches with their gravity
 * readings, tasting notes and annotations, ending and deleting batches, batch reports and the tank
 * calibration. Times are unix milliseconds. docs/decisions.md ("Brewing") explains the choices the
 * specification leaves open (answers, starting a batch, permissions).
 */

export const BREW_PATHS = {
  overview: '/brew/overview',
  batches: '/brew/batches',
  batch: '/brew/batch',
  end: '/brew/batch/end',
  gravity: '/brew/batch/gravity',
  sensory: '/brew/batch/sensory',
  annotation: '/brew/batch/annotation',
  reportGenerate: '/brew/batch/report/generate',
  report: '/brew/batch/report',
  reportState: '/brew/batch/report/state',
  calibration: '/brew/tank/calibration',
} as const;

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((value) => Type.Literal(value)));

export const TankStateSchema = literals<TankState>(TANK_STATES);

export const ChannelsMapSchema = Type.Unsafe<ChannelsMap>(
  Type.Object(Object.fromEntries(TANK_CHANNEL_ROLES.map((role) => [role, Type.String()])) as Record<string, TSchema>),
);

/** A specific gravity as a brewer types it. */
const Gravity = Type.Number({ minimum: GRAVITY_RANGE.min, maximum: GRAVITY_RANGE.max });
/** A tank's number, as its VAT_NUMBER register (16 bits) holds it. */
const TankNumber = Type.Integer({ minimum: 1, maximum: 65_535 });
/** A time a person may give (not before 2000, not far in the future: checked by the server). */
const Timestamp = Type.Integer({ minimum: 946_684_800_000, maximum: MAX_TIME_MS });

/** What the brewer says about a batch. */
export const BatchProps = Type.Object(
  {
    beerName: Type.String({ minLength: 1, maxLength: 80 }),
    style: Type.String({ maxLength: 80 }),
    originalGravity: Nullable(Gravity),
    targetGravity: Nullable(Gravity),
    notes: Type.String({ maxLength: 2000 }),
  },
  { additionalProperties: false },
);
export type BatchProps = Static<typeof BatchProps>;

export const GravityReading = Type.Object({
  id: Type.String(),
  value: Type.Number(),
  timestamp: Type.Number(),
  /** E-mail of who took it. */
  createdBy: Nullable(Type.String()),
});
export type GravityReading = Static<typeof GravityReading>;

const Rating = Type.Number({ minimum: RATING_SCALE.min, maximum: RATING_SCALE.max, multipleOf: RATING_SCALE.step });
const Ratings = {
  aroma: Rating,
  flavor: Rating,
  mouthfeel: Rating,
  appearance: Rating,
  overall: Rating,
  carbonation: Rating,
};

/** A tasting note (sensory). */
export const Sensory = Type.Object({
  id: Type.String(),
  ...Ratings,
  notes: Type.String(),
  timestamp: Type.Number(),
  createdBy: Nullable(Type.String()),
});
export type Sensory = Static<typeof Sensory>;

export const AnnotationKindSchema = literals(ANNOTATION_KINDS);

/** A note on the tank's chart: a plot line across all channels, or on one channel. */
export const Annotation = Type.Object({
  id: Type.String(),
  kind: AnnotationKindSchema,
  text: Type.String(),
  timestamp: Type.Number(),
  /** Blue for sensory notes, grey otherwise. */
  color: Type.String(),
  channel: Nullable(Type.Object({ code: Type.String(), deviceId: Type.String() })),
  /** The tasting note this annotation marks, if any (it goes when the note goes). */
  sensoryId: Nullable(Type.String()),
});
export type Annotation = Static<typeof Annotation>;

export const Transition = Type.Object({ state: TankStateSchema, timestamp: Type.Number() });

export const TankLevelCalibrationSchema = Type.Object(
  {
    /** Litres per kPa of liquid column. */
    scale: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
    /** Litres added. */
    offset: Type.Number({ minimum: -1_000_000, maximum: 1_000_000 }),
  },
  { additionalProperties: false },
);

export const GravityParametersSchema = Type.Object({
  currentGravity: Nullable(Type.Number()),
  ethanol: Nullable(Type.Number()),
  saturatedCo2: Nullable(Type.Number()),
  hasGravityFreezed: Type.Boolean(),
  tankLevel: Nullable(Type.Number()),
});

/** A batch report (brew report: id, state). */
export const BrewReport = Type.Object({
  id: Type.String(),
  batchId: Type.String(),
  state: literals<ReportState>(REPORT_STATES),
  /** Why it failed (state ERROR). */
  error: Nullable(Type.String()),
  createdAt: Type.Number(),
  generatedAt: Nullable(Type.Number()),
});
export type BrewReport = Static<typeof BrewReport>;

/** A batch (§3). */
export const Batch = Type.Object({
  id: Type.String(),
  deviceId: Type.String(),
  /** MANUALLY_ENDED once ended, else the tank's state while it ran. */
  state: TankStateSchema,
  date: Type.Object({ start: Type.Number(), end: Nullable(Type.Number()) }),
  props: BatchProps,
  gravities: Type.Array(GravityReading),
  sensories: Type.Array(Sensory),
  annotations: Type.Array(Annotation),
  transitions: Type.Array(Transition),
  isDemo: Type.Boolean(),
  channelsMap: ChannelsMapSchema,
  calibration: Type.Object({ co2TotalGain: Type.Number(), tankLevel: Nullable(TankLevelCalibrationSchema) }),
  tankLevelAtFermStart: Nullable(Type.Number()),
  /** The CO2 total channel's reading when fermentation started. */
  co2TotalAtStart: Nullable(Type.Number()),
  /** When the tank passed the pressurized thresholds (less 3600 s), and the gravity estimate then. */
  pressurizedAt: Nullable(Type.Number()),
  frozenGravity: Nullable(GravityParametersSchema),
  /** Its reports, newest first. */
  reports: Type.Array(BrewReport),
});
export type Batch = Static<typeof Batch>;

/** A tank (§3) on the brew summary. */
export const Tank = Type.Object({
  tankNumber: Type.Integer(),
  deviceId: Type.String(),
  thingName: Type.String(),
  name: Type.String(),
  isConnected: Type.Boolean(),
  state: TankStateSchema,
  /** Litres, when set. */
  capacity: Nullable(Type.Number()),
  channelsMap: ChannelsMapSchema,
  gravityParameters: GravityParametersSchema,
  batchInfo: Nullable(Batch),
  /**
   * The running batch's log, as `GET /device-logs` answers it (domain `tankLogQuery`: the chart's
   * channels over the batch's 7-day window): on the selected tank of an overview (`tankNumber`);
   * null on the others, without a running batch, and in real-time pushes.
   */
  rawDeviceLogs: Nullable(DeviceLogsAnswer),
  calibration: Type.Object({ co2TotalGain: Type.Number(), tankLevel: Nullable(TankLevelCalibrationSchema) }),
  /** Bits 6 and 7 of the vat's status register (Vats macro 4.0 or later). */
  isVatMarked: Type.Boolean(),
});
export type Tank = Static<typeof Tank>;

/**
 * `GET /brew/overview ?groupId`: brew meta (§3). `tankNumber` selects a tank (the tank view): it is
 * the answer's `selectedBrewTankNumber`, and that tank carries its `rawDeviceLogs`.
 */
export const BrewOverviewQuery = Type.Object(
  { groupId: EntityId, tankNumber: Type.Optional(TankNumber) },
  { additionalProperties: false },
);
export type BrewOverviewQuery = Static<typeof BrewOverviewQuery>;
export const BrewMeta = Type.Object({
  groupId: Type.String(),
  groupName: Type.String(),
  tanks: Type.Array(Tank),
  /** kPa-equivalent (§9). */
  pressurizedThreshold: Type.Object({ upper: Type.Number(), lower: Type.Number() }),
  selectedBrewTankNumber: Nullable(Type.Integer()),
});
export type BrewMeta = Static<typeof BrewMeta>;

/** `GET /brew/batches ?groupId, accountId, isDemoMode`: the group's batches, newest first. */
export const BrewBatchesQuery = Type.Object(
  {
    groupId: EntityId,
    accountId: Type.Optional(EntityId),
    isDemoMode: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type BrewBatchesQuery = Static<typeof BrewBatchesQuery>;

export const BatchSummary = Type.Object({
  id: Type.String(),
  deviceId: Type.String(),
  tankNumber: Type.Integer(),
  tankName: Type.String(),
  state: TankStateSchema,
  date: Type.Object({ start: Type.Number(), end: Nullable(Type.Number()) }),
  props: BatchProps,
  /** The latest gravity reading, if any. */
  lastGravity: Nullable(Type.Number()),
  sensoryCount: Type.Integer(),
  isDemo: Type.Boolean(),
  latestReport: Nullable(BrewReport),
});
export const BrewBatchesAnswer = Type.Object({ batches: Type.Array(BatchSummary) });
export type BrewBatchesAnswer = Static<typeof BrewBatchesAnswer>;

export const BatchIdQuery = Type.Object({ batchId: EntityId }, { additionalProperties: false });
export const BatchIdBody = Type.Object({ batchId: EntityId }, { additionalProperties: false });
export type BatchIdBody = Static<typeof BatchIdBody>;

/** `POST /brew/batch`: starts a batch on an idle tank (our call; §7 has none for it). */
export const StartBatchBody = Type.Object(
  { groupId: EntityId, tankNumber: TankNumber, props: BatchProps },
  { additionalProperties: false },
);
export type StartBatchBody = Static<typeof StartBatchBody>;

/** `PUT /brew/batch {batchId, props}`: batch info. */
export const PutBatchBody = Type.Object(
  { batchId: EntityId, props: Type.Partial(BatchProps, { additionalProperties: false, minProperties: 1 }) },
  { additionalProperties: false },
);
export type PutBatchBody = Static<typeof PutBatchBody>;

/** `PUT /brew/batch/gravity`: adds a reading, or changes the one named by `id`. */
export const PutGravityBody = Type.Object(
  { batchId: EntityId, id: Type.Optional(EntityId), value: Gravity, timestamp: Type.Optional(Timestamp) },
  { additionalProperties: false },
);
export type PutGravityBody = Static<typeof PutGravityBody>;

/** `PUT /brew/batch/sensory`: adds a tasting note, or changes the one named by `id`. */
export const PutSensoryBody = Type.Object(
  {
    batchId: EntityId,
    id: Type.Optional(EntityId),
    ...Ratings,
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
    timestamp: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);
export type PutSensoryBody = Static<typeof PutSensoryBody>;

/** `PUT /brew/batch/annotation`: adds an annotation, or changes the one named by `id`. */
export const PutAnnotationBody = Type.Object(
  {
    batchId: EntityId,
    id: Type.Optional(EntityId),
    kind: Type.Optional(AnnotationKindSchema),
    text: Type.String({ minLength: 1, maxLength: 500 }),
    timestamp: Type.Optional(Timestamp),
    /** A channel of the batch's tank (kind `channel`). */
    code: Type.Optional(ChannelCode),
  },
  { additionalProperties: false },
);
export type PutAnnotationBody = Static<typeof PutAnnotationBody>;

/** `DELETE /brew/batch/{gravity,sensory,annotation} {id, batchId}`. */
export const BatchItemBody = Type.Object({ id: EntityId, batchId: EntityId }, { additionalProperties: false });
export type BatchItemBody = Static<typeof BatchItemBody>;

/** `DELETE /brew/batch {batchId}`. */
export const DeletedBatchAnswer = Type.Object({ id: Type.String() });

/** `GET /brew/batch/report ?id` and `GET /brew/batch/report/state ?id`. */
export const ReportIdQuery = Type.Object({ id: EntityId }, { additionalProperties: false });
/** A link to the report's PDF, valid for a few minutes, usable without the session token. */
export const ReportUrlAnswer = Type.Object({ url: Type.String() });

/** `PUT /brew/tank/calibration {groupId, tankNumber, calibration}`. */
export const TankCalibrationBody = Type.Object(
  {
    groupId: EntityId,
    tankNumber: TankNumber,
    calibration: Type.Object(
      {
        /** Needs BREW_CALIB_CO2_TOTAL_GAIN. */
        co2TotalGain: Type.Optional(Type.Number({ minimum: 0.1, maximum: 10 })),
        /** Needs EDIT_BREW_INFO. */
        tankLevel: Type.Optional(Nullable(TankLevelCalibrationSchema)),
        capacity: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000 }))),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
  },
  { additionalProperties: false },
);
export type TankCalibrationBody = Static<typeof TankCalibrationBody>;

const BREW_ERRORS = errorAnswers(400, 401, 403, 404, 409);

/** The brewing calls (application §7), as the server registers them and the browser demo answers them. */
export const BREW_ROUTES = {
  overview: apiRoute('GET', BREW_PATHS.overview, {
    tags: ['brew'],
    summary:
      'Brew summary of a group: every device of the group as a tank, with its state, estimate and batch; the tank named by tankNumber with its log',
    querystring: BrewOverviewQuery,
    response: { 200: BrewMeta, ...BREW_ERRORS },
  }),
  batches: apiRoute('GET', BREW_PATHS.batches, {
    tags: ['brew'],
    summary: 'Batches of the group’s tanks, newest first (isDemoMode: the demo batches instead)',
    querystring: BrewBatchesQuery,
    response: { 200: BrewBatchesAnswer, ...BREW_ERRORS },
  }),
  batch: apiRoute('GET', BREW_PATHS.batch, {
    tags: ['brew'],
    summary: 'One batch with its gravity readings, tasting notes, annotations, transitions and reports',
    querystring: BatchIdQuery,
    response: { 200: Batch, ...BREW_ERRORS },
  }),
  startBatch: apiRoute('POST', BREW_PATHS.batch, {
    tags: ['brew'],
    summary: 'Start a batch on a tank without one (needs EDIT_BREW_INFO)',
    body: StartBatchBody,
    response: { 200: Batch, ...BREW_ERRORS },
  }),
  updateBatch: apiRoute('PUT', BREW_PATHS.batch, {
    tags: ['brew'],
    summary: 'Change batch info (needs EDIT_BREW_INFO)',
    body: PutBatchBody,
    response: { 200: Batch, ...BREW_ERRORS },
  }),
  deleteBatch: apiRoute('DELETE', BREW_PATHS.batch, {
    tags: ['brew'],
    summary: 'Delete a batch and everything recorded on it (needs BREW_DELETE)',
    body: BatchIdBody,
    response: { 200: DeletedBatchAnswer, ...BREW_ERRORS },
  }),
  endBatch: apiRoute('POST', BREW_PATHS.end, {
    tags: ['brew'],
    summary: 'End a batch: MANUALLY_ENDED, the tank goes idle, a report is generated (needs END_BREW)',
    body: BatchIdBody,
    response: { 200: Batch, ...BREW_ERRORS },
  }),
  resumeBatch: apiRoute('DELETE', BREW_PATHS.end, {
    tags: ['brew'],
    summary: 'Take back the end of a batch, if its tank has not started another (needs END_BREW)',
    body: BatchIdBody,
    response: { 200: Batch, ...BREW_ERRORS },
  }),
  putGravity: apiRoute('PUT', BREW_PATHS.gravity, {
    tags: ['brew'],
    summary: 'Add a gravity reading, or change the one named by id (needs EDIT_BREW_INFO)',
    body: PutGravityBody,
    response: { 200: Batch, ...BREW_ERRORS },
  }),
  deleteGravity: apiRoute('DELETE', BREW_PATHS.gravity, {
    tags: ['brew'],
    summary: 'Delete a gravity reading (needs EDIT_BREW_INFO)',
    body: BatchItemBody,
    response: { 200: Batch, ...BREW_ERRORS },
  }),
  putSensory: apiRoute('PUT', BREW_PATHS.sensory, {
    tags: ['brew'],
    summary: 'Add a tasting note, or change the one named by id; it is marked on the chart (needs EDIT_BREW_INFO)',
    body: PutSensoryBody,
    response: { 200: Batch, ...BREW_ERRORS },
  }),
  deleteSensory: apiRoute('DELETE', BREW_PATHS.sensory, {
    tags: ['brew'],
    summary: 'Delete a tasting note and its mark on the chart (needs EDIT_BREW_INFO)',
    body: BatchItemBody,
    response: { 200: Batch, ...BREW_ERRORS },
  }),
  putAnnotation: apiRoute('PUT', BREW_PATHS.annotation, {
    tags: ['brew'],
    summary: 'Add an annotation to the chart, or change the one named by id (needs EDIT_BREW_INFO)',
    body: PutAnnotationBody,
    response: { 200: Batch, ...BREW_ERRORS },
  }),
  deleteAnnotation: apiRoute('DELETE', BREW_PATHS.annotation, {
    tags: ['brew'],
    summary: 'Delete an annotation (needs EDIT_BREW_INFO)',
    body: BatchItemBody,
    response: { 200: Batch, ...BREW_ERRORS },
  }),
  generateReport: apiRoute('POST', BREW_PATHS.reportGenerate, {
    tags: ['brew'],
    summary:
      'Generate a batch report (PDF) in the background; poll its state. Batch reports generating and kept ' +
      'are limited per user and per account (429 naming the limit)',
    body: BatchIdBody,
    response: { 200: BrewReport, ...BREW_ERRORS, 429: LimitAnswer },
  }),
  reportUrl: apiRoute('GET', BREW_PATHS.report, {
    tags: ['brew'],
    summary: 'A link to a ready report’s PDF, valid for five minutes',
    querystring: ReportIdQuery,
    response: { 200: ReportUrlAnswer, ...BREW_ERRORS },
  }),
  reportState: apiRoute('GET', BREW_PATHS.reportState, {
    tags: ['brew'],
    summary: 'State of a batch report: GENERATING, READY, AWAITING_USER, ERROR or DELETING',
    querystring: ReportIdQuery,
    response: { 200: BrewReport, ...BREW_ERRORS },
  }),
  calibrate: apiRoute('PUT', BREW_PATHS.calibration, {
    tags: ['brew'],
    summary:
      'Calibrate a tank: CO2 total gain (needs BREW_CALIB_CO2_TOTAL_GAIN), tank level scale and offset, capacity (EDIT_BREW_INFO)',
    body: TankCalibrationBody,
    response: { 200: Tank, ...BREW_ERRORS },
  }),
};
