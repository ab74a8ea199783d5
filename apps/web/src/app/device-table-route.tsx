import { DeviceTablePage } from '../features/device-table/components/device-table-page';
import { OtaBulkAction } from '../features/ota/components/ota-bulk-action';

/**
 * `/accounts/list`: the device table with the bulk actions of other features in its selection bar
 * (OTA updates). Composed here because features do not import each other.
 */
export function DeviceTableRoute() {
  return <DeviceTablePage bulkActions={(deviceIds) => <OtaBulkAction deviceIds={deviceIds} />} />;
}
