import type { OtaFrame } from '@fieldlink/api/device-frames';
import { targetFirmwareOf } from '@fieldlink/domain/ota';
import { clamp } from '@fieldlink/simulation/daily-cycle';
import { seedFromText } from '@fieldlink/simulation/seeded-random';

/**
 * How a simulated device runs an over-the-air update: it downloads in steps, installs, reboots (drops
 * its connection and comes back with the new firmware in its config frame), then reports success.
 * Some updates fail, chosen deterministically from the device and the update command, so a demo
 * rollout shows both outcomes and a test can predict them.
 */

/** Share of updates that fail when the fleet is not told otherwise. */
export const DEFAULT_OTA_FAILURE_RATE = 0.2;
/** Time between two steps of an update. */
export const DEFAULT_OTA_STEP_MS = 1500;

export interface OtaPlan {
  readonly fails: boolean;
  /** The firmware after the update: the version the command names, else the next patch version. */
  readonly firmware: string;
}

/** One step: a progress report, or the reboot (after which the device reports success). */
export type OtaStep =
  | { readonly kind: 'report'; readonly report: Pick<OtaFrame, 'state' | 'percent' | 'error'> }
  | { readonly kind: 'reboot' };

/** The version after `firmware` when the command names none: `4.2.1` -> `4.2.2`, else `<firmware>.1`. */
export function nextPatchVersion(firmware: string): string {
  const match = /^(.*?)(\d+)$/.exec(firmware);
  return match ? `${match[1]}${Number(match[2]) + 1}` : `${firmware}.1`;
}

/** What an update will do on this device: the same device and command always give the same plan. */
export function planOtaUpdate(input: {
  thingName: string;
  updateCommand: string;
  firmware: string;
  failureRate: number;
}): OtaPlan {
  // FNV-1a of device and command: a stable, evenly spread draw.
  const draw = seedFromText(`${input.thingName}|${input.updateCommand}`) % 1000;
  return {
    fails: draw < Math.round(clamp(input.failureRate, 0, 1) * 1000),
    firmware: targetFirmwareOf(input.updateCommand) ?? nextPatchVersion(input.firmware),
  };
}

/** The steps of a planned update, in order. A failing update stops at 60 % of the download. */
export function otaSteps(plan: OtaPlan): OtaStep[] {
  const download = (percent: number): OtaStep => ({ kind: 'report', report: { state: 'downloading', percent } });
  if (plan.fails) {
    return [
      ...[0, 20, 40, 60].map(download),
      { kind: 'report', report: { state: 'failed', error: 'Image checksum mismatch' } },
    ];
  }
  return [
    ...[0, 20, 40, 60, 80, 100].map(download),
    { kind: 'report', report: { state: 'installing' } },
    { kind: 'report', report: { state: 'rebooting' } },
    { kind: 'reboot' },
  ];
}
