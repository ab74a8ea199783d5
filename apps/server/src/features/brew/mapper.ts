import type { Annotation, Batch, BatchProps, BrewReport, GravityReading, Sensory } from '@fieldlink/api/brew';
import type {
  BatchEstimateBasis,
  ChannelsMap,
  GravityParameters,
  TankLevelCalibration,
  TankState,
  TastingRating,
  Transition,
} from '@fieldlink/domain/brew';
import type { BrewBatchesTable, BrewReportsTable } from '../../db/schema';
import type { BatchItems } from './repository';

/** Rows of the batch item tables as the repository reads them. */
type Items = BatchItems;

export function toGravity(row: Items['gravities'][number]): GravityReading {
  return { id: row.id, value: row.value, timestamp: row.t, createdBy: row.created_by };
}

export function toSensory(row: Items['sensories'][number]): Sensory {
  const ratings = JSON.parse(row.ratings) as Record<TastingRating, number>;
  return { id: row.id, ...ratings, notes: row.notes, timestamp: row.t, createdBy: row.created_by };
}

export function toAnnotation(row: Items['annotations'][number], deviceId: string): Annotation {
  return {
    id: row.id,
    kind: row.kind as Annotation['kind'],
    text: row.text,
    timestamp: row.t,
    color: row.color,
    channel: row.channel_code ? { code: row.channel_code, deviceId } : null,
    sensoryId: row.sensory_id,
  };
}

export function toReport(row: BrewReportsTable): BrewReport {
  return {
    id: row.id,
    batchId: row.batch_id,
    state: row.state as BrewReport['state'],
    error: row.error,
    createdAt: row.created_at,
    generatedAt: row.generated_at,
  };
}

export function batchProps(row: Pick<BrewBatchesTable, 'props'>): BatchProps {
  return JSON.parse(row.props) as BatchProps;
}

export function batchTransitions(row: Pick<BrewBatchesTable, 'transitions'>): Transition[] {
  return JSON.parse(row.transitions) as Transition[];
}

export function batchTankLevel(row: Pick<BrewBatchesTable, 'tank_level'>): TankLevelCalibration | null {
  return row.tank_level ? (JSON.parse(row.tank_level) as TankLevelCalibration) : null;
}

/** What a batch brings to its tank's gravity estimate (domain `batchGravity`). */
export function batchEstimateBasis(row: BrewBatchesTable): BatchEstimateBasis {
  return {
    originalGravity: batchProps(row).originalGravity,
    co2TotalAtStart: row.co2_total_at_start,
    co2TotalGain: row.co2_total_gain,
    tankLevelAtFermStart: row.tank_level_at_ferm_start,
    frozenGravity: row.frozen_gravity ? (JSON.parse(row.frozen_gravity) as GravityParameters) : null,
  };
}

/** A batch with its items (only those of this batch are used). `created_by` columns hold e-mails. */
export function toBatch(row: BrewBatchesTable, items: Items): Batch {
  const own = <T extends { batch_id: string }>(list: readonly T[]) => list.filter((item) => item.batch_id === row.id);
  return {
    id: row.id,
    deviceId: row.device_id,
    state: row.state as TankState,
    date: { start: row.start_at, end: row.end_at },
    props: batchProps(row),
    gravities: own(items.gravities).map(toGravity),
    sensories: own(items.sensories).map(toSensory),
    annotations: own(items.annotations).map((item) => toAnnotation(item, row.device_id)),
    transitions: batchTransitions(row),
    isDemo: row.is_demo === 1,
    channelsMap: JSON.parse(row.channels_map) as ChannelsMap,
    calibration: { co2TotalGain: row.co2_total_gain, tankLevel: batchTankLevel(row) },
    tankLevelAtFermStart: row.tank_level_at_ferm_start,
    co2TotalAtStart: row.co2_total_at_start,
    pressurizedAt: row.pressurized_at,
    frozenGravity: row.frozen_gravity ? (JSON.parse(row.frozen_gravity) as GravityParameters) : null,
    reports: own(items.reports).map(toReport),
  };
}
