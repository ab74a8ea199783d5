/**
 * What the three brewing widgets of a scene show (application §3 widget types brewOriginalGravity,
 * brewSummary, lagTime), read from a tank of the brewing model (`GET /brew/overview`): the batch's
 * original gravity and the gravity now, its ABV, its state and day, and the fermentation lag.
 */
import {
  batchAbv,
  fermentationDay,
  isActiveTankState,
  latestGravityReading,
  tankStateLabel,
  type BatchAbv,
  type TankState,
} from './brew';
import { apparentAttenuation } from './widget-values';

/** The part of a tank (§3 Tank) the brewing widgets read. */
export interface BrewWidgetTank {
  state: TankState;
  gravityParameters: { currentGravity: number | null };
  batchInfo: {
    props: { beerName: string; style: string; originalGravity: number | null };
    date: { start: number; end: number | null };
    gravities: readonly { value: number; timestamp: number }[];
    transitions: readonly { state: TankState; timestamp: number }[];
  } | null;
}

/** Original gravity, gravity now (the latest reading, else the estimate), attenuation and ABV. */
export interface BrewGravityView {
  original: number | null;
  current: number | null;
  /** Apparent attenuation, %. */
  attenuation: number | null;
  abv: BatchAbv | null;
}

export function brewGravityView(tank: BrewWidgetTank): BrewGravityView {
  const batch = tank.batchInfo;
  if (!batch) return { original: null, current: null, attenuation: null, abv: null };
  const original = batch.props.originalGravity;
  const abv = batchAbv(original, batch.gravities, tank.gravityParameters.currentGravity);
  const current = abv?.gravity ?? latestGravityReading(batch.gravities)?.value ?? tank.gravityParameters.currentGravity;
  const attenuation = original !== null && current !== null ? apparentAttenuation(original, current) : null;
  return { original, current, attenuation, abv };
}

/**
 * The fermentation lag of a batch: from its start (the wort in the tank, yeast pitched) to its first
 * FERMENTING transition (CO2 flowing). While the batch has not begun fermenting it is still running
 * (measured to now); an ended batch that never fermented has none.
 */
export interface FermentationLag {
  ms: number;
  running: boolean;
}

export function fermentationLag(tank: BrewWidgetTank, now: number): FermentationLag | null {
  const batch = tank.batchInfo;
  if (!batch) return null;
  const start = batch.date.start;
  const fermenting = batch.transitions.find(
    (transition) => transition.state === 'FERMENTING' && transition.timestamp >= start,
  );
  if (fermenting) return { ms: fermenting.timestamp - start, running: false };
  if (batch.date.end !== null || !isActiveTankState(tank.state)) return null;
  return { ms: Math.max(0, now - start), running: true };
}

/** A tank at a glance: its beer, state, day of fermentation and gravities. */
export interface BrewSummaryView extends BrewGravityView {
  beerName: string | null;
  style: string | null;
  stateLabel: string;
  /** Day of fermentation, from 1; null without a running batch. */
  day: number | null;
}

export function brewSummaryView(tank: BrewWidgetTank, now: number): BrewSummaryView {
  const batch = tank.batchInfo;
  return {
    ...brewGravityView(tank),
    beerName: batch?.props.beerName ?? null,
    style: batch?.props.style || null,
    stateLabel: tankStateLabel(tank.state),
    day: batch && batch.date.end === null ? fermentationDay(batch.date.start, batch.transitions, now) : null,
  };
}

/** A lag as the widget shows it: `35 min`, `14 h 5 min`, `2 d 3 h`. */
export function formatLag(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return `${minutes} min`;
}
