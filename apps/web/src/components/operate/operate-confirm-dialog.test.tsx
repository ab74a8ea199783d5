// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OperateCommand } from './operate-confirm-dialog';
import { useConfirmedCommand } from './use-confirmed-command';

// React's act() environment, so state updates from events settle before the assertions.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A control as the product builds one: a button that asks, and the dialog the hook renders. */
function PlantRunSwitch({ send, confirm = true }: { send: () => void; confirm?: boolean }) {
  const { ask, dialog } = useConfirmedCommand(confirm);
  const command: OperateCommand = {
    action: 'Switch on',
    device: 'Riverside plant',
    output: 'Plant run',
    code: 'do1',
    now: 'Off',
    after: 'On',
    send,
  };
  return (
    <>
      <button type="button" onClick={() => ask(command)}>
        Plant run
      </button>
      {dialog}
    </>
  );
}

const dialog = () => screen.queryByRole('dialog', { name: 'Switch on?' });
const key = (name: string) =>
  act(() => {
    fireEvent.keyDown(document.activeElement ?? document.body, { key: name });
  });

describe('the confirmation of a device command (select before operate)', () => {
  afterEach(cleanup);

  it('names the device, the output and the value now and after, and sends nothing before confirm', () => {
    const send = vi.fn();
    render(<PlantRunSwitch send={send} />);
    fireEvent.click(screen.getByRole('button', { name: 'Plant run' }));
    const open = dialog();
    expect(open).not.toBeNull();
    expect(open?.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByTestId('operate-device').textContent).toBe('Riverside plant');
    expect(screen.getByTestId('operate-output').textContent).toBe('Plant run do1');
    expect(screen.getByTestId('operate-now').textContent).toBe('now Off');
    expect(screen.getByTestId('operate-after').textContent).toBe('after On');
    // The dialog describes itself as the output on the device, for a screen reader.
    const describedBy = open?.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe('Plant run on Riverside plant');
    // Focus is inside, on the confirm button.
    expect(document.activeElement?.textContent).toBe('Switch on');
    expect(send).not.toHaveBeenCalled();
  });

  it('cancels on Escape: the dialog closes and nothing is sent', () => {
    const send = vi.fn();
    render(<PlantRunSwitch send={send} />);
    const opener = screen.getByRole('button', { name: 'Plant run' });
    opener.focus();
    fireEvent.click(opener);
    key('Escape');
    expect(dialog()).toBeNull();
    expect(send).not.toHaveBeenCalled();
    // Focus goes back to the control.
    expect(document.activeElement).toBe(opener);
  });

  it('cancels with the Cancel button, and Enter on Cancel cancels too', () => {
    const send = vi.fn();
    render(<PlantRunSwitch send={send} />);
    fireEvent.click(screen.getByRole('button', { name: 'Plant run' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(dialog()).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Plant run' }));
    act(() => screen.getByRole('button', { name: 'Cancel' }).focus());
    key('Enter');
    expect(send).not.toHaveBeenCalled();
  });

  it('confirms on Enter: sends the command once and closes', () => {
    const send = vi.fn();
    render(<PlantRunSwitch send={send} />);
    fireEvent.click(screen.getByRole('button', { name: 'Plant run' }));
    key('Enter');
    expect(send).toHaveBeenCalledTimes(1);
    expect(dialog()).toBeNull();
  });

  it('confirms with the confirm button, once however often it is pressed', () => {
    const send = vi.fn();
    render(<PlantRunSwitch send={send} />);
    fireEvent.click(screen.getByRole('button', { name: 'Plant run' }));
    const confirm = screen.getByRole('button', { name: 'Switch on' });
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('ignores a held Enter (a repeat of the key that opened it)', () => {
    const send = vi.fn();
    render(<PlantRunSwitch send={send} />);
    fireEvent.click(screen.getByRole('button', { name: 'Plant run' }));
    act(() => {
      fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Enter', repeat: true });
    });
    expect(send).not.toHaveBeenCalled();
    expect(dialog()).not.toBeNull();
  });

  it('keeps Tab inside the dialog: from the confirm button, the last, it wraps to the first', () => {
    render(<PlantRunSwitch send={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Plant run' }));
    expect(document.activeElement?.textContent).toBe('Switch on');
    key('Tab');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    expect(dialog()?.contains(document.activeElement)).toBe(true);
  });

  it('sends at once, without a dialog, for a control marked "no confirmation"', () => {
    const send = vi.fn();
    render(<PlantRunSwitch send={send} confirm={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Plant run' }));
    expect(send).toHaveBeenCalledTimes(1);
    expect(dialog()).toBeNull();
  });
});
