import type { Kysely } from 'kysely';
import type { ReportFormat } from '@fieldlink/domain/reports';
import {
  connectedMs,
  isTotalizerChannel,
  REPORT_INTERVAL_LABELS,
  totalizerIncrease,
  uptimePercent,
  type ReportInterval,
  REPORT_INTERVAL_MS,
} from '@fieldlink/domain/reports';
import type { Database } from '../../db/schema';
import { formatInstant, formatIsoInZone, timeZoneLabel, type Clock } from '@fieldlink/domain/date-format';
import { csvLine } from '@fieldlink/domain/csv';
import { CsvWriter } from '../../documents/csv-writer';
import { DocumentError, type DocumentOutput } from '../../documents/document-jobs';
import type { DocumentSink } from '../../documents/file-store';
import { PdfWriter, type ChartSeries, type DocumentBrand } from '../../documents/pdf-writer';
import { intervalBins, lastSampleBefore, type LogBinColumns } from '../devices/log-repository';
import { alarmsInPeriod, connectionChanges } from './repository';

/** One channel of one device in a report. */
export interface PlannedChannel {
  code: string;
  name: string;
}

export interface PlannedDevice {
  id: string;
  name: string;
  thingName: string;
  channels: PlannedChannel[];
}

/** Everything a report's document is written from, resolved when generation starts. */
export interface ReportPlan {
  name: string;
  comments: string | null;
  format: ReportFormat;
  devices: PlannedDevice[];
  start: number;
  end: number;
  interval: ReportInterval;
  createdBy: string;
  brand: DocumentBrand;
  /**
   * The clock of the user who made the report (their zone and format; UTC and the specification's
   * format where they chose none): the CSV's instants are ISO 8601 in its zone, the PDF's times are
   * written in it with the zone named.
   */
  clock: Clock;
}

/** Where a report is written: a stored file, or the worker thread's port to one (report-thread.ts). */
export interface ReportOutput extends Omit<DocumentOutput, 'file'> {
  file: DocumentSink;
}

/**
 * A channel's figures per interval, as columns (the first `length` entries of each; `avg` is the
 * interval's mean): typed arrays rather than an object per interval, which the report's read-ahead
 * kept alive long enough to be promoted to V8's old generation (see docs/decisions.md, reports).
 */
interface ChannelFigures extends LogBinColumns {
  /** How much a totalizer grew in each interval; null for other channels. */
  total: Float64Array | null;
}

/** Columns of the CSV: one tidy table, one row per observation (see docs/decisions.md). */
export const REPORT_CSV_COLUMNS = [
  'record',
  'device',
  'thing_name',
  'channel',
  'channel_name',
  'start',
  'end',
  'min',
  'max',
  'mean',
  'last',
  'total',
  'value',
  'detail',
] as const;

export const NO_DATA_MESSAGE = 'No samples were logged for the chosen channels in the period.';

/** Rounds away floating-point noise (a mean of 0.1 and 0.2) while keeping every real digit. */
const tidy = (value: number) => Number(value.toPrecision(12));

/** Yields to the event loop, so a long report never holds up requests. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The figures of one channel over the plan's period, per interval. */
async function channelFigures(
  db: Kysely<Database>,
  plan: Pick<ReportPlan, 'start' | 'end' | 'interval'>,
  deviceId: string,
  code: string,
): Promise<ChannelFigures> {
  const width = REPORT_INTERVAL_MS[plan.interval];
  const bins = await intervalBins(db, { deviceId, code, start: plan.start, end: plan.end }, width);
  const total = isTotalizerChannel(code) ? new Float64Array(bins.length) : null;
  let previousLast = total ? ((await lastSampleBefore(db, deviceId, code, plan.start))?.value ?? null) : null;
  for (let at = 0; at < bins.length; at += 1) {
    const last = bins.last[at]!;
    if (total) {
      total[at] = tidy(totalizerIncrease(previousLast, last));
      previousLast = last;
    }
    bins.min[at] = tidy(bins.min[at]!);
    bins.max[at] = tidy(bins.max[at]!);
    bins.avg[at] = tidy(bins.avg[at]!);
    bins.last[at] = tidy(last);
  }
  return { ...bins, total };
}

/** Channels whose figures are read ahead of the one being written. */
const READ_AHEAD = 3;

/**
 * Each channel's figures, in the plan's order, the next few read while one is written: PostgreSQL
 * aggregates them in its own processes, on another core, meanwhile (SQLite, in this process, reads
 * them a day at a time between the writer's turns). At most {@link READ_AHEAD} channels wait in memory.
 */
async function* figuresInOrder(
  db: Kysely<Database>,
  plan: ReportPlan,
): AsyncGenerator<{ device: PlannedDevice; channel: PlannedChannel; figures: ChannelFigures }> {
  const channels = plan.devices.flatMap((device) => device.channels.map((channel) => ({ device, channel })));
  const reads = new Map<number, Promise<ChannelFigures>>();
  const read = (index: number) => {
    const item = channels[index];
    if (!item) return;
    const figures = channelFigures(db, plan, item.device.id, item.channel.code);
    // Awaited in turn below; a failure meanwhile must not surface as an unhandled rejection.
    figures.catch(() => undefined);
    reads.set(index, figures);
  };
  for (let index = 0; index < READ_AHEAD; index += 1) read(index);
  for (let index = 0; index < channels.length; index += 1) {
    const figures = await reads.get(index)!;
    reads.delete(index);
    read(index + READ_AHEAD);
    yield { ...channels[index]!, figures };
  }
}

interface DeviceSummary {
  uptime: number;
  alarms: Awaited<ReturnType<typeof alarmsInPeriod>>;
}

async function deviceSummaries(db: Kysely<Database>, plan: ReportPlan): Promise<Map<string, DeviceSummary>> {
  const alarms = await alarmsInPeriod(
    db,
    plan.devices.map((device) => device.id),
    plan.start,
    plan.end,
  );
  const summaries = new Map<string, DeviceSummary>();
  for (const device of plan.devices) {
    const { before, within } = await connectionChanges(db, device.id, plan.start, plan.end);
    const connected = connectedMs(
      before?.connected === 1,
      within.map((change) => ({ t: Number(change.t), connected: change.connected === 1 })),
      plan.start,
      plan.end,
    );
    summaries.set(device.id, {
      uptime: uptimePercent(connected, plan.start, plan.end),
      alarms: alarms.filter((alarm) => alarm.device_id === device.id),
    });
  }
  return summaries;
}

function alarmDetail(alarm: DeviceSummary['alarms'][number], iso: (t: number) => string): string {
  const side = alarm.side === 'LOW' ? '<' : '>';
  const acknowledged =
    alarm.acknowledged_at === null
      ? 'not acknowledged'
      : `acknowledged ${iso(Number(alarm.acknowledged_at))}${alarm.acknowledged_by ? ` by ${alarm.acknowledged_by}` : ''}`;
  return `${alarm.severity} ${alarm.side} ${side} ${alarm.threshold}; ${acknowledged}`;
}

/** Total work units of a plan: one per channel, and one for the devices' uptime and alarms. */
const workOf = (plan: ReportPlan) => plan.devices.reduce((sum, device) => sum + device.channels.length, 0) + 1;

/** Writes the report's CSV: interval rows per channel, then per device its uptime and its alarms. */
async function writeCsv(db: Kysely<Database>, plan: ReportPlan, output: ReportOutput): Promise<void> {
  const csv = new CsvWriter(output.file);
  const iso = (t: number) => formatIsoInZone(t, plan.clock.timeZone);
  await csv.header(REPORT_CSV_COLUMNS);
  // Every channel's intervals lie on one grid: its edges are formatted once, not on each row.
  const width = REPORT_INTERVAL_MS[plan.interval];
  const edges = Array.from({ length: Math.ceil((plan.end - plan.start) / width) + 1 }, (_, index) =>
    iso(Math.min(plan.start + index * width, plan.end)),
  );
  const work = workOf(plan);
  let done = 0;
  let samples = 0;
  for await (const { device, channel, figures } of figuresInOrder(db, plan)) {
    samples += figures.length;
    // The cells naming the channel are the same on each of its rows: formatted once.
    const prefix = csvLine(['interval', device.name, device.thingName, channel.code, channel.name]);
    const { index, min, max, avg, last, total } = figures;
    for (let at = 0; at < figures.length; at += 1) {
      const interval = index[at]!;
      const cells = csvLine([min[at]!, max[at]!, avg[at]!, last[at]!, total ? total[at]! : null, null, null]);
      await csv.line(`${prefix},${edges[interval]},${edges[interval + 1]},${cells}`);
    }
    done += 1;
    await output.progress(done / work);
    await yieldToEventLoop();
  }
  if (samples === 0) throw new DocumentError(NO_DATA_MESSAGE);
  const summaries = await deviceSummaries(db, plan);
  for (const device of plan.devices) {
    const summary = summaries.get(device.id)!;
    await csv.row([
      'uptime',
      device.name,
      device.thingName,
      null,
      null,
      iso(plan.start),
      iso(plan.end),
      null,
      null,
      null,
      null,
      null,
      summary.uptime,
      'percent of the period connected',
    ]);
    for (const alarm of summary.alarms) {
      await csv.row([
        'alarm',
        device.name,
        device.thingName,
        alarm.code,
        null,
        iso(Number(alarm.raised_at)),
        alarm.cleared_at === null ? null : iso(Number(alarm.cleared_at)),
        null,
        null,
        null,
        null,
        null,
        Number(alarm.value),
        alarmDetail(alarm, iso),
      ]);
    }
  }
  await csv.flush();
}

const formatNumber = (value: number | null) => (value === null ? '' : String(Number(value.toPrecision(6))));
/** `01/11/26 12:00 am to 01/12/26 12:00 am Europe/London (UTC+00:00)`: the zone named once. */
const formatPeriod = (start: number, end: number, clock: Clock) =>
  `${formatInstant(start, clock, 'date-time-minutes')} to ${formatInstant(end, clock, 'date-time-minutes')} ${timeZoneLabel(clock.timeZone, start)}`;

/**
 * Writes the report's PDF: a cover in the account's theme, a summary table (per channel its range,
 * mean, last value and total; per device its uptime and alarms) and one vector chart per channel.
 * Figures are read once: the summary comes first in the document but needs every channel, so each
 * channel's chart points are kept meanwhile in typed arrays (20 bytes an interval, about 11 MiB for
 * 200 channels of a month at 15 minutes) rather than read from the database a second time.
 */
async function writePdf(db: Kysely<Database>, plan: ReportPlan, output: ReportOutput): Promise<void> {
  const pdf = new PdfWriter(output.file, { title: plan.name, author: plan.brand.productName, clock: plan.clock });
  const channelCount = plan.devices.reduce((sum, device) => sum + device.channels.length, 0);
  pdf.cover(plan.brand, plan.name, formatPeriod(plan.start, plan.end, plan.clock), [
    ['Devices', String(plan.devices.length)],
    ['Channels', String(channelCount)],
    ['Interval', REPORT_INTERVAL_LABELS[plan.interval]],
    ['Made by', plan.createdBy],
    ['Generated', formatInstant(Date.now(), plan.clock, 'date-time-minutes', { nameZone: true })],
    ...(plan.comments ? ([['Comments', plan.comments]] as [string, string][]) : []),
  ]);
  const work = workOf(plan);
  const width = REPORT_INTERVAL_MS[plan.interval];
  let done = 0;
  const summaryRows: string[][] = [];
  const charts: ChartSeries[] = [];
  let samples = 0;
  for await (const { device, channel, figures } of figuresInOrder(db, plan)) {
    samples += figures.length;
    const { length } = figures;
    let min = Infinity;
    let max = -Infinity;
    let sum = 0;
    let total: number | null = null;
    for (let at = 0; at < length; at += 1) {
      min = Math.min(min, figures.min[at]!);
      max = Math.max(max, figures.max[at]!);
      sum += figures.avg[at]!;
      if (figures.total) total = (total ?? 0) + figures.total[at]!;
    }
    const empty = length === 0;
    summaryRows.push([
      device.name,
      `${channel.name} (${channel.code})`,
      empty ? '' : formatNumber(min),
      empty ? '' : formatNumber(max),
      empty ? '' : formatNumber(sum / length),
      empty ? '' : formatNumber(figures.last[length - 1]!),
      formatNumber(total),
    ]);
    const t = new Float64Array(length);
    for (let at = 0; at < length; at += 1) t[at] = plan.start + figures.index[at]! * width;
    charts.push({
      t,
      min: Float32Array.from(figures.min.subarray(0, length)),
      mean: Float32Array.from(figures.avg.subarray(0, length)),
      max: Float32Array.from(figures.max.subarray(0, length)),
    });
    done += 1;
    await output.progress(done / work);
    await yieldToEventLoop();
  }
  if (samples === 0) throw new DocumentError(NO_DATA_MESSAGE);
  pdf.section(
    'Summary',
    `Per channel over ${formatPeriod(plan.start, plan.end, plan.clock)}; mean of the interval means.`,
  );
  pdf.table(
    [
      { header: 'Device', width: 0.22 },
      { header: 'Channel', width: 0.22 },
      { header: 'Min', width: 0.11, align: 'right' },
      { header: 'Max', width: 0.11, align: 'right' },
      { header: 'Mean', width: 0.11, align: 'right' },
      { header: 'Last', width: 0.11, align: 'right' },
      { header: 'Total', width: 0.12, align: 'right' },
    ],
    summaryRows,
  );
  const summaries = await deviceSummaries(db, plan);
  pdf.table(
    [
      { header: 'Device', width: 0.4 },
      { header: 'Uptime', width: 0.2, align: 'right' },
      { header: 'Alarms raised', width: 0.2, align: 'right' },
      { header: 'Acknowledged', width: 0.2, align: 'right' },
    ],
    plan.devices.map((device) => {
      const summary = summaries.get(device.id)!;
      const raised = summary.alarms.filter((alarm) => Number(alarm.raised_at) >= plan.start);
      const acknowledged = summary.alarms.filter(
        (alarm) => alarm.acknowledged_at !== null && Number(alarm.acknowledged_at) < plan.end,
      );
      return [device.name, `${summary.uptime} %`, String(raised.length), String(acknowledged.length)];
    }),
  );
  pdf.section(
    'Charts',
    `Mean per ${REPORT_INTERVAL_LABELS[plan.interval].toLowerCase()}, shaded from min to max; times in ${timeZoneLabel(plan.clock.timeZone, plan.start)}.`,
  );
  for (const device of plan.devices) {
    for (const channel of device.channels) {
      // In the order they were read; each chart's arrays are let go once it is drawn.
      const series = charts.shift()!;
      pdf.chart(
        {
          title: `${device.name}: ${channel.name}`,
          subtitle: `${channel.code}, ${device.thingName}`,
          start: plan.start,
          end: plan.end,
          series,
        },
        plan.brand,
      );
      await yieldToEventLoop();
    }
  }
  await pdf.end();
}

/** Writes the report's document in its format. */
export function writeReportDocument(db: Kysely<Database>, plan: ReportPlan, output: ReportOutput): Promise<void> {
  return plan.format === 'PDF' ? writePdf(db, plan, output) : writeCsv(db, plan, output);
}
