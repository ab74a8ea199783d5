import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PALETTES } from '@fieldlink/domain/themes';
import { migrate, openStorage, type Storage } from '../db/database';
import { FileStore } from './file-store';
import { documentBrand, PdfWriter, type DocumentBrand } from './pdf-writer';

const DAY = 86_400_000;

/** The decompressed content streams of a PDF, one string. */
function pageContent(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  const parts: string[] = [];
  const start = '>>\nstream\n';
  for (let at = text.indexOf(start); at >= 0; at = text.indexOf(start, at + 1)) {
    const end = text.indexOf('\nendstream', at);
    if (end < 0) break;
    try {
      parts.push(inflateSync(pdf.subarray(at + start.length, end)).toString('latin1'));
    } catch {
      // Not a deflated stream (font data): not page content.
    }
    at = end;
  }
  return parts.join('\n');
}

/** A colour as pdfkit writes it for `scn` (fill) and `SCN` (stroke). */
const pdfColour = (hex: string) => [1, 3, 5].map((at) => String(parseInt(hex.slice(at, at + 2), 16) / 255)).join(' ');

describe('documentBrand', () => {
  it.each([
    ['bp', 'DEFAULT', 'bp', 'BP'],
    ['mosnix', 'DARK', 'mosnix', 'Mosnix'],
    [null, 'DARK', 'DARK', null],
    [null, 'DEFAULT', 'DEFAULT', null],
    ['no-such-theme', 'pfannenberg', 'pfannenberg', 'Pfannenberg'],
    ['BP', 'DEFAULT', 'bp', 'BP'],
    [null, 'unknown', 'DEFAULT', null],
  ] as const)('account theme %s with default %s wears %s', (theme, defaultTheme, worn, brandName) => {
    const brand = documentBrand({ productName: 'Fieldlink', accountName: 'Acme', theme, defaultTheme });
    const palette = PALETTES[worn];
    expect(brand).toEqual({
      productName: 'Fieldlink',
      accountName: 'Acme',
      brandName,
      band: palette.topBar,
      bandText: palette.topBarText,
      bandMuted: palette.topBarMuted,
      primary: palette.primary,
      onPrimary: palette.onPrimary,
      accent: palette.accent,
    });
  });
});

describe('PdfWriter', () => {
  let storage: Storage;
  let files: FileStore;

  beforeAll(async () => {
    storage = openStorage(':memory:');
    await migrate(storage.db);
    files = new FileStore(storage.db);
  });
  afterAll(() => storage.close());

  async function write(draw: (pdf: PdfWriter) => void): Promise<Buffer> {
    const file = await files.create('test.pdf', 'application/pdf');
    const pdf = new PdfWriter(file, {
      title: 'Test',
      author: 'Fieldlink',
      clock: { timeZone: 'UTC', hourCycle: '24', dateOrder: 'dmy' },
    });
    draw(pdf);
    await pdf.end();
    return files.readAll((await file.finish()).id);
  }

  it("draws the cover in the account's theme: band, mark and brand", async () => {
    const brand: DocumentBrand = documentBrand({
      productName: 'Fieldlink',
      accountName: 'Acme',
      theme: 'bp',
      defaultTheme: 'DEFAULT',
    });
    const content = pageContent(await write((pdf) => pdf.cover(brand, 'Monthly', 'November', [['Devices', '2']])));
    expect(content).toContain(`${pdfColour(PALETTES.bp.topBar)} scn`);
    expect(content).toContain(`${pdfColour(PALETTES.bp.primary)} scn`);
    expect(content).toContain(`${pdfColour(PALETTES.bp.accent)} scn`);
    expect(content).toContain(`${pdfColour(PALETTES.bp.onPrimary)} SCN`);
    expect(content).not.toContain(`${pdfColour(PALETTES.DEFAULT.primary)} scn`);
  });

  it('folds a month of 15-minute points into the columns a page can show, keeping the extremes', async () => {
    const brand = documentBrand({
      productName: 'Fieldlink',
      accountName: 'Acme',
      theme: null,
      defaultTheme: 'DEFAULT',
    });
    const start = Date.UTC(2026, 9, 1);
    const series = {
      t: Float64Array.from({ length: 2880 }, (_, index) => start + index * 900_000),
      min: Float64Array.from({ length: 2880 }, (_, index) => (index === 1234 ? -50 : -1)),
      mean: new Float64Array(2880),
      max: Float64Array.from({ length: 2880 }, (_, index) => (index === 2000 ? 50 : 1)),
    };
    const content = pageContent(
      await write((pdf) => {
        pdf.section('Charts');
        pdf.chart({ title: 'Tank 1', subtitle: 'c1', start, end: start + 30 * DAY, series }, brand);
      }),
    );
    const vertices = content.match(/ l\n/g)?.length ?? 0;
    // Band (top and bottom edge) and mean line: three vertices a column, 2 columns a point of a
    // 455 pt plot (2730), and a few grid lines; the points themselves would be 3 x 2880.
    expect(vertices).toBeGreaterThan(2000);
    expect(vertices).toBeLessThan(2800);
    // The band reaches both spikes: its lowest and highest y are the plot's bottom and top edge.
    const ys = [...content.matchAll(/^([\d.]+) ([\d.]+) [ml]$/gm)].map((match) => Number(match[2]));
    const span = Math.max(...ys) - Math.min(...ys);
    expect(span).toBeCloseTo(250, 0);
  });
});
