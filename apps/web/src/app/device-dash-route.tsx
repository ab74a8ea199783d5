import { DeviceDashPage } from '../features/dash/components/device-dash-page';
import { DeviceInfoPanel } from '../features/devices/components/device-info-panel';

/**
 * `/dash/:thingName`: the device dash with the general-information panel and map of the devices
 * feature in it. Composed here because features do not import each other.
 */
export function DeviceDashRoute() {
  return <DeviceDashPage renderInfo={(device) => <DeviceInfoPanel deviceId={device.id} />} />;
}
