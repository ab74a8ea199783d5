import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import type { Kysely } from 'kysely';
import {
  AVERAGED_RATINGS,
  BREW_LOG_SECONDS,
  TASTING_RATINGS,
  batchAbv,
  brewLogWindow,
  estimateGravity,
  formatAbv,
  formatGravity,
  tankStateLabel,
  tastingAverages,
  tastingScore,
  type ChannelsMap,
} from '@fieldlink/domain/brew';
import type { Batch } from '@fieldlink/api/brew';
import type { BrewBatchesTable, Database } from '../../db/schema';
import { DocumentError } from '../../documents/document-jobs';
import type { FileWriter } from '../../documents/file-store';
import { documentBrand, type DocumentBrand } from '../../documents/pdf-writer';
import { formatTastingDate, timeZoneLabel, type Clock } from '@fieldlink/domain/date-format';
import { userClock } from '../users/reader-clock';
import { binnedLogs } from '../devices/log-repository';
import { findDeviceById } from '../devices/repository';
import { batchProps, toBatch } from './mapper';
import { batchItemsOf, findBatch } from './repository';

/** The message of a report that waits for the brewer (AWAITING_USER). */
export const REPORT_NEEDS_ORIGINAL_GRAVITY = 'Enter the batch’s original gravity to complete the report.';
export const REPORT_BATCH_GONE = 'The batch no longer exists.';

const CHART_BINS = 240;
const MARGIN = 50;
const INK = '#1f2933';
const MUTED = '#6b7280';
const GRAVITY_COLOR = '#2f6fde';

interface ChartSeries {
  t: number[];
  temperature: (number | null)[];
  gravity: (number | null)[];
}

/** The file name of a batch's report: the beer's name and the batch's start date, `.pdf`. */
export function batchReportFileName(row: Pick<BrewBatchesTable, 'props' | 'start_at'>): string {
  const name =
    batchProps(row)
      .beerName.replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-|-$/g, '') || 'batch';
  return `${name}-${new Date(row.start_at).toISOString().slice(0, 10)}.pdf`;
}

/**
 * Writes batch reports for the document runner (`documents/document-jobs.ts`): a PDF with the batch,
 * its figures, a chart of temperature and estimated gravity, the state transitions, gravity
 * readings, tasting notes and annotations, in the account's theme, streamed into a stored file. A
 * batch without an original gravity cannot give an ABV: the service keeps its report waiting for the
 * brewer (AWAITING_USER) rather than writing it.
 */
export class BrewReportWriter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly brand: { productName: string; defaultTheme: string },
  ) {}

  /**
   * Writes the report of the batch into `file`, its times in the clock of the user who asked for it (by e-mail)
   * (the brewery tank's zone where they chose none); a {@link DocumentError} says why it cannot be.
   */
  async write(batchId: string, requestedBy: string | null, file: FileWriter): Promise<void> {
    const row = await findBatch(this.db, batchId);
    const device = row ? await findDeviceById(this.db, row.device_id) : undefined;
    if (!row || !device) throw new DocumentError(REPORT_BATCH_GONE);
    const batch = toBatch(row, await batchItemsOf(this.db, [row.id]));
    if (batch.props.originalGravity === null) throw new DocumentError(REPORT_NEEDS_ORIGINAL_GRAVITY);
    const account = await this.db
      .selectFrom('accounts')
      .select(['name', 'theme'])
      .where('id', '=', device.account_id)
      .executeTakeFirst();
    const brand = documentBrand({
      productName: this.brand.productName,
      accountName: account?.name ?? '',
      theme: account?.theme ?? null,
      defaultTheme: this.brand.defaultTheme,
    });
    const clock = await userClock(this.db, requestedBy === null ? null : { email: requestedBy }, device);
    await this.pdf(batch, device.name, await this.series(batch), brand, clock, file);
  }

  /** Temperature and estimated gravity over the batch's log window, in bins. */
  private async series(batch: Batch): Promise<ChartSeries> {
    const window = brewLogWindow(batch.date.start, batch.date.end ?? Date.now());
    const binWidth = Math.max(60_000, Math.ceil((window.end - window.start) / CHART_BINS));
    const bins = Math.ceil((window.end - window.start) / binWidth);
    const map: ChannelsMap = batch.channelsMap;
    const read = async (code: string) =>
      new Map(
        (await binnedLogs(this.db, { deviceId: batch.deviceId, code, ...window }, binWidth, bins)).map((bin) => [
          bin.index,
          bin,
        ]),
      );
    const [temperature, co2Total, upper] = await Promise.all([
      read(map.temperature),
      read(map.co2Total),
      read(map.upperPressure),
    ]);
    const series: ChartSeries = { t: [], temperature: [], gravity: [] };
    for (let index = 0; index < bins; index += 1) {
      const t = window.start + index * binWidth;
      const frozen = batch.pressurizedAt !== null && t >= batch.pressurizedAt && batch.frozenGravity;
      const estimate = frozen
        ? batch.frozenGravity!.currentGravity
        : t < batch.date.start
          ? null
          : estimateGravity({
              originalGravity: batch.props.originalGravity,
              co2TotalAtStart: batch.co2TotalAtStart,
              co2Total: co2Total.get(index)?.last ?? null,
              co2TotalGain: batch.calibration.co2TotalGain,
              tankLevel: batch.tankLevelAtFermStart,
              temperature: temperature.get(index)?.avg ?? null,
              headPressure: upper.get(index)?.avg ?? null,
            }).currentGravity;
      series.t.push(t);
      series.temperature.push(temperature.get(index)?.avg ?? null);
      series.gravity.push(estimate);
    }
    return series;
  }

  private async pdf(
    batch: Batch,
    tankName: string,
    series: ChartSeries,
    brand: DocumentBrand,
    clock: Clock,
    file: FileWriter,
  ): Promise<void> {
    const when = (t: number) => formatTastingDate(t, clock);
    const doc = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      compress: true,
      info: { Title: `Batch report: ${batch.props.beerName}`, Author: brand.productName },
    });
    const stream = file.stream();
    doc.pipe(stream);
    const width = doc.page.width - 2 * MARGIN;

    // The account's band across the top, with the product and the account as in the console.
    doc.rect(0, 0, doc.page.width, 36).fill(brand.band);
    doc.circle(MARGIN + 6, 18, 5).fill(brand.accent);
    const account = brand.brandName ? `${brand.accountName} · ${brand.brandName}` : brand.accountName;
    doc
      .fillColor(brand.bandText)
      .fontSize(10)
      .text(`${brand.productName} · ${account}`, MARGIN + 18, 13, { lineBreak: false });
    doc
      .fillColor(brand.bandMuted)
      .fontSize(9)
      .text('Batch report', MARGIN, 13, { width, align: 'right', lineBreak: false });
    doc.x = MARGIN;
    doc.y = 60;
    doc.moveDown(0.5).fillColor(INK).fontSize(22).text(batch.props.beerName);
    if (batch.props.style) doc.fontSize(12).fillColor(MUTED).text(batch.props.style);
    doc.moveDown(0.8);

    const og = batch.props.originalGravity!;
    const lastReading = batch.gravities.at(-1)?.value ?? null;
    const estimated = batch.frozenGravity?.currentGravity ?? lastNumber(series.gravity);
    // The ABV the tank card and view show too (domain `batchAbv`): the latest reading, else the estimate.
    const alcohol = batchAbv(og, batch.gravities, estimated);
    const finalGravity = alcohol?.gravity ?? null;
    const days = ((batch.date.end ?? Date.now()) - batch.date.start) / 86_400_000;
    const figures: [string, string][] = [
      ['Tank', tankName],
      ['Started', when(batch.date.start)],
      ['Ended', batch.date.end === null ? 'Running' : when(batch.date.end)],
      ['Days', days.toFixed(1)],
      // The report is read away from the console: its times' zone is named once, here.
      ['Times in', timeZoneLabel(clock.timeZone, batch.date.start)],
      ['Original gravity', formatGravity(og)],
      ['Target gravity', formatGravity(batch.props.targetGravity)],
      ['Final gravity (reading)', formatGravity(lastReading)],
      ['Final gravity (estimate)', formatGravity(estimated)],
      ['ABV', formatAbv(alcohol)],
      [
        'Apparent attenuation',
        finalGravity === null || og <= 1 ? '–' : `${(((og - finalGravity) / (og - 1)) * 100).toFixed(1)} %`,
      ],
    ];
    this.table(doc, figures, width);

    doc.moveDown(1);
    this.heading(doc, brand.primary, 'Temperature and estimated gravity');
    this.chart(doc, series, width, 170, brand.primary);

    doc.moveDown(1);
    this.heading(doc, brand.primary, 'States');
    this.table(
      doc,
      batch.transitions.map((transition) => [when(transition.timestamp), tankStateLabel(transition.state)]),
      width,
    );

    doc.moveDown(1);
    this.heading(doc, brand.primary, 'Gravity readings');
    if (batch.gravities.length === 0) doc.fontSize(10).fillColor(MUTED).text('No readings were taken.');
    else {
      this.table(
        doc,
        batch.gravities.map((reading) => [
          when(reading.timestamp),
          `${formatGravity(reading.value)}${reading.createdBy ? `  (${reading.createdBy})` : ''}`,
        ]),
        width,
      );
    }

    doc.moveDown(1);
    this.heading(doc, brand.primary, 'Tasting notes');
    const averages = tastingAverages(batch.sensories);
    if (!averages) doc.fontSize(10).fillColor(MUTED).text('No tasting notes.');
    else {
      this.table(
        doc,
        [
          ...AVERAGED_RATINGS.map((rating): [string, string] => [`Average ${rating}`, averages[rating].toFixed(1)]),
          ['Average score', averages.score.toFixed(1)],
        ],
        width,
      );
      for (const note of batch.sensories) {
        doc.moveDown(0.5).fontSize(10).fillColor(INK);
        doc.text(`${when(note.timestamp)} · score ${tastingScore(note).toFixed(1)}`);
        doc
          .fillColor(MUTED)
          .fontSize(9)
          .text(TASTING_RATINGS.map((rating) => `${rating} ${note[rating]}`).join(' · '));
        if (note.notes) doc.fillColor(INK).text(note.notes, { width });
      }
    }

    const annotations = batch.annotations.filter((annotation) => annotation.sensoryId === null);
    if (annotations.length > 0) {
      doc.moveDown(1);
      this.heading(doc, brand.primary, 'Annotations');
      this.table(
        doc,
        annotations.map((annotation) => [when(annotation.timestamp), annotation.text]),
        width,
      );
    }
    if (batch.props.notes) {
      doc.moveDown(1);
      this.heading(doc, brand.primary, 'Notes');
      doc.fontSize(10).fillColor(INK).text(batch.props.notes, { width });
    }
    doc.end();
    await finished(stream);
  }

  private heading(doc: PDFKit.PDFDocument, colour: string, text: string): void {
    if (doc.y > doc.page.height - 160) doc.addPage();
    doc.fontSize(13).fillColor(colour).text(text, MARGIN);
    doc.moveDown(0.3);
  }

  private table(doc: PDFKit.PDFDocument, rows: readonly (readonly [string, string])[], width: number): void {
    doc.fontSize(10);
    for (const [label, value] of rows) {
      if (doc.y > doc.page.height - 80) doc.addPage();
      const y = doc.y;
      doc.fillColor(MUTED).text(label, MARGIN, y, { width: width * 0.4 });
      const labelBottom = doc.y;
      doc.fillColor(INK).text(value, MARGIN + width * 0.4, y, { width: width * 0.6 });
      doc.y = Math.max(labelBottom, doc.y) + 2;
    }
    doc.x = MARGIN;
  }

  /** Two lines on one time axis: temperature (left scale, in `colour`) and gravity (right scale). */
  private chart(doc: PDFKit.PDFDocument, series: ChartSeries, width: number, height: number, colour: string): void {
    if (doc.y > doc.page.height - height - 80) doc.addPage();
    const top = doc.y;
    const left = MARGIN + 34;
    const plotWidth = width - 74;
    doc.rect(left, top, plotWidth, height).lineWidth(0.5).strokeColor('#d1d5db').stroke();
    const start = series.t[0] ?? 0;
    const span = Math.max(1, (series.t.at(-1) ?? start) - start);
    const x = (t: number) => left + ((t - start) / span) * plotWidth;
    const line = (values: (number | null)[], color: string, axis: 'left' | 'right', digits: number) => {
      const present = values.filter((value): value is number => value !== null);
      if (present.length === 0) return;
      let min = Math.min(...present);
      let max = Math.max(...present);
      if (max - min < 1e-6) [min, max] = [min - 1, max + 1];
      const y = (value: number) => top + height - ((value - min) / (max - min)) * height;
      doc.lineWidth(1.2).strokeColor(color);
      let drawing = false;
      values.forEach((value, index) => {
        if (value === null) {
          drawing = false;
          return;
        }
        if (drawing) doc.lineTo(x(series.t[index]!), y(value));
        else doc.moveTo(x(series.t[index]!), y(value));
        drawing = true;
      });
      doc.stroke();
      doc.fontSize(7).fillColor(color);
      const labelX = axis === 'left' ? MARGIN : left + plotWidth + 3;
      doc.text(max.toFixed(digits), labelX, top - 3, { width: 34, lineBreak: false });
      doc.text(min.toFixed(digits), labelX, top + height - 6, { width: 34, lineBreak: false });
    };
    line(series.temperature, colour, 'left', 1);
    line(series.gravity, GRAVITY_COLOR, 'right', 3);
    doc.fontSize(8).fillColor(MUTED);
    const days = Math.ceil(span / 86_400_000);
    for (let day = 0; day <= Math.min(days, BREW_LOG_SECONDS / 86_400); day += 1) {
      const t = start + day * 86_400_000;
      if (t > start + span) break;
      doc.text(`day ${day}`, x(t) - 12, top + height + 4, { width: 40, lineBreak: false });
    }
    doc.fillColor(colour).text('— temperature °C', MARGIN, top + height + 18, { continued: true, lineBreak: false });
    doc.fillColor(GRAVITY_COLOR).text('    — estimated gravity', { lineBreak: false });
    doc.x = MARGIN;
    doc.y = top + height + 34;
  }
}

function lastNumber(values: readonly (number | null)[]): number | null {
  for (let index = values.length - 1; index >= 0; index -= 1) if (values[index] !== null) return values[index]!;
  return null;
}
