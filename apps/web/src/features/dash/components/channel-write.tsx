import { useState } from 'react';
import { parseChannelCode } from '@fieldlink/domain/channels';
import { Spinner } from '../../../components/ui/spinner';
import { OperateStatus } from '../../../components/operate/operate-status';
import { useConfirmedCommand } from '../../../components/operate/use-confirmed-command';
import { useLatestValue } from '../../../lib/realtime/use-realtime';
import { useChannelWrite } from '../../../lib/realtime/use-channel-write';
import { useDeviceActionRefusal } from '../../../lib/session/use-can';

/** Setpoints take a number; relays and flags switch on and off. Other channels are read-only. */
export function writeKind(code: string): 'number' | 'switch' | null {
  const prefix = parseChannelCode(code)?.prefix;
  if (prefix === 's' || prefix === 'sp') return 'number';
  if (prefix === 'do' || prefix === 'o' || prefix === 'gpf') return 'switch';
  return null;
}

/**
 * The write control of a channel card: each write confirmed first (issue 36 item 1), then "Sending…"
 * until the device reports the value, "Done", or the failure.
 */
export function ChannelWrite({
  thingName,
  deviceName,
  code,
  title,
  units,
}: {
  thingName: string;
  deviceName: string;
  code: string;
  title: string;
  units: string;
}) {
  const kind = writeKind(code);
  const latest = useLatestValue(thingName, code);
  const { state, write, clear } = useChannelWrite(thingName, code);
  const { ask, dialog } = useConfirmedCommand();
  const withUnits = (value: number) => (units ? `${value} ${units}` : String(value));
  // The domain's rule, which the server checks too: a monitor-only user sees the control disabled.
  const refusal = useDeviceActionRefusal('writeChannel');
  const [text, setText] = useState('');
  if (!kind) return null;
  const pending = state.status === 'pending';
  const refused = refusal !== null;

  return (
    <div className="channel-write" title={refusal ?? undefined}>
      {kind === 'number' ? (
        <form
          className="channel-write__form"
          onSubmit={(event) => {
            event.preventDefault();
            const value = Number(text);
            if (text.trim() === '' || !Number.isFinite(value)) return;
            ask({
              action: 'Change setpoint',
              device: deviceName,
              output: title,
              code,
              now: latest ? withUnits(latest.value) : '—',
              after: withUnits(value),
              send: () => void write(value),
            });
          }}
        >
          <input
            className="channel-write__input"
            type="number"
            step="any"
            inputMode="decimal"
            aria-label={`New value for ${title}`}
            placeholder={latest ? String(latest.value) : 'Value'}
            value={text}
            disabled={pending || refused}
            onChange={(event) => {
              setText(event.target.value);
              if (state.status === 'error') clear();
            }}
          />
          <button type="submit" className="channel-write__button" disabled={pending || refused || text.trim() === ''}>
            {pending ? <Spinner size={13} label={`Writing ${title}`} /> : 'Set'}
          </button>
        </form>
      ) : (
        <button
          type="button"
          role="switch"
          aria-checked={Boolean(latest && latest.value !== 0)}
          aria-label={`Switch ${title}`}
          className={`fl-switch channel-write__switch${latest && latest.value !== 0 ? ' is-on' : ''}`}
          disabled={pending || refused || !latest}
          onClick={() => {
            const on = Boolean(latest && latest.value !== 0);
            ask({
              action: on ? 'Switch off' : 'Switch on',
              device: deviceName,
              output: title,
              code,
              now: on ? 'On' : 'Off',
              after: on ? 'Off' : 'On',
              send: () => void write(on ? 0 : 1),
            });
          }}
        >
          <span className="fl-switch__knob" />
          {pending && <Spinner size={12} label={`Switching ${title}`} />}
        </button>
      )}
      <OperateStatus progress={pending ? 'sending' : state.status === 'done' ? 'done' : null} />
      {state.status === 'error' && (
        <p className="channel-write__error" role="alert" data-testid={`write-error-${code}`}>
          {state.message}
        </p>
      )}
      {dialog}
    </div>
  );
}
