import { CSV_LINE_END, csvLine, type CsvValue } from '@fieldlink/domain/csv';
import type { DocumentSink } from './file-store';

/** Lines are gathered in a buffer of this many bytes before they go to the file. */
const BATCH_BYTES = 64 * 1024;
/** The most UTF-8 bytes one UTF-16 code unit of a JavaScript string takes. */
const MAX_UTF8_BYTES_PER_UNIT = 3;

/**
 * A CSV document written line by line into a stored file: UTF-8 with a byte-order mark (so
 * spreadsheets read it as UTF-8), one header row, CRLF line ends, every cell through the domain's
 * formula-injection guard (`@fieldlink/domain/csv`). Each line is encoded into a byte buffer at once,
 * so its text is garbage before the next line is made: a batch kept as a growing string lived long
 * enough to be promoted to V8's old generation, line after line (see docs/decisions.md, reports).
 */
export class CsvWriter {
  private batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
  private used = 0;

  constructor(private readonly file: DocumentSink) {}

  async header(columns: readonly string[]): Promise<void> {
    await this.line(`\uFEFF${csvLine(columns)}`);
  }

  async row(values: readonly CsvValue[]): Promise<void> {
    await this.line(csvLine(values));
  }

  /** A line already made of `csvLine` cells (a writer that formats a repeated part once). */
  async line(text: string): Promise<void> {
    const most = (text.length + CSV_LINE_END.length) * MAX_UTF8_BYTES_PER_UNIT;
    if (this.used + most > BATCH_BYTES) await this.flush();
    if (most > BATCH_BYTES) {
      await this.file.write(text + CSV_LINE_END);
      return;
    }
    this.used += this.batch.write(text, this.used, 'utf8');
    this.used += this.batch.write(CSV_LINE_END, this.used, 'latin1');
  }

  /** Hands the gathered bytes to the file (which keeps them) and starts a new buffer. */
  async flush(): Promise<void> {
    if (this.used === 0) return;
    const bytes = this.batch.subarray(0, this.used);
    this.batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
    this.used = 0;
    await this.file.write(bytes);
  }
}
