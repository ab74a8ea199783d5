import type { ANNOTATION_KINDS, TankState, Transition } from './brew';
import { isTooFarInFuture } from './timestamps';

/**
 * The rules of a batch's edits (application §7: start, end and take back, readings, tasting notes,
 * chart annotations) that the server and the browser demo both apply before they store anything.
 * Each answers what may be done, or a refusal with its status and the words the brewer reads; the
 * caller only throws it (an `HttpError` on the server, a `DemoCallError` in the demo).
 */

/** A refused edit: the HTTP status it is answered with and what the person reads. */
export interface BatchEditRefusal {
  status: 400 | 404 | 409;
  message: string;
}

/** A batch's lists a person adds to, and what they read when the item named is not in it. */
export const BATCH_ITEM_NOT_FOUND = {
  gravities: 'Gravity reading not found.',
  sensories: 'Tasting note not found.',
  annotations: 'Annotation not found.',
} as const;
export type BatchItemList = keyof typeof BATCH_ITEM_NOT_FOUND;

type AnnotationKind = (typeof ANNOTATION_KINDS)[number];

const refusal = (status: BatchEditRefusal['status'], message: string): BatchEditRefusal => ({ status, message });

/** Why a batch cannot start on the tank, or null: a tank holds one batch at a time. */
export function startBatchRefusal(tankNumber: number, tankRunsBatch: boolean): BatchEditRefusal | null {
  return tankRunsBatch ? refusal(409, `Tank ${tankNumber} already has a batch running. End it first.`) : null;
}

/** Why a batch cannot be ended, or null: it ends once. */
export function endBatchRefusal(ended: boolean): BatchEditRefusal | null {
  return ended ? refusal(409, 'The batch has already ended.') : null;
}

/** The state a batch whose end is taken back returns to: its last before MANUALLY_ENDED, else FERMENTING. */
export function resumedState(transitions: readonly Transition[]): TankState {
  return [...transitions].reverse().find((transition) => transition.state !== 'MANUALLY_ENDED')?.state ?? 'FERMENTING';
}

/**
 * The time of a tasting note or an annotation: the one the person gave, or now; refused when it lies
 * more than the device tolerance (900 s) ahead. A gravity reading's time also must not precede its
 * batch (`readingTimeProblem`).
 */
export function markTime(given: number | undefined, now: number): { t: number } | BatchEditRefusal {
  if (given !== undefined && isTooFarInFuture(given, now)) return refusal(400, 'The time lies in the future.');
  return { t: given ?? now };
}

/** Whether {@link markTime} or an edit rule answered a refusal. */
export function isRefusal<T extends object>(answer: T | BatchEditRefusal): answer is BatchEditRefusal {
  return 'status' in answer && 'message' in answer;
}

/**
 * What an annotation edit stores (its kind and channel), or why it is refused: the mark of a tasting
 * note is edited with its note; a channel annotation names its channel; without a kind, a code makes
 * it a channel's, else it lies across the chart. `current` is the annotation edited (null: a new one).
 */
export function annotationEdit(
  body: { kind?: AnnotationKind; code?: string },
  current: { sensoryId: string | null } | null,
): { kind: AnnotationKind; channelCode: string | null } | BatchEditRefusal {
  if (current?.sensoryId) return refusal(400, 'This annotation marks a tasting note: edit the note instead.');
  const kind = body.kind ?? (body.code ? 'channel' : 'plotLine');
  if (kind === 'channel' && !body.code) return refusal(400, 'A channel annotation needs a channel code.');
  return { kind, channelCode: kind === 'channel' ? body.code! : null };
}

/** Why an item cannot be deleted from its list, or null: a tasting note's mark goes only with the note. */
export function itemDeleteRefusal(
  list: BatchItemList,
  item: { sensoryId?: string | null } | null,
): BatchEditRefusal | null {
  if (list === 'annotations' && item?.sensoryId) {
    return refusal(400, 'This annotation marks a tasting note: delete the note instead.');
  }
  return null;
}
