import type { DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import type { Annotation } from '@fieldlink/api/scenes';
import { toCsv, type CsvValue } from '@fieldlink/domain/csv';
import { SHARED_CHART_SCALE, chartColour, widgetChannelKey } from '@fieldlink/domain/chart';
import { legendNames } from '@fieldlink/domain/chart-legend';
import { PLOT_LINE_COLOR, PLOT_LINE_WIDTH } from '@fieldlink/domain/widgets';
import type { DeviceLogsRequest } from '../../../../lib/api/get-device-logs';
import { alignChannelLogs, type AlignedLogs } from '../../../../components/charts/chart-series';
import type { ChartLine, ChartMarker } from '../../../../components/charts/log-chart';
import type { ResolvedChannel } from '../widget-definition';
import { fileDay } from '@fieldlink/domain/date-format';

/**
 * A channel as the chart and table widgets name it: by device too when they show several devices,
 * unless its name already says the device (a widget channel named after its device, "Boiler 1").
 */
export function channelLabel(channel: ResolvedChannel, manyDevices: boolean): string {
  return legendNames([{ name: channel.name, source: channel.deviceName }], manyDevices)[0]!;
}

/** True when the channels come from more than one device. */
export function spansDevices(channels: readonly ResolvedChannel[]): boolean {
  return new Set(channels.map((channel) => channel.deviceId)).size > 1;
}

/** The lines of a chart widget, keyed `{deviceId}:{code}`, coloured by position, on their axis' scale. */
export function chartLines(
  channels: readonly ResolvedChannel[],
  scaleOf: Readonly<Record<string, string>>,
): ChartLine[] {
  const labels = legendNames(
    channels.map((channel) => ({ name: channel.name, source: channel.deviceName })),
    spansDevices(channels),
  );
  return channels.map((channel, index) => {
    const code = widgetChannelKey(channel.deviceId, channel.code);
    return {
      code,
      label: labels[index]!,
      colour: chartColour(index),
      scale: scaleOf[code] ?? SHARED_CHART_SCALE,
    };
  });
}

/** The widget's channel codes per device still in the caller's tree, each once, in the widget's order. */
export function channelsByDevice(channels: readonly ResolvedChannel[]): { deviceId: string; codes: string[] }[] {
  const byDevice = new Map<string, string[]>();
  for (const channel of channels) {
    // A device gone from the caller's tree would answer 404: it is not asked.
    if (channel.thingName === null) continue;
    const codes = byDevice.get(channel.deviceId) ?? [];
    if (!codes.includes(channel.code)) codes.push(channel.code);
    byDevice.set(channel.deviceId, codes);
  }
  return [...byDevice].map(([deviceId, codes]) => ({ deviceId, codes }));
}

/** One `GET /device-logs` per device: the device's channels of the widget, in the widget's order. */
export function deviceLogRequests(
  channels: readonly ResolvedChannel[],
  window: { start: number; end: number; binCount: number },
): DeviceLogsRequest[] {
  return channelsByDevice(channels).map(({ deviceId, codes }) => ({ deviceId, channels: codes, ...window }));
}

/** The answers of the per-device calls on one time axis, a series per widget channel in order. */
export function alignWidgetLogs(
  channels: readonly ResolvedChannel[],
  answers: ReadonlyMap<string, DeviceLogsAnswer>,
): AlignedLogs {
  return alignChannelLogs(
    channels.map((channel) => {
      const answer = answers.get(channel.deviceId);
      return {
        key: widgetChannelKey(channel.deviceId, channel.code),
        log: answer?.channels[channel.code],
        binWidth: answer?.binWidth ?? 1,
      };
    }),
  );
}

/**
 * Annotations as chart markers: a plot line is a vertical line in its colour (default #CA9D43, width
 * 2); a channel annotation a marker on that channel's line, in its colour or the line's.
 */
export function chartMarkers(annotations: readonly Annotation[], lines: readonly ChartLine[]): ChartMarker[] {
  const markers: ChartMarker[] = [];
  for (const annotation of annotations) {
    if (annotation.kind === 'plotLine') {
      markers.push({
        kind: 'line',
        t: annotation.timestamp,
        text: annotation.text,
        colour: annotation.color || PLOT_LINE_COLOR,
        width: PLOT_LINE_WIDTH,
      });
      continue;
    }
    const target = annotation.channel;
    const line = target && lines.find((l) => l.code === widgetChannelKey(target.deviceId, target.code));
    if (!line) continue;
    markers.push({
      kind: 'point',
      t: annotation.timestamp,
      text: annotation.text,
      colour: annotation.color || line.colour,
      code: line.code,
    });
  }
  return markers;
}

/** Time cells of exported CSV: ISO 8601 in UTC, which every spreadsheet reads and sorts. */
export function csvTime(t: number): string {
  return new Date(t).toISOString();
}

/**
 * The CSV of what the chart shows: the points inside the window of the lines drawn (hidden lines
 * left out), oldest first; a binned line adds its band's min and max columns.
 */
export function chartCsv(
  logs: AlignedLogs,
  lines: readonly ChartLine[],
  hidden: ReadonlySet<string>,
  window: { start: number; end: number },
): string {
  const shown = logs.series.flatMap((series, i) => {
    const line = lines[i];
    return line && !hidden.has(line.code) ? [{ series, line }] : [];
  });
  const header = ['Time'];
  for (const { series, line } of shown) {
    header.push(line.label);
    if (series.band) header.push(`${line.label} min`, `${line.label} max`);
  }
  const rows: CsvValue[][] = [];
  logs.x.forEach((seconds, i) => {
    const t = Math.round(seconds * 1000);
    if (t < window.start || t > window.end) return;
    const row: CsvValue[] = [csvTime(t)];
    let any = false;
    for (const { series } of shown) {
      const value = series.line[i];
      any ||= value != null;
      row.push(value);
      if (series.band) row.push(series.band.min[i], series.band.max[i]);
    }
    if (any) rows.push(row);
  });
  return toCsv(header, rows);
}

/**
 * `chart-name-2026-11-21.csv`, in the characters a file name may hold everywhere, on the day the page's
 * clock shows at `now`.
 */
export function csvFileName(name: string, now: number, timeZone: string): string {
  const base =
    name
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'logs';
  return `${base}-${fileDay(now, timeZone)}.csv`;
}
