/**
 * The toast queue: at most {@link MAX_VISIBLE_TOASTS} toasts on screen; later ones wait, and at most
 * {@link MAX_QUEUED_TOASTS} wait (the oldest waiting are dropped past that). Three keeps the corner of
 * the screen readable on a phone while a burst of failures (a dropped network on a busy dashboard) can
 * not bury the page; a toast already showing or waiting with the same text is not repeated.
 */
export const MAX_VISIBLE_TOASTS = 3;
export const MAX_QUEUED_TOASTS = 10;
/** Toast lifetime (specification §4, §9). */
export const TOAST_DURATION_MS = 5000;

export type ToastKind = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  durationMs: number;
}

export interface ToastQueue {
  visible: readonly Toast[];
  queued: readonly Toast[];
}

export const EMPTY_TOAST_QUEUE: ToastQueue = { visible: [], queued: [] };

const sameToast = (a: Toast, b: Toast) => a.kind === b.kind && a.message === b.message;

export function enqueueToast(queue: ToastQueue, toast: Toast): ToastQueue {
  if (queue.visible.some((t) => sameToast(t, toast)) || queue.queued.some((t) => sameToast(t, toast))) return queue;
  if (queue.visible.length < MAX_VISIBLE_TOASTS) return { ...queue, visible: [...queue.visible, toast] };
  const queued = [...queue.queued, toast];
  return { ...queue, queued: queued.slice(Math.max(0, queued.length - MAX_QUEUED_TOASTS)) };
}

export function dismissToast(queue: ToastQueue, id: number): ToastQueue {
  const visible = queue.visible.filter((t) => t.id !== id);
  const queued = queue.queued.filter((t) => t.id !== id);
  if (visible.length === queue.visible.length && queued.length === queue.queued.length) return queue;
  const room = MAX_VISIBLE_TOASTS - visible.length;
  return { visible: [...visible, ...queued.slice(0, room)], queued: queued.slice(room) };
}
