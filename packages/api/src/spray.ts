import { Type, type Static } from '@sinclair/typebox';
import { EntityId } from './fields';

/**
 * Broadcast spray (application §7 "OTA and spray"): every sprayer of a group sprays at once. The
 * rules (cool-down, messages, which devices are sprayers) are in `@fieldlink/domain/spray`.
 */

/** Path under `/api/v1`. */
export const BROADCAST_SPRAY_PATH = '/mosnix/broadcast-spray';

export const BroadcastSprayBody = Type.Object({ groupId: EntityId }, { additionalProperties: false });
export type BroadcastSprayBody = Static<typeof BroadcastSprayBody>;

/**
 * What became of the broadcast at one sprayer: `OK` (it sprays), `FAIL` (it refused: an alarm stops
 * sprays, or it does not accept broadcasts), `TIMEOUT` (no answer in time), `OFFLINE` (not connected,
 * so not sent: a spray hours later, on reconnecting, would help no one).
 */
export const BROADCAST_RESULTS = ['OK', 'FAIL', 'TIMEOUT', 'OFFLINE'] as const;

export const BroadcastSprayDevice = Type.Object({
  id: Type.String(),
  thingName: Type.String(),
  name: Type.String(),
  result: Type.Union(BROADCAST_RESULTS.map((result) => Type.Literal(result))),
});
export type BroadcastSprayDevice = Static<typeof BroadcastSprayDevice>;

/** The group's sprayers (the group and the groups under it) and what each did. */
export const BroadcastSprayAnswer = Type.Object({ devices: Type.Array(BroadcastSprayDevice) });
export type BroadcastSprayAnswer = Static<typeof BroadcastSprayAnswer>;

/** The 429 answer: an error with the seconds left until every sprayer of the broadcast is out of its cool-down. */
export const BroadcastSprayTooSoon = Type.Object({
  statusCode: Type.Literal(429),
  error: Type.String(),
  message: Type.String(),
  retryAfterSeconds: Type.Integer({ minimum: 1 }),
});
export type BroadcastSprayTooSoon = Static<typeof BroadcastSprayTooSoon>;
