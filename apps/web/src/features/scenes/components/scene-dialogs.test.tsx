// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { ConfirmDeleteDialog, SceneNameDialog } from './scene-dialogs';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function renderNameDialog(onSubmit: (name: string) => Promise<unknown>, initialName?: string) {
  const onClose = vi.fn();
  render(
    <SceneNameDialog
      title={initialName ? 'Rename scene' : 'New scene'}
      initialName={initialName}
      submitLabel={initialName ? 'Rename' : 'Add scene'}
      onSubmit={onSubmit}
      onClose={onClose}
    />,
  );
  return onClose;
}

const nameInput = () => screen.getByLabelText('Scene name');
const typeName = (value: string) => fireEvent.change(nameInput(), { target: { value } });

afterEach(cleanup);

// Issue 37 item 5: naming, renaming and deleting a scene.
describe('the scene name dialog', { timeout: 30_000 }, () => {
  it.each([
    ['of spaces only', '   ', 'Enter a name for the scene.'],
    ['of 121 characters', 'x'.repeat(121), 'Use at most 120 characters.'],
  ])('refuses a name %s and says why', (_, typed, reason) => {
    const onSubmit = vi.fn(() => Promise.resolve());
    renderNameDialog(onSubmit);
    typeName(typed);
    expect(screen.getByText(reason)).toBeTruthy();
    expect(nameInput().getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByRole('button', { name: 'Add scene' }) as HTMLButtonElement).disabled).toBe(true);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the name with its spaces tidied, then closes', async () => {
    const onSubmit = vi.fn((_name: string) => Promise.resolve());
    const onClose = renderNameDialog(onSubmit);
    typeName('  Boiler   house ');
    fireEvent.click(screen.getByRole('button', { name: 'Add scene' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSubmit.mock.calls).toEqual([['Boiler house']]);
  });

  it('sends nothing when a rename leaves the name as it was', () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const onClose = renderNameDialog(onSubmit, 'Boiler house');
    typeName('Boiler  house ');
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    expect(onClose).toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('keeps the dialog open with the server’s refusal', async () => {
    const onClose = renderNameDialog(() =>
      Promise.reject(new ApiError(409, 'A scene of this group already has that name.', null)),
    );
    typeName('Boiler house');
    fireEvent.click(screen.getByRole('button', { name: 'Add scene' }));
    expect(await screen.findByText('A scene of this group already has that name.')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('the delete confirmation', { timeout: 30_000 }, () => {
  it('deletes only on the confirming button, and shows a refusal in place', async () => {
    const onConfirm = vi.fn(() => Promise.reject(new ApiError(403, 'Only an administrator may delete scenes.', null)));
    const onClose = vi.fn();
    render(
      <ConfirmDeleteDialog title="Delete scene?" confirmLabel="Delete scene" onConfirm={onConfirm} onClose={onClose}>
        “Boiler house” and its 3 widgets will be deleted.
      </ConfirmDeleteDialog>,
    );
    expect(screen.getByRole('dialog', { name: 'Delete scene?' })).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Delete scene' }));
    expect(await screen.findByText('Only an administrator may delete scenes.')).toBeTruthy();
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
  });
});
