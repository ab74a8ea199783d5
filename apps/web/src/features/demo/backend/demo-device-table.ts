import type { Device } from '@fieldlink/api/device';
import { DeviceTableColumns, type DeviceTableAnswer } from '@fieldlink/api/device-table';
import { countChannels } from '@fieldlink/domain/channels';
import { deviceTableRow } from '@fieldlink/domain/device-table-row';
import type { DemoDataset } from './demo-dataset';

/** The demo's devices in the device table's columnar answer (`GET /devices/table`), as the server builds it. */
export function deviceTableAnswer(dataset: DemoDataset, devices: readonly Device[]): DeviceTableAnswer {
  const groups = [
    { id: dataset.rootId, name: dataset.fleet.accountName, kind: 'root' as const, path: dataset.rootPath },
    ...dataset.groups.map((group) => ({ id: group.id, name: group.name, kind: 'group' as const, path: group.path })),
  ];
  const columns = new DeviceTableColumns();
  for (const device of devices) {
    columns.add(
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
  }
  return columns.answer(groups, Date.now());
}
