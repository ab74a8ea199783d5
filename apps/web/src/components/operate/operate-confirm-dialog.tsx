import { useEffect, useRef } from 'react';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import './operate.css';

/**
 * A command to a device as the person confirming it reads it (issue 36 item 1, select before
 * operate): which device, which output, what it holds now and what it will hold after.
 */
export interface OperateCommand {
  /** What the command does, as the confirm button says it: "Switch on", "Reset", "Flash LED". */
  action: string;
  /** The device's name. */
  device: string;
  /** The output's name as people read it ("Plant run"). */
  output: string;
  /** The output's channel code ("do1"), shown beside its name when known. */
  code?: string;
  /** The value the output holds now, as the control shows it ("Off", "21.5 °C"). */
  now: string;
  /** The value it will hold after the command ("On", "22 °C"). */
  after: string;
  /** Sends the command; called once, only on confirmation. */
  send: () => void;
}

/**
 * The confirmation of a device command: names the device, the output and its value now and after.
 * Nothing is sent before "confirm": Enter confirms (anywhere in the dialog but on Cancel or Close;
 * the confirm button holds the focus), Escape, Cancel, Close and the backdrop cancel.
 * Focus stays inside while it is open and returns to the control afterwards (the shared Dialog).
 */
export function OperateConfirmDialog({
  command,
  onConfirm,
  onCancel,
}: {
  command: OperateCommand;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  // One confirmation sends one command, however many Enters and clicks reach the dialog.
  const confirmed = useRef(false);
  const confirmOnce = () => {
    if (confirmed.current) return;
    confirmed.current = true;
    onConfirm();
  };
  const confirmRef = useRef(confirmOnce);
  confirmRef.current = confirmOnce;
  useEffect(() => {
    // Enter confirms, but on another button (Cancel, Close), which handles its own Enter. A held
    // Enter (the key that opened the dialog, repeating) confirms nothing.
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Enter') return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('button:not([data-operate-confirm]), a')) return;
      event.preventDefault();
      if (event.repeat) return;
      confirmRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <Dialog
      title={`${command.action}?`}
      description={`${command.output} on ${command.device}`}
      size="sm"
      onClose={onCancel}
      footer={
        <>
          <Button onClick={onCancel}>Cancel</Button>
          <Button variant="primary" onClick={confirmOnce} data-autofocus data-operate-confirm>
            {command.action}
          </Button>
        </>
      }
    >
      <dl className="operate-confirm" data-testid="operate-confirm">
        <div className="operate-confirm__row">
          <dt>Device</dt>
          <dd data-testid="operate-device">{command.device}</dd>
        </div>
        <div className="operate-confirm__row">
          <dt>Output</dt>
          <dd data-testid="operate-output">
            {command.output}
            {command.code && <span className="operate-confirm__code"> {command.code}</span>}
          </dd>
        </div>
        <div className="operate-confirm__row operate-confirm__change">
          <dt>Value</dt>
          <dd>
            <span className="operate-confirm__now" data-testid="operate-now">
              <span className="fl-visually-hidden">now </span>
              {command.now}
            </span>
            <span className="operate-confirm__arrow" aria-hidden="true">
              →
            </span>
            <span className="operate-confirm__after" data-testid="operate-after">
              <span className="fl-visually-hidden">after </span>
              {command.after}
            </span>
          </dd>
        </div>
      </dl>
      <p className="operate-confirm__hint fl-muted">
        Nothing is sent until you confirm. Enter confirms, Escape cancels.
      </p>
    </Dialog>
  );
}
