import type { AlarmConfig, AlarmRecord } from '@fieldlink/api/alarms';
import { formatChannelValue } from '@fieldlink/domain/channel-presentation';
import {
  alarmConditionText,
  alarmConfigProblem,
  defaultAlarmConfig,
  type AlarmSeverity,
  type AlarmStatus,
} from '@fieldlink/domain/alarms';
import type { BadgeTone } from '../../../components/ui/badge';

export const STATUS_LABELS: Record<AlarmStatus, string> = {
  ACTIVE_UNACKNOWLEDGED: 'Active',
  ACTIVE_ACKNOWLEDGED: 'Active, acknowledged',
  CLEARED_UNACKNOWLEDGED: 'Cleared, not acknowledged',
  CLEARED_ACKNOWLEDGED: 'Cleared',
};

export const STATUS_TONES: Record<AlarmStatus, BadgeTone> = {
  ACTIVE_UNACKNOWLEDGED: 'danger',
  ACTIVE_ACKNOWLEDGED: 'warning',
  CLEARED_UNACKNOWLEDGED: 'info',
  CLEARED_ACKNOWLEDGED: 'neutral',
};

export const SEVERITY_LABELS: Record<AlarmSeverity, string> = {
  CRITICAL: 'Critical',
  MAJOR: 'Major',
  MINOR: 'Minor',
  WARNING: 'Warning',
};

export const SEVERITY_TONES: Record<AlarmSeverity, BadgeTone> = {
  CRITICAL: 'danger',
  MAJOR: 'warning',
  MINOR: 'info',
  WARNING: 'neutral',
};

/** `31.2 °C above 30 °C`: the value that raised an alarm and the threshold it crossed, with the unit. */
export function crossingText(alarm: Pick<AlarmRecord, 'code' | 'units' | 'value' | 'side' | 'threshold'>): string {
  return `${formatChannelValue(alarm, alarm.value)} ${alarmConditionText(alarm, alarm)}`;
}

/** The channel alarm form: text fields as typed. */
export interface AlarmForm {
  enabled: boolean;
  high: string;
  low: string;
  hysteresis: string;
  delaySeconds: string;
  severity: AlarmSeverity;
}

const text = (value: number | null) => (value === null ? '' : String(value));

export function alarmFormOf(config: AlarmConfig | null, code: string): AlarmForm {
  const source = config ?? { ...defaultAlarmConfig(code), enabled: true };
  return {
    enabled: source.enabled,
    high: text(source.high),
    low: text(source.low),
    hysteresis: text(source.hysteresis),
    delaySeconds: text(source.delaySeconds),
    severity: source.severity,
  };
}

/** The form as the call's alarm, or the first problem with it (the same rule the server applies). */
export function alarmConfigOfForm(
  form: AlarmForm,
  deviceId: string,
  code: string,
): { ok: true; alarm: AlarmConfig } | { ok: false; problem: string } {
  const number = (value: string): number | null | undefined => {
    if (value.trim() === '') return null;
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  };
  const high = number(form.high);
  const low = number(form.low);
  const hysteresis = number(form.hysteresis) ?? 0;
  const delaySeconds = number(form.delaySeconds) ?? 0;
  if (high === undefined || low === undefined) return { ok: false, problem: 'Thresholds must be numbers.' };
  if (hysteresis === undefined || delaySeconds === undefined) {
    return { ok: false, problem: 'Hysteresis and delay must be numbers.' };
  }
  const alarm: AlarmConfig = {
    deviceId,
    code,
    enabled: form.enabled,
    high,
    low,
    hysteresis,
    delaySeconds,
    severity: form.severity,
  };
  const problem = alarmConfigProblem(alarm);
  return problem ? { ok: false, problem } : { ok: true, alarm };
}
