import { useState } from 'react';
import type { ChannelAlarm } from '@fieldlink/api/alarms';
import { ALARM_SEVERITIES, type AlarmSeverity } from '@fieldlink/domain/alarms';
import { useCan } from '../../../lib/session/use-can';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { AlarmIcon } from '../../../components/ui/icons';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { useDeviceAlarms } from '../api/get-device-alarms';
import { usePutDeviceAlarm } from '../api/put-device-alarm';
import { alarmConfigOfForm, alarmFormOf, crossingText, SEVERITY_LABELS, type AlarmForm } from '../model/alarm-text';
import './alarms.css';

export interface ChannelAlarmButtonProps {
  deviceId: string;
  code: string;
  /** The channel's title, for the dialog. */
  title: string;
}

/**
 * The 'Alarm' control of a dash channel: shows whether the channel has an alarm and whether it is
 * raised, and opens the channel's alarm settings. Fetch and update failures are only logged (§8).
 */
export function ChannelAlarmButton({ deviceId, code, title }: ChannelAlarmButtonProps) {
  const alarms = useDeviceAlarms(deviceId);
  const [open, setOpen] = useState(false);
  const canConfigure = useCan('configureAlarms');
  const channel = alarms.data?.alarms.find((entry) => entry.config.code === code) ?? null;
  const active = channel?.current?.clearedAt === null;
  const set = channel?.config.enabled === true;
  if (!canConfigure && !set) return null;
  const label = active ? 'In alarm' : set ? 'Alarm set' : 'Alarm';
  return (
    <>
      <button
        type="button"
        className={`channel-alarm-button${active ? ' is-active' : set ? ' is-set' : ''}`}
        aria-label={`${label}: ${title}`}
        title={active && channel?.current ? crossingText(channel.current) : set ? 'Alarm settings' : 'Set an alarm'}
        onClick={() => setOpen(true)}
      >
        <AlarmIcon size={12} /> {label}
      </button>
      {open && (
        <ChannelAlarmDialog
          deviceId={deviceId}
          code={code}
          title={title}
          channel={channel}
          readOnly={!canConfigure}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

function ChannelAlarmDialog({
  deviceId,
  code,
  title,
  channel,
  readOnly,
  onClose,
}: {
  deviceId: string;
  code: string;
  title: string;
  channel: ChannelAlarm | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const [form, setForm] = useState<AlarmForm>(() => alarmFormOf(channel?.config ?? null, code));
  const [problem, setProblem] = useState<string | null>(null);
  const save = usePutDeviceAlarm();
  const change = (patch: Partial<AlarmForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    setProblem(null);
  };
  const onSave = () => {
    const result = alarmConfigOfForm(form, deviceId, code);
    if (!result.ok) {
      setProblem(result.problem);
      return;
    }
    save.mutate({ alarm: result.alarm }, { onSuccess: onClose });
  };
  return (
    <Dialog
      title={`Alarm: ${title}`}
      description="Raised when the value stays above the high or below the low threshold for the delay; cleared once it is back past the threshold by the hysteresis."
      onClose={onClose}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            {readOnly ? 'Close' : 'Cancel'}
          </Button>
          {!readOnly && (
            <Button variant="primary" busy={save.isPending} onClick={onSave}>
              Save alarm
            </Button>
          )}
        </>
      }
    >
      <form
        className="alarm-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!readOnly) onSave();
        }}
      >
        <label className="alarms-check alarm-form__wide">
          <input
            type="checkbox"
            checked={form.enabled}
            disabled={readOnly}
            onChange={(event) => change({ enabled: event.target.checked })}
          />
          Alarm enabled
        </label>
        <TextField
          label="High threshold"
          inputMode="decimal"
          value={form.high}
          disabled={readOnly}
          placeholder="none"
          onChange={(event) => change({ high: event.target.value })}
        />
        <TextField
          label="Low threshold"
          inputMode="decimal"
          value={form.low}
          disabled={readOnly}
          placeholder="none"
          onChange={(event) => change({ low: event.target.value })}
        />
        <TextField
          label="Hysteresis"
          inputMode="decimal"
          value={form.hysteresis}
          disabled={readOnly}
          onChange={(event) => change({ hysteresis: event.target.value })}
        />
        <TextField
          label="Delay (seconds)"
          inputMode="numeric"
          value={form.delaySeconds}
          disabled={readOnly}
          onChange={(event) => change({ delaySeconds: event.target.value })}
        />
        <SelectField
          label="Severity"
          className="alarm-form__wide"
          value={form.severity}
          disabled={readOnly}
          onChange={(event) => change({ severity: event.target.value as AlarmSeverity })}
        >
          {ALARM_SEVERITIES.map((severity) => (
            <option key={severity} value={severity}>
              {SEVERITY_LABELS[severity]}
            </option>
          ))}
        </SelectField>
        {problem && (
          <p className="alarm-form__problem" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
