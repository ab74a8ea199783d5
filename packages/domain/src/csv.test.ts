import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, FORMULA_TRIGGERS, neutraliseFormula, parseCsv, toCsv } from './csv';

/** A minimal RFC 4180 reader, to prove what the writer writes reads back. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += char;
  }
  return rows;
}

describe('neutraliseFormula', () => {
  it.each([
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+1+2', "'+1+2"],
    ['-2+3', "'-2+3"],
    ['@cmd', "'@cmd"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'],
    // Full-width and small forms, which spreadsheets may read as their ASCII twins (issue 34 item 11).
    ['＝1+1', "'＝1+1"],
    ['＝HYPERLINK("http://x","y")', '\'＝HYPERLINK("http://x","y")'],
    ['＋1', "'＋1"],
    ['－1', "'－1"],
    ['＠SUM(A1)', "'＠SUM(A1)"],
    ['﹦1', "'﹦1"],
    ['﹢1', "'﹢1"],
    ['﹫cmd', "'﹫cmd"],
    ['Ｐump ＝ house', 'Ｐump ＝ house'],
    ['😀=1', '😀=1'],
    ['Pump house', 'Pump house'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('%j -> %j', (input, expected) => expect(neutraliseFormula(input)).toBe(expected));
});

describe('csvCell', () => {
  it.each([
    [null, ''],
    [undefined, ''],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=1,2', '"\'=1,2"'],
    ['\r\n', '"\'\r\n"'],
    [-5, '-5'],
    [1.25, '1.25'],
    [-0, '0'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e21, '1e+21'],
    [1e-7, '1e-7'],
    [Number.NaN, ''],
    [Number.POSITIVE_INFINITY, ''],
    [true, 'true'],
    [false, 'false'],
  ])('%j -> %j', (input, expected) => expect(csvCell(input)).toBe(expected));

  it('writes every finite number as JavaScript prints it', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(csvCell(value)).toBe(String(value));
      }),
    );
  });

  it('never writes a text cell a spreadsheet would run', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', '=', '＝', '﹫', '＋', '-', ' ', ',', '"', '\r', '\t', '😀') }),
        (text) => {
          const [cell] = readCsv(`${csvCell(text)}\r\n`)[0] ?? [''];
          expect(FORMULA_TRIGGERS as readonly string[]).not.toContain(cell!.charAt(0).normalize('NFKC').charAt(0));
        },
      ),
    );
  });

  it('reads back as the text, with the apostrophe only where it neutralises', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (cells) => {
        const [row] = readCsv(`${csvLine(cells)}\r\n`);
        expect(row).toEqual(cells.map(neutraliseFormula));
      }),
    );
  });
});

describe('toCsv', () => {
  it('writes a header and rows, each line ended with CRLF', () => {
    expect(
      toCsv(
        ['Name', 'Signal'],
        [
          ['Pump', -71],
          ['=cmd', null],
        ],
      ),
    ).toBe("Name,Signal\r\nPump,-71\r\n'=cmd,\r\n");
  });
});

describe('parseCsv', () => {
  it.each([
    ['a plain line', 'a,b,c', [[1, ['a', 'b', 'c']]]],
    [
      'CRLF and LF line ends',
      'a,b\r\nc,d\ne,f\n',
      [
        [1, ['a', 'b']],
        [2, ['c', 'd']],
        [3, ['e', 'f']],
      ],
    ],
    ['a byte-order mark', '\uFEFFname\n', [[1, ['name']]]],
    [
      'quoted commas, quotes and line breaks',
      '"a,b","say ""hi""","x\ny"\nz',
      [
        [1, ['a,b', 'say "hi"', 'x\ny']],
        [3, ['z']],
      ],
    ],
    [
      'blank lines left out',
      'a\n\n\nb\n',
      [
        [1, ['a']],
        [4, ['b']],
      ],
    ],
    ['empty cells kept', ',,\n', [[1, ['', '', '']]]],
  ])('reads %s', (_name, text, records) => {
    expect(parseCsv(text)).toEqual({
      records: records.map(([line, cells]) => ({ line, cells })),
      unclosedAt: null,
    });
  });

  it('answers the line of a quoted cell never closed', () => {
    expect(parseCsv('a\nb,"c\nd').unclosedAt).toBe(2);
  });

  it('reads back every document toCsv writes (cells that need no neutralising)', () => {
    const text = fc.string().filter((cell) => !(FORMULA_TRIGGERS as readonly string[]).includes(cell.charAt(0)));
    fc.assert(
      fc.property(fc.array(fc.array(text, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const width = rows[0]!.length;
        const table = rows.map((row) => Array.from({ length: width }, (_, index) => row[index] ?? 'x'));
        const header = Array.from({ length: width }, (_, index) => `h${index}`);
        const read = parseCsv(toCsv(header, table)).records.map((record) => record.cells);
        // A row of one empty cell would be a blank line: none here, every row has two cells or more.
        expect(read).toEqual([header, ...table]);
      }),
    );
  });
});
