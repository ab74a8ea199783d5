import type { Batch } from '@fieldlink/api/brew';
import type { DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import { batchGravity } from '@fieldlink/domain/brew';
import { alignLogs, type AlignedLogs, type AlignedValue } from '../../../components/charts/chart-series';

/**
 * The tank chart's data on one time axis, from the tank's log (`rawDeviceLogs`, domain `tankLogQuery`): temperature and setpoint as logged, the gravity estimate
 * at each point from the CO2 total, temperature and head pressure then (the domain's estimate,
 * frozen from `pressurizedAt`), and the brewer's gravity readings, joined point to point. Where the
 * tank's log has a gap (the domain's gap rule, see alignLogs), the lines break.
 */
export function tankChartLogs(answer: DeviceLogsAnswer, batch: Batch): AlignedLogs {
  const map = batch.channelsMap;
  const codes = Object.keys(answer.channels);
  const aligned = alignLogs(answer, codes);
  const line = (code: string) => aligned.series[codes.indexOf(code)]!.line;
  const readingTimes = batch.gravities.map((reading) => reading.timestamp / 1000);
  const x = [...new Set([...aligned.x, ...readingTimes])].sort((a, b) => a - b);
  const position = new Map(aligned.x.map((t, index) => [t, index]));
  const basis = {
    originalGravity: batch.props.originalGravity,
    co2TotalAtStart: batch.co2TotalAtStart,
    co2TotalGain: batch.calibration.co2TotalGain,
    tankLevelAtFermStart: batch.tankLevelAtFermStart,
    frozenGravity: null,
  };
  const last = {
    co2Total: null as number | null,
    temperature: null as number | null,
    headPressure: null as number | null,
  };
  const temperature: AlignedValue[] = [];
  const setpoint: AlignedValue[] = [];
  const gravity: AlignedValue[] = [];
  const userGravity: AlignedValue[] = [];
  const readings = new Map(batch.gravities.map((reading) => [reading.timestamp / 1000, reading.value]));
  for (const t of x) {
    const at = position.get(t);
    const value = (code: string) => (at === undefined ? undefined : line(code)[at]);
    const co2 = value(map.co2Total);
    const temp = value(map.temperature);
    const head = value(map.upperPressure);
    if (co2 != null) last.co2Total = co2;
    if (temp != null) last.temperature = temp;
    if (head != null) last.headPressure = head;
    temperature.push(at === undefined ? undefined : temp);
    setpoint.push(at === undefined ? undefined : value(map.temperatureSetpoint));
    const frozen = batch.pressurizedAt !== null && t * 1000 >= batch.pressurizedAt && batch.frozenGravity;
    // A gap in the CO2 total (the tank silent) is a gap in the estimate too, not a line across it.
    const estimate =
      co2 === null
        ? null
        : frozen
          ? batch.frozenGravity!.currentGravity
          : t * 1000 < batch.date.start || at === undefined
            ? undefined
            : batchGravity(basis, last, null).currentGravity;
    gravity.push(estimate);
    userGravity.push(readings.get(t));
  }
  return {
    x,
    series: [
      { code: 'temperature', line: temperature, band: null },
      { code: 'temperatureSetpoint', line: setpoint, band: null },
      { code: 'gravity', line: gravity, band: null },
      { code: 'userGravity', line: userGravity, band: null },
    ],
    // Gaps are null (alignLogs' gap rule); undefined is only another line's point, or between readings.
    gapsMarked: true,
  };
}
