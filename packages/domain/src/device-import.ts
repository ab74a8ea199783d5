import { parseCsv } from './csv';

/**
 * Bulk import of devices from a CSV file (issue 35 item 6; docs/decisions.md): one device a row with
 * its name, serial, group path and optional tags. The file is read and each row checked here, the same
 * in the browser's preview and on the server, which then resolves the group paths and writes every row
 * or none.
 */

/** Most rows one import takes. */
export const DEVICE_IMPORT_MAX_ROWS = 5_000;
/** Most characters of one import file (about 200 bytes a row at the row limit). */
export const DEVICE_IMPORT_MAX_CHARS = 1_000_000;
/** Longest device name, as `POST /device` takes it. */
export const DEVICE_NAME_MAX_LENGTH = 100;
/** Longest serial number, as `POST /device` takes it. */
export const DEVICE_SERIAL_MAX_LENGTH = 64;
/** Longest tag key and value, as `PUT /device/tag` takes them. */
export const DEVICE_TAG_KEY_MAX_LENGTH = 64;
export const DEVICE_TAG_VALUE_MAX_LENGTH = 256;
/** Most tags on one device. */
export const DEVICE_MAX_TAGS = 50;

/** The columns of an import file, in order; `tags` may be left out. */
export const DEVICE_IMPORT_COLUMNS = ['name', 'serial', 'group path', 'tags'] as const;

/** An example file, as the import dialog offers it. */
export const DEVICE_IMPORT_EXAMPLE =
  'name,serial,group path,tags\r\nBoiler 3,SN-1003,Boiler Room,site=North; floor=2\r\nSpare pump,SN-2001,,\r\n';

/** Separator of group names in a group path. */
export const GROUP_PATH_SEPARATOR = '/';

/** One row of an import file as read, with what is wrong with it (nothing when it can be imported). */
export interface DeviceImportRow {
  /** The line of the file the row starts on (1 is the header). */
  line: number;
  name: string;
  /** The serial number, or null when the cell is empty. */
  sn: string | null;
  /** Group names from the account's root down, without the root; empty for the New Devices group. */
  groupPath: string[];
  tags: { key: string; value: string }[];
  errors: string[];
}

/** The rows of an import file, or why the file as a whole cannot be read. */
export type DeviceImportFile = { rows: DeviceImportRow[]; fileError: null } | { rows: []; fileError: string };

const HEADER_ALIASES: Readonly<Record<string, (typeof DEVICE_IMPORT_COLUMNS)[number]>> = {
  name: 'name',
  'device name': 'name',
  serial: 'serial',
  'serial number': 'serial',
  sn: 'serial',
  'group path': 'group path',
  group: 'group path',
  path: 'group path',
  tags: 'tags',
};

/** A group path as typed: names split at `/`, each trimmed, empty steps dropped. */
export function splitGroupPath(text: string): string[] {
  return text
    .split(GROUP_PATH_SEPARATOR)
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** Tags as typed in one cell: `key=value` pairs separated by `;`. */
function readTags(text: string, errors: string[]): { key: string; value: string }[] {
  const tags: { key: string; value: string }[] = [];
  for (const part of text.split(';')) {
    if (part.trim() === '') continue;
    const at = part.indexOf('=');
    const key = (at < 0 ? part : part.slice(0, at)).trim();
    const value = at < 0 ? '' : part.slice(at + 1).trim();
    if (at < 0 || key === '') {
      errors.push(`Tag “${part.trim()}” is not written key=value.`);
    } else if (key.length > DEVICE_TAG_KEY_MAX_LENGTH) {
      errors.push(`Tag key “${key.slice(0, 20)}…” is longer than ${DEVICE_TAG_KEY_MAX_LENGTH} characters.`);
    } else if (value.length > DEVICE_TAG_VALUE_MAX_LENGTH) {
      errors.push(`The value of tag “${key}” is longer than ${DEVICE_TAG_VALUE_MAX_LENGTH} characters.`);
    } else {
      tags.push({ key, value });
    }
  }
  if (tags.length > DEVICE_MAX_TAGS) errors.push(`A device has at most ${DEVICE_MAX_TAGS} tags.`);
  return tags;
}

/**
 * Reads an import file: a header naming the columns (name, serial, group path and optionally tags, in
 * any order; "serial number", "sn" and "group" are taken too), then a device a line. Each row carries
 * its own errors: a missing or over-long name, an over-long serial, a serial used twice in the file, a
 * badly written tag, a wrong number of cells. Whether the groups exist is the server's to say.
 */
export function readDeviceImport(text: string): DeviceImportFile {
  if (text.length > DEVICE_IMPORT_MAX_CHARS) {
    return {
      rows: [],
      fileError: `The file is larger than ${DEVICE_IMPORT_MAX_CHARS.toLocaleString('en-US')} characters.`,
    };
  }
  const { records, unclosedAt } = parseCsv(text);
  if (unclosedAt !== null) return { rows: [], fileError: `Line ${unclosedAt}: a quoted cell is never closed.` };
  const [header, ...body] = records;
  if (!header) return { rows: [], fileError: 'The file is empty.' };
  const columns = header.cells.map((cell) => HEADER_ALIASES[cell.trim().toLowerCase()]);
  const unknown = header.cells.filter((_, index) => columns[index] === undefined);
  const missing = DEVICE_IMPORT_COLUMNS.filter((column) => column !== 'tags' && !columns.includes(column));
  if (unknown.length > 0 || missing.length > 0 || new Set(columns).size !== columns.length) {
    return {
      rows: [],
      fileError: `The first line must name the columns: ${DEVICE_IMPORT_COLUMNS.join(', ')} (tags may be left out).`,
    };
  }
  if (body.length === 0) return { rows: [], fileError: 'The file has no devices.' };
  if (body.length > DEVICE_IMPORT_MAX_ROWS) {
    return {
      rows: [],
      fileError: `At most ${DEVICE_IMPORT_MAX_ROWS.toLocaleString('en-US')} devices per file; this one has ${body.length.toLocaleString('en-US')}.`,
    };
  }
  const at = (cells: string[], column: (typeof DEVICE_IMPORT_COLUMNS)[number]) => {
    const index = columns.indexOf(column);
    return index < 0 ? '' : (cells[index] ?? '');
  };
  const serialLines = new Map<string, number>();
  return {
    fileError: null,
    rows: body.map(({ line, cells }) => {
      const errors: string[] = [];
      if (cells.length !== columns.length) {
        errors.push(`Expected ${columns.length} cells, found ${cells.length}.`);
      }
      const name = at(cells, 'name').trim();
      if (name === '') errors.push('The name is missing.');
      else if (name.length > DEVICE_NAME_MAX_LENGTH) {
        errors.push(`The name is longer than ${DEVICE_NAME_MAX_LENGTH} characters.`);
      }
      const serial = at(cells, 'serial').trim();
      if (serial.length > DEVICE_SERIAL_MAX_LENGTH) {
        errors.push(`The serial is longer than ${DEVICE_SERIAL_MAX_LENGTH} characters.`);
      } else if (serial !== '') {
        const first = serialLines.get(serial.toLowerCase());
        if (first !== undefined) errors.push(`Serial ${serial} is also on line ${first}.`);
        else serialLines.set(serial.toLowerCase(), line);
      }
      const tags = readTags(at(cells, 'tags'), errors);
      return {
        line,
        name,
        sn: serial === '' ? null : serial,
        groupPath: splitGroupPath(at(cells, 'group path')),
        tags,
        errors,
      };
    }),
  };
}
