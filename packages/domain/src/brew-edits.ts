import {
  annotationColor,
  readingTimeProblem,
  recordTransition,
  takeBackEndRefusal,
  tastingRatings,
  type ANNOTATION_KINDS,
  type TankState,
  type TastingRating,
  type Transition,
} from './brew';
import { tankSettings, tastingMarkText, type TankSettings } from './brew-views';
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

/** A batch's end and transitions as the edits below read them. */
interface BatchCourse {
  end: number | null;
  transitions: readonly Transition[];
}

/** A batch ended by hand at `now` (MANUALLY_ENDED, recorded as a transition), or why it cannot be. */
export function endedBatch(
  batch: BatchCourse,
  now: number,
): { state: TankState; end: number; transitions: Transition[] } | BatchEditRefusal {
  return (
    endBatchRefusal(batch.end !== null) ?? {
      state: 'MANUALLY_ENDED',
      end: now,
      transitions: recordTransition(batch.transitions, 'MANUALLY_ENDED', now),
    }
  );
}

/**
 * A batch whose end is taken back at `now`: running again in its state before the end
 * ({@link resumedState}), or refused (409) when it has not ended or its tank runs another batch.
 */
export function resumedBatch(
  batch: BatchCourse,
  tankRunsAnotherBatch: boolean,
  now: number,
): { state: TankState; end: null; transitions: Transition[] } | BatchEditRefusal {
  const message = takeBackEndRefusal({ ended: batch.end !== null, tankRunsAnotherBatch });
  if (message) return refusal(409, message);
  const state = resumedState(batch.transitions);
  return { state, end: null, transitions: recordTransition(batch.transitions, state, now) };
}

/** What names a batch item to replace (`id`; none: a new item). */
interface ItemEdit {
  id?: string | undefined;
}

const notFound = (list: BatchItemList) => refusal(404, BATCH_ITEM_NOT_FOUND[list]);

/**
 * A gravity reading as it is stored: the one named (`exists` says whether the batch has it; 404 if
 * not) or a new one of id `newId()`, at the time given or now, which may neither lie ahead (900 s)
 * nor precede the batch's start.
 */
export function gravityReading(
  body: ItemEdit & { value: number; timestamp?: number | undefined },
  exists: boolean,
  batchStart: number,
  now: number,
  newId: () => string,
): { id: string; value: number; timestamp: number } | BatchEditRefusal {
  if (body.id !== undefined && !exists) return notFound('gravities');
  const timestamp = body.timestamp ?? now;
  const problem = readingTimeProblem(timestamp, now, batchStart);
  if (problem) return refusal(400, problem);
  return { id: body.id ?? newId(), value: body.value, timestamp };
}

/** A tasting note's mark on the chart (a blue plot line), to be stored under the mark's own id. */
export interface TastingMark {
  kind: 'plotLine';
  text: string;
  timestamp: number;
  color: string;
  channelCode: null;
  sensoryId: string;
}

/**
 * A tasting note as it is stored, and its mark on the chart: the note named (`exists`; 404 if not)
 * or a new one, with its six ratings, its trimmed notes and its time ({@link markTime}).
 */
export function tastingNote(
  body: ItemEdit & Readonly<Record<TastingRating, number>> & { notes?: string | undefined; timestamp?: number },
  exists: boolean,
  now: number,
  newId: () => string,
):
  | {
      sensory: { id: string; ratings: Record<TastingRating, number>; notes: string; timestamp: number };
      mark: TastingMark;
    }
  | BatchEditRefusal {
  if (body.id !== undefined && !exists) return notFound('sensories');
  const time = markTime(body.timestamp, now);
  if (isRefusal(time)) return time;
  const id = body.id ?? newId();
  const ratings = tastingRatings(body);
  const notes = (body.notes ?? '').trim();
  return {
    sensory: { id, ratings, notes, timestamp: time.t },
    mark: {
      kind: 'plotLine',
      text: tastingMarkText(ratings, notes),
      timestamp: time.t,
      color: annotationColor(true),
      channelCode: null,
      sensoryId: id,
    },
  };
}

/**
 * An annotation as it is stored: `current` is the one named (undefined: none found, 404 when the
 * body names one) or null for a new one of id `newId()`; its kind and channel by
 * {@link annotationEdit}, its trimmed text, its time ({@link markTime}) and the grey of a note.
 */
export function chartAnnotation(
  body: ItemEdit & { kind?: AnnotationKind; code?: string; text: string; timestamp?: number },
  current: { id: string; sensoryId: string | null } | undefined,
  now: number,
  newId: () => string,
):
  | {
      id: string;
      kind: AnnotationKind;
      text: string;
      timestamp: number;
      color: string;
      channelCode: string | null;
      sensoryId: null;
    }
  | BatchEditRefusal {
  if (body.id !== undefined && !current) return notFound('annotations');
  const edit = annotationEdit(body, current ?? null);
  if (isRefusal(edit)) return edit;
  const time = markTime(body.timestamp, now);
  if (isRefusal(time)) return time;
  return {
    id: current?.id ?? newId(),
    kind: edit.kind,
    text: body.text.trim(),
    timestamp: time.t,
    color: annotationColor(false),
    channelCode: edit.channelCode,
    sensoryId: null,
  };
}

/**
 * A tank's settings after a calibration (§7): each of the capacity, the CO2 total gain and the level
 * calibration given replaces the one kept; a running batch takes the new gain and level too.
 */
export function calibratedTank(
  kept: TankSettings | null | undefined,
  calibration: {
    capacity?: number | null | undefined;
    co2TotalGain?: number | undefined;
    tankLevel?: TankSettings['tankLevel'] | undefined;
  },
): TankSettings {
  const settings = tankSettings(kept);
  return {
    capacity: calibration.capacity === undefined ? settings.capacity : calibration.capacity,
    co2TotalGain: calibration.co2TotalGain ?? settings.co2TotalGain,
    tankLevel: calibration.tankLevel === undefined ? settings.tankLevel : calibration.tankLevel,
  };
}
