import { useState } from 'react';
import type { Device } from '@fieldlink/api/device';
import {
  SPRAY_PARAMETERS,
  SPRAY_SCHEDULE_COUNT,
  WEEKDAYS,
  WEEKDAY_NAMES,
  ZERO_DURATION,
  DURATION_ERROR,
  checkSprayScheduleForm,
  durationRule,
  formatSprayTime,
  packSpraySchedule,
  schedulesFromRegisters,
  sprayScheduleCode,
  sprayScheduleRegisters,
  type SprayParameter,
  type SpraySchedule,
  type SprayScheduleForm,
  type Weekday,
} from '@fieldlink/domain/spray';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { realtimeRequest } from '../../../lib/realtime/realtime-connection';
import { useStore } from '../../../lib/use-store';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useChannelWrite } from '../../../lib/realtime/use-channel-write';
import { OperateStatus } from '../../../components/operate/operate-status';
import { useConfirmedCommand } from '../../../components/operate/use-confirmed-command';
import { formatSeconds, scheduleSummary } from '../model/spray-view';
import { deviceTimeLabel, deviceTimeZone } from '@fieldlink/domain/date-format';
import { useReaderClock } from '../../../lib/page-time-zone';

/** Where a row's write stands: being written, waiting for the device's registers to show it, or failed. */
type RowState = { status: 'idle' } | { status: 'writing' } | { status: 'written'; schedule: SpraySchedule };

interface Row extends SprayScheduleForm {
  durationSeconds: string;
  /** Changed in the form: only changed rows are checked and written. */
  dirty: boolean;
  message: string | null;
  state: RowState;
}

function formOf(schedule: SpraySchedule | null, stepSeconds: number): Row {
  return {
    enabled: schedule?.enabled ?? false,
    time: schedule && schedule.minuteOfDay < 1440 ? formatSprayTime(schedule.minuteOfDay) : '',
    durationSeconds: schedule ? String(schedule.durationSteps * stepSeconds) : '',
    days: schedule?.days ?? [],
    dirty: false,
    message: null,
    state: { status: 'idle' },
  };
}

const sameSchedule = (a: SpraySchedule | null | undefined, b: SpraySchedule) =>
  a !== null &&
  a !== undefined &&
  a.enabled === b.enabled &&
  a.minuteOfDay === b.minuteOfDay &&
  a.durationSteps === b.durationSteps &&
  a.days.join() === b.days.join();

/**
 * Spray schedule editing (§2): the schedules T-1 to T-5 read from the device's registers, edited,
 * checked with §5's rules and written as their two packed registers over the real-time channel. A
 * row counts as saved only once the device's reported registers read back as written.
 */
export function ScheduleEditorDialog({
  device,
  registers,
  stepSeconds,
  canEdit,
  offline,
  onClose,
}: {
  device: Device;
  registers: Readonly<Record<string, number>>;
  stepSeconds: number | undefined;
  canEdit: boolean;
  offline: boolean;
  onClose: () => void;
}) {
  // Schedules run on the device's own clock: never converted, always labelled as the device's.
  const clock = useReaderClock();
  const deviceTime = deviceTimeLabel(deviceTimeZone(device));
  const step = stepSeconds ?? 10;
  const onDevice = schedulesFromRegisters(registers);
  const [rows, setRows] = useState<Row[]>(() => onDevice.map((schedule) => formOf(schedule, step)));
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const update = (index: number, change: Partial<Row>) =>
    setRows((current) =>
      current.map((row, at) => (at === index ? { ...row, ...change, dirty: true, message: null } : row)),
    );

  const onSave = async () => {
    setFailure(null);
    // Rows left as the sprayer holds them are neither checked nor written (an unused slot has no day).
    const checks = rows.map((row) => (row.dirty ? checkSprayScheduleForm(row, step) : null));
    setRows((current) =>
      current.map((row, index) => {
        const check = checks[index];
        return !check || check.ok ? { ...row, message: null } : { ...row, message: check.message };
      }),
    );
    if (checks.some((check) => check && !check.ok)) return;
    setSaving(true);
    try {
      for (const [index, check] of checks.entries()) {
        if (!check?.ok || sameSchedule(onDevice[index], check.schedule)) continue;
        setRows((current) => current.map((row, at) => (at === index ? { ...row, state: { status: 'writing' } } : row)));
        const address = sprayScheduleRegisters(index);
        const packed = packSpraySchedule(check.schedule);
        await realtimeRequest({
          type: 'server/writeRegister',
          thingName: device.thingName,
          register: address.time,
          value: packed.time,
        });
        await realtimeRequest({
          type: 'server/writeRegister',
          thingName: device.thingName,
          register: address.days,
          value: packed.days,
        });
        setRows((current) =>
          current.map((row, at) =>
            at === index ? { ...row, dirty: false, state: { status: 'written', schedule: check.schedule } } : row,
          ),
        );
      }
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
      setRows((current) =>
        current.map((row) => (row.state.status === 'writing' ? { ...row, state: { status: 'idle' } } : row)),
      );
    } finally {
      setSaving(false);
    }
  };

  const rowStatus = (row: Row, index: number): string | null => {
    if (row.state.status === 'writing') return 'Writing to the device…';
    if (row.state.status === 'written') {
      return sameSchedule(onDevice[index], row.state.schedule)
        ? 'Saved: the device reports it.'
        : 'Written; waiting for the device to report its registers…';
    }
    return null;
  };

  return (
    <Dialog
      title={`Spray schedules · ${device.name}`}
      description={
        offline
          ? 'The sprayer is offline: its schedules are shown as it last reported them.'
          : 'Read from the sprayer’s registers. Saved schedules are written to it and read back.'
      }
      size="lg"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Done</Button>
          {canEdit && (
            <Button variant="primary" busy={saving} onClick={() => void onSave()}>
              Save to sprayer
            </Button>
          )}
        </>
      }
    >
      <div className="spray-editor">
        {failure && <InlineAlert tone="error">{failure}</InlineAlert>}
        <p className="fl-muted spray-editor__hint">
          Durations are whole steps of {step} s (SP-1), 1 to 15 steps. Days run Sunday to Saturday.
        </p>
        <ol className="spray-editor__rows">
          {rows.slice(0, SPRAY_SCHEDULE_COUNT).map((row, index) => {
            const code = sprayScheduleCode(index);
            const seconds = Number(row.durationSeconds);
            const steps =
              Number.isFinite(seconds) && row.durationSeconds.trim() !== '' ? Math.floor(seconds / step) : null;
            const status = rowStatus(row, index);
            const rule =
              row.message === ZERO_DURATION || row.message === DURATION_ERROR
                ? durationRule(row.durationSeconds, step)
                : null;
            return (
              <li key={code} className="spray-editor__row" data-testid={`schedule-${code}`}>
                <div className="spray-editor__code">
                  <strong>{code}</strong>
                  <label className="spray-editor__enabled">
                    <input
                      type="checkbox"
                      checked={row.enabled}
                      disabled={!canEdit}
                      onChange={(event) => update(index, { enabled: event.target.checked })}
                    />
                    Enabled
                  </label>
                </div>
                <label className="fl-field spray-editor__time">
                  <span className="fl-field__label">Time, {deviceTime}</span>
                  <input
                    className="fl-input"
                    type="time"
                    value={row.time}
                    disabled={!canEdit}
                    aria-label={`${code} time`}
                    onChange={(event) => update(index, { time: event.target.value })}
                  />
                </label>
                <label className="fl-field spray-editor__duration">
                  <span className="fl-field__label">Duration per zone (s)</span>
                  <input
                    className="fl-input"
                    type="number"
                    min={0}
                    step={step}
                    value={row.durationSeconds}
                    disabled={!canEdit}
                    aria-label={`${code} duration`}
                    aria-describedby={rule ? `${code}-duration-rule` : undefined}
                    onChange={(event) => update(index, { durationSeconds: event.target.value })}
                  />
                  <span className="fl-field__hint">
                    {steps !== null && steps >= 1 && steps <= 15
                      ? `${steps} ${steps === 1 ? 'step' : 'steps'} · ${formatSeconds(steps * step)}`
                      : ' '}
                  </span>
                </label>
                <fieldset className="spray-editor__days" disabled={!canEdit}>
                  <legend className="fl-field__label">Days</legend>
                  {WEEKDAYS.map((day) => {
                    const on = row.days.includes(day);
                    return (
                      <button
                        key={day}
                        type="button"
                        className={`spray-day${on ? ' is-on' : ''}`}
                        aria-pressed={on}
                        aria-label={`${code} ${WEEKDAY_NAMES[day]}`}
                        title={WEEKDAY_NAMES[day]}
                        onClick={() =>
                          update(index, {
                            days: on ? row.days.filter((d) => d !== day) : ([...row.days, day] as Weekday[]),
                          })
                        }
                      >
                        {WEEKDAY_NAMES[day].slice(0, 2)}
                      </button>
                    );
                  })}
                </fieldset>
                <div className="spray-editor__device" data-testid={`device-${code}`}>
                  <span className="fl-muted">On the sprayer ({deviceTime}):</span>{' '}
                  {scheduleSummary(onDevice[index] ?? null, step, clock)}
                </div>
                {row.message && (
                  <div className="spray-editor__message" role="alert">
                    {row.message}
                  </div>
                )}
                {/* §5's message is kept word for word; the rule behind it is said beside it. */}
                {rule && (
                  <div className="spray-editor__rule" id={`${code}-duration-rule`}>
                    {rule}
                  </div>
                )}
                {status && <div className="spray-editor__status">{status}</div>}
              </li>
            );
          })}
        </ol>
        <h3 className="spray-editor__heading">Spray parameters</h3>
        <ul className="spray-params">
          {SPRAY_PARAMETERS.map((parameter) => (
            <ParameterRow
              key={parameter.code}
              thingName={device.thingName}
              deviceName={device.name}
              parameter={parameter}
              canEdit={canEdit}
            />
          ))}
        </ul>
      </div>
    </Dialog>
  );
}

/** One of SP-1, SP-2, SP-4..SP-7, GPF-9, GPF-11: its value on the device and a way to set it. */
function ParameterRow({
  thingName,
  deviceName,
  parameter,
  canEdit,
}: {
  thingName: string;
  deviceName: string;
  parameter: SprayParameter;
  canEdit: boolean;
}) {
  const current = useStore(realtimeStore, (s) => s.latest[thingName]?.[parameter.channel]?.value);
  const write = useChannelWrite(thingName, parameter.channel);
  // A parameter is a setpoint or flag of the unit: confirmed first, as every command (issue 36 item 1).
  const { ask, dialog } = useConfirmedCommand();
  const [draft, setDraft] = useState<string | null>(null);
  const isFlag = parameter.max === 1 && parameter.min === 0 && parameter.unit === '';
  const shown = current === undefined ? '—' : isFlag ? (current === 1 ? 'On' : 'Off') : `${current} ${parameter.unit}`;
  const pending = write.state.status === 'pending';
  const draftNumber = draft === null ? Number.NaN : Number(draft);
  const valid = draft !== null && draft.trim() !== '' && draftNumber >= parameter.min && draftNumber <= parameter.max;
  return (
    <li className="spray-param" data-testid={`param-${parameter.code}`}>
      <div className="spray-param__name">
        <strong>{parameter.code}</strong> {parameter.name}
        <div className="fl-muted spray-param__help">{parameter.help}</div>
      </div>
      <div className="spray-param__value">{shown}</div>
      {canEdit && (
        <div className="spray-param__edit">
          {isFlag ? (
            <Button
              size="sm"
              busy={pending}
              onClick={() =>
                ask({
                  action: current === 1 ? 'Turn off' : 'Turn on',
                  device: deviceName,
                  output: parameter.name,
                  code: parameter.code,
                  now: shown,
                  after: current === 1 ? 'Off' : 'On',
                  send: () => void write.write(current === 1 ? 0 : 1),
                })
              }
            >
              Turn {current === 1 ? 'off' : 'on'}
            </Button>
          ) : (
            <>
              <input
                className="fl-input spray-param__input"
                type="number"
                min={parameter.min}
                max={parameter.max}
                step={parameter.step}
                aria-label={`${parameter.code} ${parameter.name}`}
                placeholder={current === undefined ? '' : String(current)}
                value={draft ?? ''}
                onChange={(event) => setDraft(event.target.value)}
              />
              <Button
                size="sm"
                busy={pending}
                disabled={!valid}
                onClick={() =>
                  ask({
                    action: 'Change setpoint',
                    device: deviceName,
                    output: parameter.name,
                    code: parameter.code,
                    now: shown,
                    after: `${draftNumber} ${parameter.unit}`.trim(),
                    send: () => void write.write(draftNumber).then(() => setDraft(null)),
                  })
                }
              >
                Set
              </Button>
            </>
          )}
        </div>
      )}
      <OperateStatus
        progress={pending ? 'sending' : write.state.status === 'done' ? 'done' : null}
        className="spray-param__status"
      />
      {write.state.status === 'error' && <div className="spray-editor__message">{write.state.message}</div>}
      {dialog}
      {draft !== null && draft.trim() !== '' && !valid && (
        <div className="spray-editor__message">
          {parameter.min} to {parameter.max} {parameter.unit}
        </div>
      )}
    </li>
  );
}
