import type { LatestValue } from '@fieldlink/api/realtime';
import { setpointIndexFromWidgetName } from '@fieldlink/domain/channels';
import { isOnValue } from '@fieldlink/domain/widget-values';
import type { SetpointStatus } from './realtime-store';

/**
 * The pending and confirm rules of a control widget (application spec §4 "Widgets and live data"):
 * a write shows as pending until the device confirms it, by a setpoint status for the channel or by a
 * newer logged value equal to the one written; a refusal or a silent device ends in an error. Pure
 * functions, so the rule is tested without a browser; `useControlWrite` runs them.
 */

/** What a write remembers of the channel when it was sent, to recognise the answer. */
export interface PendingWrite {
  value: number;
  /** The setpoint status stored when the write was sent (a new status object confirms the write). */
  setpointAtSend: SetpointStatus | undefined;
  /** Time of the latest logged value when the write was sent. */
  latestTAtSend: number | null;
}

/** A control's write: none, one waiting for the device, one just confirmed, or the failure given. */
export type ControlWriteState =
  | { status: 'idle' }
  | ({ status: 'pending' } & PendingWrite)
  | { status: 'done' }
  | { status: 'error'; message: string };

// A logged value equal to the written one within rounding counts as the device holding it.
const SAME_VALUE_TOLERANCE = 1e-6;

/**
 * True when a pending write is confirmed: a setpoint status arrived for the channel after it was sent
 * (§4: the pending flag clears when a setpoint status arrives), or a newer logged value shows the
 * written value.
 */
export function isWriteConfirmed(
  pending: PendingWrite,
  setpoint: SetpointStatus | undefined,
  latest: LatestValue | undefined,
): boolean {
  if (setpoint !== undefined && setpoint !== pending.setpointAtSend) return true;
  if (!latest) return false;
  const newer = pending.latestTAtSend === null || latest.t > pending.latestTAtSend;
  return newer && Math.abs(latest.value - pending.value) <= SAME_VALUE_TOLERANCE;
}

/** A setpoint status as the control saw it arrive: with the logged value's time at that moment. */
export interface ObservedSetpoint {
  status: SetpointStatus;
  /** Time of the latest logged value when the status arrived (null when there was none). */
  latestTAtArrival: number | null;
}

/** What a control shows: its value and whether it reads as on. */
export interface ControlReading {
  value: number;
  isOn: boolean;
}

/**
 * The value a control shows. A setpoint status is the device's answer to the last command and wins
 * until a newer logged value arrives; its value reads on when its state is 'on' (§4). Otherwise the
 * latest logged value, on when not 0. Null when there is neither.
 */
export function controlReading(
  latest: LatestValue | undefined,
  observed: ObservedSetpoint | null,
): ControlReading | null {
  const setpointWins =
    observed !== null && (!latest || observed.latestTAtArrival === null || latest.t <= observed.latestTAtArrival);
  if (observed && setpointWins) return { value: observed.status.value, isOn: observed.status.state === 'on' };
  if (latest) return { value: latest.value, isOn: isOnValue(latest.value) };
  return null;
}

/**
 * The key a widget channel's setpoint status is stored under: a channel named `sp-{index}` (§4) maps
 * to setpoint `sp{index}`; any other channel to its own code.
 */
export function setpointStatusCode(channel: { code: string; name?: string | null }): string {
  const index = channel.name ? setpointIndexFromWidgetName(channel.name) : null;
  return index === null ? channel.code : `sp${index}`;
}
