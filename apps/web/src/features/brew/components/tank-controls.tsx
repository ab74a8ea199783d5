import { useState } from 'react';
import type { Tank } from '@fieldlink/api/brew';
import { BREW_SETPOINT, CALIBRATION_CONTROLS, brewSetpointProblem } from '@fieldlink/domain/brew';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { RefusalNote } from '../../../components/ui/refusal-note';
import { TextField } from '../../../components/ui/text-field';
import { useChannelWrite } from '../../../lib/realtime/use-channel-write';
import { useLatestValue } from '../../../lib/realtime/use-realtime';
import { useCan, useDeviceActionRefusal } from '../../../lib/session/use-can';
import { useBrewCall } from '../api/batch-calls';

/** The cooling setpoint: -5 to 100 °C in steps of 0.1, written to the device over the real-time channel. */
export function SetpointControl({ tank }: { tank: Tank }) {
  const code = tank.channelsMap.temperatureSetpoint;
  const latest = useLatestValue(tank.thingName, code);
  const { state, write, clear } = useChannelWrite(tank.thingName, code);
  // The domain's device action table, which the server checks for this real-time write too.
  const refusal = useDeviceActionRefusal('writeChannel');
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
          void write(Math.round(value * 10) / 10).then(() => setText(''));
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
      {(problem ?? (state.status === 'error' ? state.message : null)) && (
        <p className="brew-form__problem" role="alert">
          {problem ?? (state.status === 'error' ? state.message : '')}
        </p>
      )}
    </form>
  );
}

/** One of the device's calibration controls gpf-1 to gpf-7: a command button, a switch or the error flag. */
function CalibrationControl({ tank, code, label }: { tank: Tank; code: string; label: string }) {
  const latest = useLatestValue(tank.thingName, code);
  const { state, write } = useChannelWrite(tank.thingName, code);
  const refusal = useDeviceActionRefusal('writeChannel');
  const on = Boolean(latest && latest.value !== 0);
  if (code === 'gpf7') {
    return (
      <div className="brew-calibration__control">
        <span>{label}</span>
        <Badge tone={on ? 'danger' : 'success'}>{on ? 'Error' : 'None'}</Badge>
      </div>
    );
  }
  return (
    <div className="brew-calibration__control" title={refusal ?? undefined}>
      <span>{label}</span>
      <Button
        size="sm"
        busy={state.status === 'pending'}
        disabled={refusal !== null}
        onClick={() => void write(code === 'gpf3' ? (on ? 0 : 1) : 1)}
      >
        {code === 'gpf3'
          ? on
            ? 'Turn off'
            : 'Turn on'
          : code === 'gpf6'
            ? 'Apply'
            : code === 'gpf4' || code === 'gpf5'
              ? 'Capture'
              : 'Zero'}
      </Button>
      {state.status === 'error' && <span className="brew-form__problem">{state.message}</span>}
    </div>
  );
}

/**
 * Calibration: the device's controls gpf-1 to gpf-7, the CO2 total gain (BREW_CALIB_CO2_TOTAL_GAIN)
 * and the tank level's scale and offset and the capacity (EDIT_BREW_INFO); none for a monitor-only user.
 */
export function CalibrationPanel({ groupId, tank }: { groupId: string; tank: Tank }) {
  const canGain = useCan('calibrateCo2TotalGain');
  const canLevel = useCan('calibrateTankLevel');
  // The device's controls and the calibration the user would otherwise hold: why they are disabled.
  const operateRefusal = useDeviceActionRefusal('writeChannel');
  const calibrate = useBrewCall('calibrate');
  const [gain, setGain] = useState(String(tank.calibration.co2TotalGain));
  const [scale, setScale] = useState(tank.calibration.tankLevel ? String(tank.calibration.tankLevel.scale) : '');
  const [offset, setOffset] = useState(tank.calibration.tankLevel ? String(tank.calibration.tankLevel.offset) : '0');
  const [capacity, setCapacity] = useState(tank.capacity === null ? '' : String(tank.capacity));
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
      </header>
      <RefusalNote reason={operateRefusal} />
      <div className="brew-calibration">
        {CALIBRATION_CONTROLS.map((control) => (
          <CalibrationControl key={control.code} tank={tank} code={control.code} label={control.label} />
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
              <TextField
                label="Capacity (L)"
                inputMode="decimal"
                value={capacity}
                onChange={(event) => setCapacity(event.target.value)}
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
