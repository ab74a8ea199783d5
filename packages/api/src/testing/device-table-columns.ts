import {
  DEVICE_TABLE_NUMBER_FIELDS,
  DEVICE_TABLE_TEXT_FIELDS,
  textColumnValues,
  type DeviceTableAnswer,
} from '../device-table';
import type { DeviceTableColumns } from '../device-table-binary';

/**
 * The columns of the JSON form of `GET /devices/table`, as the binary form decodes to: the tests'
 * way to prove both forms carry the same table. The console reads only the binary form.
 *
 * @internal Test support: knip checks in its full run that tests use it, not in `--production`.
 */
export function deviceTableColumnsOf(answer: DeviceTableAnswer): DeviceTableColumns {
  const text = {} as DeviceTableColumns['text'];
  for (const field of DEVICE_TABLE_TEXT_FIELDS) text[field] = textColumnValues(answer.text[field]);
  const numbers = {} as DeviceTableColumns['numbers'];
  for (const field of DEVICE_TABLE_NUMBER_FIELDS) {
    numbers[field] = Float64Array.from(answer.numbers[field], (value) => value ?? Number.NaN);
  }
  return { generatedAt: answer.generatedAt, count: answer.count, groups: answer.groups, text, numbers };
}
