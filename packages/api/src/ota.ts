import { Type, type Static } from '@sinclair/typebox';
import { OTA_MAX_DEVICES_PER_MINUTE, OTA_STATES, type OtaState } from '@fieldlink/domain/ota';
import { EntityId, Nullable } from './fields';

/**
 * Over-the-air update calls (application §7 "OTA and spray") and the device's `update` field.
 * docs/decisions.md ("OTA updates") describes approval, pacing and the failure threshold.
 */

/** Messages of the specification's error catalogue (§8). */
export const OTA_SUBMIT_FAILED_MESSAGE = 'Failed to submit OTA update';
export const OTA_APPROVE_FAILED_MESSAGE = 'Failed to approve OTA update';

/** Paths under `/api/v1`. */
export const OTA_SUBMIT_PATH = '/devices/ota-submit';
export const OTA_APPROVE_PATH = '/devices/ota-approve';
export const OTA_PENDING_PATH = '/devices/ota-pending';
export const OTA_ROLLOUTS_PATH = '/devices/ota-rollouts';

/** How long a finished rollout stays in the administrators' review (`GET /devices/ota-rollouts`). */
export const OTA_FINISHED_ROLLOUT_SHOWN_MS = 24 * 3_600_000;

/** Most devices one call may name. */
export const OTA_MAX_DEVICES_PER_CALL = 1000;

export const OtaStateSchema = Type.Union(OTA_STATES.map((state) => Type.Literal<OtaState>(state)));

/** A device's latest update: the `update` field of Device (§3), pushed as `server/otaProgress`. */
export const OtaUpdate = Type.Object({
  id: Type.String(),
  rolloutId: Type.String(),
  state: OtaStateSchema,
  /** Download progress, 0 to 100; null before the device reported any. */
  percent: Nullable(Type.Number()),
  updateCommand: Type.String(),
  submittedAt: Type.Number(),
  /** When the device reached a final state (unix ms). */
  finishedAt: Nullable(Type.Number()),
  /** Why it failed or was cancelled. */
  error: Nullable(Type.String()),
  /** The firmware the device reported after the update. */
  fw: Nullable(Type.String()),
});
export type OtaUpdate = Static<typeof OtaUpdate>;

const DeviceIds = Type.Array(EntityId, {
  minItems: 1,
  maxItems: OTA_MAX_DEVICES_PER_CALL,
});

/**
 * `POST /devices/ota-submit`. The specification's payload is `{deviceIds, updateCommand, skipApproval}`;
 * a rollout's pace and failure threshold may be given too (defaults in `@fieldlink/domain/ota`).
 */
export const OtaSubmitBody = Type.Object(
  {
    deviceIds: DeviceIds,
    updateCommand: Type.String({ maxLength: 1000 }),
    skipApproval: Type.Optional(Type.Boolean({ default: false })),
    devicesPerMinute: Type.Optional(Type.Integer({ minimum: 1, maximum: OTA_MAX_DEVICES_PER_MINUTE })),
    failureThresholdPercent: Type.Optional(Type.Number({ minimum: 1, maximum: 100 })),
    minExecuted: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    failureThresholdCount: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  },
  { additionalProperties: false },
);
export type OtaSubmitBody = Static<typeof OtaSubmitBody>;

/**
 * One item per requested device, in the order of `deviceIds`. A failed item carries only
 * `error.message` (it never repeats an id the caller may not see); the others the device and update.
 */
export const OtaItemResult = Type.Union([
  Type.Object(
    { deviceId: Type.String(), updateId: Type.String(), state: OtaStateSchema },
    { additionalProperties: false },
  ),
  Type.Object({ error: Type.Object({ message: Type.String() }) }, { additionalProperties: false }),
]);
export type OtaItemResult = Static<typeof OtaItemResult>;

export const OtaSubmitAnswer = Type.Array(OtaItemResult);
export type OtaSubmitAnswer = Static<typeof OtaSubmitAnswer>;

/** `POST /devices/ota-approve {deviceIds}` (administrators). */
export const OtaApproveBody = Type.Object({ deviceIds: DeviceIds }, { additionalProperties: false });
export type OtaApproveBody = Static<typeof OtaApproveBody>;

export const OtaApproveAnswer = Type.Array(OtaItemResult);
export type OtaApproveAnswer = Static<typeof OtaApproveAnswer>;

/** A device with a pending OTA update, as administrators see it in their list. */
export const OtaPendingDevice = Type.Object({
  deviceId: Type.String(),
  thingName: Type.String(),
  name: Type.String(),
  fw: Nullable(Type.String()),
  isConnected: Type.Boolean(),
  otaPendingSubmittedAt: Type.Number(),
  /** Who submitted it (e-mail), when still a user. */
  submittedBy: Nullable(Type.String()),
  update: OtaUpdate,
});
export type OtaPendingDevice = Static<typeof OtaPendingDevice>;

/** `GET /devices/ota-pending`: oldest first. */
export const OtaPendingAnswer = Type.Object({ devices: Type.Array(OtaPendingDevice) });
export type OtaPendingAnswer = Static<typeof OtaPendingAnswer>;

/** One device of a rollout, as the review shows its progress. */
export const OtaRolloutDevice = Type.Object({
  deviceId: Type.String(),
  thingName: Type.String(),
  name: Type.String(),
  state: OtaStateSchema,
  percent: Nullable(Type.Number()),
  error: Nullable(Type.String()),
});
export type OtaRolloutDevice = Static<typeof OtaRolloutDevice>;

/** A rollout (one submission) with its devices in the caller's scope, in the order they were named. */
export const OtaRollout = Type.Object({
  id: Type.String(),
  updateCommand: Type.String(),
  state: Type.Union([Type.Literal('RUNNING'), Type.Literal('STOPPED'), Type.Literal('COMPLETED')]),
  /** Why it stopped itself (failure threshold); given only when every device of it is in the caller's scope. */
  stopReason: Nullable(Type.String()),
  skipApproval: Type.Boolean(),
  devicesPerMinute: Type.Integer(),
  createdAt: Type.Number(),
  /** When its first update was released (null while every update awaits approval). */
  startedAt: Nullable(Type.Number()),
  finishedAt: Nullable(Type.Number()),
  devices: Type.Array(OtaRolloutDevice),
});
export type OtaRollout = Static<typeof OtaRollout>;

/**
 * `GET /devices/ota-rollouts` (ours, administrators): the rollouts still running, and those finished
 * in the last {@link OTA_FINISHED_ROLLOUT_SHOWN_MS}, with a device in the caller's scope; newest first.
 */
export const OtaRolloutsAnswer = Type.Object({ rollouts: Type.Array(OtaRollout) });
export type OtaRolloutsAnswer = Static<typeof OtaRolloutsAnswer>;

/** True for an item that failed. */
export function isFailedItem(item: OtaItemResult): item is { error: { message: string } } {
  return 'error' in item;
}
