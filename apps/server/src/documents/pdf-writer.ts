import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import { CUSTOMER_THEMES, themeNamed } from '@fieldlink/domain/app-variant';
import { PALETTES, THEME_LABELS } from '@fieldlink/domain/themes';
import { timeAxisLabels, type Clock } from '@fieldlink/domain/date-format';
import type { DocumentSink } from './file-store';

/** The colours and names a document's cover carries (the account's theme). */
export interface DocumentBrand {
  productName: string;
  accountName: string;
  /** The brand of a customer theme (`BP`), shown with the account; null for the console's own themes. */
  brandName: string | null;
  /** Band across the top of the cover, and the text on it. */
  band: string;
  bandText: string;
  bandMuted: string;
  /** Headings, chart lines, the mark's fill. */
  primary: string;
  /** The mark's letter on the primary fill. */
  onPrimary: string;
  /** The mark's dot, chart ranges. */
  accent: string;
}

/**
 * The brand of an account's documents: its theme (the configured default when it has none), as the
 * console's top bar wears it: the band, the mark in the theme's primary and accent, the brand's name.
 */
export function documentBrand(input: {
  productName: string;
  accountName: string;
  theme: string | null;
  defaultTheme: string;
}): DocumentBrand {
  const theme = themeNamed(input.theme) ?? themeNamed(input.defaultTheme) ?? 'DEFAULT';
  const palette = PALETTES[theme];
  return {
    productName: input.productName,
    accountName: input.accountName,
    brandName: (CUSTOMER_THEMES as readonly string[]).includes(theme) ? THEME_LABELS[theme] : null,
    // The dark themes' bands are near black on screen and in print alike; their primary reads on white.
    band: palette.topBar,
    bandText: palette.topBarText,
    bandMuted: palette.topBarMuted,
    primary: palette.primary,
    onPrimary: palette.onPrimary,
    accent: palette.accent,
  };
}

export interface TableColumn {
  header: string;
  /** Share of the text width, 0 to 1. */
  width: number;
  align?: 'left' | 'right';
}

/**
 * A chart's values as columns of one length: each interval's start (unix ms), min, mean and max.
 * Typed arrays in a report: an object per point, 2,880 a chart, was allocated straight into V8's old
 * generation (the site's objects outlived the young one's collections) and piled up there.
 */
export interface ChartSeries {
  t: ArrayLike<number>;
  min: ArrayLike<number>;
  mean: ArrayLike<number>;
  max: ArrayLike<number>;
}

/** One chart: the mean per interval as a line over the min-to-max range as a band. */
export interface ChartData {
  title: string;
  subtitle: string;
  start: number;
  end: number;
  series: ChartSeries;
}

const PAGE_MARGIN = 48;
const TEXT = '#0f172a';
const MUTED = '#64748b';
const GRID = '#e2e8f0';
const ROW_HEIGHT = 16;
/** Two charts a page. */
const CHART_HEIGHT = 320;

/** A coordinate in PDF content: a hundredth of a point is far below what print or screen shows. */
const coordinate = (value: number) => value.toFixed(2);

/** Chart columns per point of width: finer than any printer resolves a line's wobble. */
const COLUMNS_PER_POINT = 2;

/**
 * The chart's points folded into at most `columns` columns of equal time: each keeps the lowest
 * min, the highest max and the mean of its means, so the band's outline is exactly the data's and
 * the page holds no more path than it can show (a month at 15 minutes is 2880 points over 450 pt).
 */
function columnsOf(data: ChartData, columns: number): ChartSeries {
  const { series } = data;
  const { length } = series.t;
  if (length <= columns) return series;
  const width = (data.end - data.start) / Math.floor(columns);
  const folded = {
    t: new Float64Array(length),
    min: new Float64Array(length),
    mean: new Float64Array(length),
    max: new Float64Array(length),
  };
  let count = 0;
  let column = -1;
  let sum = 0;
  let summed = 0;
  for (let index = 0; index < length; index += 1) {
    const t = series.t[index]!;
    const min = series.min[index]!;
    const max = series.max[index]!;
    const at = Math.floor((t - data.start) / width);
    if (at !== column || count === 0) {
      if (count > 0) folded.mean[count - 1] = sum / summed;
      folded.t[count] = t;
      folded.min[count] = min;
      folded.max[count] = max;
      count += 1;
      column = at;
      sum = series.mean[index]!;
      summed = 1;
      continue;
    }
    if (min < folded.min[count - 1]!) folded.min[count - 1] = min;
    if (max > folded.max[count - 1]!) folded.max[count - 1] = max;
    sum += series.mean[index]!;
    summed += 1;
  }
  folded.mean[count - 1] = sum / summed;
  return {
    t: folded.t.subarray(0, count),
    min: folded.min.subarray(0, count),
    mean: folded.mean.subarray(0, count),
    max: folded.max.subarray(0, count),
  };
}

/** Round steps for an axis: 1, 2 or 5 times a power of ten, about `count` of them across the range. */
function niceTicks(min: number, max: number, count: number): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let value = Math.ceil(min / step) * step; value <= max + step / 1e6; value += step) {
    ticks.push(Math.round(value / step) * step);
  }
  return ticks;
}

function formatTick(value: number): string {
  return Math.abs(value) >= 1000 || Number.isInteger(value) ? value.toFixed(0) : String(Number(value.toPrecision(3)));
}

/**
 * A PDF document streamed into a stored file with pdfkit: vector text, tables and charts, drawn on
 * the server with no browser. Pages are written out as they fill, so memory holds about a page.
 */
export class PdfWriter {
  private readonly doc: PDFKit.PDFDocument;
  private readonly done: Promise<void>;
  /** Where the next chart goes on this page (a section's heading above the first is kept clear). */
  private nextChartTop: number | null = null;

  /** The reader's clock: the time axes are in its zone and format. */
  private readonly clock: Clock;

  constructor(file: DocumentSink, info: { title: string; author: string; clock: Clock }) {
    this.clock = info.clock;
    this.doc = new PDFDocument({
      size: 'A4',
      margin: PAGE_MARGIN,
      compress: true,
      info: { Title: info.title, Author: info.author, Creator: info.author },
    });
    const stream = file.stream();
    this.doc.pipe(stream);
    this.done = finished(stream);
  }

  private get width(): number {
    return this.doc.page.width - PAGE_MARGIN * 2;
  }

  /** The cover: the brand band with the mark, the title, and a column of facts. */
  cover(brand: DocumentBrand, title: string, subtitle: string, facts: readonly [string, string][]): void {
    const { doc } = this;
    doc.rect(0, 0, doc.page.width, 150).fill(brand.band);
    // The product mark, as in the console: a rounded square, an F, the accent dot.
    const x = PAGE_MARGIN;
    const y = 48;
    doc.roundedRect(x, y, 48, 48, 12).fill(brand.primary);
    doc
      .lineWidth(4.5)
      .lineCap('round')
      .lineJoin('round')
      .moveTo(x + 15, y + 33.75)
      .lineTo(x + 15, y + 14.25)
      .lineTo(x + 30.75, y + 14.25)
      .moveTo(x + 15, y + 24)
      .lineTo(x + 26.25, y + 24)
      .stroke(brand.onPrimary);
    doc.circle(x + 33.75, y + 32.25, 4.5).fill(brand.accent);
    doc
      .fillColor(brand.bandText)
      .font('Helvetica-Bold')
      .fontSize(20)
      .text(brand.productName, x + 64, y + 4, { lineBreak: false });
    doc
      .font('Helvetica')
      .fontSize(12)
      .fillColor(brand.bandMuted)
      .text(brand.brandName ? `${brand.accountName} · ${brand.brandName}` : brand.accountName, x + 64, y + 30, {
        lineBreak: false,
      });

    doc.fillColor(TEXT).font('Helvetica-Bold').fontSize(26).text(title, PAGE_MARGIN, 210, { width: this.width });
    doc.moveDown(0.3).font('Helvetica').fontSize(13).fillColor(MUTED).text(subtitle, { width: this.width });
    doc.moveDown(1.5);
    for (const [label, value] of facts) {
      const top = doc.y;
      doc.font('Helvetica-Bold').fontSize(10).fillColor(MUTED).text(label.toUpperCase(), PAGE_MARGIN, top, {
        width: 130,
      });
      doc
        .font('Helvetica')
        .fontSize(11)
        .fillColor(TEXT)
        .text(value, PAGE_MARGIN + 140, top, { width: this.width - 140 });
      doc.moveDown(0.6);
    }
    doc.rect(PAGE_MARGIN, doc.page.height - 60, this.width, 3).fill(brand.primary);
  }

  /** A heading on a new page. */
  section(title: string, note?: string): void {
    const { doc } = this;
    doc.addPage();
    this.nextChartTop = null;
    doc.font('Helvetica-Bold').fontSize(16).fillColor(TEXT).text(title, PAGE_MARGIN, PAGE_MARGIN);
    if (note) doc.moveDown(0.2).font('Helvetica').fontSize(9).fillColor(MUTED).text(note, { width: this.width });
    doc.moveDown(0.8);
  }

  /** A table that runs over as many pages as it needs, its header repeated on each. */
  table(columns: readonly TableColumn[], rows: readonly (readonly string[])[]): void {
    const { doc } = this;
    const widths = columns.map((column) => column.width * this.width);
    const drawRow = (cells: readonly string[], header: boolean) => {
      if (doc.y + ROW_HEIGHT > doc.page.height - PAGE_MARGIN) {
        doc.addPage();
        doc.y = PAGE_MARGIN;
        if (!header)
          drawRow(
            columns.map((column) => column.header),
            true,
          );
      }
      const top = doc.y;
      if (header) doc.rect(PAGE_MARGIN, top - 3, this.width, ROW_HEIGHT).fill('#f1f5f9');
      let x = PAGE_MARGIN;
      doc
        .font(header ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(8.5)
        .fillColor(header ? MUTED : TEXT);
      cells.forEach((cell, index) => {
        const width = widths[index] ?? 0;
        doc.text(cell, x + 3, top, {
          width: width - 6,
          align: columns[index]?.align ?? 'left',
          lineBreak: false,
          ellipsis: true,
        });
        x += width;
      });
      doc
        .moveTo(PAGE_MARGIN, top + ROW_HEIGHT - 3)
        .lineTo(PAGE_MARGIN + this.width, top + ROW_HEIGHT - 3)
        .lineWidth(0.5)
        .stroke(GRID);
      doc.y = top + ROW_HEIGHT;
    };
    drawRow(
      columns.map((column) => column.header),
      true,
    );
    for (const row of rows) drawRow(row, false);
    doc.moveDown(1);
  }

  /** A vector chart; two to a page, a page added when one is full. */
  chart(data: ChartData, brand: DocumentBrand): void {
    const { doc } = this;
    let top = this.nextChartTop ?? Math.max(PAGE_MARGIN, doc.y);
    if (top + CHART_HEIGHT > doc.page.height - PAGE_MARGIN) {
      doc.addPage();
      top = PAGE_MARGIN;
    }
    this.nextChartTop = top + CHART_HEIGHT + 24;
    doc.font('Helvetica-Bold').fontSize(11).fillColor(TEXT).text(data.title, PAGE_MARGIN, top, { lineBreak: false });
    doc
      .font('Helvetica')
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(data.subtitle, PAGE_MARGIN, top + 15, { lineBreak: false });

    const plotLeft = PAGE_MARGIN + 44;
    const plotTop = top + 36;
    const plotWidth = this.width - 44;
    const plotHeight = CHART_HEIGHT - 70;
    const points = columnsOf(data, plotWidth * COLUMNS_PER_POINT);
    const count = points.t.length;
    if (count === 0) {
      doc.rect(plotLeft, plotTop, plotWidth, plotHeight).lineWidth(0.5).stroke(GRID);
      doc
        .fontSize(10)
        .fillColor(MUTED)
        .text('No samples in the period.', plotLeft, plotTop + plotHeight / 2 - 6, {
          width: plotWidth,
          align: 'center',
        });
      return;
    }
    let low = Infinity;
    let high = -Infinity;
    for (let index = 0; index < count; index += 1) {
      if (points.min[index]! < low) low = points.min[index]!;
      if (points.max[index]! > high) high = points.max[index]!;
    }
    if (high === low) {
      high += 1;
      low -= 1;
    }
    const ticks = niceTicks(low, high, 5);
    low = Math.min(low, ticks[0] ?? low);
    high = Math.max(high, ticks[ticks.length - 1] ?? high);
    const x = (t: number) => plotLeft + ((t - data.start) / (data.end - data.start)) * plotWidth;
    const y = (value: number) => plotTop + plotHeight - ((value - low) / (high - low)) * plotHeight;

    doc.lineWidth(0.5);
    doc.font('Helvetica').fontSize(7.5).fillColor(MUTED);
    for (const tick of ticks) {
      doc
        .moveTo(plotLeft, y(tick))
        .lineTo(plotLeft + plotWidth, y(tick))
        .stroke(GRID);
      doc.fillColor(MUTED).text(formatTick(tick), PAGE_MARGIN, y(tick) - 3.5, { width: 40, align: 'right' });
    }
    const span = data.end - data.start;
    const times = [0, 1, 2, 3, 4].map((index) => data.start + (span * index) / 4);
    // The console's axis labels (domain `timeAxisLabels`): days for a long span, else times with the
    // day beneath where it changes.
    const labels = timeAxisLabels(times, this.clock);
    times.forEach((t, index) => {
      doc.fillColor(MUTED).text(labels[index]!, x(t) - 40, plotTop + plotHeight + 6, { width: 80, align: 'center' });
    });

    // The paths are written as raw content, one string each: through pdfkit's moveTo/lineTo every
    // point cost an operator object and a buffer (thousands a chart), the bulk of a report's time.
    // Range band: max left to right, then min right to left.
    const band: string[] = [];
    for (let index = 0; index < count; index += 1) {
      band.push(`${coordinate(x(points.t[index]!))} ${coordinate(y(points.max[index]!))}`);
    }
    for (let index = count - 1; index >= 0; index -= 1) {
      band.push(`${coordinate(x(points.t[index]!))} ${coordinate(y(points.min[index]!))}`);
    }
    doc.fillColor(brand.accent).fillOpacity(0.18);
    doc.addContent(`${band.join(' l\n').replace(' l\n', ' m\n')} l\nh`).fill();
    doc.fillOpacity(1);

    const line: string[] = [];
    for (let index = 0; index < count; index += 1) {
      line.push(`${coordinate(x(points.t[index]!))} ${coordinate(y(points.mean[index]!))}`);
    }
    doc.strokeColor(brand.primary).lineWidth(1.2).lineJoin('round');
    doc.addContent(`${line.join(' l\n').replace(' l\n', ' m\n')}${line.length > 1 ? ' l' : ' m'}`).stroke();
    doc.rect(plotLeft, plotTop, plotWidth, plotHeight).lineWidth(0.5).stroke('#cbd5e1');
  }

  /** Ends the document and waits until every byte is in the file. */
  async end(): Promise<void> {
    this.doc.end();
    await this.done;
  }
}
