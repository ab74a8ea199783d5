// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Scene } from '@fieldlink/api/scenes';
import { scene, widget } from '../model/fixtures';
import { ScenePageDialogs, type ScenePageDialog, type ScenePageDialogActions } from './scene-page-dialogs';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(cleanup);

function renderDialog(dialog: ScenePageDialog | null, shown: Scene | null = scene('s1')) {
  const actions: ScenePageDialogActions = {
    addScene: vi.fn(() => Promise.resolve()),
    renameScene: vi.fn(() => Promise.resolve()),
    deleteScene: vi.fn(() => Promise.resolve()),
    pickWidget: vi.fn(),
    saveWidget: vi.fn(() => Promise.resolve()),
    deleteWidget: vi.fn(() => Promise.resolve()),
  };
  const onClose = vi.fn();
  render(
    <ScenePageDialogs
      dialog={dialog}
      scene={shown}
      accounts={[]}
      accountId="acc1"
      devices={new Map()}
      actions={actions}
      onClose={onClose}
    />,
  );
  return { actions, onClose };
}

// Issue 37 item 5: which dialog the scene page opens, what it says, and what it sends.
describe('the scene page dialogs', { timeout: 30_000 }, () => {
  it('opens none without a dialog', () => {
    renderDialog(null);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it.each([
    [[], '“Boilers” and its 0 widgets'],
    [[widget('w1')], '“Boilers” and its 1 widget will'],
  ])('says what deleting a scene takes with it, and deletes that scene', async (widgets, said) => {
    const doomed = scene('s2', { name: 'Boilers', widgets });
    const { actions } = renderDialog({ kind: 'deleteScene', scene: doomed });
    expect(screen.getByRole('dialog', { name: 'Delete scene?' }).textContent).toContain(said);
    fireEvent.click(screen.getByRole('button', { name: 'Delete scene' }));
    await waitFor(() => expect(actions.deleteScene).toHaveBeenCalledWith(doomed));
  });

  it('renames the scene it was opened for, with the name typed', async () => {
    const renamed = scene('s2', { name: 'Boilers' });
    const { actions } = renderDialog({ kind: 'renameScene', scene: renamed });
    fireEvent.change(screen.getByLabelText('Scene name'), { target: { value: 'Boiler room' } });
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(actions.renameScene).toHaveBeenCalledWith(renamed, 'Boiler room'));
  });

  it('deletes the widget it names', async () => {
    const doomed = widget('w7', { name: 'Line pressure' });
    const { actions } = renderDialog({ kind: 'deleteWidget', widget: doomed });
    expect(screen.getByRole('dialog', { name: 'Delete widget?' }).textContent).toContain(
      '“Line pressure” will be removed',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete widget' }));
    await waitFor(() => expect(actions.deleteWidget).toHaveBeenCalledWith(doomed));
  });

  it('opens no widget dialog without a shown scene', () => {
    renderDialog({ kind: 'deleteWidget', widget: widget('w7') }, null);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
