import type { Device } from '@fieldlink/api/device';
import {
  DEVICE_TABLE_FORMAT,
  DEVICE_TABLE_NUMBER_FIELDS,
  DEVICE_TABLE_TEXT_FIELDS,
  encodeTextColumn,
  type DeviceTableAnswer,
} from '@fieldlink/api/device-table';
import { countChannels } from '@fieldlink/domain/channels';
import { deviceTableRow } from '@fieldlink/domain/device-table-row';
import type { DemoDataset } from './demo-dataset';

/** The demo's devices in the device table's columnar answer (`GET /devices/table`). */
export function deviceTableAnswer(dataset: DemoDataset, devices: readonly Device[]): DeviceTableAnswer {
  const groups = [
    { id: dataset.rootId, name: dataset.fleet.accountName, kind: 'root' as const, path: dataset.rootPath },
    ...dataset.groups.map((group) => ({ id: group.id, name: group.name, kind: 'group' as const, path: group.path })),
  ];
  const rows = devices.map((device) =>
    deviceTableRow({
      ...device,
      otaUpdate: device.update ?? null,
      group: groups.findIndex((group) => group.id === device.groupId),
      channelCount: countChannels(device.channels.map((channel) => channel.code)),
      muted: device.muted === true,
      pendingMessages: 0,
      activeAlarms: null,
    }),
  );
  return {
    format: DEVICE_TABLE_FORMAT,
    generatedAt: Date.now(),
    count: devices.length,
    groups,
    text: Object.fromEntries(
      DEVICE_TABLE_TEXT_FIELDS.map((field) => [field, encodeTextColumn(rows.map((row) => row.text[field]))]),
    ) as DeviceTableAnswer['text'],
    numbers: Object.fromEntries(
      DEVICE_TABLE_NUMBER_FIELDS.map((field) => [field, rows.map((row) => row.numbers[field])]),
    ) as DeviceTableAnswer['numbers'],
  };
}
