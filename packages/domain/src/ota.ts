/**
 * Over-the-air (OTA) updates (specification §4 "OTA", §6, §9): the states of one device's update, how
 * device reports move it, the approval rule, rollout pacing and the failure threshold that stops a
 * rollout (as AWS IoT Jobs' `abortConfig`), the device-table columns and the shell banner rule.
 * docs/decisions.md ("OTA updates") explains the choices.
 */

import { parseHardwareFamily, type HardwareFamily } from './hardware';
import { compareVersions } from './macro';
import { clampToRange } from './widget-values';

/** After an update finishes, the console reloads the device's data this much later (§4, §9). */
export const OTA_RELOAD_DELAY_MS = 30_000;

/**
 * States of one device's update, in the order an update passes through them:
 * - `AWAITING_APPROVAL`: submitted without skipApproval; held until an administrator approves it.
 * - `QUEUED`: released; waits for its slot in the rollout's pace and for the device to be online.
 * - `SENT`: the device accepted the update command.
 * - `DOWNLOADING` (with a percentage), `INSTALLING`, `REBOOTING`: reported by the device.
 * - `SUCCEEDED`, `FAILED`, `CANCELLED` (the rollout stopped before this device's turn): final.
 */
export const OTA_STATES = [
  'AWAITING_APPROVAL',
  'QUEUED',
  'SENT',
  'DOWNLOADING',
  'INSTALLING',
  'REBOOTING',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
] as const;
export type OtaState = (typeof OTA_STATES)[number];

/** States in which the device holds the update and works on it. */
export const OTA_IN_FLIGHT_STATES: readonly OtaState[] = ['SENT', 'DOWNLOADING', 'INSTALLING', 'REBOOTING'];
/** Final states. */
export const OTA_FINAL_STATES: readonly OtaState[] = ['SUCCEEDED', 'FAILED', 'CANCELLED'];

/** True for a state no report or approval changes any more. */
export function isOtaFinal(state: OtaState): boolean {
  return OTA_FINAL_STATES.includes(state);
}

/** True while the device holds the update and works on it. */
export function isOtaInFlight(state: OtaState): boolean {
  return OTA_IN_FLIGHT_STATES.includes(state);
}

/** True for a state of the console's own text: a string read from storage or the wire. */
export function isOtaState(value: unknown): value is OtaState {
  return typeof value === 'string' && (OTA_STATES as readonly string[]).includes(value);
}

const STATE_LABELS: Readonly<Record<OtaState, string>> = {
  AWAITING_APPROVAL: 'Awaiting approval',
  QUEUED: 'Queued',
  SENT: 'Sent',
  DOWNLOADING: 'Downloading',
  INSTALLING: 'Installing',
  REBOOTING: 'Rebooting',
  SUCCEEDED: 'Succeeded',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};

/** The OTA status as the console shows it: `Downloading 45%`, `Failed`, … */
export function otaStatusText(update: { state: OtaState; percent?: number | null }): string {
  const label = STATE_LABELS[update.state];
  if (update.state === 'DOWNLOADING' && typeof update.percent === 'number' && Number.isFinite(update.percent)) {
    return `${label} ${Math.round(clampPercent(update.percent))}%`;
  }
  return label;
}

function clampPercent(percent: number): number {
  return clampToRange(percent, 0, 100);
}

/** Progress states a device reports in its `ota` frames (docs/device-protocol.md). */
export const OTA_REPORT_STATES = ['downloading', 'installing', 'rebooting', 'succeeded', 'failed'] as const;
export type OtaReportState = (typeof OTA_REPORT_STATES)[number];

const REPORTED: Readonly<Record<OtaReportState, OtaState>> = {
  downloading: 'DOWNLOADING',
  installing: 'INSTALLING',
  rebooting: 'REBOOTING',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
};

/** Order of the states a report can move an update through. */
const PROGRESS_ORDER: Readonly<Partial<Record<OtaState, number>>> = {
  QUEUED: 0,
  SENT: 1,
  DOWNLOADING: 2,
  INSTALLING: 3,
  REBOOTING: 4,
  SUCCEEDED: 5,
  FAILED: 5,
};

export interface OtaProgress {
  state: OtaState;
  percent: number | null;
}

/**
 * The update after a device's report, or null when the report changes nothing: an update that is
 * final, held for approval or cancelled ignores reports; a report of an earlier phase (a frame
 * delivered late) or a lower download percentage is ignored. A report may come for a `QUEUED` update:
 * the device started though its acceptance reply was lost (the console then re-queued it).
 */
export function applyOtaReport(
  current: OtaProgress,
  report: { state: OtaReportState; percent?: number | null },
): OtaProgress | null {
  const from = PROGRESS_ORDER[current.state];
  if (from === undefined || isOtaFinal(current.state)) return null;
  const state = REPORTED[report.state];
  const to = PROGRESS_ORDER[state]!;
  if (to < from) return null;
  const percent =
    state === 'DOWNLOADING'
      ? typeof report.percent === 'number' && Number.isFinite(report.percent)
        ? Math.round(clampPercent(report.percent))
        : (current.percent ?? 0)
      : state === 'SUCCEEDED' || state === 'INSTALLING' || state === 'REBOOTING'
        ? 100
        : current.percent;
  if (to === from) {
    if (state !== 'DOWNLOADING') return null;
    if (percent !== null && current.percent !== null && percent <= current.percent) return null;
  }
  return { state, percent };
}

/** Longest update command, in characters. */
export const OTA_UPDATE_COMMAND_MAX_LENGTH = 256;

export type UpdateCommandCheck = { ok: true; updateCommand: string } | { ok: false; error: string };

/**
 * The update command the device is told to run: the firmware to fetch, as a version (`4.3.0`), an
 * image URL or the device maker's own instruction, passed on as it is. It is trimmed; it must hold 1
 * to 256 characters and no control characters (it travels in a JSON frame and is shown in tables).
 */
export function checkUpdateCommand(text: string): UpdateCommandCheck {
  const updateCommand = text.trim();
  if (updateCommand === '') return { ok: false, error: 'Enter an update command.' };
  if (updateCommand.length > OTA_UPDATE_COMMAND_MAX_LENGTH) {
    return { ok: false, error: `The update command may be at most ${OTA_UPDATE_COMMAND_MAX_LENGTH} characters.` };
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(updateCommand)) {
    return { ok: false, error: 'The update command may not contain control characters.' };
  }
  return { ok: true, updateCommand };
}

/** The firmware version an update command names (its first dotted version number), or null. */
export function targetFirmwareOf(updateCommand: string): string | null {
  return /\d+(?:\.\d+){1,3}/.exec(updateCommand)?.[0] ?? null;
}

/** Pace of a rollout when the submitter names none: one device a second. */
export const OTA_DEFAULT_DEVICES_PER_MINUTE = 60;
export const OTA_MAX_DEVICES_PER_MINUTE = 6000;

/**
 * When the device of position `index` (0 first) of a paced rollout may be sent its update: the first at
 * once, then one every 60 000 / devicesPerMinute ms.
 */
export function dispatchSlotAt(startedAt: number, index: number, devicesPerMinute: number): number {
  return startedAt + Math.ceil((index * 60_000) / devicesPerMinute);
}

/** How many more devices a paced rollout may send to now, having sent to `dispatched` so far. */
export function dispatchAllowance(rollout: {
  startedAt: number;
  now: number;
  dispatched: number;
  devicesPerMinute: number;
}): number {
  const { startedAt, now, dispatched, devicesPerMinute } = rollout;
  if (now < startedAt) return 0;
  const due = Math.floor(((now - startedAt) * devicesPerMinute) / 60_000) + 1;
  return Math.max(0, due - dispatched);
}

/**
 * When a rollout stops itself (AWS IoT Jobs' abort criteria): once at least `minExecuted` devices have
 * finished (succeeded or failed) and failures make up `failureThresholdPercent` or more of them, or
 * once `failureThresholdCount` devices have failed, whichever comes first.
 */
export interface OtaAbortCriteria {
  failureThresholdPercent: number;
  minExecuted: number;
  failureThresholdCount: number | null;
}

export const OTA_DEFAULT_ABORT_CRITERIA: OtaAbortCriteria = {
  failureThresholdPercent: 20,
  minExecuted: 5,
  failureThresholdCount: null,
};

/** True when the rollout's failures cross its threshold: it stops and cancels what it has not sent. */
export function shouldStopRollout(counts: { succeeded: number; failed: number }, criteria: OtaAbortCriteria): boolean {
  const { succeeded, failed } = counts;
  if (criteria.failureThresholdCount !== null && failed >= criteria.failureThresholdCount) return true;
  const executed = succeeded + failed;
  if (executed === 0 || executed < criteria.minExecuted) return false;
  return (failed * 100) / executed >= criteria.failureThresholdPercent;
}

/**
 * True when an update that reached this state leaves nothing for an administrator to sign off: it
 * succeeded, so its device leaves the pending list and the banner's count (issue 35 item 9). A
 * failure stays until an administrator has seen it.
 */
export function endsPendingMark(state: OtaState): boolean {
  return state === 'SUCCEEDED';
}

/**
 * What approving a device does: `release` an update held for approval (it is queued and sent in its
 * turn), `signOff` one sent with skipApproval and not yet succeeded (only the pending mark is
 * cleared), or `none` when nothing of the device awaits approval.
 */
export function approvalEffect(device: {
  otaPendingSubmittedAt: number | null;
  state: OtaState | null;
}): 'release' | 'signOff' | 'none' {
  if (device.state === 'AWAITING_APPROVAL') return 'release';
  if (device.state !== null && endsPendingMark(device.state)) return 'none';
  return device.otaPendingSubmittedAt !== null ? 'signOff' : 'none';
}

/** The device-table columns of OTA (core §2). */
export interface OtaColumns {
  /** The state of the device's latest update (`Downloading 45%`), or null when it never had one. */
  otaStatus: string | null;
  /** An update was submitted for the device and awaits an administrator's approval. */
  updatePending: boolean;
  /** Something is on its way to the device: an update released and not finished, or queued settings. */
  hasPendingUpdate: boolean;
}

export function otaColumns(device: {
  state: OtaState | null;
  percent: number | null;
  otaPendingSubmittedAt: number | null;
  pendingMessages: number;
}): OtaColumns {
  const { state } = device;
  return {
    // A device marked pending without a recorded update (data from elsewhere) still says so.
    otaStatus:
      state !== null
        ? otaStatusText({ state, percent: device.percent })
        : device.otaPendingSubmittedAt !== null
          ? 'Pending'
          : null,
    updatePending: device.otaPendingSubmittedAt !== null,
    hasPendingUpdate: (state !== null && (state === 'QUEUED' || isOtaInFlight(state))) || device.pendingMessages > 0,
  };
}

/** When the console reloads a device whose update finished at `finishedAt`. */
export function otaReloadAt(finishedAt: number): number {
  return finishedAt + OTA_RELOAD_DELAY_MS;
}

/** What the shell's banner shows (§2). */
export interface BannerContent {
  reconnecting: boolean;
  disconnectedDevices: number;
  /** Devices with an OTA update awaiting approval: counted for administrators only. */
  pendingOtaDevices: number;
}

/**
 * The banner (40 px, §2): only while the app is idle, and only when the web client is reconnecting to
 * the cloud, devices are disconnected, or (administrators only) devices have pending OTA updates.
 * Answers null when no banner is shown.
 */
export function bannerContent(state: {
  idle: boolean;
  reconnecting: boolean;
  disconnectedDevices: number;
  pendingOtaDevices: number;
  isAdmin: boolean;
}): BannerContent | null {
  if (!state.idle) return null;
  const content: BannerContent = {
    reconnecting: state.reconnecting,
    disconnectedDevices: Math.max(0, state.disconnectedDevices),
    pendingOtaDevices: state.isAdmin ? Math.max(0, state.pendingOtaDevices) : 0,
  };
  return content.reconnecting || content.disconnectedDevices > 0 || content.pendingOtaDevices > 0 ? content : null;
}

/** How far a rollout has got, from the latest states of its devices' updates. */
export interface RolloutProgress {
  total: number;
  /** Not sent yet: awaiting approval, or queued for its turn and for the device to be online. */
  waiting: number;
  /** Sent and being worked on by the device (downloading, installing, rebooting). */
  running: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  /**
   * The rollout's progress, 0 to 100: a finished update counts whole, one in flight by how far the
   * device has got (a download's percentage is most of the way; installing and rebooting follow).
   */
  percent: number;
}

/** Share of one update's way that each state in flight stands for (the download takes the first 80 %). */
function inFlightShare(update: { state: OtaState; percent: number | null }): number {
  switch (update.state) {
    case 'DOWNLOADING':
      return (0.8 * clampPercent(update.percent ?? 0)) / 100;
    case 'INSTALLING':
      return 0.85;
    case 'REBOOTING':
      return 0.95;
    default:
      return 0;
  }
}

/** The progress of a rollout whose devices' updates are in these states. */
export function rolloutProgress(updates: readonly { state: OtaState; percent: number | null }[]): RolloutProgress {
  const progress: RolloutProgress = {
    total: updates.length,
    waiting: 0,
    running: 0,
    succeeded: 0,
    failed: 0,
    cancelled: 0,
    percent: 0,
  };
  let done = 0;
  for (const update of updates) {
    if (update.state === 'SUCCEEDED') progress.succeeded += 1;
    else if (update.state === 'FAILED') progress.failed += 1;
    else if (update.state === 'CANCELLED') progress.cancelled += 1;
    else if (isOtaInFlight(update.state)) progress.running += 1;
    else progress.waiting += 1;
    done += isOtaFinal(update.state) ? 1 : inFlightShare(update);
  }
  progress.percent = updates.length === 0 ? 0 : Math.round((100 * done) / updates.length);
  return progress;
}

/** The update command that installs a firmware version: the form the device maker's devices take. */
export function firmwareUpdateCommand(version: string): string {
  return `firmware ${version}`;
}

/** The firmware versions known for one hardware family, newest first. */
export interface FamilyFirmware {
  /** The family, or null for devices whose hardware string names none. */
  family: HardwareFamily | null;
  versions: string[];
}

/**
 * The firmware versions the fleet knows for each hardware family of the chosen devices: every version
 * a device of that family reports running, newest first. An image is built for one family, so an
 * update command is chosen per family (docs/decisions.md, "Picking the update").
 */
export function knownFirmware(
  fleet: Iterable<{ hw: string | null; fw: string | null }>,
  chosen: Iterable<{ hw: string | null }>,
): FamilyFirmware[] {
  const families = new Map<HardwareFamily | null, Set<string>>();
  for (const device of chosen) families.set(parseHardwareFamily(device.hw), new Set());
  for (const device of fleet) {
    const versions = families.get(parseHardwareFamily(device.hw));
    if (versions && device.fw) versions.add(device.fw);
  }
  return [...families].map(([family, versions]) => ({
    family,
    versions: [...versions].sort((a, b) => compareVersions(b, a)),
  }));
}
