import { Suspense, lazy, useMemo, useState } from 'react';
import {
  CHART_RANGES,
  DEFAULT_CHART_RANGE_MS,
  chartAxisLayout,
  chartBinCount,
  chartColour,
  clampChartWindow,
  unitAxisSettings,
} from '@fieldlink/domain/chart';
import { channelValueType, describeChannel } from '@fieldlink/domain/channel-presentation';
import { Button } from '../../../components/ui/button';
import { ChartIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { serverErrorMessage } from '../../../lib/api-client';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { useDeviceLogs } from '../../../lib/api/get-device-logs';
import { alignLogs, isEmptyLogs } from '../../../components/charts/chart-series';
import { usePageClock } from '../../../lib/page-time-zone';

// uPlot is loaded only when a chart is drawn.
const LogChart = lazy(async () => ({ default: (await import('../../../components/charts/log-chart')).LogChart }));

/** Channels a chart starts with: the first measurements (inputs, auxiliaries, temperatures). */
const DEFAULT_CHANNELS = 2;

export interface LogChartPanelProps {
  deviceId: string;
  channels: readonly { code: string; name: string | null; units: string | null }[];
}

type Span = { start: number; end: number; rangeMs: number | null };

function lastSpan(rangeMs: number): Span {
  const end = Date.now();
  return { start: end - rangeMs, end, rangeMs };
}

/**
 * Logs of the device's channels: 1 day by default, up to a year; range buttons or a span dragged
 * across the chart choose the window, and the server answers at most 2,000 bins beyond three days.
 */
export function LogChartPanel({ deviceId, channels }: LogChartPanelProps) {
  const clock = usePageClock();
  const chartable = useMemo(
    () =>
      channels
        .filter((channel) => channelValueType(channel.code, channel.units) === 'quantity')
        .map((channel) => describeChannel(channel)),
    [channels],
  );
  const [chosen, setChosen] = useState<string[] | null>(null);
  const selected = chosen ?? chartable.slice(0, DEFAULT_CHANNELS).map((channel) => channel.code);
  const [span, setSpan] = useState<Span>(() => lastSpan(DEFAULT_CHART_RANGE_MS));
  const request = useMemo(
    () =>
      selected.length === 0
        ? null
        : {
            deviceId,
            channels: selected,
            start: span.start,
            end: span.end,
            binCount: chartBinCount(span.end - span.start),
          },
    [deviceId, selected, span],
  );
  const logs = useDeviceLogs(request);
  // One y axis per unit, so switching on a totalizer does not flatten every other line.
  const { lines, axes } = useMemo(() => {
    const shown = selected.flatMap((code) => chartable.filter((channel) => channel.code === code));
    const layout = chartAxisLayout(unitAxisSettings(shown), selected);
    return {
      axes: layout.axes,
      lines: shown.map((channel) => ({
        code: channel.code,
        label: channel.title,
        units: channel.units,
        colour: chartColour(chartable.indexOf(channel)),
        scale: layout.scaleOf[channel.code],
      })),
    };
  }, [selected, chartable]);
  const aligned = useMemo(() => (logs.data ? alignLogs(logs.data, selected) : null), [logs.data, selected]);
  const binned = logs.data && Object.values(logs.data.channels).some((log) => log.kind === 'bins');

  const toggle = (code: string) =>
    setChosen((current) => {
      const list = current ?? selected;
      return list.includes(code) ? list.filter((c) => c !== code) : [...list, code];
    });

  if (chartable.length === 0) return null;
  return (
    <section className="log-chart fl-card" aria-labelledby="logs-heading">
      <header className="log-chart__head">
        <h2 id="logs-heading">
          <ChartIcon size={17} /> Logs
        </h2>
        <div className="log-chart__ranges" role="group" aria-label="Time range">
          {CHART_RANGES.map((range) => (
            <button
              key={range.label}
              type="button"
              className={`log-chart__range${span.rangeMs === range.ms ? ' is-active' : ''}`}
              aria-pressed={span.rangeMs === range.ms}
              onClick={() => setSpan(lastSpan(range.ms))}
            >
              {range.label}
            </button>
          ))}
        </div>
      </header>
      <div className="log-chart__channels" role="group" aria-label="Channels">
        {chartable.map((channel, index) => {
          const on = selected.includes(channel.code);
          return (
            <button
              key={channel.code}
              type="button"
              className={`log-chart__chip${on ? ' is-on' : ''}`}
              aria-pressed={on}
              style={{ ['--chip' as string]: chartColour(index) }}
              onClick={() => toggle(channel.code)}
            >
              <span className="log-chart__swatch" aria-hidden="true" />
              {channel.title}
              {channel.units && <span className="log-chart__chip-units">{channel.units}</span>}
            </button>
          );
        })}
      </div>
      <div className="log-chart__meta">
        <span>
          {formatDateTime(span.start, clock)} – {formatDateTime(span.end, clock)}
          {binned && logs.data && ` · ${Math.round(logs.data.binWidth / 60_000)} min bins, band shows min–max`}
        </span>
        <span className="log-chart__meta-actions">
          {logs.isFetching && <Spinner size={14} label="Loading logs" />}
          {span.rangeMs === null && (
            <Button size="sm" variant="ghost" onClick={() => setSpan(lastSpan(DEFAULT_CHART_RANGE_MS))}>
              Reset
            </Button>
          )}
        </span>
      </div>
      <div className="log-chart__body">
        {logs.isError ? (
          <p className="log-chart__empty">{serverErrorMessage(logs.error)}</p>
        ) : selected.length === 0 ? (
          <p className="log-chart__empty">Choose a channel to chart.</p>
        ) : !aligned || !logs.data ? (
          <div className="log-chart__empty">
            <Spinner size={18} />
          </div>
        ) : isEmptyLogs(logs.data) ? (
          <p className="log-chart__empty">No logs in this window.</p>
        ) : (
          <Suspense fallback={<div className="log-chart__empty" />}>
            <LogChart
              logs={aligned}
              lines={lines}
              axes={axes}
              start={logs.data.start}
              end={logs.data.end}
              height={300}
              onSelect={(from, to) => setSpan({ ...clampChartWindow(from, to, Date.now()), rangeMs: null })}
            />
          </Suspense>
        )}
      </div>
      <p className="log-chart__hint">Drag across the chart to zoom into a span.</p>
    </section>
  );
}
