import { CSV_LINE_END, csvLine, type CsvValue } from '@fieldlink/domain/csv';
import type { DocumentSink } from './file-store';

/** Lines are gathered up to this many characters before they go to the file. */
const BATCH_CHARS = 64 * 1024;

/**
 * A CSV document written line by line into a stored file: UTF-8 with a byte-order mark (so
 * spreadsheets read it as UTF-8), one header row, CRLF line ends, every cell through the domain's
 * formula-injection guard (`@fieldlink/domain/csv`).
 */
export class CsvWriter {
  private batch = '';

  constructor(private readonly file: DocumentSink) {}

  async header(columns: readonly string[]): Promise<void> {
    this.batch += '\uFEFF';
    await this.row(columns);
  }

  async row(values: readonly CsvValue[]): Promise<void> {
    await this.line(csvLine(values));
  }

  /** A line already made of `csvLine` cells (a writer that formats a repeated part once). */
  async line(text: string): Promise<void> {
    this.batch += text + CSV_LINE_END;
    if (this.batch.length >= BATCH_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.batch === '') return;
    const text = this.batch;
    this.batch = '';
    await this.file.write(text);
  }
}
