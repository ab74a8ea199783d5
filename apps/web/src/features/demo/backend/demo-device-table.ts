import type { Device } from '@fieldlink/api/device';
import { DeviceTableColumns, type DeviceTableAnswer } from '@fieldlink/api/device-table';
import { countChannels } from '@fieldlink/domain/channels';
import { deviceTableRow } from '@fieldlink/domain/device-table-row';
import type { DemoDataset } from './demo-dataset';

/** The demo's devices in the device table's columnar answer (`GET /devices/table`), as the server builds it. */
export function deviceTableAnswer(dataset: DemoDataset, devices: readonly Device[]): DeviceTableAnswer {
  // Every group of the account, New Devices and Trash too, as the server lists them.
  const groups = dataset.accountGroups.map(({ id, name, kind, path }) => ({ id, name, kind, path }));
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
