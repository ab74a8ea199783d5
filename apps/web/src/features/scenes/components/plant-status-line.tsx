import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { LatestValue } from '@fieldlink/api/realtime';
import type { DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import {
  activeForText,
  flagActiveSince,
  PLANT_ALARM_LOOKBACK_MS,
  PLANT_MAIN_FIGURES,
  plantStatus,
  type ActivePlantAlarm,
  type FlagSample,
  type PlantState,
} from '@fieldlink/domain/plant-status';
import { formatWidgetNumber } from '@fieldlink/domain/widget-values';
import { useDeviceLogs } from '../../../lib/api/get-device-logs';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useStore } from '../../../lib/use-store';
import { useNow } from '../../../lib/clock';

/** An alarm flag the plant's dashboard shows: its channel code and name. */
export interface PlantAlarmChannel {
  code: string;
  name: string;
}

const NO_VALUES: Readonly<Record<string, LatestValue>> = {};
/** Bins of the alarm flags' look-back: five-minute bins over a week. */
const ALARM_LOG_BINS = 2000;
const STATE_TONES: Record<PlantState, string> = {
  Running: 'success',
  Stopped: 'muted',
  'In alarm': 'danger',
  Offline: 'warning',
};

/** A flag's log as the since rule reads it: bins by their min and max, raw samples as both. */
function flagSamples(answer: DeviceLogsAnswer | undefined, code: string): FlagSample[] {
  const log = answer?.channels[code];
  if (!log) return [];
  if (log.kind === 'raw') return log.t.map((t, i) => ({ t, min: log.value[i] ?? null, max: log.value[i] ?? null }));
  return log.t.map((t, i) => ({ t, min: log.min[i] ?? null, max: log.max[i] ?? null }));
}

/**
 * Each flag's changes seen live since the page opened (a sample whenever its value changes), so an
 * alarm raised or cleared after the look-back was read is timed from the frame that showed it.
 */
function useLiveFlagChanges(values: Readonly<Record<string, LatestValue>>, codes: readonly string[]) {
  const changes = useRef(new Map<string, FlagSample[]>());
  for (const code of codes) {
    const latest = values[code];
    if (!latest || typeof latest.value !== 'number') continue;
    const seen = changes.current.get(code) ?? [];
    const last = seen.at(-1);
    if (last && last.t >= latest.t) continue;
    if (!last || last.max !== latest.value) {
      seen.push({ t: latest.t, min: latest.value, max: latest.value });
      changes.current.set(code, seen);
    }
  }
  return changes.current;
}

/**
 * The status line a plant's dashboard opens with (issue 36 item 3): Running / Stopped / In alarm /
 * Offline, the active alarms by name with how long each has been active, the main figures, and a note
 * where the figures could seem to contradict the state.
 */
export function PlantStatusLine({
  deviceId,
  thingName,
  connected,
  hasWaterTank,
  alarmChannels,
  onActiveAlarms,
}: {
  deviceId: string;
  thingName: string;
  connected: boolean;
  hasWaterTank: boolean;
  alarmChannels: readonly PlantAlarmChannel[];
  /** Told the codes of the alarms on now, for the alarm tiles' order. */
  onActiveAlarms: (codes: ReadonlySet<string>) => void;
}) {
  const now = useNow();
  const values = useStore(realtimeStore, (s) => s.latest[thingName]) ?? NO_VALUES;
  const codes = useMemo(() => alarmChannels.map((alarm) => alarm.code), [alarmChannels]);
  // The look-back is read once per page: live changes carry it on from there.
  const [openedAt] = useState(() => Date.now());
  const logs = useDeviceLogs({
    deviceId,
    channels: codes,
    start: openedAt - PLANT_ALARM_LOOKBACK_MS,
    end: openedAt,
    binCount: ALARM_LOG_BINS,
  });
  const liveChanges = useLiveFlagChanges(values, codes);

  const active: ActivePlantAlarm[] = [];
  for (const alarm of alarmChannels) {
    if (values[alarm.code]?.value !== 1) continue;
    const samples = [...flagSamples(logs.data, alarm.code), ...(liveChanges.get(alarm.code) ?? [])];
    const since = flagActiveSince(samples);
    active.push({ ...alarm, since: since?.since ?? null, onBefore: since?.onBefore ?? false });
  }
  const number = (code: string) => {
    const value = values[code]?.value;
    return typeof value === 'number' ? value : undefined;
  };
  const status = plantStatus({
    connected,
    plantRun: number('do1'),
    flow: number('a1'),
    hasWaterTank,
    alarms: active,
  });
  const activeKey = active.map((alarm) => alarm.code).join(',');
  // Before paint: the alarm tiles reorder in the same frame as the status line says "In alarm".
  useLayoutEffect(() => {
    onActiveAlarms(new Set(activeKey ? activeKey.split(',') : []));
  }, [activeKey, onActiveAlarms]);

  const figures = PLANT_MAIN_FIGURES.filter((figure) => figure.feature !== 'waterTank' || hasWaterTank);
  const plantRun = number('do1');
  return (
    <section
      className={`plant-status plant-status--${STATE_TONES[status.state]}`}
      aria-label="Plant status"
      data-testid="plant-status"
      data-state={status.state}
    >
      <div className="plant-status__head">
        <p className="plant-status__state" role="status">
          <span className="plant-status__dot" aria-hidden="true" />
          {status.state}
        </p>
        <dl className="plant-status__figures">
          <div className="plant-status__figure">
            <dt>Plant run</dt>
            <dd>{plantRun === undefined ? '—' : plantRun === 1 ? 'On' : 'Off'}</dd>
          </div>
          {figures.map((figure) => {
            const value = number(figure.code);
            return (
              <div key={figure.code} className="plant-status__figure" data-code={figure.code}>
                <dt>{figure.label}</dt>
                <dd>
                  {value === undefined ? '—' : formatWidgetNumber(value, figure.decimals)}
                  <span className="plant-status__units"> {figure.units}</span>
                </dd>
              </div>
            );
          })}
        </dl>
      </div>
      {status.alarms.length > 0 ? (
        <ul className="plant-status__alarms" aria-label="Active alarms">
          {status.alarms.map((alarm) => (
            <li key={alarm.code} className="plant-status__alarm">
              <strong>{alarm.name}</strong>{' '}
              <span className="plant-status__since">
                {alarm.since === null ? 'active' : `active ${activeForText(alarm.since, now, alarm.onBefore)}`}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="plant-status__no-alarms">No active alarms</p>
      )}
      {status.note && <p className="plant-status__note">{status.note}</p>}
    </section>
  );
}
