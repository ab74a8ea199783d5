import { describe, expect, it } from 'vitest';
import {
  dismissToast,
  EMPTY_TOAST_QUEUE,
  enqueueToast,
  MAX_QUEUED_TOASTS,
  MAX_VISIBLE_TOASTS,
  type Toast,
  type ToastQueue,
} from './toast-queue';

const toast = (id: number, message = `message ${id}`): Toast => ({ id, kind: 'error', message, durationMs: 5000 });
const fill = (count: number): ToastQueue =>
  Array.from({ length: count }, (_, i) => toast(i + 1)).reduce(enqueueToast, EMPTY_TOAST_QUEUE);

describe('toast queue', () => {
  it('shows up to the visible limit and queues the rest in order', () => {
    const queue = fill(MAX_VISIBLE_TOASTS + 2);
    expect(queue.visible.map((t) => t.id)).toEqual([1, 2, 3]);
    expect(queue.queued.map((t) => t.id)).toEqual([4, 5]);
  });

  it('promotes the oldest waiting toast when one is dismissed', () => {
    const queue = dismissToast(fill(5), 2);
    expect(queue.visible.map((t) => t.id)).toEqual([1, 3, 4]);
    expect(queue.queued.map((t) => t.id)).toEqual([5]);
  });

  it('drops the oldest waiting toasts past the queue limit', () => {
    const total = MAX_VISIBLE_TOASTS + MAX_QUEUED_TOASTS + 4;
    const queue = fill(total);
    expect(queue.queued).toHaveLength(MAX_QUEUED_TOASTS);
    expect(queue.queued[0]?.id).toBe(MAX_VISIBLE_TOASTS + 5);
    expect(queue.queued.at(-1)?.id).toBe(total);
  });

  it('does not repeat a toast already showing or waiting', () => {
    const once = enqueueToast(EMPTY_TOAST_QUEUE, toast(1, 'Error during connection.'));
    expect(enqueueToast(once, toast(2, 'Error during connection.'))).toBe(once);
  });

  it('ignores an unknown id', () => {
    const queue = fill(2);
    expect(dismissToast(queue, 99)).toBe(queue);
  });
});
