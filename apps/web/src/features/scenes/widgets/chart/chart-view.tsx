import { useMemo, useState } from 'react';
import type { DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import {
  axisExcursion,
  DEFAULT_CHART_RANGE_MS,
  SHARED_CHART_SCALE,
  WIDGET_CHART_RANGES,
  axisLabelWithUnits,
  chartAxisLayout,
  widgetChannelKey,
  widgetChartWindow,
  yearlyOverviewWindow,
  type ChartLogWindow,
} from '@fieldlink/domain/chart';
import { useDevicesLogs } from '../../../../lib/api/get-device-logs';
import { serverErrorMessage } from '../../../../lib/api-client';
import { realtimeStore } from '../../../../lib/realtime/realtime-store';
import {
  addLiveSample,
  dropBefore,
  isEmptyAligned,
  type AlignedLogs,
} from '../../../../components/charts/chart-series';
import { downloadCsv } from '../../../../lib/download-csv';
import { usePageClock } from '../../../../lib/page-time-zone';
import {
  LogChart,
  type ChartLiveFeed,
  type ChartMarker,
  type ChartYAxis,
} from '../../../../components/charts/log-chart';
import type { ResolvedChannel, WidgetViewProps } from '../widget-definition';
import { CsvButton, WidgetMessage, WidgetToolbar } from './chart-controls';
import { alignWidgetLogs, chartCsv, chartLines, chartMarkers, csvFileName, deviceLogRequests } from './chart-model';

/** The span shown: a preset ending now (live), or a span dragged on the chart (fixed). */
type Span = { window: ChartLogWindow; rangeMs: number | null };

function lastSpan(rangeMs: number): Span {
  const now = Date.now();
  return { window: widgetChartWindow(now - rangeMs, now, now), rangeMs };
}

function primaryColour(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--fl-primary').trim() || '#2563eb';
}

/** Heights below which parts of the widget make way for the plot. */
const LEGEND_MIN_HEIGHT = 150;
const OVERVIEW_HEIGHT = 54;

/** The answers of per-device calls by device id, once every call answered; stable while they are. */
function useAnswers(
  queries: readonly { data?: DeviceLogsAnswer | undefined; dataUpdatedAt: number }[],
  requests: readonly { deviceId: string }[],
): ReadonlyMap<string, DeviceLogsAnswer> | null {
  const key = queries
    .map((q) =>
      q.data ? `${q.data.deviceId}:${q.data.start}:${q.data.end}:${q.data.binCount}:${q.dataUpdatedAt}` : '-',
    )
    .join('|');
  const datas = queries.map((query) => query.data);
  // `key` names every answer; the arrays themselves are new on each render.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => (datas.every(Boolean) ? new Map(requests.map((r, i) => [r.deviceId, datas[i]!])) : null), [key]);
}

/**
 * A live feed over the real-time store: each channel's new latest value (the store already keeps a
 * sample only if it is not older) is appended to the drawn arrays; the window slides to now and the
 * chart redraws without a refetch or a rebuild.
 */
function liveFeed(logs: AlignedLogs, channels: readonly ResolvedChannel[], rangeMs: number): ChartLiveFeed {
  return {
    subscribe(onAppend) {
      const seen: unknown[] = [];
      const check = () => {
        const latest = realtimeStore.getState().latest;
        let newest = 0;
        channels.forEach((channel, i) => {
          const value = channel.thingName ? latest[channel.thingName]?.[channel.code] : undefined;
          if (!value || seen[i] === value) return;
          seen[i] = value;
          if (addLiveSample(logs, i, value.t / 1000, value.value)) newest = Math.max(newest, value.t);
        });
        if (newest === 0) return;
        const end = Math.max(Date.now(), newest);
        const start = end - rangeMs;
        dropBefore(logs, start / 1000);
        onAppend({ start, end });
      };
      check();
      return realtimeStore.subscribe(check);
    },
  };
}

// `channels` keeps its identity while its content does (the scene grid sees to it), so it can be a
// memo dependency as it is.
export function ChartView({ widget, channels, width, height }: WidgetViewProps) {
  const clock = usePageClock();
  const [span, setSpan] = useState<Span>(() => lastSpan(DEFAULT_CHART_RANGE_MS));
  const [hidden, setHidden] = useState<ReadonlySet<string>>(
    () => new Set(channels.filter((c) => !c.legendVisibility).map((c) => widgetChannelKey(c.deviceId, c.code))),
  );
  const [overview, setOverview] = useState(false);

  const yAxisKey = JSON.stringify(widget.yAxis);
  const layout = useMemo(
    () =>
      chartAxisLayout(
        widget.yAxis,
        channels.map((c) => widgetChannelKey(c.deviceId, c.code)),
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [yAxisKey, channels],
  );
  // An axis whose lines are all hidden makes way for the plot; each names the unit of its lines.
  const axes = useMemo<ChartYAxis[]>(() => {
    const unitsOf = new Map(channels.map((c) => [widgetChannelKey(c.deviceId, c.code), c.units || widget.units || '']));
    return layout.axes
      .filter((axis, i) => i === 0 || axis.channels.some((key) => !hidden.has(key)))
      .map((axis) => ({
        ...axis,
        label: axisLabelWithUnits(
          axis.label,
          axis.channels.map((key) => unitsOf.get(key) ?? ''),
        ),
      }));
  }, [layout, hidden, channels, widget.units]);
  const lines = useMemo(() => chartLines(channels, layout.scaleOf), [channels, layout]);
  const annotationsKey = JSON.stringify(widget.annotations);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const markers = useMemo(() => chartMarkers(widget.annotations, lines), [annotationsKey, lines]);

  const requests = useMemo(() => deviceLogRequests(channels, span.window), [channels, span.window]);
  const queries = useDevicesLogs(requests);
  const answers = useAnswers(queries, requests);
  const logs = useMemo(() => (answers ? alignWidgetLogs(channels, answers) : null), [answers, channels]);
  // A fixed axis the values leave: the lines are cut at its edge, so the chart says how far they go.
  const outside = useMemo(() => {
    if (!logs) return [];
    const ranges = new Map(layout.axes.map((axis) => [axis.scale, axis.range]));
    return lines.flatMap((line) => {
      const range = ranges.get(line.scale ?? SHARED_CHART_SCALE);
      const series = logs.series.find((s) => s.code === line.code);
      const excursion =
        range && series
          ? axisExcursion([...series.line, ...(series.band?.max ?? []), ...(series.band?.min ?? [])], range)
          : null;
      if (!excursion) return [];
      return [
        ...(excursion.above === null
          ? []
          : [`${line.label}: up to ${excursion.above}, above the axis (${range!.max})`]),
        ...(excursion.below === null
          ? []
          : [`${line.label}: down to ${excursion.below}, below the axis (${range!.min})`]),
      ];
    });
  }, [logs, lines, layout]);
  const live = useMemo(
    () => (logs && span.rangeMs !== null ? liveFeed(logs, channels, span.rangeMs) : undefined),
    [logs, channels, span.rangeMs],
  );

  const overviewWindow = useMemo(() => (overview ? yearlyOverviewWindow(Date.now()) : null), [overview]);
  const overviewRequests = useMemo(
    () => (overviewWindow ? deviceLogRequests(channels, overviewWindow) : []),
    [channels, overviewWindow],
  );
  const overviewQueries = useDevicesLogs(overviewRequests);
  const overviewAnswers = useAnswers(overviewQueries, overviewRequests);
  const overviewLogs = useMemo(
    () => (overviewAnswers && overviewRequests.length > 0 ? alignWidgetLogs(channels, overviewAnswers) : null),
    [overviewAnswers, overviewRequests, channels],
  );

  // The overview shades the span the chart shows.
  const overviewMarkers = useMemo<ChartMarker[]>(
    () => [{ kind: 'span', t: span.window.start, tEnd: span.window.end, text: '', colour: primaryColour() }],
    [span.window],
  );
  const failed = queries.find((query) => query.isError);
  const fetching = queries.some((query) => query.isFetching) || overviewQueries.some((query) => query.isFetching);
  const compact = width < 460;
  const showLegend = height >= LEGEND_MIN_HEIGHT && lines.length > 0;
  const choose = (start: number, end: number) =>
    setSpan({ window: widgetChartWindow(start, end, Date.now()), rangeMs: null });

  const toggle = (code: string) =>
    setHidden((current) => {
      const next = new Set(current);
      if (!next.delete(code)) next.add(code);
      return next;
    });

  const onCsv = () => {
    if (!logs) return;
    // A live chart has slid to now; a chosen span stays where it is.
    const now = Date.now();
    const window = span.rangeMs !== null ? { start: now - span.rangeMs, end: now } : span.window;
    downloadCsv(chartCsv(logs, lines, hidden, window), csvFileName(widget.name || 'chart', now, clock.timeZone));
  };

  let body;
  if (channels.length === 0) body = <WidgetMessage>Choose channels to chart.</WidgetMessage>;
  else if (requests.length === 0) body = <WidgetMessage>These devices are no longer available.</WidgetMessage>;
  else if (failed) body = <WidgetMessage>{serverErrorMessage(failed.error)}</WidgetMessage>;
  else if (!logs) body = <WidgetMessage>Loading logs…</WidgetMessage>;
  else
    body = (
      <>
        <LogChart
          logs={logs}
          lines={lines}
          start={span.window.start}
          end={span.window.end}
          axes={axes}
          markers={markers}
          hidden={hidden}
          live={live}
          onSelect={choose}
        />
        {isEmptyAligned(logs) && <p className="chart-widget__overlay">No logs in this window.</p>}
        {outside.length > 0 && (
          <ul className="chart-widget__outside" role="note" aria-label="Values outside the axis">
            {outside.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        )}
      </>
    );

  return (
    <div className="chart-widget" style={{ width, height }} data-testid="chart-widget">
      <WidgetToolbar
        busy={fetching}
        end={
          <>
            <button
              type="button"
              className={`chart-widget__tool${overview ? ' is-active' : ''}`}
              aria-pressed={overview}
              onClick={() => setOverview((on) => !on)}
              title="The last year in 1000 bins: drag across it to chart a span"
            >
              Year
            </button>
            <CsvButton onClick={onCsv} disabled={!logs} />
          </>
        }
      >
        {compact ? (
          <select
            className="chart-widget__range-select"
            aria-label="Time range"
            value={span.rangeMs ?? ''}
            onChange={(event) => setSpan(lastSpan(Number(event.target.value)))}
          >
            {span.rangeMs === null && <option value="">Custom</option>}
            {WIDGET_CHART_RANGES.map((range) => (
              <option key={range.label} value={range.ms}>
                {range.label}
              </option>
            ))}
          </select>
        ) : (
          <div className="chart-widget__ranges" role="group" aria-label="Time range">
            {WIDGET_CHART_RANGES.map((range) => (
              <button
                key={range.label}
                type="button"
                className={`chart-widget__range${span.rangeMs === range.ms ? ' is-active' : ''}`}
                aria-pressed={span.rangeMs === range.ms}
                onClick={() => setSpan(lastSpan(range.ms))}
              >
                {range.label}
              </button>
            ))}
          </div>
        )}
        {span.rangeMs === null && (
          <button
            type="button"
            className="chart-widget__tool"
            onClick={() => setSpan(lastSpan(DEFAULT_CHART_RANGE_MS))}
          >
            Reset
          </button>
        )}
      </WidgetToolbar>
      {showLegend && (
        <ul className="chart-widget__legend" aria-label="Legend">
          {lines.map((line) => {
            const on = !hidden.has(line.code);
            return (
              <li key={line.code}>
                <button
                  type="button"
                  className={`chart-widget__chip${on ? ' is-on' : ''}`}
                  style={{ ['--chip' as string]: line.colour }}
                  aria-pressed={on}
                  title={on ? 'Hide this line' : 'Show this line'}
                  onClick={() => toggle(line.code)}
                >
                  <span className="chart-widget__swatch" aria-hidden="true" />
                  {line.label}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="chart-widget__plot">{body}</div>
      {overview && (
        <div
          className="chart-widget__overview"
          style={{ height: OVERVIEW_HEIGHT }}
          title="Drag across the year to chart a span"
        >
          {overviewLogs && overviewWindow ? (
            <LogChart
              logs={overviewLogs}
              lines={lines}
              start={overviewWindow.start}
              end={overviewWindow.end}
              hidden={hidden}
              markers={overviewMarkers}
              compact
              onSelect={choose}
            />
          ) : (
            <WidgetMessage>Loading the year…</WidgetMessage>
          )}
        </div>
      )}
    </div>
  );
}
