import { useState } from 'react';
import type { Tank } from '@fieldlink/api/brew';
import {
  BREW_CHANNEL_UNITS,
  BREW_SETPOINT,
  CALIBRATION_CONTROLS,
  TANK_CAPACITY_PRESETS,
  brewSetpointProblem,
  capacityPresetCalibration,
  capacityPresetLabel,
  tankCapacityPreset,
  type CalibrationReadout,
} from '@fieldlink/domain/brew';
import { channelName } from '@fieldlink/domain/channels';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { RefusalNote } from '../../../components/ui/refusal-note';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { OperateStatus } from '../../../components/operate/operate-status';
import { useConfirmedCommand } from '../../../components/operate/use-confirmed-command';
import { useChannelWrite } from '../../../lib/realtime/use-channel-write';
import { useLatestValue } from '../../../lib/realtime/use-realtime';
import { useCan, useDeviceActionRefusal } from '../../../lib/session/use-can';
import { useBrewCall } from '../api/batch-calls';
import { useCalibrationReadout } from '../model/use-calibration-readout';

/** The cooling setpoint: -5 to 100 °C in steps of 0.1, written to the device over the real-time channel. */
export function SetpointControl({ tank }: { tank: Tank }) {
  const code = tank.channelsMap.temperatureSetpoint;
  const latest = useLatestValue(tank.thingName, code);
  const { state, write, clear } = useChannelWrite(tank.thingName, code);
  // The domain's device action table, which the server checks for this real-time write too.
  const refusal = useDeviceActionRefusal('writeChannel');
  const { ask, dialog } = useConfirmedCommand();
  const [text, setText] = useState('');
  const value = Number(text);
  const problem = text.trim() === '' ? null : brewSetpointProblem(value);
  return (
    <form
      className="brew-setpoint"
      title={refusal ?? undefined}
      data-testid="brew-setpoint"
      onSubmit={(event) => {
        event.preventDefault();
        if (refusal === null && text.trim() !== '' && !problem) {
          const target = Math.round(value * 10) / 10;
          ask({
            action: 'Change setpoint',
            device: tank.name,
            output: 'Cooling setpoint',
            code,
            now: latest ? `${latest.value.toFixed(1)} ${BREW_SETPOINT.unit}` : '—',
            after: `${target.toFixed(1)} ${BREW_SETPOINT.unit}`,
            send: () => void write(target).then(() => setText('')),
          });
        }
      }}
    >
      <label className="fl-field__label" htmlFor="brew-setpoint">
        Setpoint {latest ? `(now ${latest.value.toFixed(1)} ${BREW_SETPOINT.unit})` : ''}
      </label>
      <div className="brew-inline-form">
        <input
          id="brew-setpoint"
          className="fl-input"
          type="number"
          min={BREW_SETPOINT.min}
          max={BREW_SETPOINT.max}
          step={BREW_SETPOINT.step}
          placeholder={latest ? latest.value.toFixed(1) : '18.0'}
          disabled={refusal !== null}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (state.status === 'error') clear();
          }}
        />
        <Button
          type="submit"
          size="sm"
          variant="primary"
          busy={state.status === 'pending'}
          disabled={refusal !== null || text.trim() === '' || problem !== null}
        >
          Set
        </Button>
      </div>
      <RefusalNote reason={refusal} />
      <OperateStatus progress={state.status === 'pending' ? 'sending' : state.status === 'done' ? 'done' : null} />
      {(problem ?? (state.status === 'error' ? state.message : null)) && (
        <p className="brew-form__problem" role="alert">
          {problem ?? (state.status === 'error' ? state.message : '')}
        </p>
      )}
      {dialog}
    </form>
  );
}

/** One of the device's calibration controls gpf-1 to gpf-7: a command button, a switch or the error flag. */
function CalibrationControl({
  tank,
  code,
  label,
  reading,
  onPressed,
}: {
  tank: Tank;
  code: string;
  label: string;
  /** What the controller shows beside this control (a captured point, the CO2 total), if anything. */
  reading: { label: string; value: string } | null;
  onPressed: () => void;
}) {
  const latest = useLatestValue(tank.thingName, code);
  const { state, write } = useChannelWrite(tank.thingName, code);
  const refusal = useDeviceActionRefusal('writeChannel');
  const { ask, dialog } = useConfirmedCommand();
  const on = Boolean(latest && latest.value !== 0);
  const shown = reading && (
    <span className="brew-calibration__reading" data-testid={`calibration-reading-${code}`}>
      {reading.label} <strong>{reading.value}</strong>
    </span>
  );
  if (code === 'gpf7') {
    return (
      <div className="brew-calibration__control">
        <span>{label}</span>
        <Badge tone={on ? 'danger' : 'success'}>{on ? 'Error' : 'None'}</Badge>
      </div>
    );
  }
  const verb =
    code === 'gpf3'
      ? on
        ? 'Turn off'
        : 'Turn on'
      : code === 'gpf6'
        ? 'Apply'
        : code === 'gpf4' || code === 'gpf5'
          ? 'Capture'
          : 'Zero';
  return (
    <div className="brew-calibration__control" title={refusal ?? undefined} data-testid={`calibration-${code}`}>
      <span className="brew-calibration__label">
        {label}
        {shown}
      </span>
      <Button
        size="sm"
        busy={state.status === 'pending'}
        disabled={refusal !== null}
        onClick={() => {
          const target = code === 'gpf3' ? (on ? 0 : 1) : 1;
          ask({
            action: verb,
            device: tank.name,
            output: label,
            code,
            now: on ? 'On' : 'Off',
            after: target === 1 ? 'On' : 'Off',
            send: () => void write(target).then(onPressed),
          });
        }}
      >
        {verb}
      </Button>
      {state.status === 'error' && (
        <span className="brew-form__problem" role="alert">
          {state.message}
        </span>
      )}
      {/* A press answered OK says Done; "Sending…" before, as every confirmed command. */}
      <OperateStatus progress={state.status === 'pending' ? 'sending' : state.status === 'done' ? 'done' : null} />
      {dialog}
    </div>
  );
}

const LITRES = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const fixed2 = (value: number | null) => (value === null ? '–' : value.toFixed(2));
/** A figure as the form keeps it: three decimals at most, so a preset's figures match it again (0.01 %). */
const formField = (value: number) => String(Math.round(value * 1000) / 1000);

/** What the controller shows beside each control: the CO2 total by its zeroing, the points by their captures. */
function readingOf(code: string, readout: CalibrationReadout): { label: string; value: string } | null {
  switch (code) {
    case 'gpf1':
      return {
        label: 'CO2 total',
        value: readout.co2Total === null ? '–' : `${LITRES.format(readout.co2Total)} ${BREW_CHANNEL_UNITS.co2Total}`,
      };
    case 'gpf4':
      return { label: 'Low point', value: fixed2(readout.lowCapture) };
    case 'gpf5':
      return { label: 'High point', value: fixed2(readout.highCapture) };
    default:
      return null;
  }
}

/**
 * Calibration: the device's controls gpf-1 to gpf-7 with what its registers show (the input being
 * calibrated, the captured points, the CO2 total), the CO2 total gain (BREW_CALIB_CO2_TOTAL_GAIN) and
 * the tank level's scale and offset and the capacity, or a capacity preset (EDIT_BREW_INFO); none for
 * a monitor-only user.
 */
export function CalibrationPanel({ groupId, tank }: { groupId: string; tank: Tank }) {
  const canGain = useCan('calibrateCo2TotalGain');
  const canLevel = useCan('calibrateTankLevel');
  // The device's controls and the calibration the user would otherwise hold: why they are disabled.
  const operateRefusal = useDeviceActionRefusal('writeChannel');
  const calibrate = useBrewCall('calibrate');
  const { readout, reread } = useCalibrationReadout(tank.thingName);
  const [gain, setGain] = useState(String(tank.calibration.co2TotalGain));
  const [scale, setScale] = useState(tank.calibration.tankLevel ? String(tank.calibration.tankLevel.scale) : '');
  const [offset, setOffset] = useState(tank.calibration.tankLevel ? String(tank.calibration.tankLevel.offset) : '0');
  const [capacity, setCapacity] = useState(tank.capacity === null ? '' : String(tank.capacity));
  const number = (text: string) => (text.trim() === '' ? null : Number(text));
  const scaleValue = number(scale);
  const preset = tankCapacityPreset(
    number(capacity),
    scaleValue === null ? null : { scale: scaleValue, offset: number(offset) ?? 0 },
  );
  const choosePreset = (index: string) => {
    const chosen = TANK_CAPACITY_PRESETS[Number(index)];
    if (!chosen) return;
    const figures = capacityPresetCalibration(chosen);
    setCapacity(formField(figures.capacity));
    setScale(formField(figures.tankLevel.scale));
    setOffset('0');
  };
  const save = () => {
    const calibration: Record<string, unknown> = {};
    if (canGain) calibration.co2TotalGain = Number(gain);
    if (canLevel) {
      calibration.tankLevel = scale.trim() === '' ? null : { scale: Number(scale), offset: Number(offset || 0) };
      calibration.capacity = capacity.trim() === '' ? null : Number(capacity);
    }
    calibrate.mutate({ groupId, tankNumber: tank.tankNumber, calibration });
  };
  return (
    <section className="fl-card brew-panel" aria-label="Calibration">
      <header className="brew-panel__head">
        <h2>Calibration</h2>
        <span className="fl-muted" data-testid="calibration-input">
          Input being calibrated: {readout.inputChannel ? channelName(readout.inputChannel) : '–'}
        </span>
      </header>
      <RefusalNote reason={operateRefusal} />
      <div className="brew-calibration">
        {CALIBRATION_CONTROLS.map((control) => (
          <CalibrationControl
            key={control.code}
            tank={tank}
            code={control.code}
            label={control.label}
            reading={readingOf(control.code, readout)}
            onPressed={reread}
          />
        ))}
      </div>
      {(canGain || canLevel) && (
        <div className="brew-calibration__fields">
          {canGain && (
            <TextField
              label="CO2 total gain"
              inputMode="decimal"
              value={gain}
              onChange={(event) => setGain(event.target.value)}
            />
          )}
          {canLevel && (
            <>
              <SelectField
                label="Tank preset"
                value={preset === null ? '' : String(TANK_CAPACITY_PRESETS.indexOf(preset))}
                onChange={(event) => choosePreset(event.target.value)}
              >
                <option value="">Custom</option>
                {TANK_CAPACITY_PRESETS.map((entry, index) => (
                  <option key={entry.height} value={index}>
                    {capacityPresetLabel(entry)}
                  </option>
                ))}
              </SelectField>
              <TextField
                label="Capacity (L)"
                inputMode="decimal"
                value={capacity}
                onChange={(event) => setCapacity(event.target.value)}
              />
              <TextField
                label="Level scale (L per kPa)"
                inputMode="decimal"
                value={scale}
                onChange={(event) => setScale(event.target.value)}
              />
              <TextField
                label="Level offset (L)"
                inputMode="decimal"
                value={offset}
                onChange={(event) => setOffset(event.target.value)}
              />
            </>
          )}
          <Button variant="primary" size="sm" busy={calibrate.isPending} onClick={save}>
            Save calibration
          </Button>
        </div>
      )}
    </section>
  );
}
