import { memo, useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import {
  buttonPressValue,
  incrementDecimals,
  isOnValue,
  snapToIncrement,
  sprayZoneOf,
  stepSetpoint,
  valueFraction,
} from '@fieldlink/domain/widget-values';
import { widgetRole } from '@fieldlink/domain/widgets';
import { sprayBlockedBy } from '@fieldlink/domain/spray';
import { Spinner } from '../../../components/ui/spinner';
import { OperateStatus, type OperateProgress } from '../../../components/operate/operate-status';
import { useConfirmedCommand } from '../../../components/operate/use-confirmed-command';
import { useDevice } from '../../../lib/api/get-device';
import { setpointStatusCode } from '../../../lib/realtime/control-write';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useControlWrite } from '../../../lib/realtime/use-channel-write';
import { useDeviceActionRefusal } from '../../../lib/session/use-can';
import { useStore } from '../../../lib/use-store';
import type { ResolvedChannel, WidgetDefinition, WidgetViewProps } from './widget-definition';
import { ButtonEditor, SprayZoneEditor } from './widget-editors';
import {
  formatValue,
  PickerIcon,
  onOffColours,
  themeColour,
  unitsOf,
  useChannelReading,
  WidgetBody,
  WriteError,
  type ReadingStatus,
} from './widget-kit';

/**
 * Widgets that write to a device over the real-time channel (§3 role CONTROL): up/down setpoint,
 * momentary button, switch, sliders and the manual spray control. Each command is confirmed first
 * (issue 36 item 1: device, output, value now and after), then stays pending (spinner, ghosted value,
 * "Sending…") until the device confirms it (§4) and says "Done"; failures show inline; read-only
 * disables them.
 */

/** A command of a control widget: its confirm button's words, and the value now and after as shown. */
interface WidgetCommand {
  action: string;
  now: string;
  after: string;
  send: () => void;
}

function useWidgetControl(channel: ResolvedChannel | undefined, confirm: boolean) {
  const { latest, status } = useChannelReading(channel);
  const control = useControlWrite(
    channel?.thingName ?? '',
    channel?.code ?? '',
    channel ? setpointStatusCode(channel) : '',
  );
  // The domain's rule, which the server checks too: a monitor-only user's controls are disabled, and
  // say why (`refusal`, their title; the page says it in words once).
  const refusal = useDeviceActionRefusal('writeChannel');
  // A confirmed setpoint status is data too: the control is not empty once the device has answered.
  const shown: ReadingStatus = status === 'empty' && control.reading ? 'live' : status;
  const canWrite = status !== 'unbound' && status !== 'gone' && refusal === null;
  const { ask, dialog } = useConfirmedCommand(confirm);
  const operate = ({ action, now, after, send }: WidgetCommand) =>
    ask({
      action,
      device: channel?.deviceName ?? '',
      output: channel?.name ?? '',
      code: channel?.code,
      now,
      after,
      send: () => {
        control.clearError();
        send();
      },
    });
  const progress: OperateProgress = control.pendingValue !== null ? 'sending' : control.done ? 'done' : null;
  return { ...control, latest, status: shown, canWrite, refusal: refusal ?? undefined, operate, dialog, progress };
}

/** A value with its units, as the confirmation names it. */
function withUnits(value: number | null, decimals: number | null, units: string): string {
  const text = formatValue(value, decimals);
  return units && value !== null ? `${text} ${units}` : text;
}

const UpDownControlView = memo(function UpDownControlView({
  widget,
  channels,
  readOnly,
  confirmCommands,
}: WidgetViewProps) {
  const control = useWidgetControl(channels[0], confirmCommands);
  const decimals = widget.increment ? incrementDecimals(widget.increment) : null;
  const current = control.pendingValue ?? control.reading?.value ?? null;
  const pending = control.pendingValue !== null;
  const disabled = readOnly || !control.canWrite || pending;
  const units = unitsOf(widget, channels[0]);
  const step = (direction: 1 | -1) => {
    const target = stepSetpoint(current, direction, widget.increment, widget.min, widget.max);
    control.operate({
      action: 'Change setpoint',
      now: withUnits(current, decimals, units),
      after: withUnits(target, decimals, units),
      send: () => control.write(target),
    });
  };
  return (
    <WidgetBody status={control.status} t={control.latest?.t} className="wv-updown">
      <div className="wv-updown__row">
        <button
          type="button"
          className="wv-round-button"
          aria-label="Decrease"
          title={control.refusal}
          disabled={disabled || (current !== null && current <= widget.min)}
          onClick={() => step(-1)}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M6 12h12" />
          </svg>
        </button>
        <div className={`wv-updown__value${pending ? ' is-pending' : ''}`} aria-live="polite">
          <span className="wv-updown__number">{formatValue(current, decimals)}</span>
          {units && <span className="wv-updown__unit">{units}</span>}
          {pending && <Spinner size={14} label="Waiting for the device" />}
        </div>
        <button
          type="button"
          className="wv-round-button"
          aria-label="Increase"
          title={control.refusal}
          disabled={disabled || (current !== null && current >= widget.max)}
          onClick={() => step(1)}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M6 12h12M12 6v12" />
          </svg>
        </button>
      </div>
      <div className="wv-caption">
        Setpoint · step {formatValue(widget.increment ?? 1)} · {formatValue(widget.min)} to {formatValue(widget.max)}
      </div>
      <OperateStatus progress={control.progress} />
      <WriteError message={control.error} onDismiss={control.clearError} />
      {control.dialog}
    </WidgetBody>
  );
});

const ButtonView = memo(function ButtonView({ widget, channels, readOnly, confirmCommands }: WidgetViewProps) {
  const confirm = confirmCommands;
  const control = useWidgetControl(channels[0], confirm);
  const pressed = useRef(false);
  const [holding, setHolding] = useState(false);
  // A confirmed press is a pulse: the press value, and 0 once the device holds it (a reset button).
  const [pulsing, setPulsing] = useState(false);
  const disabled = readOnly || !control.canWrite || (confirm && (pulsing || control.pendingValue !== null));
  const pending = control.pendingValue !== null;
  const on = pending ? isOnValue(control.pendingValue) : (control.reading?.isOn ?? false);
  const { on: onColour, off: offColour } = onOffColours(widget);
  const { done, error, write } = control;
  useEffect(() => {
    if (!pulsing || (!done && !error)) return;
    setPulsing(false);
    if (done) write(0);
  }, [pulsing, done, error, write]);
  // Momentary: the press value goes out on press and 0 on release, as a push button at the device.
  const press = () => {
    if (disabled || pressed.current) return;
    pressed.current = true;
    setHolding(true);
    control.clearError();
    control.write(buttonPressValue(widget.value));
  };
  const release = () => {
    if (!pressed.current) return;
    pressed.current = false;
    setHolding(false);
    control.write(0);
  };
  const onKey = (event: KeyboardEvent, down: boolean) => {
    if (event.key !== ' ' && event.key !== 'Enter') return;
    event.preventDefault();
    if (down && !event.repeat) press();
    if (!down) release();
  };
  const ask = () =>
    control.operate({
      action: 'Press',
      now: control.reading ? (control.reading.isOn ? 'On' : 'Off') : '—',
      after: 'Pressed, then released',
      send: () => {
        setPulsing(true);
        control.write(buttonPressValue(widget.value));
      },
    });
  // Held while pressed without a confirmation; one click, confirmed, with one.
  const handlers = confirm
    ? { onClick: ask }
    : {
        onPointerDown: (event: PointerEvent<HTMLButtonElement>) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          press();
        },
        onPointerUp: release,
        onPointerCancel: release,
        onLostPointerCapture: release,
        onKeyDown: (event: KeyboardEvent) => onKey(event, true),
        onKeyUp: (event: KeyboardEvent) => onKey(event, false),
        onBlur: release,
      };
  const style = { '--wv-on': onColour, '--wv-off': offColour } as CSSProperties;
  const busy = pending || pulsing;
  return (
    <WidgetBody status={control.status} t={control.latest?.t} className="wv-button">
      <button
        type="button"
        className={`wv-push${on ? ' is-on' : ''}${holding ? ' is-held' : ''}${busy ? ' is-pending' : ''}`}
        style={style}
        title={control.refusal}
        disabled={disabled}
        aria-pressed={on}
        aria-label={channels[0]?.name ?? 'Button'}
        aria-busy={busy}
        {...handlers}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" className="wv-push__icon">
          <path d="M12 3v8M7.05 6.5a7 7 0 1 0 9.9 0" />
        </svg>
        {/* Drawn only: a named spinner inside would put words in the button the name lacks (axe). */}
        {busy && <Spinner size={16} />}
      </button>
      <div className="wv-caption">{control.reading ? (on ? 'On' : 'Off') : confirm ? 'Press' : 'Press and hold'}</div>
      <OperateStatus progress={pulsing ? 'sending' : control.progress} />
      <WriteError message={control.error} onDismiss={control.clearError} />
      {control.dialog}
    </WidgetBody>
  );
});

const SwitchView = memo(function SwitchView({ widget, channels, readOnly, confirmCommands }: WidgetViewProps) {
  const control = useWidgetControl(channels[0], confirmCommands);
  const pending = control.pendingValue !== null;
  const on = pending ? isOnValue(control.pendingValue) : (control.reading?.isOn ?? false);
  // While its command is in flight the switch only says so (aria-disabled) and ignores presses: a
  // disabled button would drop the focus the confirmation hands back to it, and a keyboard user with it.
  const disabled = readOnly || !control.canWrite;
  const { on: onColour, off: offColour } = onOffColours(widget);
  const style = { '--wv-on': onColour, '--wv-off': offColour } as CSSProperties;
  return (
    <WidgetBody status={control.status} t={control.latest?.t} className="wv-switch">
      <button
        type="button"
        role="switch"
        aria-busy={pending}
        aria-disabled={pending || undefined}
        aria-checked={on}
        aria-label={channels[0]?.name ?? 'Switch'}
        className={`wv-toggle${on ? ' is-on' : ''}${pending ? ' is-pending' : ''}`}
        style={style}
        title={control.refusal}
        disabled={disabled}
        onClick={() =>
          !pending &&
          control.operate({
            action: on ? 'Switch off' : 'Switch on',
            now: control.reading ? (on ? 'On' : 'Off') : '—',
            after: on ? 'Off' : 'On',
            send: () => control.write(on ? 0 : 1),
          })
        }
      >
        {/* The switch's state is its aria-checked; the printed ON / OFF only draws it, as generated
            content (CSS), so the button holds no words its name lacks (WCAG 2.5.3, label in name). */}
        <span className="wv-toggle__label wv-toggle__label--on" aria-hidden="true" />
        <span className="wv-toggle__label wv-toggle__label--off" aria-hidden="true" />
        {/* The caption says "Switching on…"; the knob's spinner is drawn only, not a name. */}
        <span className="wv-toggle__knob">{pending && <Spinner size={14} />}</span>
      </button>
      <div className="wv-caption">
        {pending ? (on ? 'Switching on…' : 'Switching off…') : control.reading ? (on ? 'On' : 'Off') : '—'}
      </div>
      <OperateStatus progress={control.progress} />
      <WriteError message={control.error} onDismiss={control.clearError} />
      {control.dialog}
    </WidgetBody>
  );
});

function makeSliderView(vertical: boolean) {
  return memo(function SliderView({ widget, channels, readOnly, confirmCommands }: WidgetViewProps) {
    const control = useWidgetControl(channels[0], confirmCommands);
    // The thumb follows the hand while dragging; the value goes out once, on release.
    const [draft, setDraft] = useState<number | null>(null);
    const decimals = widget.increment ? incrementDecimals(widget.increment) : null;
    const pending = control.pendingValue !== null;
    const current = draft ?? control.pendingValue ?? control.reading?.value ?? null;
    const disabled = readOnly || !control.canWrite || pending;
    const units = unitsOf(widget, channels[0]);
    // Until confirmed the thumb goes back to the value the device holds; nothing is sent on cancel.
    const commit = () => {
      if (draft === null) return;
      setDraft(null);
      if (draft !== control.reading?.value) {
        const target = draft;
        control.operate({
          action: 'Change setpoint',
          now: withUnits(control.reading?.value ?? null, decimals, units),
          after: withUnits(target, decimals, units),
          send: () => control.write(target),
        });
      }
    };
    const fraction = current === null ? 0 : valueFraction(current, widget.min, widget.max);
    const style = {
      '--wv-fill': `${fraction * 100}%`,
      '--wv-colour': themeColour(widget.color, 'var(--fl-primary)'),
    } as CSSProperties;
    return (
      <WidgetBody
        status={control.status}
        t={control.latest?.t}
        className={`wv-slider${vertical ? ' wv-slider--vertical' : ''}`}
      >
        <div className={`wv-slider__value${pending ? ' is-pending' : ''}`}>
          <span className="wv-slider__number">{formatValue(current, decimals)}</span>
          {units && <span className="wv-slider__unit">{units}</span>}
          {pending && <Spinner size={13} label="Waiting for the device" />}
        </div>
        <div className="wv-slider__track-wrap">
          <span className="wv-slider__bound">{formatValue(vertical ? widget.max : widget.min)}</span>
          <input
            type="range"
            className="wv-range"
            style={style}
            min={widget.min}
            max={widget.max}
            step={widget.increment ?? 'any'}
            value={current ?? widget.min}
            title={control.refusal}
            disabled={disabled}
            aria-label={channels[0]?.name ?? 'Value'}
            aria-orientation={vertical ? 'vertical' : 'horizontal'}
            onChange={(event) =>
              setDraft(snapToIncrement(Number(event.target.value), widget.increment, widget.min, widget.max))
            }
            onPointerUp={commit}
            onKeyUp={commit}
            onBlur={commit}
          />
          <span className="wv-slider__bound">{formatValue(vertical ? widget.min : widget.max)}</span>
        </div>
        <OperateStatus progress={control.progress} />
        <WriteError message={control.error} onDismiss={control.clearError} />
        {control.dialog}
      </WidgetBody>
    );
  });
}

const SliderView = makeSliderView(false);
const SliderVerticalView = makeSliderView(true);

const ManualSprayView = memo(function ManualSprayView({
  widget,
  channels,
  readOnly,
  confirmCommands,
}: WidgetViewProps) {
  const channel = channels[0];
  const control = useWidgetControl(channel, confirmCommands);
  const liveMask = useStore(realtimeStore, (s) => (channel?.thingName ? s.alarms[channel.thingName]?.sp : undefined));
  // Before any push (and after a reconnect drops a pre-break one) the record's alarm bits hold.
  const record = useDevice(channel?.thingName ? channel.deviceId : undefined).data;
  const alarmMask = liveMask ?? record?.status.sp;
  const blocked = sprayBlockedBy(alarmMask, 'manual')?.name ?? null;
  const zone = sprayZoneOf(widget.value);
  const pending = control.pendingValue !== null;
  const spraying = pending ? isOnValue(control.pendingValue) : (control.reading?.isOn ?? false);
  const sprayingZone = spraying && !pending && control.reading ? control.reading.value : zone;
  const disabled = readOnly || !control.canWrite || pending || (!spraying && blocked !== null);
  return (
    <WidgetBody status={control.status} t={control.latest?.t} className={`wv-spray${spraying ? ' is-spraying' : ''}`}>
      <div className="wv-spray__state">
        <svg viewBox="0 0 48 48" className="wv-spray__nozzle" aria-hidden="true">
          <path d="M18 6h12v8l-3 5h-6l-3-5z" className="wv-spray__body" />
          <g className="wv-spray__mist">
            <circle cx="24" cy="26" r="2" />
            <circle cx="17" cy="31" r="2" />
            <circle cx="31" cy="31" r="2" />
            <circle cx="12" cy="38" r="2" />
            <circle cx="24" cy="36" r="2" />
            <circle cx="36" cy="38" r="2" />
          </g>
        </svg>
        <div>
          <div className="wv-spray__title">
            {pending
              ? spraying
                ? 'Starting…'
                : 'Stopping…'
              : spraying
                ? `Spraying · Zone ${formatValue(sprayingZone, 0)}`
                : control.reading
                  ? 'Idle'
                  : '—'}
          </div>
          <div className="wv-spray__sub">
            {blocked ? (
              <span className="wv-spray__blocked">{blocked}: manual spray blocked</span>
            ) : (
              `Manual spray · Zone ${zone}`
            )}
          </div>
        </div>
      </div>
      <button
        type="button"
        className={`wv-action${spraying ? ' wv-action--stop' : ''}`}
        title={control.refusal}
        disabled={disabled}
        onClick={() =>
          control.operate({
            action: spraying ? 'Stop spray' : `Start spray zone ${zone}`,
            now: spraying ? `Spraying zone ${formatValue(sprayingZone, 0)}` : control.reading ? 'Idle' : '—',
            after: spraying ? 'Idle' : `Spraying zone ${zone}`,
            send: () => control.write(spraying ? 0 : zone),
          })
        }
      >
        {pending && <Spinner size={14} />}
        {spraying ? 'Stop spray' : `Start spray Z${zone}`}
      </button>
      <OperateStatus progress={control.progress} />
      <WriteError message={control.error} onDismiss={control.clearError} />
      {control.dialog}
    </WidgetBody>
  );
});

function UpDownIcon() {
  return (
    <PickerIcon fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="9" cy="16" r="6" />
      <path d="M6 16h6" />
      <circle cx="39" cy="16" r="6" />
      <path d="M36 16h6M39 13v6" />
      <text x="24" y="21" fontSize="12" fontWeight="700" textAnchor="middle" fill="currentColor" stroke="none">
        21
      </text>
    </PickerIcon>
  );
}

function ButtonIcon() {
  return (
    <PickerIcon>
      <circle cx="24" cy="16" r="12" fill="currentColor" />
      <path
        d="M24 10v6M20.5 12.5a5 5 0 1 0 7 0"
        fill="none"
        stroke="var(--fl-surface, #fff)"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </PickerIcon>
  );
}

function SwitchIcon() {
  return (
    <PickerIcon>
      <rect x="8" y="8" width="32" height="16" rx="8" fill="currentColor" />
      <circle cx="32" cy="16" r="6" fill="var(--fl-surface, #fff)" />
    </PickerIcon>
  );
}

function SliderIcon() {
  return (
    <PickerIcon fill="currentColor">
      <rect x="6" y="14.5" width="36" height="3" rx="1.5" fillOpacity=".3" />
      <rect x="6" y="14.5" width="20" height="3" rx="1.5" />
      <circle cx="26" cy="16" r="5" />
    </PickerIcon>
  );
}

function SliderVerticalIcon() {
  return (
    <PickerIcon fill="currentColor">
      <rect x="22.5" y="3" width="3" height="26" rx="1.5" fillOpacity=".3" />
      <rect x="22.5" y="14" width="3" height="15" rx="1.5" />
      <circle cx="24" cy="14" r="5" />
    </PickerIcon>
  );
}

function SprayIcon() {
  return (
    <PickerIcon fill="currentColor">
      <path d="M19 3h10v6l-2 4h-6l-2-4z" />
      <circle cx="24" cy="18" r="1.6" />
      <circle cx="18" cy="22" r="1.6" />
      <circle cx="30" cy="22" r="1.6" />
      <circle cx="14" cy="28" r="1.6" />
      <circle cx="24" cy="27" r="1.6" />
      <circle cx="34" cy="28" r="1.6" />
    </PickerIcon>
  );
}

export const upDownControlWidget: WidgetDefinition = {
  type: 'upDownControl',
  label: 'Up/down control',
  description: 'A setpoint stepped up and down by its increment within min..max.',
  role: widgetRole('upDownControl'),
  Icon: UpDownIcon,
  sections: ['channels', 'range', 'increment', 'units', 'confirmation'],
  maxChannels: 1,
  View: UpDownControlView,
};

export const buttonWidget: WidgetDefinition = {
  type: 'button',
  label: 'Button',
  description: 'A momentary push button: on while held, off when released.',
  role: widgetRole('button'),
  Icon: ButtonIcon,
  sections: ['channels', 'switchColours', 'confirmation'],
  maxChannels: 1,
  View: ButtonView,
  Editor: ButtonEditor,
};

export const switchWidget: WidgetDefinition = {
  type: 'switch',
  label: 'Switch',
  description: 'An on/off toggle for a relay or flag, in its active and inactive colours.',
  role: widgetRole('switch'),
  Icon: SwitchIcon,
  sections: ['channels', 'switchColours', 'confirmation'],
  maxChannels: 1,
  View: SwitchView,
};

export const sliderWidget: WidgetDefinition = {
  type: 'slider',
  label: 'Slider',
  description: 'Sets a value between min and max by dragging, in steps of the increment.',
  role: widgetRole('slider'),
  Icon: SliderIcon,
  sections: ['channels', 'range', 'increment', 'colours', 'units', 'confirmation'],
  maxChannels: 1,
  View: SliderView,
};

export const sliderVerticalWidget: WidgetDefinition = {
  type: 'sliderVertical',
  label: 'Vertical slider',
  description: 'A vertical slider between min and max, in steps of the increment.',
  role: widgetRole('sliderVertical'),
  Icon: SliderVerticalIcon,
  sections: ['channels', 'range', 'increment', 'colours', 'units', 'confirmation'],
  maxChannels: 1,
  View: SliderVerticalView,
};

export const mosnixManualSprayWidget: WidgetDefinition = {
  type: 'mosnixManualSpray',
  label: 'Manual spray',
  description: 'Starts and stops a manual spray on a zone and shows whether the unit is spraying.',
  role: widgetRole('mosnixManualSpray'),
  Icon: SprayIcon,
  sections: ['channels'],
  maxChannels: 1,
  View: ManualSprayView,
  Editor: SprayZoneEditor,
};
