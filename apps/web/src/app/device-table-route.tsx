import { DeviceTablePage } from '../features/device-table/components/device-table-page';
import { AddDevicesButtons } from '../features/devices/components/add-devices-buttons';
import type { DeviceTableData } from '../features/device-table/model/table-data';
import { OtaBulkAction } from '../features/ota/components/ota-bulk-action';
import type { FleetDevice } from '../features/ota/components/ota-submit-dialog';

/** The table's devices as the OTA dialog's version picker reads them. */
function fleetOf(data: DeviceTableData): FleetDevice[] {
  const { id, hw, fw } = data.text;
  return Array.from({ length: data.count }, (_, row) => ({
    id: id[row] ?? '',
    hw: hw[row] ?? null,
    fw: fw[row] ?? null,
  }));
}

/**
 * `/accounts/list`: the device table with the bulk actions of other features in its selection bar
 * (OTA updates, with the firmware versions the table knows) and adding devices in its toolbar. Composed here because features do not
 * import each other.
 */
export function DeviceTableRoute() {
  return (
    <DeviceTablePage
      bulkActions={(deviceIds, data) => <OtaBulkAction deviceIds={deviceIds} fleet={() => fleetOf(data)} />}
      toolbarActions={<AddDevicesButtons />}
    />
  );
}
