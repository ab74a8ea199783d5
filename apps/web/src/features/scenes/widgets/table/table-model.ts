import type { ChannelLog, DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import { toCsv, type CsvValue } from '@fieldlink/domain/csv';
import { initialTableWindow, nextTableWindow, widgetChannelKey } from '@fieldlink/domain/chart';
import { MAX_BIN_COUNT } from '@fieldlink/api/device-logs';
import { alignChannelLogs, type AlignedLogs } from '../../../../components/charts/chart-series';
import type { DeviceLogsRequest } from '../../../../lib/api/get-device-logs';
import type { ResolvedChannel } from '../widget-definition';
import { csvTime } from '../chart/chart-model';

/** A table shows recorded values: a bin's last sample stands for the bin. */
export function asRecordedLog(log: ChannelLog | undefined): ChannelLog | undefined {
  if (!log || log.kind === 'raw') return log;
  return { kind: 'raw', t: log.t, value: log.last };
}

/** Points of an answer: the distinct times any channel has a sample at. */
export function answerPointCount(answer: DeviceLogsAnswer): number {
  const times = new Set<number>();
  for (const log of Object.values(answer.channels)) for (const t of log.t) times.add(t);
  return times.size;
}

/**
 * One device's table logs (§9 "Table logs"): from 12 hours before its last connection, widened
 * while under 1000 points and stepped back 60 days while empty, up to the one-year lookback.
 */
export async function fetchTableLogs(
  deviceId: string,
  codes: readonly string[],
  lastConnection: number | null,
  now: number,
  fetchLogs: (request: DeviceLogsRequest) => Promise<DeviceLogsAnswer>,
): Promise<DeviceLogsAnswer> {
  let window: { start: number; end: number } | null = initialTableWindow(lastConnection, now);
  let answer: DeviceLogsAnswer;
  do {
    answer = await fetchLogs({ deviceId, channels: codes, ...window, binCount: MAX_BIN_COUNT });
    window = nextTableWindow(window, answerPointCount(answer), now);
  } while (window);
  return answer;
}

/** The devices' table logs on one time axis, a column per widget channel, bins as their last value. */
export function alignTableLogs(
  channels: readonly ResolvedChannel[],
  answers: ReadonlyMap<string, DeviceLogsAnswer>,
): AlignedLogs {
  return alignChannelLogs(
    channels.map((channel) => ({
      key: widgetChannelKey(channel.deviceId, channel.code),
      log: asRecordedLog(answers.get(channel.deviceId)?.channels[channel.code]),
      binWidth: 1,
    })),
    false,
  );
}

/** Rows of the table, newest first: row `i` is point `x.length - 1 - i`. */
export function rowTime(logs: AlignedLogs, row: number): number {
  return Math.round(logs.x[logs.x.length - 1 - row]! * 1000);
}

export function rowValue(logs: AlignedLogs, row: number, column: number): number | null | undefined {
  return logs.series[column]?.line[logs.x.length - 1 - row];
}

/** The CSV of the table as shown: time and a column per channel, newest first. */
export function tableCsv(logs: AlignedLogs, labels: readonly string[]): string {
  const rows: CsvValue[][] = [];
  for (let row = 0; row < logs.x.length; row += 1) {
    rows.push([csvTime(rowTime(logs, row)), ...labels.map((_, column) => rowValue(logs, row, column))]);
  }
  return toCsv(['Time', ...labels], rows);
}
