import { useCallback, useEffect, useRef, useState } from 'react';
import { REALTIME_TIMEOUT_MESSAGE } from '@fieldlink/api/realtime';
import { useStore } from '../use-store';
import {
  controlReading,
  isWriteConfirmed,
  type ControlReading,
  type ControlWriteState,
  type ObservedSetpoint,
} from './control-write';
import { realtimeRequest } from './realtime-connection';
import { realtimeStore, type SetpointStatus } from './realtime-store';
import { useLatestValue } from './use-realtime';

/** A write in flight, just done, or its failure; the written value itself comes back from the device's log. */
export type WriteState =
  | { status: 'idle' }
  | { status: 'pending'; value: number }
  | { status: 'done'; value: number }
  | { status: 'error'; message: string };

/** How long a control says "Done" once the device has reported the value it was sent (issue 36). */
const WRITE_DONE_SHOWN_MS = 5_000;

/** Ends a write's "done" after {@link WRITE_DONE_SHOWN_MS}, unless another write took its place. */
function useDoneExpiry<S extends { status: string }>(state: S, setState: (update: (s: S) => S) => void, idle: S) {
  useEffect(() => {
    if (state.status !== 'done') return;
    const timer = setTimeout(() => setState((s) => (s === state ? idle : s)), WRITE_DONE_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [state, setState, idle]);
}

const IDLE = { status: 'idle' } as const;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : REALTIME_TIMEOUT_MESSAGE;
}

/**
 * Writes a channel (setpoint, relay, flag) over the real-time channel. The device answers with the
 * value it now holds and publishes it; a device that is offline or silent ends in the specification's
 * "Timeout when waiting for response.", a refusal in "Command Failed.".
 */
export function useChannelWrite(thingName: string, code: string) {
  const [state, setState] = useState<WriteState>(IDLE);
  useDoneExpiry<WriteState>(state, setState, IDLE);
  const write = async (value: number) => {
    setState({ status: 'pending', value });
    try {
      // The reply is the device's own report of the value it now holds.
      await realtimeRequest({ type: 'server/writeChannel', thingName, code, value });
      setState({ status: 'done', value });
    } catch (error) {
      setState({ status: 'error', message: errorMessage(error) });
    }
  };
  return { state, write, clear: () => setState({ status: 'idle' }) };
}

/** The setpoint status the store keeps for a device's channel (`server/setpointStatus`). */
export function useSetpointStatus(thingName: string, code: string): SetpointStatus | undefined {
  return useStore(realtimeStore, (s) => s.setpoints[thingName]?.[code]);
}

export interface ControlWrite {
  /** What the control shows now: the device's confirmed state, else the latest logged value. */
  reading: ControlReading | null;
  /** The value written and not yet confirmed, or null. */
  pendingValue: number | null;
  /** The last write was confirmed by the device a moment ago (shown as "Done" for a while). */
  done: boolean;
  /** The last write's failure, shown inline until the next write. */
  error: string | null;
  write: (value: number) => void;
  clearError: () => void;
}

/**
 * A control widget's channel (§4 widgets and live data): sends writes, keeps them pending until the
 * device confirms them (a setpoint status for `setpointCode`, or a newer logged value equal to the
 * written one, or the device's own answer) and reads the value to show. Reads only this channel's
 * slices of the store, so another channel's update does not re-render the control.
 */
export function useControlWrite(thingName: string, code: string, setpointCode: string): ControlWrite {
  const latest = useLatestValue(thingName, code);
  const setpoint = useSetpointStatus(thingName, setpointCode);
  const [state, setState] = useState<ControlWriteState>(IDLE);
  useDoneExpiry<ControlWriteState>(state, setState, IDLE);
  const writeCount = useRef(0);

  // A setpoint status seen for the first time is remembered with the logged value's time then, so a
  // newer log sample (a change at the device itself) takes over again (derived state, no effect).
  const [observed, setObserved] = useState<ObservedSetpoint | null>(null);
  if (setpoint && setpoint !== observed?.status) {
    setObserved({ status: setpoint, latestTAtArrival: latest?.t ?? null });
  }

  const confirmed = state.status === 'pending' && isWriteConfirmed(state, setpoint, latest);
  if (confirmed) setState({ status: 'done' });

  const latestRef = useRef(latest);
  latestRef.current = latest;
  const setpointRef = useRef(setpoint);
  setpointRef.current = setpoint;

  const write = useCallback(
    (value: number) => {
      const id = ++writeCount.current;
      setState({
        status: 'pending',
        value,
        setpointAtSend: setpointRef.current,
        latestTAtSend: latestRef.current?.t ?? null,
      });
      realtimeRequest({ type: 'server/writeChannel', thingName, code, value }).then(
        // The device's answer confirms the write too (its setpoint status is published first).
        () => {
          if (id === writeCount.current) setState((s) => (s.status === 'pending' ? { status: 'done' } : s));
        },
        (error: unknown) => {
          if (id === writeCount.current) setState({ status: 'error', message: errorMessage(error) });
        },
      );
    },
    [thingName, code],
  );

  const clearError = useCallback(() => setState((s) => (s.status === 'error' ? { status: 'idle' } : s)), []);

  return {
    reading: controlReading(latest, observed),
    pendingValue: state.status === 'pending' && !confirmed ? state.value : null,
    done: state.status === 'done' || confirmed,
    error: state.status === 'error' ? state.message : null,
    write,
    clearError,
  };
}
