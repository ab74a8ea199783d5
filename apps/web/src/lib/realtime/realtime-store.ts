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
 * One device's latest values with samples merged in per channel code by the log-merge rule: a sample
 * replaces the stored one only if it is not older; samples more than 900 s in the future are dropped.
 * Returns null when nothing changed.
 */
function mergedChannels(
  current: ByThing<LatestValue>,
  samplesByCode: Readonly<Record<string, readonly LatestValue[]>>,
  now: number,
): Record<string, LatestValue> | null {
  let next: Record<string, LatestValue> | null = null;
  for (const [code, samples] of Object.entries(samplesByCode)) {
    const candidate = newestAcceptable(samples, now);
    if (!candidate || !shouldReplaceLatest(current[code], candidate)) continue;
    const stored = current[code];
    if (stored && stored.t === candidate.t && sameSample(stored, candidate)) continue;
    next ??= { ...current };
    next[code] = candidate;
  }
  return next;
}

/**
 * Merges samples per channel code into one device's latest values (see `mergedChannels`). Returns the
 * same state when nothing changed.
 */
export function mergeLatestValues(
  state: RealtimeState,
  thingName: string,
  samplesByCode: Readonly<Record<string, readonly LatestValue[]>>,
  now: number,
): RealtimeState {
  const next = mergedChannels(state.latest[thingName] ?? {}, samplesByCode, now);
  return next ? { ...state, latest: { ...state.latest, [thingName]: next } } : state;
}

function sameSample(a: LatestValue, b: LatestValue): boolean {
  return a.value === b.value && a.tempSp === b.tempSp && a.diff === b.diff;
}

/** The slices keyed by thing name: what the store knows of a device. */
type DeviceSlice = 'latest' | 'connection' | 'health' | 'config' | 'alarms' | 'setpoints' | 'ota' | 'brewTanks';
type Slice = DeviceSlice | 'reports';

/**
 * A device's state as the server pushes it and sends it again on each subscription: what a device
 * no longer watched leaves behind (`withoutDevices`). Its latest samples stay: each carries its time
 * and never replaces a newer one (so a kept one cannot hide a fresher read), and they are the values
 * the user saw that the offline copy keeps (`last-values.ts`).
 */
const DEVICE_STATE_SLICES: readonly DeviceSlice[] = [
  'connection',
  'health',
  'config',
  'alarms',
  'setpoints',
  'ota',
  'brewTanks',
];

/** The device an action concerns, or null for one that concerns people or the socket. */
function actionThingName(action: ServerAction): string | null {
  return 'thingName' in action ? action.thingName : null;
}

/**
 * Applies the server actions of one burst in order (a later one wins, as if applied one by one) with
 * each slice copied at most once, however many actions touch it: a subscription's 4,000 states of
 * 1,000 devices cost one copy of each slice, not 4,000. An entry an action touches is a new object
 * (the reconnect path tells pushed entries from older ones by identity); every other entry, slice and
 * device keeps its identity, so a selector reading it returns the same reference and its component
 * does not re-render. Actions of devices `isWatched` refuses are skipped (pushes still in flight
 * after the console unsubscribed). Replies and the device table's batches change nothing here.
 * Returns the same state when nothing changed.
 */
export function applyServerActions(
  state: RealtimeState,
  actions: readonly ServerAction[],
  now: number,
  isWatched: (thingName: string) => boolean = () => true,
): RealtimeState {
  const drafts: Partial<Record<Slice, Record<string, unknown>>> = {};
  const draft = <K extends Slice>(slice: K) =>
    (drafts[slice] ??= { ...state[slice] }) as Record<string, RealtimeState[K][string]>;
  const current = <K extends Slice>(slice: K) => (drafts[slice] ?? state[slice]) as RealtimeState[K];
  let lastServerError = state.lastServerError;
  for (const action of actions) {
    const thingName = actionThingName(action);
    if (thingName !== null && !isWatched(thingName)) continue;
    switch (action.type) {
      case 'server/newRawLogs':
      case 'server/demoLatestValue': {
        const samples = action.type === 'server/newRawLogs' ? action.logs : { [action.code]: [action.latest] };
        const next = mergedChannels(current('latest')[action.thingName] ?? {}, samples, now);
        if (next) draft('latest')[action.thingName] = next;
        break;
      }
      case 'server/health':
        draft('health')[action.thingName] = action.health;
        break;
      case 'server/deviceConfig':
        draft('config')[action.thingName] = { ...current('config')[action.thingName], ...action.config };
        break;
      case 'server/connectionState':
        draft('connection')[action.thingName] = {
          isConnected: action.isConnected,
          lastConnection: action.lastConnection,
          lastDisconnection: action.lastDisconnection,
        };
        break;
      case 'server/alarms':
        draft('alarms')[action.thingName] = action.status;
        break;
      case 'server/setpointStatus':
        draft('setpoints')[action.thingName] = {
          ...current('setpoints')[action.thingName],
          [action.code]: { state: action.state, value: action.value },
        };
        break;
      case 'server/otaProgress': {
        const { type: _type, thingName: _thingName, ...progress } = action;
        draft('ota')[action.thingName] = progress;
        break;
      }
      case 'server/reportProgress': {
        const { type: _type, reportId, ...progress } = action;
        draft('reports')[reportId] = progress;
        break;
      }
      case 'server/brewTank': {
        const { type: _type, thingName: _thingName, ...update } = action;
        draft('brewTanks')[action.thingName] = { ...update, receivedAt: now };
        break;
      }
      case 'server/error':
        lastServerError = action.message;
        break;
      // The device table's batches go to the table itself (`watchDeviceTable`), not to this store.
      case 'server/deviceTableChanges':
      case 'server/reply':
        break;
    }
  }
  if (Object.keys(drafts).length === 0 && lastServerError === state.lastServerError) return state;
  return { ...state, ...drafts, lastServerError } as RealtimeState;
}

/**
 * The state without these devices' state entries (`DEVICE_STATE_SLICES`): they are no longer
 * watched, so no push keeps them current, and a screen (or the banner's count) falls back to what it
 * read. Slices holding none of them keep their identity; returns the same state when none is held.
 */
export function withoutDevices(state: RealtimeState, thingNames: Iterable<string>): RealtimeState {
  const names = [...thingNames];
  let next = state;
  for (const slice of DEVICE_STATE_SLICES) {
    const entries = state[slice] as Readonly<Record<string, unknown>>;
    if (!names.some((thingName) => thingName in entries)) continue;
    const kept = { ...entries };
    for (const thingName of names) delete kept[thingName];
    next = { ...next, [slice]: kept };
  }
  return next;
}
