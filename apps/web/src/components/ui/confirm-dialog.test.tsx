// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(cleanup);

function ask(props: Partial<Parameters<typeof ConfirmDialog>[0]> = {}) {
  const onConfirm = vi.fn();
  const onClose = vi.fn();
  render(
    <ConfirmDialog title="Delete batch?" confirmLabel="Delete batch" onConfirm={onConfirm} onClose={onClose} {...props}>
      Pale Ale and its readings are deleted for good.
    </ConfirmDialog>,
  );
  return { onConfirm, onClose };
}

describe('the confirmation before something that cannot be undone', { timeout: 30_000 }, () => {
  it('acts only on the confirming button; Cancel and Escape only close', () => {
    const { onConfirm, onClose } = ask();
    expect(screen.getByRole('dialog', { name: 'Delete batch?' }).textContent).toContain('deleted for good');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Delete batch' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('opens a dangerous question on Cancel, so Enter alone never deletes', () => {
    ask();
    expect(document.activeElement?.textContent).toBe('Cancel');
  });

  it('opens a question that is not dangerous without a default', () => {
    ask({ tone: 'default', confirmLabel: 'End batch', title: 'End this batch?' });
    expect(document.activeElement?.textContent).not.toBe('Cancel');
    expect(screen.getByRole('button', { name: 'End batch' }).className).not.toContain('danger');
  });

  it('keeps the confirming button busy while the work runs and shows a refusal in place', () => {
    ask({ busy: true, error: 'Only an administrator may delete batches.' });
    expect(screen.getByRole('button', { name: 'Delete batch' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('Only an administrator may delete batches.')).toBeTruthy();
  });
});
