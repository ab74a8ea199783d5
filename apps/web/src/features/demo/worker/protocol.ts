import type { DeviceKind } from '@fieldlink/simulation/device-kind';
import type { DeviceIdentity } from '@fieldlink/simulation/device-identity';
import type { DeviceHealthReading } from '@fieldlink/simulation/device-health';
import type { TankBatchState } from '@fieldlink/simulation/demo-brewery';
import type { ChannelSpec } from '@fieldlink/simulation/plant-model';
import type { ChannelLog } from '@fieldlink/api/device-logs';
import type { LatestValue } from '@fieldlink/api/realtime';
import type { RetailTotals, ShelfProductTrack } from '@fieldlink/domain/retail';

/**
 * Messages between the demo's backend (main thread) and the simulation worker. The worker is the
 * demo's fleet and its log store: it runs one plant model per `_DEMO` device, keeps each device's
 * generated history, and speaks the real-time channel's actions (JSON frames) as the server would.
 */

export interface SimulatedDevice {
  thingName: string;
  kind: DeviceKind;
}

/** Where a smart shelf's stock stands: each product's track, and sales and lost sales per day. */
export interface ShelfState {
  tracks: Record<string, ShelfProductTrack>;
  /** Per day start (UTC midnight, unix ms). */
  days: Record<string, RetailTotals>;
}

/** A device as the worker holds it now. */
export interface DeviceSnapshot {
  thingName: string;
  channels: Pick<ChannelSpec, 'code' | 'name' | 'units' | 'alarm' | 'product'>[];
  registers: Record<string, number>;
  statusBits: number;
  latest: Record<string, LatestValue>;
  identity: DeviceIdentity;
  health: DeviceHealthReading;
  tank: TankBatchState | null;
  shelf: ShelfState | null;
}

export interface LogsQuestion {
  kind: 'logs';
  thingName: string;
  codes: string[];
  start: number;
  end: number;
  binCount: number;
}

export type Question = { kind: 'snapshot'; thingNames: string[] } | LogsQuestion;

export interface Answers {
  snapshot: DeviceSnapshot[];
  logs: Record<string, ChannelLog>;
}

export type ToWorker =
  /** Simulate these devices; their history starts at `historyStartMs`. */
  | { type: 'start'; devices: SimulatedDevice[]; historyStartMs: number }
  /** A real-time request from the console (a `ClientAction` as JSON). */
  | { type: 'socket'; frame: string }
  | { type: 'ask'; id: number; question: Question };

export type FromWorker =
  /** Real-time actions for the console (`ServerAction`s as JSON): a request's answer, or a whole tick's. */
  { type: 'socket'; frames: string[] } | { type: 'answer'; id: number; answer: Answers[keyof Answers] };
