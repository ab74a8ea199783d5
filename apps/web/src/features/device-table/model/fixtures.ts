import {
  DEVICE_TABLE_NUMBER_FIELDS,
  DEVICE_TABLE_TEXT_FIELDS,
  encodeTextColumn,
  type DeviceTableAnswer,
  type DeviceTableGroup,
  type DeviceTableNumberField,
  type DeviceTableTextField,
} from '@fieldlink/api/device-table';
import {
  decodeDeviceTableBinary,
  encodeDeviceTableBinary,
  type DeviceTableColumns,
} from '@fieldlink/api/device-table-binary';

/** One device of a test table: any field left out is empty. */
export type FixtureDevice = Partial<Record<DeviceTableTextField, string | null>> &
  Partial<Record<DeviceTableNumberField, number | null>>;

export const FIXTURE_GROUPS: DeviceTableGroup[] = [
  { id: 'root', name: 'Acme', kind: 'root', path: './root' },
  { id: 'new', name: 'New Devices', kind: 'new', path: './root/new' },
  { id: 'cellar', name: 'Cellar', kind: 'group', path: './root/cellar' },
  { id: 'tanks', name: 'Tanks', kind: 'group', path: './root/cellar/tanks' },
];

/** `GET /devices/table` in its binary form as the server answers it, for component tests. */
export function fixtureTableBinary(
  devices: readonly FixtureDevice[],
  groups = FIXTURE_GROUPS,
): Uint8Array<ArrayBuffer> {
  const text = Object.fromEntries(
    DEVICE_TABLE_TEXT_FIELDS.map((field) => [
      field,
      encodeTextColumn(devices.map((device, row) => device[field] ?? (field === 'id' ? `id-${row}` : null))),
    ]),
  ) as DeviceTableAnswer['text'];
  const numbers = Object.fromEntries(
    DEVICE_TABLE_NUMBER_FIELDS.map((field) => [
      field,
      devices.map((device) => device[field] ?? (field === 'group' || field === 'isConnected' ? 0 : null)),
    ]),
  ) as DeviceTableAnswer['numbers'];
  const answer = { format: 1 as const, generatedAt: 1_700_000_000_000, count: devices.length, groups, text, numbers };
  return encodeDeviceTableBinary(answer);
}

/** A device table as the console receives it from the server (through the binary form), for model tests. */
export function fixtureColumns(devices: readonly FixtureDevice[], groups = FIXTURE_GROUPS): DeviceTableColumns {
  return decodeDeviceTableBinary(fixtureTableBinary(devices, groups));
}
