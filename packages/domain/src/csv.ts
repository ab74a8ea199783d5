/**
 * CSV export (RFC 4180) with formula-injection neutralised (SECURITY.md 19; OWASP "CSV Injection"):
 * a spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` as a formula, and tab or carriage
 * return can smuggle one past a naive check, and so can their full-width forms (`＝`). Such text cells get a leading apostrophe, which
 * spreadsheets show as text and do not display.
 */

/** First characters that make a spreadsheet read a cell as a formula. */
export const FORMULA_TRIGGERS = ['=', '+', '-', '@', '\t', '\r'] as const;

/** Line end of RFC 4180. */
export const CSV_LINE_END = '\r\n';

/** A value a cell can hold. */
export type CsvValue = string | number | boolean | null | undefined;

/**
 * Text made safe to open in a spreadsheet: a leading formula trigger is escaped with `'`. The first
 * character is compared in its compatibility form (NFKC), so the full-width `＝＋－＠` and the small
 * `﹦﹢﹣﹫`, which some spreadsheets (Excel with East Asian input) read as their ASCII twins, are caught.
 */
export function neutraliseFormula(text: string): string {
  const first = text.codePointAt(0);
  if (first === undefined) return text;
  const leading = String.fromCodePoint(first).normalize('NFKC').charAt(0);
  return (FORMULA_TRIGGERS as readonly string[]).includes(leading) ? `'${text}` : text;
}

/**
 * One cell. Text is neutralised, then quoted when it holds a comma, a quote or a line break. A finite
 * number is written as JavaScript prints it (`-5`, `1.25`): a plain number is not a formula and
 * must stay a number for sorting and sums. Empty values are empty cells.
 *
 * The number is printed by `JSON.stringify`, which prints a finite number exactly as `String` does
 * (both are the language's Number::toString) but not through V8's number-to-string cache: that cache
 * kept each printed number alive long enough to be promoted to the old generation, and a report's
 * millions of numbers piled up there (see docs/decisions.md, reports on SQLite).
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const safe = neutraliseFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One line of cells, without its line end. */
export function csvLine(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(',');
}

/** A whole document: a header line, then one line per row, each ended with CRLF. */
export function toCsv(header: readonly string[], rows: Iterable<readonly CsvValue[]>): string {
  const lines = [csvLine(header)];
  for (const row of rows) lines.push(csvLine(row));
  return lines.join(CSV_LINE_END) + CSV_LINE_END;
}

/**
 * Reads a CSV document (RFC 4180): cells separated by commas, quoted cells may hold commas, quotes
 * (doubled) and line breaks; lines end with CRLF or LF; a leading byte-order mark is dropped. Each
 * record comes with the line it starts on (1-based), so a reader can name the line of a fault.
 * Records that are wholly empty (blank lines) are left out. An unclosed quote answers `unclosedAt`,
 * the line where the quoted cell began.
 */
export function parseCsv(text: string): { records: { line: number; cells: string[] }[]; unclosedAt: number | null } {
  const records: { line: number; cells: string[] }[] = [];
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let quoteLine = 0;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '') records.push({ line: recordLine, cells });
    cells = [];
    cell = '';
  };
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!;
    if (quoted) {
      if (char === '"') {
        if (source[index + 1] === '"') {
          cell += '"';
          index++;
        } else {
          quoted = false;
        }
      } else {
        if (char === '\n') line++;
        cell += char;
      }
      continue;
    }
    if (char === '"' && cell === '') {
      quoted = true;
      quoteLine = line;
    } else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\r' && source[index + 1] === '\n') {
      // The LF that follows ends the record.
    } else if (char === '\n') {
      endRecord();
      line++;
      recordLine = line;
    } else {
      cell += char;
    }
  }
  if (quoted) return { records, unclosedAt: quoteLine };
  endRecord();
  return { records, unclosedAt: null };
}
