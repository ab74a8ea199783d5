import { useEffect, useMemo, useReducer, useRef, useState, type RefObject } from 'react';
import { useQueries } from '@tanstack/react-query';
import type { DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import { widgetChannelKey } from '@fieldlink/domain/chart';
import { getDeviceLogs } from '../../../../lib/api/get-device-logs';
import { deviceQuery } from '../../../../lib/api/get-device';
import { serverErrorMessage } from '../../../../lib/api-client';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../../lib/page-time-zone';
import { realtimeStore } from '../../../../lib/realtime/realtime-store';
import { addLiveSample, type AlignedLogs } from '../../../../components/charts/chart-series';
import { downloadCsv } from '../../../../lib/download-csv';
import type { ResolvedChannel, WidgetViewProps } from '../widget-definition';
import { CsvButton, WidgetMessage, WidgetToolbar } from '../chart/chart-controls';
import { channelLabel, channelsByDevice, csvFileName, spansDevices } from '../chart/chart-model';
import { alignTableLogs, fetchTableLogs, rowTime, rowValue, tableCsv } from './table-model';
import './table-widget.css';

const ROW_HEIGHT = 26;
/** Rows drawn beyond the visible ones, so a fast scroll does not show blank rows. */
const OVERSCAN = 6;

const valueFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 4 });

/**
 * §3 Table widget: the logs of its channels as rows, newest first, time and one column per channel.
 * Rows come from each device's table window (§9 Table logs), are drawn only where visible, and live
 * samples are added at the top as they arrive.
 */
// `channels` keeps its identity while its content does (the scene grid sees to it).
export function TableView({ widget, channels, width, height }: WidgetViewProps) {
  const clock = usePageClock();
  const tables = useMemo(() => channelsByDevice(channels), [channels]);
  const devices = useQueries({ queries: tables.map((table) => deviceQuery(table.deviceId)) });
  const logs = useQueries({
    queries: tables.map((table, i) => {
      const device = devices[i]?.data;
      const lastConnection = device ? device.lastConnection : null;
      return {
        queryKey: ['table-logs', table.deviceId, table.codes.join(','), lastConnection],
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          fetchTableLogs(table.deviceId, table.codes, lastConnection, Date.now(), (request) =>
            getDeviceLogs(request, signal),
          ),
        enabled: Boolean(device),
        staleTime: 5 * 60_000,
      };
    }),
  });
  const answersKey = logs.map((query) => query.dataUpdatedAt).join(',');
  const aligned = useMemo(() => {
    const answers = new Map<string, DeviceLogsAnswer>();
    for (const [i, query] of logs.entries()) {
      if (!query.data) return null;
      answers.set(tables[i]!.deviceId, query.data);
    }
    return alignTableLogs(channels, answers);
    // `answersKey` names the answers; `logs` is a new array each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [answersKey, channels, tables]);

  const [, bump] = useReducer((n: number) => n + 1, 0);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);

  useEffect(() => {
    if (!aligned) return;
    const seen: unknown[] = [];
    const check = () => {
      const latest = realtimeStore.getState().latest;
      const before = aligned.x.length;
      let changed = false;
      channels.forEach((channel, i) => {
        const value = channel.thingName ? latest[channel.thingName]?.[channel.code] : undefined;
        if (!value || seen[i] === value) return;
        seen[i] = value;
        changed = addLiveSample(aligned, i, value.t / 1000, value.value) || changed;
      });
      if (!changed) return;
      // Rows added above a scrolled table keep the rows in view where they are.
      const added = aligned.x.length - before;
      const element = scroller.current;
      if (element && element.scrollTop > 0 && added > 0) element.scrollTop += added * ROW_HEIGHT;
      bump();
    };
    check();
    return realtimeStore.subscribe(check);
  }, [aligned, channels]);

  const many = spansDevices(channels);
  const labels = channels.map((channel) => channelLabel(channel, many));
  const failed = [...devices, ...logs].find((query) => query.isError);
  const fetching = logs.some((query) => query.isFetching) || devices.some((query) => query.isFetching);
  const onCsv = () =>
    aligned && downloadCsv(tableCsv(aligned, labels), csvFileName(widget.name || 'table', Date.now(), clock.timeZone));

  let body;
  if (channels.length === 0) body = <WidgetMessage>Choose channels to list.</WidgetMessage>;
  else if (tables.length === 0) body = <WidgetMessage>These devices are no longer available.</WidgetMessage>;
  else if (failed) body = <WidgetMessage>{serverErrorMessage(failed.error)}</WidgetMessage>;
  else if (!aligned) body = <WidgetMessage>Loading logs…</WidgetMessage>;
  else if (aligned.x.length === 0) body = <WidgetMessage>No logs in the last year.</WidgetMessage>;
  else
    body = (
      <Rows
        logs={aligned}
        labels={labels}
        channels={channels}
        scrollTop={scrollTop}
        viewHeight={height}
        scroller={scroller}
        onScroll={setScrollTop}
      />
    );

  const count = aligned?.x.length ?? 0;
  return (
    <div className="chart-widget table-widget" style={{ width, height }} data-testid="table-widget">
      <WidgetToolbar busy={fetching} end={<CsvButton onClick={onCsv} disabled={!aligned || count === 0} />}>
        {aligned && count > 0 && (
          <span className="table-widget__summary">
            {count.toLocaleString()} rows since {formatDateTime(rowTime(aligned, count - 1), clock)}
          </span>
        )}
      </WidgetToolbar>
      <div className="table-widget__body">{body}</div>
    </div>
  );
}

function Rows({
  logs,
  labels,
  channels,
  scrollTop,
  viewHeight,
  scroller,
  onScroll,
}: {
  logs: AlignedLogs;
  labels: readonly string[];
  channels: readonly ResolvedChannel[];
  scrollTop: number;
  viewHeight: number;
  scroller: RefObject<HTMLDivElement | null>;
  onScroll: (top: number) => void;
}) {
  const clock = usePageClock();
  const count = logs.x.length;
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + viewHeight) / ROW_HEIGHT) + OVERSCAN);
  const columns = `minmax(164px, 1.3fr) repeat(${labels.length}, minmax(84px, 1fr))`;
  const rows = [];
  for (let row = first; row < last; row += 1) {
    rows.push(
      <div
        key={rowTime(logs, row)}
        role="row"
        className="table-widget__row"
        style={{ transform: `translateY(${row * ROW_HEIGHT}px)`, gridTemplateColumns: columns }}
      >
        <span role="cell" className="table-widget__time">
          {formatDateTime(rowTime(logs, row), clock)}
        </span>
        {labels.map((_, column) => {
          const value = rowValue(logs, row, column);
          return (
            <span role="cell" key={column} className="table-widget__value">
              {value == null ? '' : valueFormat.format(value)}
            </span>
          );
        })}
      </div>,
    );
  }
  return (
    <div
      ref={scroller}
      className="table-widget__scroller"
      role="table"
      aria-rowcount={count + 1}
      onScroll={(event) => onScroll(event.currentTarget.scrollTop)}
    >
      <div role="row" className="table-widget__head" style={{ gridTemplateColumns: columns }}>
        <span role="columnheader">Time</span>
        {labels.map((label, column) => (
          <span
            role="columnheader"
            key={widgetChannelKey(channels[column]!.deviceId, channels[column]!.code)}
            className="table-widget__value"
            title={label}
          >
            {label}
          </span>
        ))}
      </div>
      <div className="table-widget__rows" role="rowgroup" style={{ height: count * ROW_HEIGHT }}>
        {rows}
      </div>
    </div>
  );
}
