import {
  DEVICE_TABLE_NUMBER_FIELDS,
  DEVICE_TABLE_TEXT_FIELDS,
  textColumnValues,
  type DeviceTableAnswer,
  type DeviceTableGroup,
  type DeviceTableNumberField,
  type DeviceTableTextField,
} from '@fieldlink/api/device-table';

/**
 * The device table in the browser: the call's columns decoded once. Numbers live in Float64Arrays
 * with NaN for "no value": 100,000 rows of a number column take 800 KB and read without boxing.
 */
export interface DeviceTableData {
  count: number;
  generatedAt: number;
  groups: DeviceTableGroup[];
  /** Group path as the table shows it, per group index: names from the top of the caller's tree. */
  groupPathNames: string[];
  /** Per group index: true for a New Devices group. */
  groupIsNew: boolean[];
  text: Record<DeviceTableTextField, (string | null)[]>;
  numbers: Record<DeviceTableNumberField, Float64Array>;
  /**
   * Per row, how many live changes it has taken (`live-changes.ts`): a drawn row whose count moved
   * is drawn again, the others are not.
   */
  revision: Uint32Array;
}

/** Separator of group names in the group-path column. */
export const GROUP_PATH_SEPARATOR = ' / ';

/** Decodes the call's answer. */
export function decodeDeviceTable(answer: DeviceTableAnswer): DeviceTableData {
  const text = {} as DeviceTableData['text'];
  for (const field of DEVICE_TABLE_TEXT_FIELDS) text[field] = textColumnValues(answer.text[field]);
  const numbers = {} as DeviceTableData['numbers'];
  for (const field of DEVICE_TABLE_NUMBER_FIELDS) {
    const source = answer.numbers[field];
    const column = new Float64Array(answer.count);
    for (let row = 0; row < answer.count; row += 1) column[row] = source[row] ?? Number.NaN;
    numbers[field] = column;
  }
  const byId = new Map(answer.groups.map((group) => [group.id, group]));
  // Groups above the caller's attachment points are not in the answer, so a path starts at the
  // highest group the caller can see, the way the account tree shows it.
  const groupPathNames = answer.groups.map((group) =>
    group.path
      .slice(2)
      .split('/')
      .map((id) => byId.get(id)?.name)
      .filter((name): name is string => name !== undefined)
      .join(GROUP_PATH_SEPARATOR),
  );
  return {
    count: answer.count,
    generatedAt: answer.generatedAt,
    groups: answer.groups,
    groupPathNames,
    groupIsNew: answer.groups.map((group) => group.kind === 'new'),
    text,
    numbers,
    revision: new Uint32Array(answer.count),
  };
}
