import type { LatestValue, ServerAction, ServerActionOf } from '@fieldlink/api/realtime';
import type { DeviceHealth } from '@fieldlink/api/device-frames';
import { shouldReplaceLatest } from '@fieldlink/domain/log-merge';
import { isTooFarInFuture } from '@fieldlink/domain/timestamps';
import { createStore } from '../create-store';

/** Real-time status; DISCONNECTED until the first socket opens (specification §3). */
export type ConnectionStatus = 'DISCONNECTED' | 'CONNECTING' | 'CONNECTED' | 'RECONNECTING';

export interface DeviceConnectionState {
  isConnected: boolean;
  lastConnection: number | null;
  lastDisconnection: number | null;
}

export type DeviceConfigUpdate = ServerActionOf<'server/deviceConfig'>['config'];
export type AlarmStatus = ServerActionOf<'server/alarms'>['status'];
/** A device's latest OTA update as last pushed (`server/otaProgress`). */
export type OtaProgress = Omit<ServerActionOf<'server/otaProgress'>, 'type' | 'thingName'>;
/** A report's generation as last pushed (`server/reportProgress`), by report id. */
export type ReportProgress = Omit<ServerActionOf<'server/reportProgress'>, 'type' | 'reportId'>;
/** A brewing tank as last pushed (`server/brewTank`), and when it arrived (unix ms). */
export type BrewTankUpdate = Omit<ServerActionOf<'server/brewTank'>, 'type' | 'thingName'> & { receivedAt: number };
export interface SetpointStatus {
  state: 'on' | 'off';
  value: number;
}

type ByThing<T> = Readonly<Record<string, T>>;

/**
 * Everything live the browser knows, keyed by thing name, then channel code. Updates copy only the
 * path they touch, so the object of every other device and channel keeps its identity and a selector
 * reading it returns the same reference: the component showing it does not re-render.
 */
export interface RealtimeState {
  status: ConnectionStatus;
  /** Reconnect attempts since the last open socket (0 while connected). */
  reconnectAttempt: number;
  /** Sockets opened so far; above 1 means this is a reconnect. */
  connectionCount: number;
  latest: ByThing<ByThing<LatestValue>>;
  connection: ByThing<DeviceConnectionState>;
  health: ByThing<DeviceHealth>;
  config: ByThing<DeviceConfigUpdate>;
  alarms: ByThing<AlarmStatus>;
  setpoints: ByThing<ByThing<SetpointStatus>>;
  ota: ByThing<OtaProgress>;
  /** By report id, not thing name: progress concerns people, not a device. */
  reports: Readonly<Record<string, ReportProgress>>;
  brewTanks: ByThing<BrewTankUpdate>;
  lastServerError: string | null;
}

export const INITIAL_REALTIME_STATE: RealtimeState = {
  status: 'DISCONNECTED',
  reconnectAttempt: 0,
  connectionCount: 0,
  latest: {},
  connection: {},
  health: {},
  config: {},
  alarms: {},
  setpoints: {},
  ota: {},
  reports: {},
  brewTanks: {},
  lastServerError: null,
};

export const realtimeStore = createStore<RealtimeState>(INITIAL_REALTIME_STATE);

/** The latest sample of a list (any order) that is not too far in the future, or null. */
function newestAcceptable(samples: readonly LatestValue[], now: number): LatestValue | null {
  let newest: LatestValue | null = null;
  for (const sample of samples) {
    if (!Number.isFinite(sample.t) || isTooFarInFuture(sample.t, now)) continue;
    if (shouldReplaceLatest(newest, sample)) newest = sample;
  }
  return newest;
}

/**
 * Merges samples per channel code into one device's latest values with the log-merge rule: a sample
 * replaces the stored one only if it is not older; samples more than 900 s in the future are dropped.
 * Returns the same state when nothing changed.
 */
export function mergeLatestValues(
  state: RealtimeState,
  thingName: string,
  samplesByCode: Readonly<Record<string, readonly LatestValue[]>>,
  now: number,
): RealtimeState {
  const current = state.latest[thingName] ?? {};
  let next: Record<string, LatestValue> | null = null;
  for (const [code, samples] of Object.entries(samplesByCode)) {
    const candidate = newestAcceptable(samples, now);
    if (!candidate || !shouldReplaceLatest(current[code], candidate)) continue;
    const stored = current[code];
    if (stored && stored.t === candidate.t && sameSample(stored, candidate)) continue;
    next ??= { ...current };
    next[code] = candidate;
  }
  return next ? { ...state, latest: { ...state.latest, [thingName]: next } } : state;
}

function sameSample(a: LatestValue, b: LatestValue): boolean {
  return a.value === b.value && a.tempSp === b.tempSp && a.diff === b.diff;
}

/** Applies one server action to the state (replies are the client's business and change nothing). */
export function applyServerAction(state: RealtimeState, action: ServerAction, now: number): RealtimeState {
  switch (action.type) {
    case 'server/newRawLogs':
      return mergeLatestValues(state, action.thingName, action.logs, now);
    case 'server/demoLatestValue':
      return mergeLatestValues(state, action.thingName, { [action.code]: [action.latest] }, now);
    case 'server/health':
      return { ...state, health: { ...state.health, [action.thingName]: action.health } };
    case 'server/deviceConfig':
      return {
        ...state,
        config: { ...state.config, [action.thingName]: { ...state.config[action.thingName], ...action.config } },
      };
    case 'server/connectionState':
      return {
        ...state,
        connection: {
          ...state.connection,
          [action.thingName]: {
            isConnected: action.isConnected,
            lastConnection: action.lastConnection,
            lastDisconnection: action.lastDisconnection,
          },
        },
      };
    case 'server/alarms':
      return { ...state, alarms: { ...state.alarms, [action.thingName]: action.status } };
    case 'server/setpointStatus':
      return {
        ...state,
        setpoints: {
          ...state.setpoints,
          [action.thingName]: {
            ...state.setpoints[action.thingName],
            [action.code]: { state: action.state, value: action.value },
          },
        },
      };
    case 'server/otaProgress': {
      const { type: _type, thingName, ...progress } = action;
      return { ...state, ota: { ...state.ota, [thingName]: progress } };
    }
    case 'server/reportProgress': {
      const { type: _type, reportId, ...progress } = action;
      return { ...state, reports: { ...state.reports, [reportId]: progress } };
    }
    case 'server/brewTank': {
      const { type: _type, thingName, ...update } = action;
      return { ...state, brewTanks: { ...state.brewTanks, [thingName]: { ...update, receivedAt: now } } };
    }
    case 'server/error':
      return { ...state, lastServerError: action.message };
    // The device table's batches go to the table itself (`watchDeviceTable`), not to this store.
    case 'server/deviceTableChanges':
    case 'server/reply':
      return state;
  }
}
